"""The API's sentences that count hands read right for one hand as for more: "ended
after its 1 hand", "its 1 hand is played", "(1 hand played)", never "1 hands"."""

from __future__ import annotations

import pytest
from api_support import bearer, hand
from tables_support import create_table

FOUR = ["Asha", "Bikash", "Chandra", "Dipa"]


def _refused_hand(client, public_id: str, key: str) -> str:
    refused = client.post(f"/api/v1/matches/{public_id}/hands", json=hand(), headers=bearer(key))
    assert refused.status_code == 409, refused.get_json()
    [error] = refused.get_json()["errors"]
    return error["message"]


@pytest.mark.parametrize(("hands", "words"), [(1, "its 1 hand."), (2, "its 2 hands.")])
def test_a_night_ended_after_its_hands_says_how_many(client, hands, words):
    table = create_table(client)
    made = table.new_match(FOUR)
    for _ in range(hands):
        added = client.post(f"/api/v1/matches/{made['id']}/hands", json=hand(), headers=table.auth)
        assert added.status_code == 201
    ended = client.patch(
        f"/api/v1/matches/{made['id']}", json={"finished": True}, headers=table.auth
    )
    assert ended.status_code == 200
    message = _refused_hand(client, made["id"], table.key)
    assert message == (
        f"This match was ended after {words} It takes more hands only once that end is "
        "taken back (play on)."
    )


def test_a_match_of_one_hand_is_over_after_its_1_hand(client):
    made = client.post(
        "/api/v1/matches",
        json={"name": "One", "players": FOUR, "rules": "sparkai", "length": {"hands": 1}},
    ).get_json()
    url, auth = f"/api/v1/matches/{made['id']}", bearer(made["edit_key"])
    assert client.post(f"{url}/hands", json=hand(), headers=auth).status_code == 201
    assert _refused_hand(client, made["id"], made["edit_key"]) == (
        "This match is over: its 1 hand is played. It takes more hands only once its "
        "length is changed."
    )
    reopened = client.patch(url, json={"finished": False}, headers=auth)
    assert reopened.status_code == 409, reopened.get_json()
    assert reopened.get_json()["errors"][0]["message"].startswith(
        "This match is over because its length is reached (1 hand played)"
    )
