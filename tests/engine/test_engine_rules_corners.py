"""The rules' corners settled by docs/rules.md §9 (issue 36), on the engine alone.

Worked by hand: tiplu 8H, so the poplu is 9H, the ordinary jokers 8S and 8C."""

from __future__ import annotations

import pytest
from spec_support import by_name, hand, nets, player, problems, rules_for, settle_data

from ledger.engine import Invalid, parse_hand, resolve_rules
from ledger.engine.rules import falling_tables


def finisher_and(b: dict, profile="sparkai", **overrides):
    """A finishes by sequences with no maal; B is the player under test."""
    data = hand([player("A", "sequences"), player("B", **b)], winner="A", tiplu="8H")
    return settle_data(data, profile, **overrides)


# --- a dealt tunnela of a kind the rules never score ---------------------------------------


def test_three_poplus_dealt_under_sparkai_count_10():
    b = by_name(finisher_and({"dealt_tunnelas": ["9H"]}))["B"]
    assert b.maal == 10
    assert [(i.item, i.count, i.points, i.reason) for i in b.breakdown] == [
        ("dealt_tunnela_no_bonus", 1, 0, "kind_not_scored"),
        ("poplu", 3, 10, None),
    ]


def test_a_kept_tunnela_forms_marriages_with_the_other_cards():
    # 3 poplus + tiplu + jhiplu: best of one marriage 10 + two poplus 5, or none 3+2+10
    b = by_name(finisher_and({"dealt_tunnelas": ["poplu"], "maal_cards": ["8H", "7H"]}))["B"]
    assert b.maal == 15


def test_a_scored_kind_beside_an_unscored_one_keeps_its_bonus():
    # everestbuzz scores tiplu tunnelas but no printed jokers; amarnepal with four packs
    # deals three tiplus but scores no tiplu tunnela: 5 bonus + three tiplus 8 + 5 = 13
    b = by_name(finisher_and({"dealt_tunnelas": ["5S", "8H"]}, "amarnepal", packs=4))["B"]
    assert [(i.item, i.points) for i in b.breakdown[:2]] == [
        ("dealt_tunnela", 5),
        ("dealt_tunnela_no_bonus", 0),
    ]
    assert b.maal == 5 + 13


# --- shown marriages where they change nothing ---------------------------------------------


@pytest.mark.parametrize("maal", [{"maal_cards": []}, {"maal_counts": {"tiplu": 1}}, {"maal": 4}])
def test_marriages_shown_are_not_checked_where_they_score_like_hidden_ones(maal):
    shown = finisher_and({**maal, "marriages_shown": 3})
    assert nets(shown) == nets(finisher_and(maal))


def test_marriages_shown_are_checked_where_they_score_apart():
    data = hand(
        [player("A"), player("B", maal_cards=["8H"], marriages_shown=1)], winner="A", tiplu="8H"
    )
    assert [e.field for e in problems(data, "gamerules")] == ["players.1.marriages_shown"]


# --- an ordinary-joker tunnela entered only by its kind -----------------------------------

JOKERS = {"packs": 4, "ordinary_joker": (1, 3, 6), "dealt_tunnela_bonus_mode": "added"}


def joker_hand(b_cards: list[str], c_cards: list[str]) -> dict:
    return hand(
        [
            player("A", "sequences"),
            player("B", maal_cards=b_cards, dealt_tunnelas=["ordinary_joker"]),
            player("C", maal_cards=c_cards),
        ],
        winner="A",
        tiplu="8H",
    )


def jokers_of(data: dict) -> list[tuple[int, tuple[str, ...], int]]:
    b = by_name(settle_data(data, "sparkai", **JOKERS))["B"]
    return [(i.count, i.cards, i.points) for i in b.breakdown if i.item == "ordinary_joker"]


