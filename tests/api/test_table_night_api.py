"""A table's night through the API (issue 38): a match made in a table with no length
runs until the table ends it; "End the night" (``{"finished": true}``) and its undo,
kept with their time; a match outside a table keeps the profile's length."""

from api_support import bearer, hand
from tables_support import create_table

FOUR = ["Asha", "Bikash", "Chandra", "Dipa"]


def _match(client, public_id: str) -> dict:
    response = client.get(f"/api/v1/matches/{public_id}")
    assert response.status_code == 200
    return response.get_json()


def _patch(client, table, public_id: str, body: object):
    return client.patch(f"/api/v1/matches/{public_id}", json=body, headers=table.auth)


def _add(client, table, public_id: str):
    return client.post(f"/api/v1/matches/{public_id}/hands", json=hand(), headers=table.auth)


def test_a_table_match_with_no_length_is_open_past_the_profile_s_length(client):
    table = create_table(client, rules="amarnepal")
    made = table.new_match(FOUR)
    assert made["length"] is None and made["hands_in_length"] is None
    for _ in range(6):  # amarnepal's usual length is 4 hands: the night goes past it
        assert _add(client, table, made["id"]).status_code == 201
    body = _match(client, made["id"])
    assert body["hands_played"] == 6 and body["finished"] is False
    assert body["ended_at"] is None


def test_a_length_given_in_a_table_is_kept_and_outside_a_table_the_profile_s_stays(client):
    table = create_table(client, rules="amarnepal")
    assert table.new_match(FOUR, length={"hands": 2})["length"] == {"hands": 2}
    lone = client.post(
        "/api/v1/matches", json={"name": "Lone", "players": FOUR, "rules": "amarnepal"}
    ).get_json()
    assert lone["length"] == {"hands": 4} and lone["hands_in_length"] == 4


def test_end_the_night_then_take_it_back(client):
    table = create_table(client)
    made = table.new_match(FOUR)
    for _ in range(3):
        _add(client, table, made["id"])
    ended = _patch(client, table, made["id"], {"finished": True})
    assert ended.status_code == 200, ended.get_json()
    body = ended.get_json()
    assert body["finished"] is True and body["ended_at"] is not None
    assert body["length"] is None and body["hands_played"] == 3
    refused = _add(client, table, made["id"])
    assert refused.status_code == 409
    assert _match(client, made["id"])["hands_played"] == 3
    # Ending again changes nothing, and keeps the first moment.
    again = _patch(client, table, made["id"], {"finished": True}).get_json()
    assert again["ended_at"] == body["ended_at"]
    standings = table.get("/standings")
    assert {line["name"]: line["matches_won"] for line in standings["players"]}["Asha"] == 1

    reopened = _patch(client, table, made["id"], {"finished": False})
    assert reopened.status_code == 200
    body = reopened.get_json()
    assert body["finished"] is False and body["ended_at"] is None
    assert body["reopened_at"] is not None
    assert _add(client, table, made["id"]).status_code == 201
    assert _match(client, made["id"])["hands_played"] == 4
    standings = table.get("/standings")
    assert {line["name"]: line["matches_won"] for line in standings["players"]}["Asha"] == 0


def test_end_the_night_needs_a_hand_and_the_key(client):
    table = create_table(client)
    made = table.new_match(FOUR)
    assert _patch(client, table, made["id"], {"finished": True}).status_code == 409
    _add(client, table, made["id"])
    anonymous = client.patch(f"/api/v1/matches/{made['id']}", json={"finished": True})
    assert anonymous.status_code == 401
    wrong = client.patch(
        f"/api/v1/matches/{made['id']}", json={"finished": True}, headers=bearer("nope")
    )
    assert wrong.status_code == 403
    bad = _patch(client, table, made["id"], {"finished": "yes"})
    assert bad.status_code == 422
    assert bad.get_json()["errors"][0]["field"] == "finished"
    assert _match(client, made["id"])["finished"] is False


