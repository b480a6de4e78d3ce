"""Payments that close (docs/api.md): who may record, confirm, reject and delete a
payment with which key, what each state counts, and the kept record of a deleted
confirmed payment."""

from __future__ import annotations

from decimal import Decimal

import pytest
from api_support import bearer
from people_support import answer, give_link, me, pay, staked_table
from tables_support import create_table


@pytest.fixture
def table(client):
    return staked_table(client)


def _balances(table) -> dict[str, Decimal]:
    return {b["name"]: Decimal(b["amount"]) for b in table.get("/settle-up")["balances"]}


def _payment(table, pid: int, deleted: bool = False) -> dict | None:
    query = {"deleted": "1"} if deleted else {}
    return next((p for p in table.get("/payments", **query)["payments"] if p["id"] == pid), None)


def test_a_payment_recorded_with_the_table_key_is_unconfirmed_and_counts(table):
    paid = pay(table, table.key, "Dipa", "Asha", "150.00")
    assert paid["state"] == "unconfirmed" and paid["recorded_by"] == "table"
    assert paid["confirmed"] is False and paid["rejected"] is False
    settle = table.get("/settle-up")
    assert settle["unconfirmed"] == [paid["id"]] and settle["pending"] == []
    assert _balances(table)["Dipa"] == Decimal("150.00")
    assert _balances(table)["Asha"] == Decimal("-150.00")


def test_the_payer_records_a_pending_payment_that_counts_once_confirmed(client, table):
    dipa, asha = give_link(table, "Dipa"), give_link(table, "Asha")
    paid = pay(table, dipa, "Dipa", "Asha", "40.50")
    assert paid["state"] == "pending" and paid["recorded_by"] == "payer"
    settle = table.get("/settle-up")
    assert settle["pending"] == [paid["id"]] and settle["unconfirmed"] == []
    assert _balances(table)["Dipa"] == 0
    done = answer(table, asha, paid["id"], "confirm")
    assert done["state"] == "confirmed" and done["confirmed"] is True
    assert answer(table, asha, paid["id"], "confirm") == done  # again: no change
    assert table.get("/settle-up")["pending"] == []
    assert _balances(table)["Dipa"] == Decimal("40.50")
    assert me(client, dipa)["balance"] == "40.50"
    assert [p["state"] for p in me(client, asha)["payments"]] == ["confirmed"]


def test_the_payers_key_records_only_payments_from_them(client, table):
    dipa = give_link(table, "Dipa")
    pay(table, dipa, "Asha", "Bikash", "10.00", 403)
    other = create_table(client, name="Other", stake={"per_point": "1.00", "currency": "NPR"})
    pay(other, dipa, "Dipa", "Asha", "10.00", 403)  # another table's player
    assert table.get("/payments")["payments"] == []


@pytest.mark.parametrize("kind", ["none", "wrong", "match", "other_table", "revoked"])
def test_other_keys_record_no_payment(client, table, kind):
    match = table.new_match(["Asha", "Bikash", "Chandra", "Dipa"])
    revoked = give_link(table, "Dipa")
    give_link(table, "Dipa")
    keys = {
        "none": None,
        "wrong": "nope",
        "match": match["edit_key"],
        "other_table": create_table(client, name="Other").key,
        "revoked": revoked,
    }
    headers = bearer(keys[kind]) if keys[kind] else {}
    response = client.post(
        f"{table.url}/payments",
        json={"from": "Dipa", "to": "Asha", "amount": "1.00"},
        headers=headers,
    )
    assert response.status_code == (401 if kind == "none" else 403)
    assert table.get("/payments")["payments"] == []


@pytest.mark.parametrize("what", ["confirm", "reject"])
def test_only_the_payees_key_answers_when_they_hold_a_link(client, table, what):
    asha, dipa, bikash = (give_link(table, n) for n in ("Asha", "Dipa", "Bikash"))
    match = table.new_match(["Asha", "Bikash", "Chandra", "Dipa"])
    pid = pay(table, dipa, "Dipa", "Asha", "5.00")["id"]
    answer(table, None, pid, what, 401)
    for key in (table.key, dipa, bikash, match["edit_key"], "wrong"):
        answer(table, key, pid, what, 403)
    assert _payment(table, pid)["state"] == "pending"
    assert answer(table, asha, pid, what)["state"] == f"{what}ed"


def test_a_payee_without_a_link_is_answered_for_with_the_table_key(table):
    dipa = give_link(table, "Dipa")
    pid = pay(table, dipa, "Dipa", "Asha", "5.00")["id"]
    answer(table, dipa, pid, "confirm", 403)
    assert answer(table, table.key, pid, "confirm")["state"] == "confirmed"


