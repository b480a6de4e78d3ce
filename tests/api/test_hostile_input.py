"""Hostile input to the API: refused with 4xx on its field, nothing stored, never a 5xx.

These run on whichever database the suite runs on; the cases that only PostgreSQL used
to fail on (a NUL in a name, hand 2147483648) are refused before any query, so they are
the same on SQLite."""

from __future__ import annotations

import csv
import io
import json

import pytest
from api_support import PLAYERS, bearer, hand
from row_counts import rows

from ledger.matches.models import Hand, Match

HOSTILE_NAMES = {
    "lone surrogate": "\ud800",
    "half of an emoji": "Asha\ud83d",
    "NUL": "As\x00ha",
    "control": "Asha\x1b[31m",
    "right-to-left override": "\u202eahsA",
    "isolate": "\u2067Asha",
    "zero-width space": "As\u200bha",
    "blank": " \u3164 ",
    "empty": "   ",
}
HUGE_NUMBERS = ["2147483648", "99999999999999999999", "9" * 5000]


def post_json(client, url: str, body: object, headers=None):
    """``body`` as JSON with its lone surrogates escaped (as any JSON encoder writes them)."""
    data = json.dumps(body)  # ensure_ascii: "\ud800" stays an escape
    return client.post(url, data=data, content_type="application/json", headers=headers)


def fields(response) -> list[str]:
    assert response.is_json, response.get_data(as_text=True)
    return [e["field"] for e in response.get_json()["errors"]]


@pytest.mark.parametrize("kind", HOSTILE_NAMES)
def test_a_hostile_match_or_player_name_is_refused_on_its_field(app, client, kind):
    bad = HOSTILE_NAMES[kind]
    good = {"name": "Tihar", "players": ["Asha", "Bikash"], "rules": "sparkai"}
    for body, field in (
        ({**good, "name": bad}, "name"),
        ({**good, "players": ["Asha", bad]}, "players.1"),
        ({**good, "players": [{"name": bad}, "Bikash"]}, "players.0"),
    ):
        response = post_json(client, "/api/v1/matches", body)
        assert response.status_code == 422, (kind, field)
        assert fields(response) == [field]
    assert rows(app, Match) == 0


@pytest.mark.parametrize("kind", HOSTILE_NAMES)
def test_an_import_with_a_hostile_name_stores_nothing(app, client, create_match, kind):
    m = create_match(players=["Asha", "Bikash", "Chandra"])
    m.post_hand(hand(players={"Asha": ("sequences", 3), "Bikash": ("unseen", 0)}))
    document = client.get(f"{m.url}/export.json").get_json()
    before = rows(app, Match)
    for path, field in ((("name",), "name"), (("players", 2), "players.2")):
        changed = json.loads(json.dumps(document))
        target = changed
        for step in path[:-1]:
            target = target[step]
        target[path[-1]] = HOSTILE_NAMES[kind]
        response = post_json(client, "/api/v1/matches/import", changed)
        assert response.status_code == 422, (kind, field)
        assert field in fields(response)
    assert rows(app, Match) == before


@pytest.mark.parametrize("kind", HOSTILE_NAMES)
def test_a_hand_or_settle_with_a_hostile_name_is_refused(app, client, create_match, kind):
    bad = HOSTILE_NAMES[kind]
    m = create_match()
    body = hand(players={"Asha": ("sequences", 3), "Bikash": ("unseen", 0)})
    body["players"][1]["name"] = bad
    response = post_json(client, f"{m.url}/hands", body, headers=bearer(m.key))
    assert response.status_code == 422
    assert fields(response) == ["players.1.name"]  # one sentence: what the name holds
    assert rows(app, Hand) == 0
    response = post_json(client, "/api/v1/settle", {"rules": "sparkai", **body})
    assert response.status_code == 422
    assert "players.1.name" in fields(response)
    winner = {**hand(players={"Asha": ("sequences", 3), "Bikash": ("unseen", 0)}), "winner": bad}
    response = post_json(client, f"{m.url}/hands", winner, headers=bearer(m.key))
    assert response.status_code == 422
    assert rows(app, Hand) == 0


def test_names_are_stored_composed(client, create_match):
    m = create_match(name="Cafe\u0301 night", players=["Jose\u0301", "Bikash"], first_dealer=None)
    assert m.body["name"] == "Caf\u00e9 night"
    assert [p["name"] for p in m.body["players"]] == ["Jos\u00e9", "Bikash"]
    # A hand may spell the player either way: it is the same registered player.
    body = hand(
        winner="Jos\u00e9", players={"Jose\u0301": ("sequences", 3), "Bikash": ("unseen", 0)}
    )
    response = m.post_hand(body)
    assert response.status_code == 201, response.get_json()
    assert response.get_json()["players"][0]["name"] == "Jos\u00e9"


