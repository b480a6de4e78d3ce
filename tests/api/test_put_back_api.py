"""A deleted hand put back (``POST /api/v1/matches/<id>/hands/<n>/restore``): the match is
as if it had never been deleted (its totals, each hand's carried penalties, the next
dealer), its history keeps the delete, and an export of it imports back whole."""

from __future__ import annotations

import pytest
from api_support import hand
from tables_support import create_table

FOULS = {"profile": "sparkai", "foul": "next_hand"}


def restore(m, number: int, key: str | None = "own"):
    return m.client.post(f"{m.url}/hands/{number}/restore", headers=m._auth(key))


def fouled(winner: str, foul: str) -> dict:
    data = hand(winner)
    for player in data["players"]:
        player["foul"] = player["name"] == foul and foul != winner
    return data


def the_match(m) -> dict:
    """What a put-back must give back: the totals, the standings, who deals and sits out
    next, the fouls waiting, and each hand's number, dealer, nets and carried penalties."""
    match = m.get()
    hands = [
        (h["number"], h["dealer"], {p["name"]: p["net"] for p in h["players"]})
        for h in match["hands"]
    ]
    penalties = [(h["number"], h["carried_penalties"]) for h in match["hands"]]
    kept = ("players", "standings", "next_dealer", "next_sitting_out", "fouls_pending")
    return {"hands": hands, "penalties": penalties, **{k: match[k] for k in kept}}


@pytest.mark.parametrize("number", [1, 2, 4])
def test_a_hand_put_back_leaves_the_match_as_if_never_deleted(create_match, number):
    m = create_match(rules=FOULS)
    for winner, foul in [("Asha", "Chandra"), ("Bikash", "Dipa"), ("Chandra", "Asha")]:
        assert m.post_hand(fouled(winner, foul)).status_code == 201
    assert m.post_hand(hand("Bikash")).status_code == 201
    before = the_match(m)
    assert any(carried for _, carried in before["penalties"])  # the fold is at stake
    assert m.delete_hand(number).status_code == 200
    assert the_match(m) != before

    answer = restore(m, number)
    assert answer.status_code == 200, answer.get_json()
    body = answer.get_json()
    assert body["number"] == number and body["version"] == 2
    assert the_match(m) == before
    history = m.client.get(f"{m.url}/hands/{number}").get_json()["history"]
    assert [(h["version"], h["action"]) for h in history] == [(1, "delete")]
    assert m.post_hand(hand()).get_json()["number"] == 5  # numbers are still never reused


def test_a_hand_put_back_twice_after_two_deletes(create_match):
    m = create_match()
    m.post_hand(hand())
    m.post_hand(hand("Bikash"))
    before = the_match(m)
    for _ in range(2):
        assert m.delete_hand(1).status_code == 200
        assert restore(m, 1).status_code == 200
    assert the_match(m) == before
    history = m.client.get(f"{m.url}/hands/1").get_json()["history"]
    assert [(h["version"], h["action"]) for h in history] == [(1, "delete"), (2, "delete")]


def test_only_a_deleted_hand_is_put_back(create_match):
    m = create_match()
    m.post_hand(hand())
    there = restore(m, 1)
    assert there.status_code == 409
    assert "nothing to put back" in there.get_json()["errors"][0]["message"]
    assert restore(m, 7).status_code == 404  # never a hand
    assert m.get()["version"] == 2  # nothing written


def test_a_match_that_is_over_takes_no_hand_back(create_match):
    m = create_match(length={"hands": 2})
    m.post_hand(hand())
    m.post_hand(hand("Bikash"))
    m.delete_hand(1)
    m.post_hand(hand("Chandra"))  # the length is reached again
    answer = restore(m, 1)
    assert answer.status_code == 409
    assert "over" in answer.get_json()["errors"][0]["message"]
    assert [h["number"] for h in m.get()["hands"]] == [2, 3]


@pytest.mark.parametrize(("key", "status"), [(None, 401), ("not-the-key", 403)])
def test_putting_back_needs_the_matchs_key(create_match, key, status):
    m = create_match()
    m.post_hand(hand())
    m.delete_hand(1)
    assert restore(m, 1, key).status_code == status
    assert m.get()["hands"] == []


def test_a_match_with_a_hand_put_back_exports_and_imports_whole(client, create_match):
    m = create_match()
    m.post_hand(hand())
    m.post_hand(hand("Bikash"))
    m.put_hand(1, hand("Chandra"))
    m.delete_hand(1)
    restore(m, 1)
    document = client.get(f"{m.url}/export.json").get_json()
    imported = client.post("/api/v1/matches/import", json=document)
    assert imported.status_code == 201, imported.get_json()
    again = client.get(f"/api/v1/matches/{imported.get_json()['id']}/hands/1").get_json()
    assert again["version"] == 3
    assert [(h["version"], h["action"]) for h in again["history"]] == [
        (1, "edit"),
        (2, "delete"),
    ]
    assert imported.get_json()["players"] == m.get()["players"]


@pytest.mark.parametrize("number", [1, 3])
def test_a_tables_figures_follow_a_hand_put_back(client, number):
    """The table's standings, stats and head-to-head (kept from one version of a match to
    the next) come back to what they were, read after the delete and after the put-back."""
    table = create_table(client)
    match = table.new_match(["Asha", "Bikash", "Chandra", "Dipa"])
    table.play(match, [hand(), hand("Bikash"), hand("Chandra")])
    before = table.get("/standings"), table.get("/stats")
    url = f"/api/v1/matches/{match['id']}/hands/{number}"
    assert client.delete(url, headers=table.auth).status_code == 200
    assert (table.get("/standings"), table.get("/stats")) != before
    assert client.post(f"{url}/restore", headers=table.auth).status_code == 200
    assert (table.get("/standings"), table.get("/stats")) == before
