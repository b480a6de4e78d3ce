"""A debt paid in parts goes on to the same payee, and an overpayment comes back from
whoever got it: the season's settle-up keeps the pairs of the payments already made
where the fewest transfers allow (docs/tables.md, "Money across nights"). Paying
greedily afresh after each payment sent the rest of a part-paid debt to someone else."""

from __future__ import annotations

from api_hands import won_by
from people_support import give_link, me, pay
from settle_up_support import duel
from tables_support import create_table

STAKE = {"per_point": "10.00", "currency": "NPR"}


def _transfers(body: dict) -> list[tuple[str, str, str]]:
    return [(t["from"], t["to"], t["amount"]) for t in body["transfers"]]


def test_the_rest_of_a_debt_paid_in_part_goes_to_the_same_payee(client):
    table = create_table(client, players=["Asha", "Bikash", "Chandra", "Dipa"], stake=STAKE)
    night = ["Asha", "Bikash", "Chandra", "Dipa", "Ram"]
    match = table.new_match(night, guests=["Ram"])
    table.play(match, [won_by(w, night) for w in ("Asha", "Bikash", "Asha")])
    before = _transfers(table.get("/settle-up"))
    assert ("Dipa", "Asha", "290.00") in before

    pay(table, table.key, "Dipa", "Asha", "200.00")
    after = _transfers(table.get("/settle-up"))
    assert after == [
        ("Chandra", "Asha", "440.00"),
        ("Dipa", "Asha", "90.00"),
        ("Ram", "Asha", "30.00"),
        ("Ram", "Bikash", "110.00"),
    ]
    assert [(t["to"], t["amount"]) for t in me(client, give_link(table, "Dipa"))["transfers"]] == [
        ("Asha", "90.00")
    ]


def test_an_overpayment_comes_back_from_whoever_got_it(client):
    table = create_table(client, stake={"per_point": "1.00", "currency": "NPR"})
    match = table.new_match(["Asha", "Bikash", "Chandra", "Dipa"])
    table.play(
        match, [duel("Bikash", "Chandra", 16), duel("Asha", "Chandra", 9), duel("Asha", "Dipa", 1)]
    )
    # Chandra pays Asha 30, not the 9 he owed her: Asha now owes him 5 back.
    pay(table, table.key, "Chandra", "Asha", "30.00")
    assert _transfers(table.get("/settle-up")) == [
        ("Asha", "Bikash", "15.00"),
        ("Asha", "Chandra", "5.00"),
        ("Dipa", "Bikash", "1.00"),
    ]