@pytest.mark.parametrize("number", HUGE_NUMBERS)
def test_a_hand_number_past_the_largest_is_404_for_every_method(client, create_match, number):
    m = create_match()
    m.post_hand(hand())
    url = f"{m.url}/hands/{number}"
    for response in (
        client.get(url),
        client.put(url, json=hand(), headers=bearer(m.key)),
        client.delete(url, headers=bearer(m.key)),
    ):
        assert response.status_code == 404
        assert fields(response) == [""]
    assert m.get()["hands_played"] == 1


def test_the_largest_hand_number_is_an_ordinary_404(client, create_match):
    m = create_match()
    assert client.get(f"{m.url}/hands/2147483647").status_code == 404


@pytest.mark.parametrize("public_id", ["%00", "a%00b", "%F0%9F", "x" * 65, "a.b"])
def test_an_id_that_cannot_be_a_match_is_404(client, public_id):
    for url in (f"/api/v1/matches/{public_id}", f"/api/v1/matches/{public_id}/export.csv"):
        response = client.get(url)
        assert response.status_code == 404
        assert response.is_json


@pytest.mark.parametrize(
    ("where", "value", "field"),
    [
        ("number", 2**31, "hands.0.number"),
        ("number", 10**30, "hands.0.number"),
        ("number", 0, "hands.0.number"),
        ("version", 10**30, "hands.0.version"),
        ("last_hand_number", 10**30, "last_hand_number"),
        ("last_hand_number", -1, "last_hand_number"),
        ("created_at", "0001-01-01T00:00:00+05:00", "hands.0.created_at"),
        ("created_at", "9999-12-31T23:59:59-05:00", "hands.0.created_at"),
        ("created_at", "1969-12-31T23:59:59Z", "hands.0.created_at"),
    ],
)
def test_an_import_bounds_its_numbers_and_times(app, client, create_match, where, value, field):
    m = create_match()
    m.post_hand(hand())
    document = client.get(f"{m.url}/export.json").get_json()
    if where == "last_hand_number":
        document[where] = value
    else:
        document["hands"][0][where] = value
    before = rows(app, Match)
    response = post_json(client, "/api/v1/matches/import", document)
    assert response.status_code == 422
    assert fields(response) == [field]
    assert rows(app, Match) == before


def test_an_imported_time_is_kept_in_utc(client, create_match):
    m = create_match()
    m.post_hand(hand())
    document = client.get(f"{m.url}/export.json").get_json()
    document["hands"][0]["created_at"] = "2026-11-01T18:30:00+05:45"
    response = post_json(client, "/api/v1/matches/import", document)
    assert response.status_code == 201, response.get_json()
    assert response.get_json()["hands"][0]["created_at"] == "2026-11-01T12:45:00Z"


def test_a_rules_table_has_at_most_seven_entries(client):
    body = {"name": "T", "players": ["Asha", "Bikash"], "length": None}
    long = {"profile": "sparkai", "tiplu": [3] * 2000}
    response = client.post("/api/v1/matches", json={**body, "rules": long})
    assert response.status_code == 422
    assert fields(response) == ["rules.tiplu"]
    assert "1 to 7 whole numbers" in response.get_json()["errors"][0]["message"]
    seven = {"profile": "sparkai", "tunnela_ordinary": [5, 10, 15, 20, 25, 30, 35]}
    assert client.post("/api/v1/matches", json={**body, "rules": seven}).status_code == 201
    response = client.post("/api/v1/settle", json={"rules": long, **hand()})
    assert fields(response) == ["rules.tiplu"]


def test_the_size_limit_message_gives_the_limit_that_applied(client):
    big = b'{"name": "' + b"x" * (300 * 1024) + b'"}'
    response = client.post("/api/v1/matches", data=big, content_type="application/json")
    assert response.status_code == 413
    assert response.get_json()["errors"][0]["message"] == "The request is larger than 256 KiB"
    # The import takes up to 4 MiB: 300 KiB is read (and refused for what it holds).
    response = client.post("/api/v1/matches/import", data=big, content_type="application/json")
    assert response.status_code == 422
    huge = b"x" * (4 * 1024 * 1024 + 1)
    response = client.post("/api/v1/matches/import", data=huge, content_type="application/json")
    assert response.status_code == 413
    assert response.get_json()["errors"][0]["message"] == "The request is larger than 4 MiB"


def test_csv_escapes_fullwidth_formula_signs(client, create_match):
    players = ["\uff1dSUM(A1)", "\uff0b1", "\uff0d1", "\uff20x", *PLAYERS[:2]]
    m = create_match(players=players, first_dealer=players[0])
    header = next(csv.reader(io.StringIO(client.get(f"{m.url}/export.csv").get_data(as_text=True))))
    assert header[4:8] == ["'" + p for p in players[:4]]
    assert header[8:] == PLAYERS[:2]
