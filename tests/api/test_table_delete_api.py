"""``DELETE /api/v1/tables/<id>``: a table made by mistake, with no match and no
payment in it, is deleted; one with either is kept."""

from __future__ import annotations

from api_hands import table_night

PLAYERS = ["Asha", "Bikash", "Chandra", "Dipa"]
KEPT = (
    "This table has a match or a payment in it, so it is kept: only a table with neither "
    "can be deleted."
)


def _table(client, **extra) -> tuple[str, dict]:
    made = client.post(
        "/api/v1/tables", json={"name": "Oops", "players": PLAYERS, "rules": "sparkai", **extra}
    ).get_json()
    return f"/api/v1/tables/{made['id']}", {"Authorization": f"Bearer {made['edit_key']}"}


def test_an_empty_table_is_deleted_with_its_roster_seasons_and_links(client):
    url, auth = _table(client)
    assert client.post(f"{url}/seasons", json={"name": "Tihar"}, headers=auth).status_code == 201
    link = client.post(f"{url}/players/Asha/link", headers=auth).get_json()["person_key"]
    assert client.delete(url, headers=auth).status_code == 204
    assert client.get(url).status_code == 404
    assert client.get("/api/v1/me", headers={"Authorization": f"Bearer {link}"}).status_code == 401
    assert client.delete(url, headers=auth).status_code == 404


def test_a_table_with_a_match_or_a_payment_is_kept(client):
    table, auth, _ = table_night(client, PLAYERS)
    refused = client.delete(f"/api/v1/tables/{table}", headers=auth)
    assert refused.status_code == 409
    assert refused.get_json()["errors"][0]["message"] == KEPT
    url, auth = _table(client, stake={"per_point": "1.00", "currency": "NPR"})
    paid = client.post(
        f"{url}/payments", json={"from": "Asha", "to": "Bikash", "amount": "5.00"}, headers=auth
    )
    assert paid.status_code == 201, paid.get_json()
    assert client.delete(url, headers=auth).status_code == 409
    assert client.get(url).status_code == 200


def test_only_the_table_key_deletes(client):
    url, auth = _table(client)
    other_url, other = _table(client)
    assert client.delete(url).status_code == 401
    assert client.delete(url, headers=other).status_code == 403
    assert client.get(url).status_code == 200 and client.get(other_url).status_code == 200
