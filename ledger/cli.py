"""Flask commands: ``flask --app ledger init-db``."""

import click
from flask import Flask
from flask.cli import with_appcontext

from ledger.extensions import db


@click.command("init-db")
@with_appcontext
def init_db_command() -> None:
    """Create the database tables that do not exist yet (keeps existing data)."""
    db.create_all()
    click.echo("Initialised the database.")


def init_cli(app: Flask) -> None:
    app.cli.add_command(init_db_command)
