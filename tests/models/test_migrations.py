"""The Alembic migrations build the schema the models describe, on an empty database."""

from alembic.autogenerate import compare_metadata
from alembic.migration import MigrationContext
from sqlalchemy import inspect

from ledger import create_app
from ledger.extensions import db

TABLES = {"matches", "match_players", "hands", "hand_versions"}


def _app(tmp_path, url):
    """An app on the empty database at ``url`` (SQLite, or PostgreSQL with --db)."""
    return create_app(
        {
            "TESTING": True,
            "INSTANCE_PATH": str(tmp_path / "instance"),
            "SQLALCHEMY_DATABASE_URI": url,
            "SECRET_KEY": "test",
        }
    )


def test_db_upgrade_creates_the_tables_and_matches_the_models(tmp_path, empty_database_url):
    app = _app(tmp_path, empty_database_url)
    result = app.test_cli_runner().invoke(args=["db", "upgrade"])
    assert result.exit_code == 0, result.output
    with app.app_context():
        try:
            assert TABLES <= set(inspect(db.engine).get_table_names())
            with db.engine.connect() as connection:
                context = MigrationContext.configure(connection, opts={"compare_type": True})
                assert compare_metadata(context, db.metadata) == []
        finally:
            db.engine.dispose()


def test_foreign_keys_cascade_from_the_match(tmp_path, empty_database_url):
    app = _app(tmp_path, empty_database_url)
    assert app.test_cli_runner().invoke(args=["db", "upgrade"]).exit_code == 0
    with app.app_context():
        try:
            foreign_keys = [
                fk
                for table in TABLES - {"matches"}
                for fk in inspect(db.engine).get_foreign_keys(table)
            ]
            assert len(foreign_keys) == 3
            for fk in foreign_keys:
                assert fk["referred_table"] == "matches"
                assert fk["options"].get("ondelete") == "CASCADE"
        finally:
            db.engine.dispose()


def test_db_downgrade_removes_the_tables(tmp_path, empty_database_url):
    app = _app(tmp_path, empty_database_url)
    runner = app.test_cli_runner()
    assert runner.invoke(args=["db", "upgrade"]).exit_code == 0
    assert runner.invoke(args=["db", "downgrade", "base"]).exit_code == 0
    with app.app_context():
        try:
            assert not TABLES & set(inspect(db.engine).get_table_names())
        finally:
            db.engine.dispose()
