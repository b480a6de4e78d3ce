"""The migrations (Alembic, through Flask-Migrate), set up on the app only where they run:
``init-db``, ``restore`` and the ``db`` commands. Importing Alembic is a sixth of a
server's start (it brings Mako, Pygments and every SQL dialect), and serving never runs a
migration: the readiness check reads the migrations' heads itself (``migration_heads``).
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import click
from flask import Flask
from flask.cli import ScriptInfo

from ledger.extensions import db


class MigrationCommands(click.Group):
    """``db``: stands in for Flask-Migrate's command group until one of its commands is
    run (or its help shown), which sets the migrations up and hands over to it."""

    def make_context(
        self,
        info_name: str | None,
        args: list[str],
        parent: click.Context | None = None,
        **extra: Any,
    ) -> click.Context:
        app = (parent or click.get_current_context()).ensure_object(ScriptInfo).load_app()
        init_migrations(app)  # puts Flask-Migrate's own group on app.cli in place of this
        return app.cli.commands["db"].make_context(info_name, args, parent=parent, **extra)


migration_commands = MigrationCommands("db", help="Perform database migrations.")


#: ``app.extensions``' key of the folder holding the migrations (``create_app`` sets it).
FOLDER = "ledger.migrations_folder"


def add_migrations(app: Flask, folder: str) -> None:
    """The migrations in ``folder`` are ``app``'s; its ``db`` commands set them up."""
    app.extensions[FOLDER] = folder
    app.cli.add_command(migration_commands)


def init_migrations(app: Flask) -> None:
    """Flask-Migrate on ``app`` (``app.extensions["migrate"]``, its ``db`` commands), once."""
    if "migrate" in app.extensions:
        return
    from flask_migrate import Migrate  # Alembic: only where migrations run (above)

    # batch mode: ALTER TABLE on SQLite
    Migrate(app, db, directory=app.extensions[FOLDER], render_as_batch=True)


def migration_heads(directory: str | Path) -> set[str]:
    """The latest revisions in the migration scripts of ``directory`` (its ``versions``):
    those no other script names as its ``down_revision``. What Alembic's
    ``ScriptDirectory.get_heads()`` answers (a test holds them equal), read from the
    scripts' text rather than by importing them and Alembic."""
    below: set[str] = set()
    for _, down in _scripts(directory):
        if isinstance(down, str):
            below.add(down)
        elif isinstance(down, tuple | list):  # a merge
            below.update(str(d) for d in down)
    return revisions(directory) - below


def revisions(directory: str | Path) -> set[str]:
    """Every revision of the migration scripts of ``directory``."""
    return {revision for revision, _ in _scripts(directory) if isinstance(revision, str)}


def _scripts(directory: str | Path) -> Iterator[tuple[object, object]]:
    """Each script's ``revision`` and ``down_revision``."""
    for script in Path(directory, "versions").glob("*.py"):
        names = _assigned(script, ("revision", "down_revision"))
        yield names.get("revision"), names.get("down_revision")


def _assigned(script: Path, names: tuple[str, ...]) -> dict[str, object]:
    """The literal values the script's top level assigns to ``names``."""
    found: dict[str, object] = {}
    for node in ast.parse(script.read_text(encoding="utf-8")).body:
        if isinstance(node, ast.Assign) and len(node.targets) == 1:
            target, value = node.targets[0], node.value
        elif isinstance(node, ast.AnnAssign) and node.value is not None:
            target, value = node.target, node.value
        else:
            continue
        if isinstance(target, ast.Name) and target.id in names:
            found[target.id] = ast.literal_eval(value)
    return found