def test_a_match_whose_length_is_reached_cannot_be_reopened(client):
    table = create_table(client)
    made = table.new_match(FOUR, length={"hands": 2})
    for _ in range(2):
        _add(client, table, made["id"])
    assert _match(client, made["id"])["finished"] is True
    refused = _patch(client, table, made["id"], {"finished": False})
    assert refused.status_code == 409
    assert "length" in refused.get_json()["errors"][0]["message"]
    # Ending it (whatever its length) is allowed and kept; reopening still needs a length.
    assert _patch(client, table, made["id"], {"finished": True}).status_code == 200
    assert _patch(client, table, made["id"], {"finished": False}).status_code == 409
    longer = _patch(client, table, made["id"], {"length": {"hands": 5}, "finished": False})
    assert longer.status_code == 200, longer.get_json()
    assert longer.get_json()["finished"] is False
    assert _add(client, table, made["id"]).status_code == 201


def test_a_match_ended_before_its_length_ends_there(client):
    table = create_table(client)
    made = table.new_match(FOUR, length={"hands": 8})
    _add(client, table, made["id"])
    body = _patch(client, table, made["id"], {"finished": True}).get_json()
    assert body["finished"] is True and body["hands_in_length"] == 8
    assert _add(client, table, made["id"]).status_code == 409


def test_an_ended_night_stays_ended_through_its_export(client):
    table = create_table(client)
    made = table.new_match(FOUR)
    _add(client, table, made["id"])
    ended = _patch(client, table, made["id"], {"finished": True}).get_json()
    document = client.get(f"/api/v1/matches/{made['id']}/export.json").get_json()
    assert document["ended_at"] == ended["ended_at"]
    copy = client.post("/api/v1/matches/import", json=document).get_json()
    assert copy["finished"] is True and copy["ended_at"] == ended["ended_at"]


SIX = ["Asha", "Bikash", "Chandra", "Dipa", "Esha", "Gopal"]


def _hand_without(out: list[str], winner: str | None = None) -> dict:
    playing = [n for n in SIX if n not in out]
    return {
        "finish": "sequences",
        "winner": winner or playing[0],
        "players": [{"name": n, "seen": "sequences", "maal": i} for i, n in enumerate(playing)],
    }


def test_sitting_out_in_turn_over_12_hands_of_6_on_three_packs(client):
    table = create_table(client, players=SIX)
    made = table.new_match(SIX, first_dealer="Chandra")
    counts = dict.fromkeys(SIX, 0)
    dealers = []
    for _ in range(12):
        body = _match(client, made["id"])
        out = body["next_sitting_out"]
        assert out == [body["next_dealer"]]  # the dealer sits out: one of 6 on 5 seats
        dealers.append(body["next_dealer"])
        for name in out:
            counts[name] += 1
        response = client.post(
            f"/api/v1/matches/{made['id']}/hands", json=_hand_without(out), headers=table.auth
        )
        assert response.status_code == 201, response.get_json()
        assert response.get_json()["sitting_out"] == out
    assert counts == dict.fromkeys(SIX, 2)
    assert dealers[:6] == ["Chandra", "Dipa", "Esha", "Gopal", "Asha", "Bikash"]
    _patch(client, table, made["id"], {"finished": True})
    assert _match(client, made["id"])["next_sitting_out"] == []


def test_next_sitting_out_is_a_default_only_and_empty_when_all_fit(client):
    table = create_table(client, players=SIX)
    made = table.new_match(SIX, first_dealer="Asha")
    assert _match(client, made["id"])["next_sitting_out"] == ["Asha"]
    other = _hand_without(["Esha"])  # another player sits out: stored as sent
    stored = client.post(f"/api/v1/matches/{made['id']}/hands", json=other, headers=table.auth)
    assert stored.get_json()["sitting_out"] == ["Esha"]
    assert _match(client, made["id"])["next_sitting_out"] == ["Bikash"]
    four = table.new_match(FOUR)
    assert _match(client, four["id"])["next_sitting_out"] == []
    four_packs = table.new_match(SIX, rules={"profile": "sparkai", "packs": 4})
    assert _match(client, four_packs["id"])["next_sitting_out"] == []


def test_eight_on_three_packs_sit_out_the_dealer_and_the_two_after(client):
    eight = [*SIX, "Hari", "Indra"]
    table = create_table(client, players=eight)
    made = table.new_match(eight, first_dealer="Gopal")
    assert _match(client, made["id"])["next_sitting_out"] == ["Gopal", "Hari", "Indra"]
    right = table.new_match(
        eight, first_dealer="Asha", rules={"profile": "sparkai", "deal_passes": "right"}
    )
    assert _match(client, right["id"])["next_sitting_out"] == ["Asha", "Indra", "Hari"]
