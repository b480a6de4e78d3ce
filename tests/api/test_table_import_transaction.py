"""A table's import is one transaction: the database failing partway through (here: as
the second match is placed in the table) answers 503 and leaves nothing behind, neither
the table nor its first match; the same document then imports whole."""

from __future__ import annotations

import pytest
from sqlalchemy import func, select
from sqlalchemy.exc import OperationalError
from tables_support import create_table

from ledger.extensions import db
from ledger.matches import membership
from ledger.matches.models import Hand, Match
from ledger.tables.models import Season, Table, TablePayment

HAND = {
    "finish": "sequences",
    "winner": "Asha",
    "players": [
        {"name": "Asha", "seen": "sequences", "maal": 3},
        {"name": "Bikash", "seen": "sequences", "maal": 1},
        {"name": "Chandra", "seen": "unseen", "maal": 0},
    ],
}


def counts(app) -> dict[str, int]:
    with app.app_context():
        return {
            model.__name__: db.session.scalar(select(func.count()).select_from(model))
            for model in (Table, Season, TablePayment, Match, Hand)
        }


@pytest.fixture
def exported(client) -> dict:
    table = create_table(client, stake={"per_point": "1.00", "currency": "NPR"})
    for _ in range(2):
        table.play(table.new_match(["Asha", "Bikash", "Chandra"]), [HAND])
    table.post("/seasons", {"name": "Tihar"})
    table.post("/payments", {"from": "Bikash", "to": "Asha", "amount": "2.00"})
    return client.get(f"{table.url}/export.json").get_json()


def test_a_failure_midway_through_a_table_import_stores_nothing(app, client, exported, monkeypatch):
    before = counts(app)
    placed = []
    place = membership.place_match

    def fail_the_second(match, table_id, season_id):
        placed.append(match)
        if len(placed) == 2:
            raise OperationalError("UPDATE matches", {}, Exception("server closed the connection"))
        return place(match, table_id, season_id)

    monkeypatch.setattr(membership, "place_match", fail_the_second)
    response = client.post("/api/v1/tables/import", json=exported)
    assert response.status_code == 503, response.get_json()
    assert response.headers["Retry-After"]
    assert len(placed) == 2  # the first match was imported and placed before the fault
    assert counts(app) == before

    monkeypatch.setattr(membership, "place_match", place)
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
