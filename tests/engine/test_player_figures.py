"""The engine's arithmetic of a player's figures (issue 39): rates from integers, runs and
form over the finished nights only, ties sharing the better place, and awards never given
for a largest value of 0 or less. tests/api/test_player_stats_api.py holds every figure to
the stored hands through the API."""

from __future__ import annotations

import copy
from fractions import Fraction

from hypothesis import given
from hypothesis import strategies as st

from ledger.engine.player_figures import (
    HandFacts,
    Night,
    awards,
    count_nights,
    percent,
    player_figures,
    ranked,
    tally_hands,
)


@given(part=st.integers(0, 10_000), extra=st.integers(0, 10_000))
def test_a_rate_is_the_percentage_rounded_half_up(part, extra):
    whole = part + extra
    if whole == 0:
        assert percent(part, whole) == 0
        return
    exact = Fraction(100 * part, whole)
    assert percent(part, whole) == int(exact + Fraction(1, 2))


def night(match: str, finished: bool, totals: dict[str, int]) -> Night:
    """A night whose players each played one hand netting their total."""
    hand = HandFacts(1, None, "void", totals, {})
    return Night(match, finished, tally_hands(match, [hand]), totals)


def test_runs_and_form_count_the_finished_nights_only_and_ties_share_first():
    nights = [
        night("m1", True, {"A": 5, "B": 5, "C": -10}),  # A and B share first
        night("m2", False, {"A": -20, "B": 20}),  # not over: no place
        night("m3", True, {"A": 7, "B": -7}),
        night("m4", True, {"A": -1, "C": 1}),  # B sat this one out
        night("m5", True, {"A": 3, "B": -3}),
    ]
    rows = {row.name: row for row in player_figures(nights)}
    a, b = rows["A"], rows["B"]
    assert a.finishes == [1, 1, 2, 1] and a.longest_winning_run == 2
    assert a.places == {1: 3, 2: 1} and a.form == [1, 1, 2, 1]
    assert b.finishes == [1, 2, 2] and b.longest_winning_run == 1
    # m2's −20 is not A's worst night: a night still going has no result yet.
    assert a.best_night.match == "m3" and a.worst_night.match == "m4"
    assert b.worst_night.match == "m3" and b.best_night.match == "m1"
    assert rows["C"].places == {3: 1, 1: 1}
    assert (
        len(player_figures([night(f"n{i}", True, {"A": 1, "B": 0}) for i in range(7)])[0].form) == 5
    )


def test_a_night_whose_points_do_not_count_is_a_night_played_and_a_place():
    """A points race among zero-sum nights: B's 30 of his own maal is neither in his
    total nor his best hand or night, but he played the night, won its hand and won it."""
    race_hand = HandFacts(1, "B", "sequences", {"A": 2, "B": 30}, {"A": "unseen"})
    race = Night("r", True, tally_hands("r", [race_hand]), {"A": 2, "B": 30}, counts_points=False)
    rows = {row.name: row for row in player_figures([night("z", True, {"A": 4, "B": -4}), race])}
    a, b = rows["A"], rows["B"]
    assert (a.total, b.total, a.matches, b.matches) == (4, -4, 2, 2)
    assert b.tally.hands == 2 and b.tally.hands_won == 1 and b.places == {2: 1, 1: 1}
    assert b.form == [2, 1] and b.longest_winning_run == 1
    assert b.tally.best_hand.net == b.best_night.total == b.worst_night.total == -4
    assert a.tally.unseen_hands == 2 and a.tally.unseen_points == 4  # the race's 2: no cost
    assert a.tally.unseen_points_hands == 1  # the hands that cost is of: not the race's
    assert [(x.award, x.players) for x in awards([a, b])] == [
        ("hands_won", ("B",)),
        ("best_hand", ("A",)),
        ("best_night", ("A",)),
    ]


def test_an_award_whose_largest_value_is_not_above_zero_is_not_given():
    nights = [night("m1", True, {"A": -4, "B": -4}), night("m2", True, {"A": 0, "B": -2})]
    given_awards = {award.award: award for award in awards(player_figures(nights))}
    assert given_awards == {}  # nobody won a hand, finished by dublees or ended above 0
    hand = HandFacts(1, "B", "dublees", {"A": -6, "B": 6}, {"B": "dublees"})
    later = Night("m3", True, tally_hands("m3", [hand]), {"A": -6, "B": 6})
    given_awards = {a.award: a for a in awards(player_figures([*nights, later]))}
    assert [a for a in given_awards] == ["hands_won", "dublee_finishes", "best_hand", "best_night"]
    assert {a.players for a in given_awards.values()} == {("B",)}


@given(
    st.lists(
        st.tuples(
            st.booleans(),
            st.dictionaries(st.sampled_from("ABCDE"), st.integers(-50, 50), min_size=2),
        ),
        max_size=8,
    ),
    st.integers(0, 8),
)
def test_nights_counted_on_to_kept_figures_are_all_the_nights_figures(plays, split):
    """count_nights on to the figures of earlier nights gives the figures of all of
    them, and leaves those kept as they were (a page keeps them for the next hand)."""
    nights = [night(f"m{i}", finished, totals) for i, (finished, totals) in enumerate(plays)]
    earlier = count_nights(nights[:split])
    kept = copy.deepcopy(earlier)
    both = ranked(count_nights(nights[split:], earlier))
    assert both == player_figures(nights)
    assert earlier == kept
