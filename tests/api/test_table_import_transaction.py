"""A table's import is one transaction: the database failing partway through (here: as
the hands are written, after the table, its seasons, payments and matches) answers 503
and leaves nothing behind; the same document then imports whole."""

from __future__ import annotations

import pytest
from api_support import THREE_PLAYER_HAND
from row_counts import rows
from sql_counting import counting_queries
from sqlalchemy import event
from sqlalchemy.exc import OperationalError
from tables_support import create_table

from ledger.extensions import db
from ledger.matches.models import Hand, Match
from ledger.tables.models import Season, Table, TablePayment


def counts(app) -> dict[str, int]:
    return {
        model.__name__: rows(app, model) for model in (Table, Season, TablePayment, Match, Hand)
    }


@pytest.fixture
def exported(client) -> dict:
    table = create_table(client, stake={"per_point": "1.00", "currency": "NPR"})
    for _ in range(2):
        table.play(table.new_match(["Asha", "Bikash", "Chandra"]), [THREE_PLAYER_HAND])
    table.post("/seasons", {"name": "Tihar"})
    table.post("/payments", {"from": "Bikash", "to": "Asha", "amount": "2.00"})
    return client.get(f"{table.url}/export.json").get_json()


def test_a_failure_midway_through_a_table_import_stores_nothing(app, client, exported):
    before = counts(app)
    written: list[str] = []

    def fail_at_the_hands(connection, cursor, statement, parameters, context, many):
        if statement.startswith("INSERT INTO"):
            written.append(statement.split()[2].strip('"'))
            if written[-1] == "hands":
                raise OperationalError(statement, {}, Exception("server closed the connection"))

    with app.app_context():
        engine = db.engine
    event.listen(engine, "before_cursor_execute", fail_at_the_hands)
    try:
        response = client.post("/api/v1/tables/import", json=exported)
    finally:
        event.remove(engine, "before_cursor_execute", fail_at_the_hands)
    assert response.status_code == 503, response.get_json()
    assert response.headers["Retry-After"]
    # the table, its seasons, its payment and its matches were written before the fault
    assert {"tables", "seasons", "table_payments", "matches"} <= set(written)
    assert counts(app) == before

    response = client.post("/api/v1/tables/import", json=exported)
    assert response.status_code == 201, response.get_json()
    after = counts(app)
    assert after == {
        "Table": before["Table"] + 1,
        "Season": before["Season"] + 2,
        "TablePayment": before["TablePayment"] + 1,
        "Match": before["Match"] + 2,
        "Hand": before["Hand"] + 2,
    }


def test_a_table_import_writes_in_as_many_statements_for_40_matches_as_for_2(app, client, exported):
    """Everything is read and settled before the transaction, which only writes, in
    batches: it holds the database's write lock (SQLite's, the whole file's) for a
    moment, whatever the number of matches (issue 35)."""

    def writes(document: dict) -> list[str]:
        with counting_queries(app) as statements:
            response = client.post("/api/v1/tables/import", json=document)
        assert response.status_code == 201, response.get_json()
        return [s.split("(")[0].strip() for s in statements if s.startswith(("INSERT", "UPDATE"))]

    small = writes(exported)
    assert writes(dict(exported, matches=exported["matches"] * 20)) == small
