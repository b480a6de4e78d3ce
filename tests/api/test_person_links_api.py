"""Each player's own link (docs/api.md, "People"): given and revoked with the table
key only, renewed by its holder, read by GET /me; it follows a rename, dies with a
merge, and every other kind of key is refused as the API says."""

from __future__ import annotations

import pytest
from api_support import bearer, hand
from people_support import give_link, me, staked_table
from tables_support import create_table

from ledger.extensions import db
from ledger.tables.models import TablePlayer


@pytest.fixture
def table(client):
    return staked_table(client)


def _link(table, name, headers, method="post"):
    return getattr(table.client, method)(f"{table.url}/players/{name}/link", headers=headers)


def test_a_link_is_given_with_the_table_key_and_reads_me(client, table):
    response = _link(table, "Asha", table.auth)
    assert response.status_code == 201
    body = response.get_json()
    assert response.headers["Cache-Control"] == "no-store"
    assert len(body["person_key"]) >= 32  # 24 random bytes: 192 bits
    assert body["url"].endswith(f"/me/join/{body['person_key']}")
    found = me(client, body["person_key"])
    assert found["table"] == {"id": table.id, "name": "Friday table"}
    assert found["name"] == "Asha"
    assert found["balance"] == "0.00"
    assert found["transfers"] == [] and found["payments"] == [] and found["nights"] == []
    assert found["handles"] == [] and found["qr"] is None


def test_the_key_is_stored_hashed(app, table):
    key = give_link(table, "Asha")
    with app.app_context():
        stored = db.session.scalars(db.select(TablePlayer.person_key_hash)).all()
    assert key not in stored
    assert any(h and len(h) == 64 for h in stored)


@pytest.mark.parametrize("kind", ["none", "wrong", "person", "match", "other_table"])
def test_only_the_table_key_gives_or_revokes_a_link(client, table, kind):
    other = create_table(client, name="Other")
    match = table.new_match(["Asha", "Bikash", "Chandra", "Dipa"])
    keys = {
        "none": None,
        "wrong": "not-a-key",
        "person": give_link(table, "Bikash"),
        "match": match["edit_key"],
        "other_table": other.key,
    }
    headers = bearer(keys[kind]) if keys[kind] else {}
    want = 401 if kind == "none" else 403
    assert _link(table, "Asha", headers).status_code == want
    assert _link(table, "Asha", headers, "delete").status_code == want
    assert client.delete(f"{table.url}/players/Asha/handles", headers=headers).status_code == want


def test_a_new_link_revokes_the_old_and_delete_revokes_it(client, table):
    old = give_link(table, "Asha")
    new = give_link(table, "Asha")
    assert me(client, old, 401)["errors"]
    assert me(client, new)["name"] == "Asha"
    assert _link(table, "Asha", table.auth, "delete").status_code == 204
    me(client, new, 401)


def test_the_holder_renews_their_own_key(client, table):
    old = give_link(table, "Asha")
    client.put(
        "/api/v1/me/handles",
        json={"handles": [{"kind": "esewa", "handle": "98"}]},
        headers=bearer(old),
    )
    response = client.post("/api/v1/me/link", headers=bearer(old))
    assert response.status_code == 201
    new = response.get_json()["person_key"]
    me(client, old, 401)
    assert me(client, new)["handles"] == [{"kind": "esewa", "handle": "98", "label": ""}]
    # a revoked or wrong key cannot renew
    assert client.post("/api/v1/me/link", headers=bearer(old)).status_code == 401
    assert client.post("/api/v1/me/link").status_code == 401


@pytest.mark.parametrize("kind", ["none", "wrong", "table", "match"])
def test_me_needs_a_person_key(client, table, kind):
    match = table.new_match(["Asha", "Bikash", "Chandra", "Dipa"])
    keys = {"none": None, "wrong": "x" * 32, "table": table.key, "match": match["edit_key"]}
    headers = bearer(keys[kind]) if keys[kind] else {}
    response = client.get("/api/v1/me", headers=headers)
    assert response.status_code == 401
    assert "WWW-Authenticate" in response.headers


def test_a_link_follows_a_rename(client, table):
    key = give_link(table, "Bikash")
    table.patch("/players/Bikash", {"name": "Bikas Rai"})
    assert me(client, key)["name"] == "Bikas Rai"


