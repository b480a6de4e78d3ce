"""An import is checked whole (issue 25 §3): a history that collides with its hands, or
a format_version the ledger does not know, is a 422 on the field and stores nothing;
a history that fits leaves every imported hand editable."""

from __future__ import annotations

import pytest
from api_support import bearer, hand
from row_counts import rows
from test_match_export_api import played_match

from ledger.matches.models import HandVersion, Match


def entry(document: dict, number: int, action: str) -> dict:
    return next(
        old for old in document["history"] if old["hand"] == number and old["action"] == action
    )


def index(document: dict, number: int, action: str) -> int:
    return document["history"].index(entry(document, number, action))


def add_history(document: dict, number: int, version: int, action: str) -> None:
    old = dict(entry(document, 2, "edit"), hand=number, version=version, action=action)
    document["history"].append(old)


# played_match: hands 1, 2 (version 2: its version 1 in the history) and 4 (hand 3
# deleted at version 1).
CHANGES = {
    "an earlier version as new as the hand": (
        lambda d: entry(d, 2, "edit").update(version=2),
        lambda d: f"history.{index(d, 2, 'edit')}.version",
    ),
    "an earlier version newer than the hand": (
        lambda d: entry(d, 2, "edit").update(version=7),
        lambda d: f"history.{index(d, 2, 'edit')}.version",
    ),
    "a hand past the match's last": (
        lambda d: entry(d, 2, "edit").update(hand=9),
        lambda d: f"history.{index(d, 9, 'edit')}.hand",
    ),
    "a delete of a hand still there, as new as the hand": (
        lambda d: add_history(d, 1, 1, "delete"),
        lambda d: f"history.{len(d['history']) - 1}.version",
    ),
    "an edit after the hand's delete": (
        lambda d: add_history(d, 3, 2, "edit"),
        lambda d: f"history.{len(d['history']) - 1}.version",
    ),
    "format_version 99": (lambda d: d.update(format_version=99), lambda d: "format_version"),
    "format_version {}": (lambda d: d.update(format_version={}), lambda d: "format_version"),
    "format_version as text": (
        lambda d: d.update(format_version="1"),
        lambda d: "format_version",
    ),
}


def counts(app) -> tuple[int, int]:
    return rows(app, Match), rows(app, HandVersion)


@pytest.mark.parametrize("kind", CHANGES)
def test_an_import_that_does_not_fit_is_a_422_on_its_field(app, client, create_match, kind):
    change, field = CHANGES[kind]
    m = played_match(create_match)
    document = client.get(f"{m.url}/export.json").get_json()
    before = counts(app)
    change(document)
    response = client.post("/api/v1/matches/import", json=document)
    assert response.status_code == 422, response.get_json()
    assert [e["field"] for e in response.get_json()["errors"]] == [field(document)]
    assert counts(app) == before


def test_every_hand_of_an_import_stays_editable(client, create_match):
    m = played_match(create_match)
    document = client.get(f"{m.url}/export.json").get_json()
    response = client.post("/api/v1/matches/import", json=document)
    assert response.status_code == 201
    copy = response.get_json()
    url, key = f"/api/v1/matches/{copy['id']}", bearer(copy["edit_key"])
    for number in (1, 2, 4):
        edited = client.put(f"{url}/hands/{number}", json=hand("Bikash"), headers=key)
        assert edited.status_code == 200, (number, edited.get_json())
        assert client.delete(f"{url}/hands/{number}", headers=key).status_code == 200
    assert client.get(url).get_json()["hands"] == []
