"""``DELETE /api/v1/matches/<id>``: a match started by mistake, with no hand in it, is
deleted; a match with a hand is kept."""

from __future__ import annotations

from api_hands import add, table_night, won_by
from api_support import bearer

PLAYERS = ["Asha", "Bikash", "Chandra", "Dipa"]


def _match(client) -> tuple[str, dict]:
    made = client.post(
        "/api/v1/matches", json={"name": "Oops", "players": PLAYERS, "rules": "sparkai"}
    )
    body = made.get_json()
    return body["id"], bearer(body["edit_key"])


def test_a_match_with_no_hand_is_deleted_and_its_links_stop(client):
    public_id, auth = _match(client)
    assert client.delete(f"/api/v1/matches/{public_id}", headers=auth).status_code == 204
    assert client.get(f"/api/v1/matches/{public_id}").status_code == 404
    assert client.get(f"/matches/{public_id}").status_code == 404
    assert client.delete(f"/api/v1/matches/{public_id}", headers=auth).status_code == 404


def test_a_match_with_a_hand_is_kept(client):
    public_id, auth = _match(client)
    add(client, public_id, auth, won_by("Asha", PLAYERS))
    refused = client.delete(f"/api/v1/matches/{public_id}", headers=auth)
    assert refused.status_code == 409
    assert refused.get_json()["errors"] == [
        {
            "field": "",
            "message": "This match has 1 hand in it, so it is kept: only a match with no "
            "hand can be deleted.",
        }
    ]
    assert client.get(f"/api/v1/matches/{public_id}").get_json()["hands_played"] == 1


def test_a_match_whose_hands_were_all_deleted_goes_with_their_records(client):
    public_id, auth = _match(client)
    for winner in ("Asha", "Bikash"):
        add(client, public_id, auth, won_by(winner, PLAYERS))
    for number in (2, 1):
        gone = client.delete(f"/api/v1/matches/{public_id}/hands/{number}", headers=auth)
        assert gone.status_code == 200, gone.get_json()
    assert client.delete(f"/api/v1/matches/{public_id}", headers=auth).status_code == 204
    assert client.get(f"/api/v1/matches/{public_id}/hands/1").status_code == 404


def test_only_an_edit_key_deletes(client):
    public_id, auth = _match(client)
    other_id, other = _match(client)
    assert client.delete(f"/api/v1/matches/{public_id}").status_code == 401
    assert client.delete(f"/api/v1/matches/{public_id}", headers=other).status_code == 403
    assert client.get(f"/api/v1/matches/{public_id}").status_code == 200
    assert client.get(f"/api/v1/matches/{other_id}").status_code == 200


def test_a_night_started_by_mistake_leaves_its_table(client):
    table, auth, mistaken = table_night(client, PLAYERS)
    kept = client.post(
        f"/api/v1/tables/{table}/matches", json={"name": "Night", "players": PLAYERS}, headers=auth
    ).get_json()["id"]
    add(client, kept, auth, won_by("Dipa", PLAYERS))
    # The table's key deletes a match of the table; the table keeps its other nights.
    assert client.delete(f"/api/v1/matches/{mistaken}", headers=auth).status_code == 204
    listed = client.get(f"/api/v1/tables/{table}").get_json()["matches"]
    assert [m["id"] for m in listed] == [kept]
    standings = client.get(f"/api/v1/tables/{table}/standings").get_json()
    assert {line["name"]: line["matches"] for line in standings["players"]} == dict.fromkeys(
        PLAYERS, 1
    )
