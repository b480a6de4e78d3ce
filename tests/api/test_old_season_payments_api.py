"""A debt outlives its season: after "Start a new season", a payment of what was owed
in the season before is recorded in that season (``season`` in the body), so that
season's money closes and the new season's stays untouched; a payment given no season
still goes to the current one, and a season the table does not have is refused on its
field with nothing recorded."""

from __future__ import annotations

from decimal import Decimal

from api_support import bearer, hand
from people_support import give_link, me, pay, staked_table
from tables_support import check_settles

NAMES = ["Asha", "Bikash", "Chandra", "Dipa"]


def _season_then_new(client):
    """A staked table with a night played in its first season, then a second season
    begun; the table, the first season's id and its transfers."""
    table = staked_table(client)
    match = table.new_match(NAMES)
    table.play(match, [hand(winner="Asha")])
    first = table.get()["seasons"][0]["id"]
    transfers = table.get("/settle-up")["transfers"]
    assert transfers
    table.post("/seasons", {"name": "Dashain"})
    return table, first, transfers


def _amounts(table, season: str | None = None) -> dict[str, Decimal]:
    query = {"season": season} if season else {}
    return {b["name"]: Decimal(b["amount"]) for b in table.get("/settle-up", **query)["balances"]}


def test_a_debt_of_the_season_before_is_paid_into_that_season(client):
    table, first, transfers = _season_then_new(client)
    for t in transfers:
        paid = table.post(
            "/payments", {"from": t["from"], "to": t["to"], "amount": t["amount"], "season": first}
        )
        assert paid["season"] == first
    old = table.get("/settle-up", season=first)
    assert old["transfers"] == []
    assert set(_amounts(table, first).values()) == {Decimal("0")}
    assert set(_amounts(table).values()) == {Decimal("0")}  # the new season: nothing owed
    check_settles(old)


def test_the_payer_pays_an_old_debt_with_their_own_link_and_the_payee_confirms(client):
    table, first, transfers = _season_then_new(client)
    t = transfers[0]
    owed = _amounts(table, first)[t["from"]]
    payer_key, payee_key = give_link(table, t["from"]), give_link(table, t["to"])
    response = client.post(
        f"{table.url}/payments",
        json={"from": t["from"], "to": t["to"], "amount": t["amount"], "season": first},
        headers=bearer(payer_key),
    )
    assert response.status_code == 201, response.get_json()
    pid = response.get_json()["id"]
    confirmed = client.post(f"{table.url}/payments/{pid}/confirm", headers=bearer(payee_key))
    assert confirmed.get_json()["state"] == "confirmed"
    assert _amounts(table, first)[t["from"]] == owed + Decimal(t["amount"])
    assert set(_amounts(table).values()) == {Decimal("0")}


def test_no_season_is_the_current_one(client):
    table, first, transfers = _season_then_new(client)
    t = transfers[0]
    paid = pay(table, table.key, t["from"], t["to"], t["amount"])
    current = table.get()["seasons"][-1]["id"]
    assert paid["season"] == current != first
    assert _amounts(table)[t["from"]] == Decimal(t["amount"])


def test_a_season_the_table_has_not_is_refused_on_its_field(client):
    table, first, transfers = _season_then_new(client)
    other = staked_table(client).get()["seasons"][0]["id"]
    t = transfers[0]
    for season in (other, "all", "", 3, ["x"]):
        body = {"from": t["from"], "to": t["to"], "amount": t["amount"], "season": season}
        refused = table.post("/payments", body, status=422)
        assert [e["field"] for e in refused["errors"]] == ["season"], season
        assert "season" in refused["errors"][0]["message"]
    assert table.get("/payments")["payments"] == []


def test_a_players_own_link_shows_what_is_still_owed_from_earlier_seasons(client):
    table, first, transfers = _season_then_new(client)
    t = transfers[0]
    payer_key, payee_key = give_link(table, t["from"]), give_link(table, t["to"])
    owed = _amounts(table, first)
    mine = me(client, payer_key)
    assert mine["balance"] == "0.00"  # the new season: nothing yet
    assert mine["earlier"] == [
        {
            "season": {"id": first, "name": "1"},
            "balance": f"{owed[t['from']]:.2f}",
            "transfers": [x for x in transfers if t["from"] in (x["from"], x["to"])],
        }
    ]
    assert me(client, payee_key)["earlier"][0]["balance"] == f"{owed[t['to']]:.2f}"
    for x in transfers:
        body = {"from": x["from"], "to": x["to"], "amount": x["amount"], "season": first}
        table.post("/payments", body)
    assert me(client, payer_key)["earlier"] == []  # square: the season closed
