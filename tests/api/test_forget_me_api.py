"""Forget me (docs/api.md): the player's name becomes "Former player N" everywhere in
the table, kept nowhere in the live database (hands' history and stored idempotent
answers included) nor in the kept pages; every total is unchanged; their link and
handles are gone."""

from __future__ import annotations

import json
import threading

import pytest
from api_support import bearer, hand
from people_support import answer, give_link, me, pay, staked_table
from sqlalchemy import select

from ledger.extensions import db
from ledger.tables import service
from ledger.tables.models import TablePlayer

OLD = "Chandra"


def _everything(app) -> str:
    """Every row of every table of the live database, as text."""
    with app.app_context():
        rows = []
        for table in db.metadata.sorted_tables:
            for row in db.session.execute(db.select(table)).all():
                rows.append(json.dumps([str(v) for v in row], ensure_ascii=False))
        return "\n".join(rows)


def _night(table, key_header=None):
    match = table.new_match(["Asha", "Bikash", OLD, "Dipa"])
    seats = {"Asha": ("sequences", 10), "Bikash": ("sequences", 5), OLD: ("sequences", 7)}
    first = hand(players={**seats, "Dipa": ("unseen", 8)})
    response = table.client.post(
        f"/api/v1/matches/{match['id']}/hands",
        json=first,
        headers={**table.auth, "Idempotency-Key": "night-1-hand-1"},
    )
    assert response.status_code == 201
    # An edit (history), then a rename (a rename record), then a hand dealt by them.
    edited = hand(players={**seats, "Dipa": ("unseen", 3)})
    put = table.client.put(
        f"/api/v1/matches/{match['id']}/hands/1", json=edited, headers=table.auth
    )
    assert put.status_code == 200, put.get_json()
    return match


@pytest.fixture
def table(client):
    return staked_table(client)


def test_forget_me_leaves_no_trace_of_the_name_and_no_total_changes(app, client, table):
    match = _night(table)
    table.patch(f"/players/{OLD}", {"name": "Chandra K"})
    table.patch("/players/Chandra K", {"name": OLD})  # rename records of both spellings
    key = give_link(table, OLD)
    client.put(
        "/api/v1/me/handles",
        json={"handles": [{"kind": "esewa", "handle": "98410"}]},
        headers=bearer(key),
    )
    asha = give_link(table, "Asha")
    paid = pay(table, key, OLD, "Asha", "3.00")
    answer(table, asha, paid["id"], "confirm")
    client.delete(f"{table.url}/payments/{paid['id']}", headers=table.auth)  # kept record
    pay(table, table.key, "Dipa", OLD, "2.00")
    before_match = client.get(f"/api/v1/matches/{match['id']}").get_json()
    before_money = table.get("/settle-up")
    before_standings = table.get("/standings")
    client.get(f"/matches/{match['id']}")  # a kept page
    assert OLD in _everything(app)

    response = client.delete("/api/v1/me", headers=bearer(key))
    assert response.status_code == 204
    new = "Former player 1"
    after_match = client.get(f"/api/v1/matches/{match['id']}").get_json()
    totals = {p["name"]: p["total"] for p in after_match["players"]}
    assert totals == {
        (new if p["name"] == OLD else p["name"]): p["total"] for p in before_match["players"]
    }
    money = table.get("/settle-up")
    assert [b["amount"] for b in money["balances"]] == [
        b["amount"] for b in before_money["balances"]
    ]
    assert [p["total"] for p in table.get("/standings")["players"]] == [
        p["total"] for p in before_standings["players"]
    ]
    assert new in [p["name"] for p in table.get()["players"]]
    assert OLD not in _everything(app) and "Chandra K" not in _everything(app)
    assert "98410" not in _everything(app)
    assert OLD not in client.get(f"/matches/{match['id']}").get_data(as_text=True)
    me(client, key, 401)
    # The idempotent answer kept for the first hand is renamed too.
    again = client.post(
        f"/api/v1/matches/{match['id']}/hands",
        json=hand(
            players={
                "Asha": ("sequences", 10),
                "Bikash": ("sequences", 5),
                OLD: ("sequences", 7),
                "Dipa": ("unseen", 8),
            }
        ),
        headers={**table.auth, "Idempotency-Key": "night-1-hand-1"},
    )
    assert OLD not in again.get_data(as_text=True)
    # A second player forgotten is number 2.
    dipa = give_link(table, "Dipa")
    assert client.delete("/api/v1/me", headers=bearer(dipa)).status_code == 204
    assert "Former player 2" in [p["name"] for p in table.get()["players"]]


