"""``GET /readyz``: may this process be sent requests? It touches the database.

``/healthz`` stays what it was: the process answers (liveness, and the benchmarks'
trivial route). ``/readyz`` answers 200 only when the database can be reached, its
schema is the latest migration (``marriage-ledger init-db`` has run), and it accepts
writes: it updates the migration's own row to the same value and rolls back, so a
read-only or missing database, or one left behind by an upgrade, answers 503 with a
line saying which; so does a full disk where the app writes, and for a while a request
that met a full disk (a 503 of ``ledger.http.errors``), and an instance folder this
process's user may not write in (installed and initialised as root, served as another
user: every PDF and every import would fail on its lock file). A request that could not reach
the database is not remembered: the check above reaches it or not, so once the database
is back (PostgreSQL restarted) the process is ready at once. The details go to the log,
not to the client.
"""

from __future__ import annotations

import logging
import os
import pwd
import shutil
import time
from collections.abc import Iterator
from pathlib import Path

from flask import Blueprint, Flask, current_app
from flask.typing import ResponseReturnValue
from sqlalchemy import column, inspect, select, table, update
from sqlalchemy.exc import SQLAlchemyError

from ledger.extensions import db
from ledger.http.errors import last_failure
from ledger.http.no_store import NO_STORE
from ledger.migrating import FOLDER, migration_heads

bp = Blueprint("serving", __name__)
log = logging.getLogger(__name__)
HEADS = "ledger.migration_heads"
#: Alembic's own table: the revision the database is at.
VERSIONS = table("alembic_version", column("version_num"))
TEXT = {"Content-Type": "text/plain; charset=utf-8", **NO_STORE}


#: For so many seconds after a request met a full disk
#: (``ledger.http.errors.handle_unavailable``), /readyz says so: a full disk lets the
#: no-op write below pass.
RECENT_FAILURE_SECONDS = 30
#: Less free space than this where the app writes (the SQLite file's folder, the
#: instance folder: the PDF cache) is a full disk.
MIN_FREE_BYTES = 1024 * 1024


@bp.get("/readyz")
def readyz() -> ResponseReturnValue:
    problem = database_problem() or disk_problem() or folder_problem()
    if problem:
        return f"not ready: {problem}\n", 503, TEXT
    return "ready\n", 200, TEXT


def expected_heads(app: Flask) -> set[str]:
    """The latest revisions of the migrations that came with this code (read once)."""
    heads = app.extensions.get(HEADS)
    if heads is None:
        heads = app.extensions[HEADS] = migration_heads(app.extensions[FOLDER])
    return heads


def database_problem() -> str | None:
    """What keeps the database from serving this code, in a few words; None when ready."""
    expected = expected_heads(current_app)
    try:
        with db.engine.connect() as connection:
            try:
                current: set[str] = set()
                if inspect(connection).has_table(VERSIONS.name):
                    current = set(connection.scalars(select(VERSIONS.c.version_num)))
                if not current:
                    return "the database has no tables yet: run `marriage-ledger init-db`"
                if current != expected:
                    return (
                        f"the database is at migration {', '.join(sorted(current))}, this "
                        f"code needs {', '.join(sorted(expected))}: run `marriage-ledger init-db`"
                    )
                # a write that changes nothing, undone: fails on a read-only database
                connection.execute(update(VERSIONS).values(version_num=VERSIONS.c.version_num))
            finally:
                connection.rollback()
    except SQLAlchemyError as error:
        log.warning("readiness: the database failed: %s", error)
        cause = getattr(error, "orig", None) or error
        return f"the database cannot be used ({type(cause).__name__})"
    return None


def disk_problem() -> str | None:
    """A full disk where the app writes, or a request's recent failure (its reason)."""
    for folder in _written_folders():
        try:
            free = shutil.disk_usage(folder).free
        except OSError:
            continue  # a folder not made yet: the writes will say
        if free < MIN_FREE_BYTES:
            return f"the disk holding {folder} is full ({free} bytes free)"
    failed = last_failure(current_app)
    if failed is not None and failed[1] == "full":
        ago = time.monotonic() - failed[0]
        if ago < RECENT_FAILURE_SECONDS:
            return f"a request failed {ago:.0f} s ago: the disk is full"
    return None


def _written_folders() -> list[str]:
    folders = [current_app.instance_path]
    url = db.engine.url
    if url.get_backend_name() == "sqlite" and url.database not in (None, "", ":memory:"):
        folders.append(os.path.dirname(os.path.abspath(url.database)))
    return folders


def folder_problem() -> str | None:
    """The first folder or slot lock of the instance folder this process's user may not
    write (the PDFs' and imports' lock files are opened for writing), or None."""
    instance = Path(current_app.instance_path)
    for path in _written_paths(instance):
        if not os.access(path, os.W_OK):
            user = _user()
            return (
                f"this user ({user}) cannot write {path}: give the instance folder to the"
                f" user that serves (chown -R {user} {instance})"
            )
    return None


def _written_paths(instance: Path) -> Iterator[Path]:
    if not instance.is_dir():
        return  # made when first needed
    yield instance
    for folder in sorted(p for p in instance.iterdir() if p.is_dir()):
        yield folder
        yield from sorted(folder.glob("slot-*.lock"))


def _user() -> str:
    try:
        return pwd.getpwuid(os.geteuid()).pw_name
    except KeyError:
        return str(os.geteuid())
