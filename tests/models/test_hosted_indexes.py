"""The indexes a hosted ledger reads its tables through exist after ``db upgrade``
(SQLite, and PostgreSQL with --db=postgresql), with their columns in order: a table's
and a season's matches by date, matches by creation date, a table's seasons, a
season's payments (docs/performance.md, "A thousand tables")."""

import pytest
from sqlalchemy import inspect

from ledger.extensions import db

EXPECTED = {
    ("matches", "ix_matches_table_id_created_at"): ["table_id", "created_at", "id"],
    ("matches", "ix_matches_season_id_created_at"): ["season_id", "created_at", "id"],
    ("matches", "ix_matches_created_at"): ["created_at"],
    ("seasons", "ix_seasons_table_id"): ["table_id"],
    ("table_payments", "ix_table_payments_season_id_at"): ["season_id", "at", "id"],
}


@pytest.fixture
def upgraded(unmigrated_app):
    app = unmigrated_app
    result = app.test_cli_runner().invoke(args=["db", "upgrade"])
    assert result.exit_code == 0, result.output
    with app.app_context():
        yield inspect(db.engine)
        db.engine.dispose()


@pytest.mark.parametrize(("table", "name"), list(EXPECTED))
def test_the_hosted_ledgers_indexes_exist(upgraded, table, name):
    found = {index["name"]: index["column_names"] for index in upgraded.get_indexes(table)}
    assert found.get(name) == EXPECTED[table, name]
