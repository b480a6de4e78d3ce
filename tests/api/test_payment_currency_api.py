"""A payment keeps the currency it was handed over in: the table's stake's when it was
recorded. Dropping the table's stake (points only from then on), or setting one again
in another currency, leaves each payment's own currency as it was, in every answer that
gives a payment (the payments, the answer to a confirmation, a player's own ``/me``)
and in the table's export, which brings it back on import (an older export without it:
the table's currency). A currency put right takes the payments with the matches."""

from __future__ import annotations

from api_support import hand
from people_support import answer, give_link, me, pay, staked_table
from tables_support import TableClient

NAMES = ["Asha", "Bikash", "Chandra", "Dipa"]


def _paid_night(client) -> TableClient:
    table = staked_table(client)
    table.play(table.new_match(NAMES), [hand(winner="Asha")])
    pay(table, table.key, "Bikash", "Asha", "5.50")
    return table


def _currencies(payments: list[dict]) -> list[str | None]:
    return [p["currency"] for p in payments]


def test_a_payment_keeps_its_currency_when_the_table_drops_its_stake(client):
    table = _paid_night(client)
    asha = give_link(table, "Asha")
    table.patch("", {"stake": None})
    assert table.get()["stake"] is None
    assert _currencies(table.get("/payments")["payments"]) == ["NPR"]
    [payment] = me(client, asha)["payments"]
    assert (payment["amount"], payment["currency"]) == ("5.50", "NPR")
    confirmed = answer(table, asha, payment["id"], "confirm")
    assert (confirmed["state"], confirmed["currency"]) == ("confirmed", "NPR")


def test_a_currency_put_right_takes_the_payments_with_the_matches(client):
    """The table's currency was picked by mistake: its matches move to the new one at
    the same amount a point, and the money handed over in it moves with them, still
    settling what it settled."""
    table = _paid_night(client)
    owed = {b["name"]: b["amount"] for b in table.get("/settle-up")["balances"]}
    table.patch("", {"stake": {"per_point": "1.00", "currency": "INR"}})
    pay(table, table.key, "Chandra", "Asha", "2.00")
    assert _currencies(table.get("/payments")["payments"]) == ["INR", "INR"]
    settle = table.get("/settle-up")
    assert settle["stake"]["currency"] == "INR"
    after = {b["name"]: b["amount"] for b in settle["balances"]}
    assert after["Bikash"] == owed["Bikash"]  # his payment still counts


def _restaked_in_rupees(client) -> TableClient:
    """A night and a payment in NPR; the stake dropped, then set again in INR."""
    table = _paid_night(client)
    table.patch("", {"stake": None})
    table.patch("", {"stake": {"per_point": "1.00", "currency": "INR"}})
    return table


def test_a_stake_set_again_in_another_currency_leaves_the_old_money_out(client):
    """The NPR night stays out of the INR balances, and so does the NPR payment that
    settled part of it: before, the payment counted alone and made a debt of its own."""
    table = _restaked_in_rupees(client)
    assert _currencies(table.get("/payments")["payments"]) == ["NPR"]
    settle = table.get("/settle-up")
    assert settle["transfers"] == []
    assert {b["amount"] for b in settle["balances"]} <= {"0.00", None}


def test_the_export_carries_each_payments_currency_and_the_import_keeps_it(client):
    table = _restaked_in_rupees(client)
    pay(table, table.key, "Chandra", "Asha", "2.00")
    exported = client.get(f"{table.url}/export.json").get_json()
    assert _currencies(exported["payments"]) == ["NPR", "INR"]
    copy = client.post("/api/v1/tables/import", json=exported)
    assert copy.status_code == 201, copy.get_json()
    url = f"/api/v1/tables/{copy.get_json()['id']}/payments"
    assert _currencies(client.get(url).get_json()["payments"]) == ["NPR", "INR"]


def test_a_table_without_a_stake_now_exports_and_imports_its_payments(client):
    """Its payments were handed over in NPR while it was staked: they come back so."""
    table = _paid_night(client)
    table.patch("", {"stake": None})
    exported = client.get(f"{table.url}/export.json").get_json()
    copy = client.post("/api/v1/tables/import", json=exported)
    assert copy.status_code == 201, copy.get_json()
    url = f"/api/v1/tables/{copy.get_json()['id']}/payments"
    [payment] = client.get(url).get_json()["payments"]
    assert (payment["amount"], payment["currency"]) == ("5.50", "NPR")


def test_an_older_export_without_currencies_takes_the_tables(client):
    table = _paid_night(client)
    exported = client.get(f"{table.url}/export.json").get_json()
    older = {
        **exported,
        "stake": {"per_point": "1.00", "currency": "INR"},
        "payments": [{k: v for k, v in p.items() if k != "currency"} for p in exported["payments"]],
    }
    copy = client.post("/api/v1/tables/import", json=older)
    assert copy.status_code == 201, copy.get_json()
    url = f"/api/v1/tables/{copy.get_json()['id']}/payments"
    assert _currencies(client.get(url).get_json()["payments"]) == ["INR"]
    unstaked = {**older, "stake": None}
    refused = client.post("/api/v1/tables/import", json=unstaked)
    assert refused.status_code == 422
    assert refused.get_json()["errors"][0]["field"] == "payments.0"


def test_a_payments_currency_in_an_export_is_checked(client):
    table = _paid_night(client)
    exported = client.get(f"{table.url}/export.json").get_json()
    exported["payments"][0]["currency"] = "XYZ"
    refused = client.post("/api/v1/tables/import", json=exported)
    assert refused.status_code == 422
    [error] = refused.get_json()["errors"]
    assert error["field"] == "payments.0.currency" and "ISO 4217" in error["message"]
