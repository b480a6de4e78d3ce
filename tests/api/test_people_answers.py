"""A player's figures and the people's answers, built by the app, keep to the components
the document derives from their declarations (``ledger.tables.people_answers``), with
every key filled in, those the answer may leave out too (a handle's label), and a key
taken out of an answer is caught: the derived schemas say what is required."""

from __future__ import annotations

import jsonschema
from api_support import bearer, hand
from people_support import give_link, me, pay, staked_table
from test_document_both_ways import schema_of

NAMES = ["Asha", "Bikash", "Chandra", "Dipa"]
ESEWA = {"kind": "esewa", "handle": "9841000000", "label": "Personal"}


def errors(name: str, body: object) -> list[str]:
    validator = jsonschema.Draft202012Validator(schema_of(name))
    return [f"{list(e.absolute_path)}: {e.message}" for e in validator.iter_errors(body)]


def test_me_with_every_key_keeps_to_its_component(client):
    """Dipa owes from the season before and from this one, has paid once, set a
    handle with its label, and played a night in each season."""
    table = staked_table(client)
    table.play(table.new_match(NAMES, length={"hands": 1}), [hand(winner="Asha")])
    table.post("/seasons", {"name": "Dashain"})
    table.play(table.new_match(NAMES), [hand(winner="Asha"), hand(winner="Chandra")])
    key = give_link(table, "Dipa")
    kept = client.put("/api/v1/me/handles", json={"handles": [ESEWA]}, headers=bearer(key))
    assert kept.status_code == 200 and not errors("Handles", kept.get_json())
    owed = next(t for t in me(client, key)["transfers"] if t["from"] == "Dipa")
    pay(table, key, "Dipa", owed["to"], "1.00")

    mine = me(client, key)
    assert not errors("Me", mine)
    assert mine["handles"] == [ESEWA]  # the label, which a handle may leave out
    assert mine["earlier"] and mine["earlier"][0]["transfers"]
    assert mine["transfers"][0]["points"] and mine["transfers"][0]["amount"]
    assert mine["payments"] and mine["nights"] and mine["currency"] == "NPR"
    for key_left_out in ("currency", "payments", "nights"):
        short = {k: v for k, v in mine.items() if k != key_left_out}
        assert errors("Me", short) == [f"[]: '{key_left_out}' is a required property"]


def test_a_new_link_and_a_qr_keep_to_their_components(client):
    table = staked_table(client)
    link = client.post(f"{table.url}/players/Asha/link", headers=table.auth)
    assert link.status_code == 201 and not errors("PersonLink", link.get_json())
    assert errors("PersonLink", {"url": "x"}) == ["[]: 'person_key' is a required property"]
    assert errors("Qr", {"qr": "x" * 513})  # longer than a kept QR code's text


def test_the_figures_with_every_key_keep_to_their_component(client):
    """A finished night and an open one with a guest: best and worst hand and night,
    places, form and awards are all filled in."""
    table = staked_table(client)
    first = table.new_match(NAMES, length={"hands": 2})
    table.play(first, [hand(winner="Asha"), hand(winner="Bikash")])
    players = {"Asha": ("sequences", 3), "Ram": ("dublees", 2), "Dipa": ("unseen", 0)}
    second = table.new_match(list(players), guests=["Ram"])
    table.play(second, [hand(winner="Ram", players=players, finish="dublees")])

    stats = table.get("/stats")
    assert not errors("Stats", stats)
    asha = next(row for row in stats["players"] if row["name"] == "Asha")
    assert asha["best_hand"] and asha["best_night"] and asha["places"] and asha["form"]
    assert {row["name"]: row["guest"] for row in stats["players"]}["Ram"] is True
    assert {a["award"] for a in stats["awards"]} >= {"hands_won", "dublee_finishes"}
    tonight = client.get(f"/api/v1/matches/{second['id']}/stats").get_json()
    assert not errors("Stats", tonight)
    row = {k: v for k, v in asha.items() if k != "matches"}
    assert errors("PlayerFigures", row) == ["[]: 'matches' is a required property"]


def test_the_handles_a_player_sends_are_bounded_as_the_reader_bounds_them(client):
    """The body of PUT /api/v1/me/handles is the declared Handle, closed: what the
    reader refuses on its field (but for the characters it finds unprintable, which no
    schema says) the document refuses too, and what it keeps the document takes."""
    table = staked_table(client)
    key = give_link(table, "Asha")
    refused = [
        [{"kind": "paypal", "handle": "x"}],
        [{"kind": "esewa", "handle": ""}],
        [{"kind": "esewa", "handle": "x" * 65}],
        [{"kind": "esewa", "handle": "1", "label": "y" * 41}],
        [{"kind": "esewa", "handle": "1", "colour": "red"}],
        [{"handle": "1"}],
        [ESEWA] * 6,
        "9841",
        ["9841"],
    ]
    for handles in refused:
        body = {"handles": handles}
        assert errors("Handles", body), handles
        sent = client.put("/api/v1/me/handles", json=body, headers=bearer(key))
        assert sent.status_code == 422, handles
    assert errors("Handles", {"handles": [ESEWA], "colour": "red"})
    for handles in ([ESEWA] * 5, [{"kind": "bank", "handle": "0123"}], []):
        assert not errors("Handles", {"handles": handles})
        sent = client.put("/api/v1/me/handles", json={"handles": handles}, headers=bearer(key))
        assert sent.status_code == 200, handles