@pytest.mark.parametrize("kind", ["none", "wrong", "table", "match"])
def test_forget_me_needs_the_players_own_key(client, table, kind):
    match = table.new_match(["Asha", "Bikash", OLD, "Dipa"])
    keys = {"none": None, "wrong": "z" * 32, "table": table.key, "match": match["edit_key"]}
    headers = bearer(keys[kind]) if keys[kind] else {}
    assert client.delete("/api/v1/me", headers=headers).status_code == 401
    assert OLD in [p["name"] for p in table.get()["players"]]


def test_a_former_player_gets_no_new_link(client, table):
    key = give_link(table, OLD)
    client.delete("/api/v1/me", headers=bearer(key))
    response = client.post(f"{table.url}/players/Former player 1/link", headers=table.auth)
    assert response.status_code == 422


@pytest.mark.parametrize("act", ["link", "handles"])
def test_a_player_who_leaves_while_the_table_key_acts_on_them_gets_nothing(
    app, client, table, monkeypatch, act
):
    """Chandra forgets himself on his phone while the scorekeeper gives him a new link
    (or takes his handles down): checked once the table is held, the scorekeeper's
    request finds no Chandra (404), and the former player holds no link (it was given to
    him: found before, the player was written to after he left)."""
    key = give_link(table, OLD)
    other = app.test_client()
    hold = service._touch
    left = []

    def forget() -> None:
        left.append(other.delete("/api/v1/me", headers=bearer(key)).status_code)

    def forgotten_meanwhile(held):
        if threading.current_thread() is threading.main_thread() and not left:
            leaving = threading.Thread(target=forget)  # another phone: a request of its own
            leaving.start()
            leaving.join()
        return hold(held)

    monkeypatch.setattr(service, "_touch", forgotten_meanwhile)
    if act == "link":
        acted = client.post(f"{table.url}/players/{OLD}/link", headers=table.auth)
    else:
        acted = client.delete(f"{table.url}/players/{OLD}/handles", headers=table.auth)
    monkeypatch.undo()
    assert left == [204]
    assert acted.status_code == 404, acted.get_json()
    assert acted.get_json()["errors"][0]["message"] == f"This table has no player called {OLD}."
    with app.app_context():
        former = db.session.scalars(
            select(TablePlayer).where(TablePlayer.name == "Former player 1")
        ).one()
        assert former.person_key_hash is None


def _left(client, table) -> str:
    """Chandra played a night and then forgot himself: his name at the table now."""
    _night(table)
    client.delete("/api/v1/me", headers=bearer(give_link(table, OLD)))
    return "Former player 1"


def test_a_player_who_left_plays_no_new_night(client, table):
    former = _left(client, table)
    refused = table.post("/matches", {"name": "Next", "players": ["Asha", former]}, status=422)
    assert refused["errors"] == [
        {"field": "players.1", "message": f"{former} has left the table: they play no more nights."}
    ]
    lower = table.post("/matches", {"name": "Next", "players": [former.lower(), "Asha"]}, 422)
    assert [e["field"] for e in lower["errors"]] == ["players.0"]


@pytest.mark.parametrize(
    ("player", "change", "field"),
    [
        ("former", {"name": OLD}, "name"),  # the name they asked to have forgotten, back
        ("former", {"merge_into": "Asha"}, "merge_into"),  # their nights made Asha's
        ("Esha", {"merge_into": "former"}, "merge_into"),  # Esha's nights made theirs
    ],
)
def test_a_player_who_left_is_neither_renamed_nor_merged(client, table, player, change, field):
    former = _left(client, table)
    player = former if player == "former" else player
    change = {k: former if v == "former" else v for k, v in change.items()}
    refused = table.patch(f"/players/{player}", change, status=422)
    assert refused["errors"] == [
        {
            "field": field,
            "message": f"{former} has left the table: their name stays as it is, and their "
            "nights stay theirs.",
        }
    ]
    assert former in [p["name"] for p in table.get()["players"]]


def test_nobody_takes_a_former_players_name_by_hand(client, table):
    """ "Former player N" is the name the table gives one who left: a roster entry given
    it by hand (a new table, a name added, a rename) would be taken for one who left,
    never to play or be renamed again."""
    message = "“Former player 3” is how the table names a player who left: choose another name."
    made = client.post("/api/v1/tables", json={"name": "T", "players": ["Asha", "Former player 3"]})
    assert made.status_code == 422
    assert made.get_json()["errors"] == [{"field": "players.1", "message": message}]
    added = table.patch("", {"players": ["Former player 3"]}, status=422)
    assert added["errors"] == [{"field": "players.0", "message": message}]
    renamed = table.patch("/players/Esha", {"name": "former player 3"}, status=422)
    assert renamed["errors"][0]["field"] == "name"
    assert "Esha" in [p["name"] for p in table.get()["players"]]
