"""A table has one currency, whichever way its stake changes: a match of a staked table
cannot be given another currency (422 on ``stake.currency``, nothing changed), and when
the table's own currency is changed (a currency picked by mistake, put right after the
nights were played), its matches staked in the old one move with it, so the money of
the nights and the payments stay in the balances and still sum to zero."""

from __future__ import annotations

from decimal import Decimal

from api_support import bearer, hand
from people_support import pay, staked_table
from tables_support import check_settles

NAMES = ["Asha", "Bikash", "Chandra", "Dipa"]


def _night(table) -> dict:
    match = table.new_match(NAMES)
    table.play(match, [hand(winner="Asha")])
    return match


def test_a_match_of_a_staked_table_keeps_the_tables_currency(client):
    table = staked_table(client)
    match = _night(table)
    url = f"/api/v1/matches/{match['id']}"
    before = client.get(url).get_json()
    for key in (table.key, match["edit_key"]):
        refused = client.patch(
            url, json={"stake": {"per_point": "1.00", "currency": "USD"}}, headers=bearer(key)
        )
        assert refused.status_code == 422, refused.get_json()
        [error] = refused.get_json()["errors"]
        assert error["field"] == "stake.currency" and "NPR" in error["message"]
    after = client.get(url).get_json()
    assert (after["stake"], after["version"]) == (before["stake"], before["version"])
    changed = client.patch(
        url, json={"stake": {"per_point": "2.50", "currency": "NPR"}}, headers=table.auth
    )
    assert changed.status_code == 200 and changed.get_json()["stake"]["per_point"] == "2.50"
    dropped = client.patch(url, json={"stake": None}, headers=table.auth)
    assert dropped.status_code == 200 and dropped.get_json()["stake"] is None


def test_a_new_currency_for_the_table_takes_its_nights_and_payments_with_it(client):
    table = staked_table(client)
    match = _night(table)
    before = {b["name"]: b["amount"] for b in table.get("/settle-up")["balances"]}
    paid = pay(table, table.key, "Bikash", "Asha", "5.50")
    assert paid["currency"] == "NPR"
    owed = {b["name"]: b["amount"] for b in table.get("/settle-up")["balances"]}
    table.patch("", {"stake": {"per_point": "1.00", "currency": "INR"}})
    settle = table.get("/settle-up")
    assert settle["stake"]["currency"] == "INR"
    assert {b["name"]: b["amount"] for b in settle["balances"]} == owed != before
    assert sum(Decimal(b["amount"]) for b in settle["balances"]) == 0
    check_settles(settle)
    night = client.get(f"/api/v1/matches/{match['id']}").get_json()
    assert night["stake"] == {"per_point": "1.00", "currency": "INR"}
    [payment] = table.get("/payments")["payments"]
    assert payment["currency"] == "INR"
