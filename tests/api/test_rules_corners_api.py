"""The rules' corners of docs/rules.md §9 through the API (issues 35 and 36): a dealt
tunnela of a kind the rules never score, shown marriages where they score like hidden
ones, an ordinary-joker tunnela entered by its kind, points tables that fall, and a
rescore whose other rules refuse a hand of a points race (or the other way round)."""

from __future__ import annotations

import pytest
from tables_support import create_table

from ledger.engine import parse_hand, resolve_rules, settle
from ledger.extensions import db
from ledger.matches.models import Match


def _p(name: str, seen: str, **maal: object) -> dict:
    return {"name": name, "seen": seen, **maal}


def settled(client, rules: object, hand: dict):
    return client.post("/api/v1/settle", json={"rules": rules, **hand})


def maal_of(body: dict, name: str) -> int:
    return next(p["maal"] for p in body["players"] if p["name"] == name)


def items_of(body: dict, name: str) -> list[dict]:
    return next(p["breakdown"] for p in body["players"] if p["name"] == name)


# --- a dealt tunnela of a kind the rules never score ---------------------------------------

POPLU_TUNNELA = {
    "tiplu": "8H",
    "finish": "sequences",
    "winner": "Asha",
    "players": [
        _p("Asha", "sequences", maal_cards=[], dealt_tunnelas=["9H"]),
        _p("Bikash", "sequences", maal_cards=[]),
    ],
}


def test_a_tunnela_sparkai_never_scores_counts_as_its_cards(client):
    response = settled(client, "sparkai", POPLU_TUNNELA)
    assert response.status_code == 200, response.get_json()
    body = response.get_json()
    assert maal_of(body, "Asha") == 10  # three poplus, sparkai's poplu table
    said = items_of(body, "Asha")
    assert {"item": "dealt_tunnela_no_bonus", "reason": "kind_not_scored"}.items() <= said[
        0
    ].items()
    assert said[1]["item"] == "poplu" and said[1]["count"] == 3


def test_a_tiplu_tunnela_outside_everestbuzz_is_kept_without_bonus(create_match):
    # gamerules puts the indicator back, so three tiplus can be dealt, but scores no
    # tiplu tunnela: its cards are three tiplus, 7 and the last step 4 = 11.
    match = create_match(players=["Asha", "Bikash"], rules="gamerules")
    hand = {
        "tiplu": "8H",
        "finish": "sequences",
        "winner": "Asha",
        "players": [
            _p("Asha", "sequences", maal_cards=[], dealt_tunnelas=["8H"]),
            _p("Bikash", "sequences", maal_cards=["9H"]),
        ],
    }
    response = match.post_hand(hand)
    assert response.status_code == 201, response.get_json()
    asha = response.get_json()["players"][0]
    assert asha["maal"] == 11
    assert asha["breakdown"][0]["reason"] == "kind_not_scored"


# --- shown marriages where they score like hidden ones -----------------------------------


def test_marriages_shown_are_not_checked_where_they_change_nothing(client):
    hand = {
        "tiplu": "8H",
        "finish": "sequences",
        "winner": "Asha",
        "players": [
            _p("Asha", "sequences", maal_cards=["8H"], marriages_shown=2),
            _p("Bikash", "sequences", maal_cards=[]),
        ],
    }
    response = settled(client, "sparkai", hand)
    assert response.status_code == 200, response.get_json()
    assert maal_of(response.get_json(), "Asha") == 3
    # Where shown marriages score apart they must still be held.
    refused = settled(client, "gamerules", hand)
    assert refused.status_code == 422
    assert [e["field"] for e in refused.get_json()["errors"]] == ["players.0.marriages_shown"]


# --- an ordinary-joker tunnela entered by its kind ---------------------------------------

JOKER_RULES = {
    "profile": "sparkai",
    "packs": 4,
    "ordinary_joker": [1, 3, 6],
    "dealt_tunnela_bonus_mode": "added",
}


def joker_hand(others: list[str]) -> dict:
    return {
        "tiplu": "8H",
        "finish": "sequences",
        "winner": "Asha",
        "players": [
            _p("Asha", "sequences", maal_cards=["8S"], dealt_tunnelas=["ordinary_joker"]),
            _p("Bikash", "sequences", maal_cards=others),
        ],
    }


