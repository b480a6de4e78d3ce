"""Commands: the console script ``marriage-ledger`` (``init-db``, ``serve``, ``backup``,
``restore``, ``copy-db``), a Flask ``FlaskGroup``, so that its ``init-db`` is the app's own
(``flask --app ledger init-db``).

Both read the app's configuration (``ledger.settings``): ``LEDGER_DATABASE_URL``,
``LEDGER_SECRET_KEY``, ``LEDGER_PUBLIC_URL``, ``LEDGER_INSTANCE_PATH``, ...
"""

from __future__ import annotations

import logging
from pathlib import Path

import click
from flask import Flask, current_app
from flask.cli import FlaskGroup, with_appcontext
from sqlalchemy.engine import make_url
from sqlalchemy.exc import OperationalError

from ledger.extensions import db
from ledger.migrating import init_migrations


def database_shown() -> str:
    """Where the app's database is, the password hidden."""
    url = make_url(current_app.config["SQLALCHEMY_DATABASE_URI"])
    return url.render_as_string(hide_password=True)


def upgrade_database() -> str:
    """Bring the app's database to the latest migration (creates it; keeps its data);
    returns where it is, the password hidden."""
    init_migrations(current_app)
    from flask_migrate import upgrade  # imported by init_migrations

    where = database_shown()
    try:
        upgrade()
    except OperationalError as error:  # a wrong password, a server down: a sentence
        cause = str(getattr(error, "orig", None) or error).strip().splitlines()[0]
        raise click.ClickException(
            f"Cannot use the database at {where}: {cause}. Check LEDGER_DATABASE_URL, and"
            " that the database server runs."
        ) from error
    return where


def forget_kept_pdfs() -> None:
    """Empty the instance folder's kept PDFs. They are kept by each match's version, and
    a restored database (``restore``, or ``pg_restore`` then ``init-db``) takes versions
    back to numbers that the next writes give again to other hands: a kept PDF would
    print hands the database no longer holds."""
    from ledger.pdf.printer import printer

    printer().cache.clear()


@click.command("init-db")
@with_appcontext
def init_db_command() -> None:
    """Create the database, or upgrade it to this version (its data is kept); empty the
    kept PDFs (after a restore they may print what the database no longer holds)."""
    where = upgrade_database()
    db.engine.dispose()
    forget_kept_pdfs()
    click.echo(f"Initialised the database: {where}")


@click.command("copy-db")
@click.argument("source_url")
@with_appcontext
def copy_db_command(source_url: str) -> None:
    """Copy the whole ledger at SOURCE_URL (every table, match, hand, payment and own
    link) into this ledger's database, which must be empty: to move from SQLite to
    PostgreSQL (or back) with every link and key still working. Stop serving from
    SOURCE_URL first: what it stores after the copy is not copied. A copy that fails
    keeps nothing: put right what it says and run it again.

    SOURCE_URL is a database URL, such as sqlite:////srv/ledger/ledger.sqlite3 or
    postgresql+psycopg://user:password@host/dbname."""
    from ledger.copying import CopyError, copy_database
    from ledger.migrating import FOLDER

    where = database_shown()
    try:  # the target brought up to this version only once the source is found fit
        copied = copy_database(
            source_url, db.engine, current_app.extensions[FOLDER], upgrade_database
        )
    except CopyError as problem:
        raise click.ClickException(str(problem)) from problem
    finally:
        db.engine.dispose()
    forget_kept_pdfs()
    counts = ", ".join(f"{name} {count}" for name, count in copied.items())
    click.echo(f"Copied the ledger into {where} (rows: {counts}).")


def _app() -> Flask:
    from ledger import create_app

    try:
        return create_app()
    except ValueError as problem:  # a setting that cannot work: say which
        raise click.ClickException(str(problem)) from problem


class Commands(FlaskGroup):
    """Finds its own commands (``serve``...) before Flask's plugins' and the app's: loading
    the plugins reads every installed package's entry points and imports Flask-Limiter's
    command, which imports Rich, a tenth of a server's start. Theirs are still there."""

    def get_command(self, ctx: click.Context, cmd_name: str) -> click.Command | None:
        return self.commands.get(cmd_name) or super().get_command(ctx, cmd_name)


