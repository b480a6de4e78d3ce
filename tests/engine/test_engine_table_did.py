"""Issue 14, "Score what the table did": hands the published sources describe, which the
ledger used to refuse, and two readings the sources leave open (docs/rule-choices.md).

Each test quotes the sentence of the source (or of docs/rules.md) it follows. The numbers are
worked out by hand in the comments, from docs/rules.md §2-3 and §6.
"""

import pytest
from spec_support import by_name, hand, nets, player, problems, rules_for, settle_data

from ledger.engine import (
    PROFILES,
    HandRecord,
    MatchLength,
    check_another_hand,
    parse_hand,
    run_match,
)
from ledger.engine.maal import NO_BONUS_REASONS
from ledger.engine.rules import PROFILE_NOTES


def breakdown(result, name):
    return [(i.item, i.count, i.cards, i.points) for i in by_name(result)[name].breakdown]


def finisher_and(b: dict, profile="amarnepal", tiplu="8H", **overrides):
    """A finishes by sequences with no maal; B is the player under test."""
    data = hand([player("A", "sequences"), player("B", **b)], winner="A", tiplu=tiplu)
    return settle_data(data, profile, **overrides)


# --- a dealt tunnela that earns no bonus --------------------------------------------------
# amarnepal: the dealt tunnela bonus is "for a player who went on to see".
# classic: "That tunnela bonus requires the natural qualification route".
# docs/rules.md §3 "A valid hand": the hand is still valid; the tunnela scores no bonus, its three
# cards count as the player's other maal cards (where the player's maal counts at all),
# and the breakdown says why.


def test_an_unseen_player_who_laid_a_dealt_tunnela_is_accepted():
    # tiplu 8H: 9H is the poplu. B never saw: no bonus (20), three poplus instead (10).
    result = finisher_and({"seen": "unseen", "dealt_tunnelas": ["9H"]})
    b = by_name(result)["B"]
    assert b.maal == 10
    assert breakdown(result, "B") == [
        ("dealt_tunnela_no_bonus", 1, ("9H",) * 3, 0),
        ("poplu", 3, ("9H",) * 3, 10),
    ]
    assert b.breakdown[0].reason == "unseen"
    # murder: an unseen player's maal is worth 0; B pays the unseen fee only
    assert b.effective_maal == 0
    assert nets(result) == {"A": 10, "B": -10}


def test_under_kidnap_the_tunnelas_cards_go_to_the_finisher():
    # E(A) = 0 + 10 kidnapped, T = 10, n = 2: A 2×10 − 10 = +10, B −10; B's fee 10.
    result = finisher_and({"seen": "unseen", "dealt_tunnelas": ["9H"]}, unseen_maal="kidnap")
    assert by_name(result)["A"].effective_maal == 10
    assert nets(result) == {"A": 20, "B": -20}


def test_seen_by_dublees_where_the_bonus_needs_the_sequences_route():
    # classic, tiplu 8H: B saw by dublees, so the tunnela of poplus scores no bonus (20)
    # but counts as three poplus (10), and B's maal counts: E = 10, T = 10, n = 2:
    # A 0 − 10 = −10, B 20 − 10 = +10; B pays the seen-by-dublees fee 3.
    result = finisher_and({"seen": "dublees", "dealt_tunnelas": ["9H"]}, "classic")
    b = by_name(result)["B"]
    assert (b.maal, b.effective_maal) == (10, 10)
    assert b.breakdown[0].item == "dealt_tunnela_no_bonus"
    assert b.breakdown[0].reason == "seen_by_dublees"
    assert nets(result) == {"A": -7, "B": 7}


def test_the_same_tunnela_earns_the_bonus_for_a_player_seen_by_sequences():
    # the contrast: B 20 (bonus), T = 20: A −20 + 3, B 40 − 20 − 3
    result = finisher_and({"seen": "sequences", "dealt_tunnelas": ["9H"]}, "classic")
    assert breakdown(result, "B") == [("dealt_tunnela", 1, ("9H",) * 3, 20)]
    assert nets(result) == {"A": -17, "B": 17}