def test_a_joker_tunnela_by_kind_is_the_card_the_copies_leave(client):
    # Bikash holds two 8♣ of four: three more do not fit, so the tunnela is 8♠, counted
    # with Asha's own 8♠: four copies, 6 + the last step 3 = 9 (not 1 + 6 = 7 apart).
    response = settled(client, JOKER_RULES, joker_hand(["8C", "8C"]))
    assert response.status_code == 200, response.get_json()
    body = response.get_json()
    assert maal_of(body, "Asha") == 9
    jokers = [i for i in items_of(body, "Asha") if i["item"] == "ordinary_joker"]
    assert [(i["count"], i["cards"]) for i in jokers] == [(4, ["8S"] * 4)]
    assert body["hand"]["players"][0]["dealt_tunnelas"] == ["ordinary_joker"]


def test_a_joker_tunnela_by_kind_is_apart_where_both_cards_fit(client):
    response = settled(client, JOKER_RULES, joker_hand([]))
    assert response.status_code == 200, response.get_json()
    assert maal_of(response.get_json(), "Asha") == 1 + 6  # 8♠ alone, three 8♣


# --- points tables that fall ------------------------------------------------------------

FALLING = {"profile": "sparkai", "poplu": [100, 0]}


def falling_fields(response) -> list[str]:
    assert response.status_code == 422, response.get_json()
    return [e["field"] for e in response.get_json()["errors"]]


def test_a_falling_table_is_refused_wherever_rules_are_given(client, create_match):
    assert falling_fields(settled(client, FALLING, POPLU_TUNNELA)) == ["rules.poplu"]
    response = client.post(
        "/api/v1/matches", json={"name": "N", "players": ["Asha", "Bikash"], "rules": FALLING}
    )
    assert falling_fields(response) == ["rules.poplu"]
    message = response.get_json()["errors"][0]["message"]
    assert "must not fall" in message and "0" in message and "100" in message
    match = create_match(players=["Asha", "Bikash"])
    assert falling_fields(match.patch({"rules": FALLING})) == ["rules.poplu"]
    rescore = client.post(f"{match.url}/rescore", json={"rules": FALLING})
    assert falling_fields(rescore) == ["rules.poplu"]
    table = create_table(client, players=["Asha", "Bikash"])
    rescore = client.post(f"{table.url}/rescore", json={"rules": FALLING})
    assert falling_fields(rescore) == ["rules.poplu"]
    level = settled(client, {"profile": "sparkai", "poplu": [5, 5, 5]}, POPLU_TUNNELA)
    assert level.status_code == 200


def test_a_match_stored_with_a_falling_table_keeps_its_hands(app, client, create_match):
    hand = {
        "finish": "sequences",
        "winner": "Asha",
        "players": [
            _p("Asha", "sequences", maal_counts={"poplu": 2}),
            _p("Bikash", "sequences", maal_counts={}),
        ],
    }
    match = create_match(
        players=["Asha", "Bikash"], rules={"profile": "sparkai", "poplu": [2, 5, 10]}
    )
    assert match.post_hand(hand).status_code == 201
    with app.app_context():  # stored before §9 refused such a table
        row = db.session.scalar(db.select(Match).where(Match.public_id == match.id))
        row.rules = {"profile": "sparkai", "overrides": {"poplu": [2, 1, 0]}}
        db.session.commit()
    kept = match.get()
    assert kept["hands"][0]["players"][0]["maal"] == 5  # as settled
    assert falling_fields(match.post_hand(hand)) == ["rules.poplu"]
    assert falling_fields(match.put_hand(1, hand)) == ["rules.poplu"]
    assert match.patch({"rules": "sparkai"}).status_code == 200
    assert match.post_hand(hand).status_code == 201


# --- rescoring never fails because of one hand --------------------------------------------

