"""Commands: the console script ``marriage-ledger`` (``init-db``, ``serve``), and
``flask --app ledger init-db`` for developers.

Both read the app's configuration (``ledger.settings``): ``LEDGER_DATABASE_URL``,
``LEDGER_SECRET_KEY``, ``LEDGER_PUBLIC_URL``, ``LEDGER_INSTANCE_PATH``, ...
"""

from __future__ import annotations

import logging

import click
from flask import Flask, current_app
from flask.cli import with_appcontext
from flask_migrate import upgrade
from sqlalchemy.engine import make_url

from ledger.extensions import db


def upgrade_database() -> str:
    """Bring the app's database to the latest migration (creates it; keeps its data);
    returns where it is, the password hidden."""
    upgrade()
    url = make_url(current_app.config["SQLALCHEMY_DATABASE_URI"])
    return url.render_as_string(hide_password=True)


@click.command("init-db")
@with_appcontext
def init_db_command() -> None:
    """Bring the database to the latest migration (creates it; keeps existing data)."""
    upgrade_database()
    click.echo("Initialised the database.")


@click.group()
def main() -> None:
    """The Marriage ledger: keeps score for the card game Marriage.

    Configuration comes from the environment: LEDGER_DATABASE_URL (default: SQLite in
    the instance folder), LEDGER_SECRET_KEY, LEDGER_PUBLIC_URL, LEDGER_INSTANCE_PATH,
    LEDGER_PROXY_COUNT. See docs/deployment.md.
    """


def _app() -> Flask:
    from ledger import create_app

    try:
        return create_app()
    except ValueError as problem:  # a setting that cannot work: say which
        raise click.ClickException(str(problem)) from problem


@main.command("init-db")
def init_db() -> None:
    """Create the database, or upgrade it to this version (its data is kept)."""
    app = _app()
    with app.app_context():
        where = upgrade_database()
        db.engine.dispose()
    click.echo(f"Initialised the database: {where}")


@main.command()
@click.option(
    "--host",
    envvar="LEDGER_HOST",
    help="Address to listen on. Default: this computer's LAN address and 127.0.0.1 (the "
    "table's phones and this computer); 127.0.0.1: this computer only (behind a proxy); "
    "0.0.0.0: every interface.",
)
@click.option(
    "--port",
    envvar="LEDGER_PORT",
    default=5000,
    show_default=True,
    type=click.IntRange(1, 65535),
    help="Port to listen on.",
)
@click.option(
    "--threads",
    envvar="LEDGER_THREADS",
    default=None,
    type=click.IntRange(1, 64),
    help="Worker threads (default 8).",
)
@click.option(
    "--quiet",
    is_flag=True,
    help="Log errors only, not every request: the address and QR code stay in view "
    "while phones poll (make run).",
)
def serve(host: str | None, port: int, threads: int | None, quiet: bool) -> None:
    """Serve the ledger with waitress; prints the address phones open and its QR code."""
    from ledger.serving import server
    from ledger.serving.address import plan_listening
    from ledger.serving.logs import configure_logging
    from ledger.serving.readiness import database_problem

    app = _app()
    configure_logging()  # before the app's first log: Flask then adds no handler of its own
    if quiet:
        logging.getLogger("ledger.requests").setLevel(logging.WARNING)
    with app.app_context():
        problem = database_problem()
    if problem:
        click.echo(f"Warning: {problem}.", err=True)
    plan = plan_listening(host, port, app.config["PUBLIC_URL"])
    server.serve(app, plan, threads or server.THREADS)
