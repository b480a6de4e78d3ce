"""The stake and the settle-up through the API (docs/api.md#money): create with and without
a stake, change it by PATCH, the fewest payments after two-player hands, exact money,
no settle-up for a points race, and bad stakes refused on their field."""

from __future__ import annotations

from decimal import Decimal

import pytest
from api_support import PLAYERS, bearer
from settle_up_support import GREEDY_HANDS, SIX, engine_totals, fewest_by_search, greedy_count

NPR_HALF = {"per_point": "0.50", "currency": "NPR"}
assert PLAYERS == SIX  # the match the fixture creates has the players of GREEDY_HANDS


def play(match, hands: list[dict]) -> None:
    for data in hands:
        response = match.post_hand(data)
        assert response.status_code == 201, response.get_json()


def settle_up(match):
    return match.client.get(f"{match.url}/settle-up")


def patch(match, body: dict, key: str | None = "own"):
    headers = bearer(match.key if key == "own" else key) if key else {}
    return match.client.patch(match.url, json=body, headers=headers)


def errors_of(response) -> dict[str, str]:
    return {e["field"]: e["message"] for e in response.get_json()["errors"]}


# --- the stake on the match --------------------------------------------------------------


def test_a_match_created_with_a_stake_carries_it(create_match):
    match = create_match(stake=NPR_HALF)
    assert match.body["stake"] == NPR_HALF
    assert match.get()["stake"] == NPR_HALF


def test_a_match_created_without_a_stake_plays_for_points(create_match):
    assert create_match().get()["stake"] is None
    assert create_match(stake=None).get()["stake"] is None


def test_a_stake_is_kept_with_two_decimal_places(create_match):
    match = create_match(stake={"per_point": "5", "currency": "GBP"})
    assert match.get()["stake"] == {"per_point": "5.00", "currency": "GBP"}
    match = create_match(stake={"per_point": "0.5", "currency": "USD"})
    assert match.get()["stake"] == {"per_point": "0.50", "currency": "USD"}


def test_patch_sets_changes_and_drops_the_stake(create_match):
    match = create_match()
    version = match.get()["version"]
    response = patch(match, {"stake": {"per_point": "10", "currency": "INR"}})
    assert response.status_code == 200, response.get_json()
    assert response.get_json()["stake"] == {"per_point": "10.00", "currency": "INR"}
    assert response.get_json()["version"] == version + 1  # the pages follow the change
    assert patch(match, {"stake": NPR_HALF}).get_json()["stake"] == NPR_HALF
    assert match.get()["stake"] == NPR_HALF
    assert patch(match, {"stake": None}).get_json()["stake"] is None
    assert match.get()["stake"] is None


def test_patch_needs_the_edit_key(create_match):
    match = create_match()
    other = create_match()
    assert patch(match, {"stake": NPR_HALF}, key=None).status_code == 401
    assert patch(match, {"stake": NPR_HALF}, key=other.key).status_code == 403
    assert match.get()["stake"] is None


def test_patch_of_an_unknown_match_is_404(client):
    response = client.patch("/api/v1/matches/nope", json={"stake": NPR_HALF})
    assert response.status_code == 404


def test_the_export_keeps_the_stake_and_an_import_restores_it(client, create_match):
    match = create_match(stake={"per_point": "1.25", "currency": "EUR"})
    document = client.get(f"{match.url}/export.json").get_json()
    assert document["stake"] == {"per_point": "1.25", "currency": "EUR"}
    imported = client.post("/api/v1/matches/import", json=document)
    assert imported.status_code == 201, imported.get_json()
    assert imported.get_json()["stake"] == {"per_point": "1.25", "currency": "EUR"}


# --- bad stakes --------------------------------------------------------------------------

BAD_STAKES = [
    ({"per_point": 0.5, "currency": "NPR"}, "stake.per_point", "decimal string"),
    ({"per_point": 1, "currency": "NPR"}, "stake.per_point", "decimal string"),
    ({"per_point": "half", "currency": "NPR"}, "stake.per_point", "digits"),
    ({"per_point": "1e2", "currency": "NPR"}, "stake.per_point", "digits"),
    ({"per_point": "0.505", "currency": "NPR"}, "stake.per_point", "2 decimal places"),
    ({"per_point": "0", "currency": "NPR"}, "stake.per_point", "more than 0"),
    ({"per_point": "0.00", "currency": "NPR"}, "stake.per_point", "more than 0"),
    ({"per_point": "-1", "currency": "NPR"}, "stake.per_point", "more than 0"),
    ({"per_point": "10000000000", "currency": "NPR"}, "stake.per_point", "at most"),
    ({"per_point": "0.50", "currency": "XYZ"}, "stake.currency", "not an ISO 4217"),
    ({"per_point": "0.50", "currency": "npr"}, "stake.currency", "capitals"),
    ({"per_point": "0.50", "currency": "Rupees"}, "stake.currency", "3-letter"),
    ({"per_point": "0.50"}, "stake.currency", "ISO 4217"),
    ("0.50 NPR", "stake", "or null"),
]


@pytest.mark.parametrize(("stake", "field", "words"), BAD_STAKES)
def test_a_bad_stake_is_refused_on_its_field_at_creation(client, stake, field, words):
    body = {"name": "T", "players": PLAYERS, "rules": "sparkai", "stake": stake}
    response = client.post("/api/v1/matches", json=body)
    assert response.status_code == 422
    found = errors_of(response)
    assert list(found) == [field]
    assert words in found[field]