def test_where_only_one_card_fits_the_tunnela_is_that_card_counted_with_the_others():
    # C holds two 8C of four: only 8S has room for three. B's 8S and the tunnela: four
    # copies of one card, 6 + the last step 3 = 9 (apart: 1 + 6 = 7).
    assert jokers_of(joker_hand(["8S"], ["8C", "8C"])) == [(4, ("8S",) * 4, 9)]


def test_where_both_fit_the_tunnela_is_the_card_the_player_holds_none_of():
    # items in card order: 8C before 8S
    assert jokers_of(joker_hand(["8S"], [])) == [(3, ("8C",) * 3, 6), (1, ("8S",), 1)]
    assert jokers_of(joker_hand(["8C"], [])) == [(1, ("8C",), 1), (3, ("8S",) * 3, 6)]


def test_where_both_fit_and_nothing_chooses_it_is_the_first_in_suit_order():
    assert jokers_of(joker_hand([], [])) == [(3, ("8S",) * 3, 6)]
    assert jokers_of(joker_hand(["8S", "8C"], [])) == [(1, ("8C",), 1), (4, ("8S",) * 4, 9)]


def test_the_tunnela_is_kept_as_entered():
    data = joker_hand(["8S"], ["8C", "8C"])
    parsed = parse_hand(data, rules_for("sparkai", **JOKERS))
    assert parsed.to_json()["players"][1]["dealt_tunnelas"] == ["ordinary_joker"]


def test_where_neither_card_fits_the_copies_check_refuses_it():
    data = joker_hand([], ["8S", "8S", "8C", "8C"])
    # B's tunnela is then 8S (first in suit order): with C's two, five copies of four,
    # reported where the table went past the pack
    (problem,) = problems(data, "sparkai", **JOKERS)
    assert problem.field == "players.2.maal_cards"
    assert problem.message.startswith("Too many 8S:") and "(B 3, C 2)" in problem.message


# --- points tables that fall ----------------------------------------------------------------


@pytest.mark.parametrize(
    ("setting", "table", "message"),
    [
        ("poplu", [100, 0], "the total for 2 is 0, less than 100 for 1"),
        ("marriage", [10, 30, 20], "the total for 3 is 20, less than 30 for 2"),
        ("alter", [5, 15, 10], "the total for 3 is 10, less than 15 for 2"),
        ("marriage_shown", [15, 5], "the total for 2 is 5, less than 15 for 1"),
        ("tunnela_ordinary", [5, 15, 10], "the total for 3 is 10, less than 15 for 2"),
    ],
)
def test_a_table_that_falls_is_refused_on_its_setting(setting, table, message):
    with pytest.raises(Invalid) as refused:
        resolve_rules({"profile": "sparkai", setting: table})
    (problem,) = refused.value.errors
    assert problem.field == f"rules.{setting}"
    assert message in problem.message


def test_a_level_or_rising_table_is_kept():
    rules = resolve_rules({"profile": "sparkai", "poplu": [5, 5, 5], "tiplu": [0, 3]})
    assert rules.poplu == (5, 5, 5) and falling_tables(rules) == []


def test_rules_kept_from_before_are_read_as_stored():
    rules = resolve_rules({"profile": "sparkai", "poplu": [100, 0]}, stored=True)
    assert rules.poplu == (100, 0)
    assert [e.field for e in falling_tables(rules)] == ["rules.poplu"]


def test_counted_jokers_join_the_card_the_tunnela_is():
    # B's other joker is a count (no card): it joins the tunnela's 8S, as counted copies
    # fill one card before the other: four copies, 9 (as when the tunnela had no card)
    data = hand(
        [
            player("A", "sequences"),
            player("B", maal_counts={"ordinary_joker": 1}, dealt_tunnelas=["ordinary_joker"]),
            player("C", maal_cards=["8C", "8C"]),
        ],
        winner="A",
        tiplu="8H",
    )
    assert jokers_of(data) == [(4, ("8S",) * 3, 9)]
