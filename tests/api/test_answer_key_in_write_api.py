"""A payee's own key checked while the write holds the table (docs/api.md, "confirm"):
a payee who forgets themselves, renews their link or has it revoked on another phone
while a confirm (or reject) with the old key is on its way is refused, and the payment
stays as it was."""

from __future__ import annotations

import threading

import pytest
from api_support import bearer
from people_support import give_link, pay, staked_table

from ledger.tables import service


@pytest.fixture
def table(client):
    return staked_table(client)


def _meanwhile(monkeypatch, act) -> list[int]:
    """Runs ``act`` (another phone's request, in a thread of its own) once, as the
    request of the main thread first holds the table; the statuses it got."""
    hold = service._touch
    done: list[int] = []

    def acted_meanwhile(held):
        if threading.current_thread() is threading.main_thread() and not done:
            other = threading.Thread(target=lambda: done.append(act()))
            other.start()
            other.join()
        return hold(held)

    monkeypatch.setattr(service, "_touch", acted_meanwhile)
    return done


@pytest.mark.parametrize("left", ["forget", "renew", "revoke"])
@pytest.mark.parametrize("what", ["confirm", "reject"])
def test_an_old_key_answers_no_payment_once_its_link_is_gone(app, table, monkeypatch, left, what):
    asha = give_link(table, "Asha")
    pid = pay(table, table.key, "Dipa", "Asha", "5.00")["id"]
    other = app.test_client()
    act = {
        "forget": lambda: other.delete("/api/v1/me", headers=bearer(asha)).status_code,
        "renew": lambda: other.post("/api/v1/me/link", headers=bearer(asha)).status_code,
        "revoke": lambda: (
            other.delete(f"{table.url}/players/Asha/link", headers=table.auth).status_code
        ),
    }[left]
    done = _meanwhile(monkeypatch, act)
    answered = table.client.post(f"{table.url}/payments/{pid}/{what}", headers=bearer(asha))
    monkeypatch.undo()
    assert done and done[0] in (201, 204)
    assert answered.status_code == 403, answered.get_json()
    paid = next(p for p in table.get("/payments")["payments"] if p["id"] == pid)
    assert paid["state"] == "unconfirmed"


def test_an_old_key_records_no_payment_once_renewed(app, table, monkeypatch):
    """Dipa renews her link on her other phone (the old one was seen by someone) while
    "I paid" with the old key is on its way: nothing is recorded."""
    dipa = give_link(table, "Dipa")
    other = app.test_client()
    done = _meanwhile(
        monkeypatch, lambda: other.post("/api/v1/me/link", headers=bearer(dipa)).status_code
    )
    paid = table.client.post(
        f"{table.url}/payments",
        json={"from": "Dipa", "to": "Asha", "amount": "5.00"},
        headers=bearer(dipa),
    )
    monkeypatch.undo()
    assert done == [201]
    assert paid.status_code == 403, paid.get_json()
    assert "replaced or revoked" in paid.get_json()["errors"][0]["message"]
    assert table.get("/payments")["payments"] == []