THREE_TIPLUS = {
    "tiplu": "8H",
    "finish": "sequences",
    "winner": "Asha",
    "players": [
        _p("Asha", "sequences", maal_cards=["8H", "8H", "8H"]),
        _p("Bikash", "sequences", maal_cards=["9H"]),
        _p("Chandra", "unseen", maal_cards=[]),
    ],
}
PLAIN = {
    "finish": "sequences",
    "winner": "Bikash",
    "players": [
        _p("Asha", "sequences", maal_counts={"poplu": 1}),
        _p("Bikash", "sequences", maal_counts={"tiplu": 1}),
        _p("Chandra", "sequences", maal_counts={}),
    ],
}
DUBLEES = {
    "finish": "dublees",
    "winner": "Asha",
    "players": [
        _p("Asha", "dublees", maal_counts={"tiplu": 1}),
        _p("Bikash", "sequences", maal_counts={"poplu": 1}),
        _p("Chandra", "unseen", maal_counts={}),
    ],
}
PLAYERS3 = ["Asha", "Bikash", "Chandra"]


def nets_under(rules: str, hand: dict) -> dict[str, int]:
    result = settle(parse_hand(hand, resolve_rules(rules)), resolve_rules(rules))
    return result.nets()


def check_rescore(body: dict, played: str, other: str, hands: list[dict], refused: int) -> None:
    """The refused hand keeps its nets as played; the others are settled under ``other``;
    the totals add up; a settle-up only where the totals of zero-sum rules sum to 0."""
    expected = dict.fromkeys(PLAYERS3, 0)
    for number, (got, hand) in enumerate(zip(body["hands"], hands, strict=True), start=1):
        nets = nets_under(played if number == refused else other, hand)
        assert got["rescored"] == ("no" if number == refused else "full"), got
        assert {p["name"]: p["net"] for p in got["players"]} == nets
        for name, net in nets.items():
            expected[name] += net
    assert body["hands"][refused - 1]["why"]
    totals = {p["name"]: p["total"] for p in body["players"]}
    assert totals == expected
    summed = sum(totals.values())
    if resolve_rules(other).zero_sum:
        assert summed != 0  # the points race's hand does not sum to 0
    assert body["settle_up"] is None


def test_a_points_race_rescored_under_zero_sum_rules_keeps_the_refused_hand(create_match):
    match = create_match(players=PLAYERS3, rules="gamerules")
    for hand in (THREE_TIPLUS, PLAIN):
        assert match.post_hand(hand).status_code == 201
    response = match.client.post(f"{match.url}/rescore", json={"rules": "amarnepal"})
    assert response.status_code == 200, response.get_json()
    check_rescore(response.get_json(), "gamerules", "amarnepal", [THREE_TIPLUS, PLAIN], 1)


def test_a_zero_sum_match_rescored_as_a_points_race_keeps_the_refused_hand(create_match):
    match = create_match(players=PLAYERS3, rules="sparkai")
    for hand in (PLAIN, DUBLEES):
        assert match.post_hand(hand).status_code == 201
    response = match.client.post(f"{match.url}/rescore", json={"rules": "gamerules"})
    assert response.status_code == 200, response.get_json()
    check_rescore(response.get_json(), "sparkai", "gamerules", [PLAIN, DUBLEES], 2)


def test_a_zero_sum_rescore_whose_totals_still_sum_to_0_settles_up(create_match):
    match = create_match(players=PLAYERS3, rules="gamerules")
    assert match.post_hand(PLAIN).status_code == 201
    body = match.client.post(f"{match.url}/rescore", json={"rules": "amarnepal"}).get_json()
    assert body["settle_up"] is not None


@pytest.mark.parametrize(
    ("played", "other"), [("gamerules", "amarnepal"), ("sparkai", "gamerules")]
)
def test_a_season_rescore_keeps_the_refused_hands(client, played, other):
    table = create_table(client, players=PLAYERS3, rules=played)
    match = table.new_match(PLAYERS3)
    hands = [THREE_TIPLUS, PLAIN] if played == "gamerules" else [PLAIN, DUBLEES]
    table.play(match, hands)
    response = client.post(f"{table.url}/rescore", json={"rules": other})
    assert response.status_code == 200, response.get_json()
    body = response.get_json()
    assert body["matches"][0]["hands_refused"] == 1
    refused = 1 if played == "gamerules" else 2
    expected = dict.fromkeys(PLAYERS3, 0)
    for number, hand in enumerate(hands, start=1):
        for name, net in nets_under(played if number == refused else other, hand).items():
            expected[name] += net
    assert {p["name"]: p["total"] for p in body["players"]} == expected
