"""``?at_most_owed=1`` on a payment (docs/api.md, "POST .../payments"): the payer's own
key and the table key recording one debt at the same moment recorded it twice (the API
records what it is sent); asked with the flag, the second is refused (422 on
``amount``, nothing recorded), checked while the write holds the table. Without it the
API records what it is sent, as before."""

from __future__ import annotations

import threading

import pytest
from api_support import bearer, hand
from people_support import give_link, staked_table

from ledger.tables import service


@pytest.fixture
def table(client):
    made = staked_table(client)
    made.play(made.new_match(["Asha", "Bikash", "Chandra", "Dipa"]), [hand()])
    return made


def _owed(table, payer: str, payee: str) -> str:
    transfers = table.get("/settle-up")["transfers"]
    return next(t["amount"] for t in transfers if (t["from"], t["to"]) == (payer, payee))


def _post(table, key: str, body: dict, flag: str | None = "1"):
    query = {} if flag is None else {"at_most_owed": flag}
    return table.client.post(
        f"{table.url}/payments", json=body, headers=bearer(key), query_string=query
    )


def test_the_payers_i_paid_and_the_tables_mark_paid_at_once_record_one(app, table, monkeypatch):
    """Dipa's "I paid" (her own key) and the scorekeeper's "Mark paid" (the table key)
    for the same debt, at the same moment: forced, the table's is recorded after Dipa's
    was read and before its write begins. Both were recorded."""
    dipa = give_link(table, "Dipa")
    owed = _owed(table, "Dipa", "Asha")
    body = {"from": "Dipa", "to": "Asha", "amount": owed}
    other = app.test_client()
    hold = service._touch
    done: list[int] = []

    def marked_meanwhile(held):
        if threading.current_thread() is threading.main_thread() and not done:
            marking = threading.Thread(
                target=lambda: done.append(
                    other.post(
                        f"{table.url}/payments",
                        json=body,
                        headers=table.auth,
                        query_string={"at_most_owed": "1"},
                    ).status_code
                )
            )
            marking.start()
            marking.join()
        return hold(held)

    monkeypatch.setattr(service, "_touch", marked_meanwhile)
    said = _post(table, dipa, body)
    monkeypatch.undo()
    assert done == [201]
    assert said.status_code == 422, said.get_json()
    [problem] = said.get_json()["errors"]
    assert problem["field"] == "amount"
    assert problem["message"] == (
        f"Dipa owes Asha NPR 0.00 now, less than this payment of NPR {owed}: it was "
        "recorded a moment ago, or is not owed. Nothing was recorded; send it without "
        "at_most_owed to record it as it is."
    )
    [recorded] = table.get("/payments")["payments"]
    assert recorded["recorded_by"] == "table"


@pytest.mark.parametrize("first", ["payer", "table"])
def test_the_second_of_one_debt_is_refused_either_way(table, first):
    dipa = give_link(table, "Dipa")
    owed = _owed(table, "Dipa", "Asha")
    body = {"from": "Dipa", "to": "Asha", "amount": owed}
    keys = [dipa, table.key] if first == "payer" else [table.key, dipa]
    assert _post(table, keys[0], body).status_code == 201
    again = _post(table, keys[1], body)
    assert again.status_code == 422, again.get_json()
    assert len(table.get("/payments")["payments"]) == 1


def test_a_part_of_the_debt_is_recorded_and_no_flag_records_what_is_sent(table):
    owed = _owed(table, "Dipa", "Asha")
    body = {"from": "Dipa", "to": "Asha", "amount": "1.00"}
    assert _post(table, table.key, body).status_code == 201
    whole = {**body, "amount": owed}
    assert _post(table, table.key, whole, flag="0").status_code == 201  # as documented
    assert _post(table, table.key, whole, flag=None).status_code == 201
    assert len(table.get("/payments")["payments"]) == 3


def test_a_flag_other_than_0_or_1_is_refused(table):
    body = {"from": "Dipa", "to": "Asha", "amount": "1.00"}
    refused = _post(table, table.key, body, flag="yes")
    assert refused.status_code == 422
    assert refused.get_json()["errors"][0]["field"] == "at_most_owed"
    assert table.get("/payments")["payments"] == []
