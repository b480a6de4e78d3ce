"""Money that closes, summed again here: random seasons of nights and payments in every
state (partial amounts, unconfirmed, pending, confirmed, rejected, deleted), and each
balance equals the nights' money plus what the player paid less what they received,
counting only the unconfirmed and confirmed payments still standing."""

from __future__ import annotations

import random
from decimal import Decimal

import pytest
from api_support import bearer, hand
from people_support import answer, give_link, me, pay, staked_table

NAMES = ["Asha", "Bikash", "Chandra", "Dipa"]
ACTIONS = ("keep", "confirm", "reject", "delete")


@pytest.mark.parametrize("seed", range(6))
def test_balances_equal_an_independent_sum(client, seed):
    rng = random.Random(seed)
    table = staked_table(client)
    keys = {name: give_link(table, name) for name in NAMES if rng.random() < 0.7}
    night_money = dict.fromkeys(NAMES, Decimal("0"))
    for _ in range(rng.randint(1, 3)):
        match = table.new_match(NAMES)
        winner = rng.choice(NAMES)
        seats = {n: (rng.choice(["sequences", "unseen"]), rng.randint(0, 20)) for n in NAMES}
        seats[winner] = ("sequences", seats[winner][1])
        table.play(match, [hand(winner=winner, players=seats)])
        for p in client.get(f"/api/v1/matches/{match['id']}").get_json()["players"]:
            night_money[p["name"]] += p["total"] * Decimal("1.00")

    standing: dict[int, tuple[str, str, Decimal, str]] = {}  # id -> payer, payee, amount, state
    for _ in range(rng.randint(3, 10)):
        payer, payee = rng.sample(NAMES, 2)
        amount = Decimal(rng.randint(1, 9999)) / 100
        by_payer = payer in keys and rng.random() < 0.5
        paid = pay(table, keys[payer] if by_payer else table.key, payer, payee, f"{amount:.2f}")
        pid, state = paid["id"], paid["state"]
        assert state == ("pending" if by_payer else "unconfirmed")
        answerer = keys.get(payee, table.key)
        action = rng.choice(ACTIONS)
        if action in ("confirm", "reject"):
            state = answer(table, answerer, pid, action)["state"]
        if action == "delete" or (action == "confirm" and rng.random() < 0.3):
            response = client.delete(f"{table.url}/payments/{pid}", headers=table.auth)
            assert response.status_code == (409 if state == "rejected" else 204)
            if state != "rejected":
                continue
        standing[pid] = (payer, payee, amount, state)

    want = {**night_money, "Esha": Decimal("0")}  # on the roster, never played nor paid
    for payer, payee, amount, state in standing.values():
        if state in ("unconfirmed", "confirmed"):
            want[payer] += amount
            want[payee] -= amount
    settle = table.get("/settle-up")
    got = {b["name"]: Decimal(b["amount"]) for b in settle["balances"]}
    assert got == want
    assert sorted(settle["unconfirmed"]) == sorted(
        pid for pid, s in standing.items() if s[3] == "unconfirmed"
    )
    assert sorted(settle["pending"]) == sorted(
        pid for pid, s in standing.items() if s[3] == "pending"
    )
    listed = {p["id"]: p["state"] for p in table.get("/payments")["payments"]}
    assert listed == {pid: s[3] for pid, s in standing.items()}
    # The transfers settle every balance exactly.
    moved = dict.fromkeys(NAMES, Decimal("0"))
    for t in settle["transfers"]:
        moved[t["from"]] += Decimal(t["amount"])
        moved[t["to"]] -= Decimal(t["amount"])
    assert all(want[n] + moved[n] == 0 for n in NAMES)
    for name, key in keys.items():
        assert me(client, key)["balance"] == f"{want[name]:.2f}"
        assert client.get("/api/v1/me", headers=bearer(key)).status_code == 200


@pytest.mark.parametrize(("typed", "written"), [("5.5", "5.50"), ("5", "5.00"), ("05.5", "5.50")])
def test_an_amount_typed_with_fewer_places_is_answered_with_its_two(client, typed, written):
    """Money is written with its 2 places wherever the API gives it (``MONEY`` in the
    document): a payment typed as "5.5" is 5.50 in its answer, its list and the export."""
    table = staked_table(client)
    paid = pay(table, table.key, "Asha", "Bikash", typed)
    assert paid["amount"] == written
    listed = table.get("/payments")["payments"]
    assert [p["amount"] for p in listed] == [written]
    exported = client.get(f"{table.url}/export.json").get_json()
    assert [p["amount"] for p in exported["payments"]] == [written]
