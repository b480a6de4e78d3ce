"""Flask commands: ``flask --app ledger init-db``."""

import click
from flask.cli import with_appcontext
from flask_migrate import upgrade


@click.command("init-db")
@with_appcontext
def init_db_command() -> None:
    """Bring the database to the latest migration (creates it; keeps existing data)."""
    upgrade()
    click.echo("Initialised the database.")
