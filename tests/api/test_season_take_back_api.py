"""``DELETE /api/v1/tables/<id>/seasons/<season_id>``: the current season taken back
while nothing is in it; the season before is current again."""

from __future__ import annotations

from api_hands import add, won_by

PLAYERS = ["Asha", "Bikash", "Chandra", "Dipa"]


def _table(client) -> tuple[str, dict]:
    made = client.post(
        "/api/v1/tables",
        json={
            "name": "Friday",
            "players": PLAYERS,
            "rules": "sparkai",
            "stake": {"per_point": "1.00", "currency": "NPR"},
        },
    ).get_json()
    return f"/api/v1/tables/{made['id']}", {"Authorization": f"Bearer {made['edit_key']}"}


def _season(client, url: str, auth: dict, name: str) -> dict:
    made = client.post(f"{url}/seasons", json={"name": name}, headers=auth)
    assert made.status_code == 201, made.get_json()
    return made.get_json()


def _night(client, url: str, auth: dict) -> str:
    made = client.post(f"{url}/matches", json={"name": "Night", "players": PLAYERS}, headers=auth)
    assert made.status_code == 201, made.get_json()
    return made.get_json()["id"]


def test_an_empty_season_is_taken_back_and_the_one_before_takes_the_next_night(client):
    url, auth = _table(client)
    first = client.get(url).get_json()["seasons"][0]
    mistaken = _season(client, url, auth, "Dashain 2083")
    answer = client.delete(f"{url}/seasons/{mistaken['id']}", headers=auth)
    assert answer.status_code == 200, answer.get_json()
    assert answer.get_json() == {**first, "current": True}
    assert [s["id"] for s in client.get(url).get_json()["seasons"]] == [first["id"]]
    night = _night(client, url, auth)
    listed = client.get(url).get_json()["matches"]
    assert [(m["id"], m["season"]) for m in listed] == [(night, first["id"])]


def test_a_season_with_a_night_or_a_payment_is_kept(client):
    url, auth = _table(client)
    _season(client, url, auth, "Tihar 2083")
    season = _season(client, url, auth, "Dashain 2083")
    night = _night(client, url, auth)
    add(client, night, auth, won_by("Asha", PLAYERS))
    kept = client.delete(f"{url}/seasons/{season['id']}", headers=auth)
    assert kept.status_code == 409
    assert kept.get_json()["errors"][0]["message"] == (
        "This season has a match or a payment in it, so it is kept."
    )
    paid_season = _season(client, url, auth, "Holi 2083")
    paid = client.post(
        f"{url}/payments", json={"from": "Bikash", "to": "Asha", "amount": "1.00"}, headers=auth
    )
    assert paid.status_code == 201, paid.get_json()
    assert client.delete(f"{url}/seasons/{paid_season['id']}", headers=auth).status_code == 409


def test_only_the_current_season_and_never_the_first(client):
    url, auth = _table(client)
    first = client.get(url).get_json()["seasons"][0]
    refused = client.delete(f"{url}/seasons/{first['id']}", headers=auth)
    assert refused.status_code == 409
    assert "first season" in refused.get_json()["errors"][0]["message"]
    closed = _season(client, url, auth, "Tihar 2083")
    _season(client, url, auth, "Dashain 2083")
    refused = client.delete(f"{url}/seasons/{closed['id']}", headers=auth)
    assert refused.status_code == 409
    assert "Only the current season" in refused.get_json()["errors"][0]["message"]
    assert client.delete(f"{url}/seasons/nope", headers=auth).status_code == 404
    assert client.delete(f"{url}/seasons/{closed['id']}").status_code == 401
    assert len(client.get(url).get_json()["seasons"]) == 3
