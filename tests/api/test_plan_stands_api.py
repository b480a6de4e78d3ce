"""The plan a table was given stands for what is left of it: a player who pays exactly
what their own page told them finds the rest of the plan unchanged, not sent back to the
same payee for more while everyone else's payments are shuffled (docs/tables.md,
"Money across nights"). Found before: Bikash, told to pay Chandra 1.40 and Esha 11.90,
paid Chandra 1.40 and was then told to pay Chandra 9.10 and Esha 4.20 (and Dipa, told to
pay Chandra, to pay Esha), and his 11.90 to Esha was refused as more than he owed her."""

from __future__ import annotations

from api_hands import won_by
from api_support import bearer
from people_support import answer, give_link, me, pay
from settle_up_support import duel
from tables_support import create_table

STAKE = {"per_point": "0.35", "currency": "NPR"}


def _transfers(body: dict) -> list[tuple[str, str, str]]:
    return [(t["from"], t["to"], t["amount"]) for t in body["transfers"]]


def _two_seasons(client):
    """Five players: a night of four in the first season, then a second season's night
    of four; the table."""
    table = create_table(client, stake=STAKE)
    first = ["Asha", "Bikash", "Chandra", "Dipa"]
    table.play(table.new_match(first), [won_by(w, first) for w in ("Asha", "Dipa", "Bikash")])
    table.post("/seasons", {"name": "Dashain"})
    second = ["Bikash", "Chandra", "Dipa", "Esha"]
    table.play(table.new_match(second), [won_by(w, second) for w in ("Esha", "Chandra")])
    return table


def test_paying_what_the_plan_said_leaves_the_rest_of_it_as_it_was(client):
    table = _two_seasons(client)
    plan = [
        ("Bikash", "Chandra", "1.40"),
        ("Bikash", "Esha", "11.90"),
        ("Dipa", "Chandra", "7.70"),
    ]
    assert _transfers(table.get("/settle-up")) == plan
    bikash, chandra = give_link(table, "Bikash"), give_link(table, "Chandra")
    assert _transfers(me(client, bikash)) == plan[:2]

    # "I paid" on his own link: pending until Chandra confirms; the plan stays whole.
    paid = pay(table, bikash, "Bikash", "Chandra", "1.40")
    assert _transfers(table.get("/settle-up")) == plan

    answer(table, chandra, paid["id"], "confirm")
    assert _transfers(table.get("/settle-up")) == plan[1:]
    assert _transfers(me(client, bikash)) == [("Bikash", "Esha", "11.90")]

    # What his page says he owes Esha is what the table agrees he owes her.
    response = client.post(
        f"{table.url}/payments",
        json={"from": "Bikash", "to": "Esha", "amount": "11.90"},
        headers=bearer(bikash),
        query_string={"at_most_owed": "1"},
    )
    assert response.status_code == 201, response.get_json()


def test_a_transfer_paid_in_full_leaves_the_others_as_they_were(client):
    table = create_table(client, stake={"per_point": "1.00", "currency": "NPR"})
    night = ["Asha", "Bikash", "Chandra", "Dipa", "Esha"]
    hands = [duel("Bikash", "Chandra", 1), duel("Esha", "Chandra", 2), duel("Asha", "Dipa", 1)]
    table.play(table.new_match(night), hands)
    assert _transfers(table.get("/settle-up")) == [
        ("Chandra", "Bikash", "1.00"),
        ("Chandra", "Esha", "2.00"),
        ("Dipa", "Asha", "1.00"),
    ]
    # Afresh, Chandra was then sent to Asha and Dipa to Bikash.
    pay(table, table.key, "Chandra", "Esha", "2.00")
    assert _transfers(table.get("/settle-up")) == [
        ("Chandra", "Bikash", "1.00"),
        ("Dipa", "Asha", "1.00"),
    ]