def test_confirming_a_rejected_or_rejecting_a_confirmed_payment_is_409(table):
    asha = give_link(table, "Asha")
    one = pay(table, table.key, "Dipa", "Asha", "5.00")["id"]
    two = pay(table, table.key, "Bikash", "Asha", "7.00")["id"]
    answer(table, asha, one, "confirm")
    answer(table, asha, one, "reject", 409)
    assert answer(table, asha, two, "reject")["rejected"] is True
    answer(table, asha, two, "reject")  # the same again: 200
    answer(table, asha, two, "confirm", 409)
    settle = table.get("/settle-up")
    assert settle["unconfirmed"] == [] and settle["pending"] == []
    assert _balances(table)["Bikash"] == 0  # rejected: not counted
    assert _balances(table)["Dipa"] == Decimal("5.00")


def test_who_may_delete_each_state(client, table):
    asha, dipa = give_link(table, "Asha"), give_link(table, "Dipa")
    url = f"{table.url}/payments"
    unconfirmed = pay(table, table.key, "Dipa", "Asha", "1.00")["id"]
    pending = pay(table, dipa, "Dipa", "Asha", "2.00")["id"]
    confirmed = pay(table, dipa, "Dipa", "Asha", "3.00")["id"]
    answer(table, asha, confirmed, "confirm")
    rejected = pay(table, dipa, "Dipa", "Asha", "4.00")["id"]
    answer(table, asha, rejected, "reject")

    assert client.delete(f"{url}/{unconfirmed}").status_code == 401
    for pid in (unconfirmed, confirmed):
        for key in (dipa, asha):
            assert client.delete(f"{url}/{pid}", headers=bearer(key)).status_code == 403
    assert client.delete(f"{url}/{pending}", headers=bearer(asha)).status_code == 403
    assert client.delete(f"{url}/{rejected}", headers=table.auth).status_code == 409

    assert client.delete(f"{url}/{pending}", headers=bearer(dipa)).status_code == 204
    assert client.delete(f"{url}/{unconfirmed}", headers=table.auth).status_code == 204
    assert client.delete(f"{url}/{confirmed}", headers=table.auth).status_code == 204
    assert client.delete(f"{url}/{confirmed}", headers=table.auth).status_code == 404

    listed = table.get("/payments")["payments"]
    assert [(p["id"], p["state"]) for p in listed] == [(rejected, "rejected")]
    record = _payment(table, confirmed, deleted=True)
    assert record["deleted"] is True and record["deleted_at"] and record["state"] == "confirmed"
    assert _payment(table, unconfirmed, deleted=True) is None  # gone for good
    assert _balances(table)["Dipa"] == 0
    answer(table, asha, confirmed, "reject", 404)


def test_a_partial_payment_leaves_the_rest_owed(client, table):
    from api_support import hand

    match = table.new_match(["Asha", "Bikash", "Chandra", "Dipa"])
    table.play(match, [hand()])
    before = _balances(table)
    owes = before["Dipa"]
    assert owes < 0
    part = (-owes / 2).quantize(Decimal("0.01"))
    paid = pay(table, table.key, "Dipa", "Asha", format(part, "f"))
    after = _balances(table)
    assert after["Dipa"] == owes + part and after["Asha"] == before["Asha"] - part
    transfers = table.get("/settle-up")["transfers"]
    assert sum(Decimal(t["amount"]) for t in transfers if t["from"] == "Dipa") == -(owes + part)
    assert paid["state"] == "unconfirmed"


def test_confirm_of_an_unknown_payment_is_404(table):
    answer(table, table.key, 999, "confirm", 404)


def test_the_export_keeps_each_payments_state_and_the_import_restores_it(client, table):
    asha = give_link(table, "Asha")
    pay(table, table.key, "Dipa", "Asha", "5.00")
    rejected = pay(table, table.key, "Bikash", "Asha", "7.00")["id"]
    answer(table, asha, rejected, "reject")
    confirmed = pay(table, table.key, "Chandra", "Asha", "9.00")["id"]
    answer(table, asha, confirmed, "confirm")
    exported = client.get(f"{table.url}/export.json").get_json()
    response = client.post("/api/v1/tables/import", json=exported)
    assert response.status_code == 201, response.get_json()
    copy = response.get_json()["id"]
    listed = client.get(f"/api/v1/tables/{copy}/payments").get_json()["payments"]
    assert [(p["from"], p["state"]) for p in listed] == [
        ("Dipa", "unconfirmed"),
        ("Bikash", "rejected"),
        ("Chandra", "confirmed"),
    ]
    copied = client.get(f"/api/v1/tables/{copy}/settle-up").get_json()["balances"]
    assert copied == [{**b, "pay_to": None} for b in table.get("/settle-up")["balances"]]