@pytest.mark.parametrize(("stake", "field", "words"), BAD_STAKES)
def test_a_bad_stake_is_refused_on_its_field_by_patch(create_match, stake, field, words):
    match = create_match(stake=NPR_HALF)
    version = match.get()["version"]
    response = patch(match, {"stake": stake})
    assert response.status_code == 422
    found = errors_of(response)
    assert list(found) == [field] and words in found[field]
    after = match.get()
    assert after["stake"] == NPR_HALF and after["version"] == version  # nothing stored


def test_both_parts_of_a_bad_stake_are_reported_together(create_match):
    response = patch(create_match(), {"stake": {"per_point": "-2", "currency": "ABC"}})
    assert set(errors_of(response)) == {"stake.per_point", "stake.currency"}


def test_a_bad_stake_stores_no_match(app, client):
    from sqlalchemy import func, select

    from ledger.extensions import db
    from ledger.matches.models import Match

    body = {"name": "T", "players": PLAYERS, "rules": "sparkai", "stake": {"per_point": 2}}
    assert client.post("/api/v1/matches", json=body).status_code == 422
    with app.app_context():
        assert db.session.scalar(select(func.count()).select_from(Match)) == 0


# --- the settle-up -----------------------------------------------------------------------


def check_settles(body: dict, totals: dict[str, int]) -> None:
    """Every balance is the player's total and the transfers square them all."""
    assert [(b["name"], b["total"]) for b in body["balances"]] == list(totals.items())
    flow = dict.fromkeys(totals, 0)
    for t in body["transfers"]:
        assert t["points"] > 0 and isinstance(t["points"], int)
        flow[t["from"]] -= t["points"]
        flow[t["to"]] += t["points"]
    assert flow == totals


def test_two_player_hands_settle_with_fewer_payments_than_greedy(create_match):
    match = create_match(stake=NPR_HALF)
    play(match, GREEDY_HANDS)
    totals = engine_totals(GREEDY_HANDS)
    assert {p["name"]: p["total"] for p in match.get()["players"]} == totals

    response = settle_up(match)
    assert response.status_code == 200
    body = response.get_json()
    check_settles(body, totals)
    fewest = fewest_by_search(list(totals.values()))
    assert greedy_count(totals) == fewest + 1
    assert len(body["transfers"]) == fewest
    assert body["stake"] == NPR_HALF
    half = Decimal("0.50")
    for b in body["balances"]:
        assert b["amount"] == str(b["total"] * half)  # "-2.50": exact, two places
    for t in body["transfers"]:
        assert t["amount"] == str(t["points"] * half)
    # the same totals always give the same transfers: by the payer's seat, then the payee's
    assert [(t["from"], t["to"], t["points"], t["amount"]) for t in body["transfers"]] == [
        ("Dipa", "Bikash", 3, "1.50"),
        ("Dipa", "Chandra", 2, "1.00"),
        ("Esha", "Asha", 4, "2.00"),
        ("Gopal", "Chandra", 1, "0.50"),
    ]


def test_uneven_cents_stay_exact(create_match):
    match = create_match(stake={"per_point": "0.35", "currency": "USD"})
    play(match, GREEDY_HANDS)
    body = settle_up(match).get_json()
    money = {b["name"]: Decimal(b["amount"]) for b in body["balances"]}
    paid = dict.fromkeys(money, Decimal("0.00"))
    for t in body["transfers"]:
        assert t["amount"] == str(t["points"] * Decimal("0.35"))
        paid[t["from"]] -= Decimal(t["amount"])
        paid[t["to"]] += Decimal(t["amount"])
    assert paid == money and money["Dipa"] == Decimal("-1.75")


def test_without_a_stake_the_amounts_are_null(create_match):
    match = create_match()
    play(match, GREEDY_HANDS)
    body = settle_up(match).get_json()
    assert body["stake"] is None
    assert all(b["amount"] is None for b in body["balances"])
    assert all(t["amount"] is None for t in body["transfers"])
    check_settles(body, engine_totals(GREEDY_HANDS))


def test_before_any_hand_everyone_is_square(create_match):
    body = settle_up(create_match(stake=NPR_HALF)).get_json()
    assert body["transfers"] == []
    assert [(b["total"], b["amount"]) for b in body["balances"]] == [(0, "0.00")] * len(PLAYERS)


def test_the_settle_up_follows_a_changed_stake_and_edited_hands(create_match):
    match = create_match()
    play(match, GREEDY_HANDS)
    patch(match, {"stake": {"per_point": "2", "currency": "GBP"}})
    body = settle_up(match).get_json()
    assert body["stake"] == {"per_point": "2.00", "currency": "GBP"}
    assert body["transfers"][0]["amount"] == "6.00"
    assert match.delete_hand(1).status_code == 200
    totals = engine_totals(GREEDY_HANDS[1:])
    body = settle_up(match).get_json()
    check_settles(body, totals)
    assert len(body["transfers"]) == fewest_by_search(list(totals.values()))


def test_anyone_with_the_id_may_read_the_settle_up(client, create_match):
    match = create_match(stake=NPR_HALF)
    play(match, GREEDY_HANDS[:1])
    response = client.get(f"/api/v1/matches/{match.id}/settle-up")  # no key
    assert response.status_code == 200
    assert response.get_json()["transfers"] == [
        {"from": "Esha", "to": "Asha", "points": 4, "amount": "2.00"}
    ]


def test_a_points_race_has_no_settle_up(create_match):
    match = create_match(rules="gamerules", stake=NPR_HALF)
    response = settle_up(match)
    assert response.status_code == 422
    [error] = response.get_json()["errors"]
    assert error["field"] == ""
    assert "points race" in error["message"] and "nobody pays" in error["message"]


def test_the_settle_up_of_an_unknown_match_is_404(client):
    assert client.get("/api/v1/matches/nope/settle-up").status_code == 404