main = Commands(
    name="marriage-ledger",
    help="""The Marriage ledger: keeps score for the card game Marriage.

    Each command says what it does and its options: marriage-ledger COMMAND --help
    (first: init-db, then serve).

    Settings come from the environment, over the instance folder's config.py:
    LEDGER_INSTANCE_PATH (the instance folder: database, secret key, config.py; default
    <prefix>/var/ledger-instance for an installed package, instance/ in a checkout),
    LEDGER_DATABASE_URL (default: SQLite in the instance folder), LEDGER_SECRET_KEY
    (default: generated once into the instance folder), LEDGER_PUBLIC_URL (the address
    people open, for share links and QR codes), LEDGER_PROXY_COUNT (how many proxies in
    front set X-Forwarded-*; default 0), LEDGER_TIMEZONE (the table's clock, such as
    Asia/Kathmandu).

    Every setting, hosting and upgrading are in docs/deployment.md of the ledger's
    source repository (not part of an installed package).
    """,
    create_app=_app,
    add_default_commands=False,  # no development server, shell or routes
    add_version_option=False,
    load_dotenv=False,  # the settings come from LEDGER_* and instance/config.py only
)
# The app is ledger's and never in debug mode: no --app, --debug or --env-file.
main.params = [p for p in main.params if p.name not in ("app", "debug", "env_file")]


def _print_version(ctx: click.Context, _param: click.Parameter, value: bool) -> None:
    if not value or ctx.resilient_parsing:
        return
    from ledger.build_info import describe

    click.echo(f"marriage-ledger {describe()}")
    ctx.exit()


# Flask's --version names Flask's and Python's; a host upgrading wants the ledger's build.
main.params.append(
    click.Option(
        ["--version"],
        is_flag=True,
        expose_value=False,
        is_eager=True,
        callback=_print_version,
        help="Show the ledger's version and the commit it was built from, and exit.",
    )
)


@main.command(with_appcontext=False)
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
    from ledger.http.logs import configure_logging
    from ledger.http.readiness import database_problem, folder_problem
    from ledger.serving import server
    from ledger.serving.address import plan_listening

    app = _app()
    configure_logging()  # before the app's first log: Flask then adds no handler of its own
    if quiet:
        logging.getLogger("ledger.requests").setLevel(logging.WARNING)
    with app.app_context():
        problem = database_problem() or folder_problem()
    if problem:
        click.echo(f"Warning: {problem}.", err=True)
    plan = plan_listening(host, port, app.config["PUBLIC_URL"])
    server.serve(app, plan, threads or server.THREADS)


@main.command(with_appcontext=False)
@click.argument("file", type=click.Path(dir_okay=False, path_type=Path))
def backup(file: Path) -> None:
    """Copy the whole SQLite database to FILE, safely while the server runs and writes
    (SQLite's backup API). For PostgreSQL, it gives the pg_dump command."""
    from ledger.backup import BackupError
    from ledger.backup import backup as copy_database

    app = _app()
    try:
        pages = copy_database(app.config["SQLALCHEMY_DATABASE_URI"], file)
    except BackupError as problem:
        raise click.ClickException(str(problem)) from problem
    click.echo(f"Backed up the database to {file} ({pages} pages).")


@main.command(with_appcontext=False)
@click.argument("file", type=click.Path(exists=True, dir_okay=False, path_type=Path))
@click.option("--yes", is_flag=True, help="Do not ask before replacing the database.")
def restore(file: Path, yes: bool) -> None:
    """Replace the SQLite database with the backup in FILE (then upgrade it to this
    version). For PostgreSQL, it gives the pg_restore command."""
    from ledger.backup import BackupError, sqlite_file
    from ledger.backup import restore as put_back

    app = _app()
    try:
        sqlite_file(app.config["SQLALCHEMY_DATABASE_URI"])  # PostgreSQL: say so before asking
    except BackupError as problem:
        raise click.ClickException(str(problem)) from problem
    if not yes:
        click.confirm(f"Replace every match in the database with those in {file}?", abort=True)
    try:
        put_back(file, app.config["SQLALCHEMY_DATABASE_URI"])
    except BackupError as problem:
        raise click.ClickException(str(problem)) from problem
    with app.app_context():
        where = upgrade_database()
        db.engine.dispose()
        forget_kept_pdfs()
    click.echo(f"Restored {file} into {where}.")
