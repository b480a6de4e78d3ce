"""A payee's own key checked while the write holds the table (docs/api.md, "confirm"):
a payee who forgets themselves, renews their link or has it revoked on another phone
while a confirm (or reject) with the old key is on its way is refused, and the payment
stays as it was."""

from __future__ import annotations

import threading
from contextlib import contextmanager

import pytest
from api_support import bearer
from people_support import give_link, pay, staked_table

from ledger import matches
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


def _png(text: str) -> bytes:
    import io

    import segno

    out = io.BytesIO()
    segno.make(text, error="m").save(out, kind="png", scale=8, border=4)
    return out.getvalue()


@pytest.mark.parametrize("write", ["renew", "handles", "qr"])
def test_a_link_revoked_while_its_holder_writes_to_me_changes_nothing(
    app, table, monkeypatch, write
):
    """The scorekeeper revokes a stolen link while the thief's request with it is on its
    way: found before, it published a QR or handles in the player's name, or gave the
    thief a new working link (renew), after the revoke."""
    stolen = give_link(table, "Asha")
    other = app.test_client()
    write_of = matches.transaction
    done: list[int] = []

    @contextmanager
    def revoked_meanwhile(*args, **kwargs):
        """The revoke, just before the holder's write begins (its lock held, on SQLite,
        from the write's start: the revoke would wait for it)."""
        if threading.current_thread() is threading.main_thread() and not done:
            revoke = f"{table.url}/players/Asha/link"
            revoking = threading.Thread(
                target=lambda: done.append(other.delete(revoke, headers=table.auth).status_code)
            )
            revoking.start()
            revoking.join()
        with write_of(*args, **kwargs):
            yield

    monkeypatch.setattr(matches, "transaction", revoked_meanwhile)
    client = table.client
    if write == "renew":
        sent = client.post("/api/v1/me/link", headers=bearer(stolen))
    elif write == "handles":
        body = {"handles": [{"kind": "esewa", "handle": "9800000000"}]}
        sent = client.put("/api/v1/me/handles", json=body, headers=bearer(stolen))
    else:
        sent = client.post(
            "/api/v1/me/qr",
            data=_png("000201010211"),
            headers={**bearer(stolen), "Content-Type": "image/png"},
        )
    monkeypatch.undo()
    assert done == [204]
    assert sent.status_code == 401, sent.get_json()
    rows = {b["name"]: b["pay_to"] for b in table.get("/settle-up")["balances"]}
    assert rows["Asha"] is None
    with app.app_context():
        from ledger.extensions import db
        from ledger.tables.models import TablePlayer

        asha = db.session.scalars(db.select(TablePlayer).where(TablePlayer.name == "Asha")).one()
        assert asha.person_key_hash is None