def test_the_tunnelas_cards_form_marriages_with_the_rest():
    # amarnepal, seen by dublees: 8H 8H 7H 7H and the tunnela's 9H 9H 9H are two tiplus,
    # three poplus, two jhiplus. best: 0 marriages 8 + 10 + 5 = 23; 1: 10 + 3 + 5 + 2 = 20;
    # 2: 30 + one poplu 2 = 32.
    result = finisher_and(
        {"seen": "dublees", "maal_cards": ["8H", "8H", "7H", "7H"], "dealt_tunnelas": ["9H"]}
    )
    assert breakdown(result, "B") == [
        ("dealt_tunnela_no_bonus", 1, ("9H",) * 3, 0),
        ("marriage", 2, ("7H", "8H", "9H") * 2, 30),
        ("poplu", 1, ("9H",), 2),
    ]
    assert by_name(result)["B"].maal == 32


def test_a_tunnela_named_by_its_kind_counts_as_three_of_that_kind():
    # amarnepal unseen, counts: one tiplu, and a tunnela of poplus: 3 + 10 = 13
    result = finisher_and(
        {"seen": "unseen", "maal_counts": {"tiplu": 1}, "dealt_tunnelas": ["poplu"]}
    )
    assert breakdown(result, "B") == [
        ("dealt_tunnela_no_bonus", 1, ("9H",) * 3, 0),  # its cards, known from the tiplu
        ("tiplu", 1, ("8H",), 3),
        ("poplu", 3, ("9H",) * 3, 10),
    ]


def test_an_ordinary_tunnela_without_its_bonus_is_no_maal():
    result = finisher_and({"seen": "unseen", "dealt_tunnelas": ["5S", "ordinary_joker"]})
    # the tunnela entered as a kind is the first joker card with room, 8S (docs/rules.md §9)
    # 5S 5S 5S are listed once, by the tunnela's item: no maal item lists them again at 0
    assert breakdown(result, "B") == [
        ("dealt_tunnela_no_bonus", 2, ("5S",) * 3 + ("8S",) * 3, 0),
        ("ordinary_joker", 3, ("8S",) * 3, 0),
    ]


def test_a_maal_entered_as_one_number_already_holds_the_tunnela():
    # docs/rule-choices.md: a number is the whole count, tunnelas inside it; one that
    # earns no bonus is still a step, as with cards or counts, and the number is all
    result = finisher_and({"seen": "unseen", "maal": 12, "dealt_tunnelas": ["9H"]})
    assert breakdown(result, "B") == [
        ("dealt_tunnela_no_bonus", 1, ("9H",) * 3, 0),
        ("entered", 0, (), 12),
    ]
    assert by_name(result)["B"].breakdown[1].note is None


def test_a_tunnelas_bonus_inside_a_number_is_a_step_of_its_own():
    # docs/rule-choices.md: the table checks the bonus; the number's item is the rest.
    # amarnepal: a poplu tunnela (tiplu 8H) scores 20, so 25 entered is 20 + 5.
    result = finisher_and({"seen": "sequences", "maal": 25, "dealt_tunnelas": ["9H"]})
    assert breakdown(result, "B") == [
        ("dealt_tunnela", 1, ("9H",) * 3, 20),
        ("entered", 0, (), 5),
    ]
    assert [i.note for i in by_name(result)["B"].breakdown] == ["in_entered", "rest_of_entered"]
    assert by_name(result)["B"].maal == 25
    # A number below the bonus it holds: the rest says so, the maal is still the number.
    short = finisher_and({"seen": "sequences", "maal": 12, "dealt_tunnelas": ["9H"]})
    assert breakdown(short, "B")[-1] == ("entered", 0, (), -8)
    assert by_name(short)["B"].maal == 12


def test_every_reason_has_a_sentence_for_the_pages():
    reasons = {"unseen": "unseen", "dublees": "seen_by_dublees"}
    for seen, reason in reasons.items():
        result = finisher_and({"seen": seen, "dealt_tunnelas": ["9H"]}, "everestbuzz")
        assert by_name(result)["B"].breakdown[0].reason == reason
        assert reason in NO_BONUS_REASONS
    item = by_name(result)["B"].breakdown[0].to_json()
    assert item["reason"] == "seen_by_dublees" and item["points"] == 0


def test_an_override_that_needs_nothing_gives_the_unseen_player_the_bonus():
    result = finisher_and(
        {"seen": "unseen", "dealt_tunnelas": ["9H"]},
        dealt_tunnela_needs="nothing",
        unseen_maal="keep",
    )
    assert breakdown(result, "B") == [("dealt_tunnela", 1, ("9H",) * 3, 20)]


def test_the_tunnelas_cards_still_count_towards_the_pack():
    # three 9H in B's tunnela and one in A's cards: four copies of one card
    data = hand(
        [player("A", maal_cards=["9H"]), player("B", "unseen", dealt_tunnelas=["9H"])],
        winner="A",
        tiplu="8H",
    )
    assert [e.field for e in problems(data)] == ["players.1.dealt_tunnelas.0"]