def test_a_merge_revokes_the_merged_ones_link_and_drops_their_handles(client, table):
    kept = give_link(table, "Asha")
    merged = give_link(table, "Esha")
    client.put(
        "/api/v1/me/handles",
        json={"handles": [{"kind": "khalti", "handle": "1"}]},
        headers=bearer(merged),
    )
    table.patch("/players/Esha", {"merge_into": "Asha"})
    me(client, merged, 401)
    assert me(client, kept)["handles"] == []
    assert me(client, kept)["name"] == "Asha"


def test_unknown_names_and_former_players_get_no_link(client, table):
    assert _link(table, "Nobody", table.auth).status_code == 404
    response = _link(table, "Former player 2", table.auth)
    assert response.status_code == 422
    assert response.get_json()["errors"][0]["field"] == "name"


def test_a_guest_who_played_but_is_not_on_the_roster_gets_no_link(client, app, table):
    match = table.new_match(["Asha", "Bikash", "Chandra", "Ram"])
    seats = {"Asha": ("sequences", 10), "Bikash": ("sequences", 5)}
    table.play(match, [hand(players={**seats, "Chandra": ("unseen", 0), "Ram": ("unseen", 3)})])
    with app.app_context():  # Ram leaves the roster but stays in the night, as a guest
        db.session.execute(db.delete(TablePlayer).where(TablePlayer.name == "Ram"))
        db.session.commit()
    response = _link(table, "Ram", table.auth)
    assert response.status_code == 422
    assert "guest" in response.get_json()["errors"][0]["message"]


def test_me_shows_the_nights_balance_and_transfers(client, table):
    key = give_link(table, "Dipa")
    match = table.new_match(["Asha", "Bikash", "Chandra", "Dipa"])
    table.play(match, [hand()])
    nights_total = next(
        p["total"]
        for p in table.client.get(f"/api/v1/matches/{match['id']}").get_json()["players"]
        if p["name"] == "Dipa"
    )
    found = me(client, key)
    assert found["nights"] == [
        {
            "match": match["id"],
            "name": "Night",
            "total": nights_total,
            "place": 4,
            "points_race": False,
        }
    ]
    assert found["balance"] == f"{nights_total:.2f}"
    assert found["transfers"] and all("Dipa" in (t["from"], t["to"]) for t in found["transfers"])
    assert sum(float(t["amount"]) for t in found["transfers"]) == -nights_total


def test_a_table_without_a_stake_has_no_balance(client):
    table = create_table(client)
    assert me(client, give_link(table, "Asha"))["balance"] is None


def test_the_export_carries_no_keys_nor_handles(client, table):
    key = give_link(table, "Asha")
    client.put(
        "/api/v1/me/handles",
        json={"handles": [{"kind": "upi", "handle": "a@b"}]},
        headers=bearer(key),
    )
    text = client.get(f"{table.url}/export.json").get_data(as_text=True)
    assert key not in text and "a@b" not in text and "person_key" not in text


@pytest.mark.parametrize("payer", ["Esha", "Asha"])
def test_two_players_with_a_payment_between_them_are_not_merged(client, table, payer):
    """A payment from Esha to Asha, then Esha merged into Asha: the payment went from
    Asha to Asha, which the table's export then carried and its import refused (422 on
    payments.0.to): the table could no longer be moved. Money handed from one to the
    other says they are two people, as a night played together does."""
    payee = "Asha" if payer == "Esha" else "Esha"
    paid = table.post("/payments", {"from": payer, "to": payee, "amount": "5.00"})
    response = table.client.patch(
        f"{table.url}/players/Esha", json={"merge_into": "Asha"}, headers=table.auth
    )
    assert response.status_code == 422, response.get_json()
    assert response.get_json()["errors"] == [
        {
            "field": "merge_into",
            "message": "Esha and Asha have a payment between them, so they are two people: "
            "they cannot be merged.",
        }
    ]
    assert [p["id"] for p in table.get("/payments")["payments"]] == [paid["id"]]
    assert {p["name"] for p in table.get("")["players"]} >= {"Asha", "Esha"}
    exported = client.get(f"{table.url}/export.json").get_json()
    assert client.post("/api/v1/tables/import", json=exported).status_code == 201