@pytest.mark.parametrize(
    ("profile", "entry", "maal"), [("sparkai", "9H", 10), ("classic", "tiplu", 11)]
)
def test_a_tunnela_the_profile_never_scores_is_kept_as_its_cards(profile, entry, maal):
    # docs/rules.md §9: "still a valid hand ... no bonus, its cards count as other maal
    # cards, and the breakdown says why": three poplus 10; three tiplus 7 + the step 4.
    result = finisher_and({"dealt_tunnelas": [entry]}, profile, tiplu_copies_max=3)
    b = by_name(result)["B"]
    assert b.maal == maal
    assert (b.breakdown[0].item, b.breakdown[0].reason) == (
        "dealt_tunnela_no_bonus",
        "kind_not_scored",
    )
    assert "kind_not_scored" in NO_BONUS_REASONS


# --- shown marriages where they score like hidden ones ------------------------------------
# docs/rules.md §3 "A valid hand": "`marriages_shown` in a profile that scores shown marriages like
# hidden ones is accepted and changes nothing" (amarnepal: one marriage table, 10 / 30).


@pytest.mark.parametrize("profile", ["amarnepal", "sparkai", "classic", "everestbuzz"])
@pytest.mark.parametrize(
    "maal",
    [
        {"maal_counts": {"tiplu": 2, "poplu": 1, "jhiplu": 1}},
        {"maal_cards": ["7H", "8H", "9H", "9H"]},
        {"maal": 15},
    ],
)
def test_shown_marriages_are_accepted_and_change_nothing(profile, maal):
    shown = finisher_and({"seen": "sequences", **maal, "marriages_shown": 1}, profile)
    hidden = finisher_and({"seen": "sequences", **maal}, profile)
    assert by_name(shown)["B"].breakdown == by_name(hidden)["B"].breakdown
    assert nets(shown) == nets(hidden)


def test_a_shown_marriage_is_not_checked_where_it_changes_nothing():
    # docs/rules.md §9: "changes nothing and is not checked against the cards"
    b = {"maal_counts": {"tiplu": 1, "poplu": 1}}
    shown = finisher_and({**b, "marriages_shown": 2})
    assert nets(shown) == nets(finisher_and(b))
    assert by_name(shown)["B"].maal == 3 + 2


def test_gamerules_still_scores_shown_marriages_apart():
    # gamerules: "in hand 10 / 30; shown on the table 15 / 35"
    shown = finisher_and(
        {"maal_counts": {"tiplu": 1, "poplu": 1, "jhiplu": 1}, "marriages_shown": 1}, "gamerules"
    )
    assert by_name(shown)["B"].maal == 15


# --- gamerules: three copies of the tiplu -------------------------------------------------
# gamerules: the indicator card goes back under the stock, "place it face down at the
# bottom of the draw pile", so all three copies of the main wild can be in hands.


def test_gamerules_holds_three_tiplus_across_the_table():
    rules = rules_for("gamerules")
    assert rules.tiplu_copies_max == 3
    data = hand(
        [player("A", maal_cards=["QH", "QH"]), player("B", maal_cards=["QH"])],
        winner="A",
        tiplu="QH",
    )
    parse_hand(data, rules)
    four = hand(
        [player("A", maal_cards=["QH", "QH"]), player("B", maal_cards=["QH", "QH"])],
        winner="A",
        tiplu="QH",
    )
    (problem,) = problems(four, "gamerules")
    assert problem.field == "players.1.maal_cards"
    assert "only 3 copies" in problem.message


def test_gamerules_three_tiplus_in_one_hand():
    # the table 3 / 7 stops at two; past its end each tiplu adds the last step (4):
    # 7 + 4 = 11 (docs/rule-choices.md); the finisher bonus is 10 × 1 opponent.
    result = finisher_and({"maal_cards": ["QH", "QH", "QH"]}, "gamerules", tiplu="QH")
    assert breakdown(result, "B") == [("tiplu", 3, ("QH",) * 3, 11)]
    assert nets(result) == {"A": 10, "B": 11}


@pytest.mark.parametrize("profile", ["amarnepal", "sparkai", "classic"])
def test_the_profiles_that_set_the_indicator_aside_keep_two(profile):
    data = hand(
        [player("A", maal_cards=["QH", "QH"]), player("B", maal_cards=["QH"])],
        winner="A",
        tiplu="QH",
    )
    assert "the third is set aside" in problems(data, profile)[0].message


# --- a finished match takes no more hands -------------------------------------------------
# docs/rules.md §5: "When a match with a length has played it, the match is over: its result
# stands and it takes no more hands until the table changes its length (to play on)."

SEATS = ("Asha", "Bikash", "Chandra")


def played(count):
    return [
        HandRecord(i, SEATS[(i - 1) % 3], "Asha", {"Asha": 3, "Bikash": -3})
        for i in range(1, count + 1)
    ]


def state_of(length, count):
    return run_match(SEATS, "Asha", rules_for("classic"), length, played(count))


@pytest.mark.parametrize(
    ("length", "count", "takes"),
    [
        (MatchLength("hands", 4), 3, True),
        (MatchLength("hands", 4), 4, False),
        (MatchLength("hands", 1), 1, False),
        (MatchLength("rotations", 1), 2, True),  # 3 players: 3 hands
        (MatchLength("rotations", 1), 3, False),
        (None, 40, True),  # open: never over
    ],
)
def test_a_match_takes_another_hand_until_its_length_is_played(length, count, takes):
    assert (check_another_hand(state_of(length, count)) == []) is takes


def test_the_refusal_says_how_long_the_match_was_and_how_to_play_on():
    state = state_of(MatchLength("rotations", 2), 6)
    assert state.hands_in_length == 6
    (problem,) = check_another_hand(state)
    assert problem.field == ""
    assert "6 hand(s)" in problem.message and "change its length" in problem.message


def test_changing_the_length_lets_the_match_play_on():
    assert check_another_hand(state_of(MatchLength("hands", 4), 4))
    assert check_another_hand(state_of(MatchLength("hands", 8), 4)) == []
    assert check_another_hand(state_of(None, 4)) == []


# --- readings the sources leave open (docs/rule-choices.md) -------------------------------


def test_classic_counts_an_unseen_players_maal_as_nothing():
    # docs/rules.md §6 classic "unseen maal: murder": the source states no murder rule and its
    # only example has an unseen player holding none; the ledger reads it as murder.
    # B unseen with two tiplus (7) is worth 0: A +10 (fee), B −10.
    result = finisher_and({"seen": "unseen", "maal_cards": ["8H", "8H"]}, "classic")
    assert by_name(result)["B"].maal == 7
    assert by_name(result)["B"].effective_maal == 0
    assert nets(result) == {"A": 10, "B": -10}
    # the override unseen_maal changes it. kidnap: E(A) = 7, T = 7, n = 2: A 14 − 7 = +7,
    # B −7; with the fee 10: A +17, B −17.
    kidnapped = finisher_and(
        {"seen": "unseen", "maal_cards": ["8H", "8H"]}, "classic", unseen_maal="kidnap"
    )
    assert nets(kidnapped) == {"A": 17, "B": -17}


def test_gamerules_counts_the_two_secondary_wild_cards_each_on_its_own_table():
    # docs/rules.md §6 gamerules "poplu, jhiplu (each) 2 / 5 / 10": tiplu 7♣, one 6♣ (jhiplu) and
    # one 8♣ (poplu) are 2 + 2 = 4, not "two = 5" as one shared table would give.
    result = finisher_and({"maal_cards": ["6C", "8C"]}, "gamerules", tiplu="7C")
    assert breakdown(result, "B") == [("poplu", 1, ("8C",), 2), ("jhiplu", 1, ("6C",), 2)]
    assert by_name(result)["B"].maal == 4


def test_gamerules_three_marriages_go_on_by_the_last_step():
    # PROFILE_NOTES and docs/rule-choices.md: marriage 10 / 30 goes on by 20: three are 50
    # (best: 2 marriages and a loose tiplu, poplu, jhiplu would be 30 + 3 + 2 + 2 = 37).
    cards = ["QH", "KH", "JH"] * 3
    result = finisher_and({"maal_cards": cards}, "gamerules", tiplu="QH")
    assert breakdown(result, "B") == [("marriage", 3, ("JH", "QH", "KH") * 3, 50)]


def test_the_rules_page_notes_belong_to_published_profiles():
    assert set(PROFILE_NOTES) == {"classic", "gamerules"} <= set(PROFILES)
    assert "unseen maal" in PROFILE_NOTES["classic"]
    assert "2 + 2" in PROFILE_NOTES["gamerules"]
