"""The kept fold (``engine.scoreboard``) agrees with ``run_match``, its definition: built
hand by hand, after a hand is changed or removed (counted out, counted in, refolded
as far as the carries change), and in the running totals."""

from __future__ import annotations

import random
from dataclasses import replace

import pytest

from ledger.engine import HandRecord, resolve_rules, run_match
from ledger.engine.scoreboard import (
    Scoreboard,
    carry,
    moves_text,
    record_from_json,
    record_json,
    refold,
    running_totals,
)

PLAYERS = ("Asha", "Bikash", "Chandra", "Dipa")
RULES = resolve_rules({"profile": "sparkai", "foul": "next_hand"})


def random_record(rng: random.Random, number: int) -> HandRecord:
    playing = list(PLAYERS) if rng.random() < 0.7 else rng.sample(PLAYERS, 3)
    winner = None if rng.random() < 0.2 else rng.choice(playing)
    nets = {name: rng.randint(-30, 30) for name in playing}
    fouls = tuple(n for n in playing if n != winner and rng.random() < 0.2)
    seen = {n: rng.choice(["sequences", "unseen", "dublees"]) for n in playing}
    return HandRecord(number, rng.choice(PLAYERS), winner, nets, seen, fouls)


def folded(hands):
    out, pending = [], ()
    for hand in hands:
        carried = carry(pending, hand, RULES)
        out.append((hand, carried))
        pending = carried.pending
    return out


def assert_is_run_match(board: Scoreboard, hands) -> None:
    state = run_match(PLAYERS, "Asha", RULES, None, hands)
    mine = board.state("Asha", RULES, None)
    assert (mine.totals, mine.standings, mine.fouls_pending, mine.next_dealer) == (
        state.totals,
        state.standings,
        state.fouls_pending,
        state.next_dealer,
    )
    assert mine.hands_played == state.hands_played


@pytest.mark.parametrize("seed", range(40))
def test_a_board_built_hand_by_hand_is_run_match(seed):
    rng = random.Random(seed)
    hands = [random_record(rng, n) for n in range(1, rng.randint(1, 30))]
    board = Scoreboard.rebuild(PLAYERS, folded(hands))
    assert_is_run_match(board, hands)
    state = run_match(PLAYERS, "Asha", RULES, None, hands)
    carries = folded(hands)
    assert {h.number: dict(c.penalties) for h, c in carries if c.penalties} == {
        k: v for k, v in state.carried_penalties.items() if v
    }
    texts = [moves_text(PLAYERS, h, c) for h, c in carries]
    assert [dict(zip(PLAYERS, t, strict=True)) for t in running_totals(4, texts)] == (
        state.cumulative
    )
    # What a hand keeps reads back as the fold needs it (who was unseen is left out).
    for hand, carried in carries:
        again, carried_again = record_from_json(
            hand.number, hand.dealer, record_json(hand, carried)
        )
        assert carried_again == carried
        assert (again.nets, again.winner, again.fouls_carried) == (
            hand.nets,
            hand.winner,
            hand.fouls_carried,
        )
        assert {n for n in again.nets if again.seen.get(n, "unseen") != "unseen"} == {
            n for n in hand.nets if hand.seen.get(n, "unseen") != "unseen"
        }


@pytest.mark.parametrize("seed", range(20))
def test_a_board_rebuilt_in_one_pass_is_the_board_built_hand_by_hand(seed):
    """``rebuild`` counts in one pass what ``with_hand`` adds hand by hand: every line
    (best hands and maal too), the payments between each pair, the fouls waiting, the
    last dealer and the count of hands."""
    rng = random.Random(2000 + seed)
    hands = []
    for number in range(1, rng.randint(1, 30)):
        hand = random_record(rng, number)
        maal = {name: rng.randint(0, 12) for name in hand.nets}
        payments = tuple(
            (payer, payee, rng.randint(1, 9))
            for payer in hand.nets
            for payee in hand.nets
            if payer != payee and rng.random() < 0.3
        )
        hands.append(replace(hand, maal=maal, payments=payments))
    by_hand = Scoreboard.empty(PLAYERS)
    for hand, carried in folded(hands):
        by_hand = by_hand.with_hand(hand, carried)
    assert Scoreboard.rebuild(PLAYERS, folded(hands)) == by_hand
    assert Scoreboard.rebuild(PLAYERS, []) == Scoreboard.empty(PLAYERS)


@pytest.mark.parametrize("seed", range(40))
def test_a_changed_or_removed_hand_refolds_to_run_match(seed):
    rng = random.Random(1000 + seed)
    hands = [random_record(rng, n) for n in range(1, rng.randint(2, 25))]
    kept = folded(hands)
    board = Scoreboard.rebuild(PLAYERS, kept)
    k = rng.randrange(len(hands))
    old = kept[k]
    pending = kept[k - 1][1].pending if k else ()
    if rng.random() < 0.5:
        new_hand = random_record(rng, hands[k].number)
        new = (new_hand, carry(pending, new_hand, RULES))
        after = [*hands[:k], new_hand, *hands[k + 1 :]]
        pending = new[1].pending
    else:
        new = None
        after = [*hands[:k], *hands[k + 1 :]]
    changed = board.replaced(old, new)
    later = kept[k + 1 :]
    for _hand, was, now in refold(pending, later, RULES):
        if changed is not None:
            changed = changed.with_penalties(was, now)
    expected = Scoreboard.rebuild(PLAYERS, folded(after))
    if changed is None:  # a best hand was counted out: the ledger rebuilds
        changed = expected
    assert changed.lines == expected.lines
    assert changed.hands == len(after)
    assert_is_run_match(expected, after)


def test_a_refold_stops_at_the_first_hand_whose_carry_is_unchanged():
    hands = [HandRecord(n, "Asha", "Asha", {"Asha": 1, "Bikash": -1}) for n in range(1, 50)]
    kept = folded(hands)
    read = []

    def lazily():
        for item in kept[1:]:
            read.append(item[0].number)
            yield item

    fouled = HandRecord(1, "Asha", "Asha", {"Asha": 1, "Bikash": -1}, {}, ("Bikash",))
    changes = list(refold(carry((), fouled, RULES).pending, lazily(), RULES))
    assert [hand.number for hand, _, _ in changes] == [2]
    assert read == [2, 3]


def test_moves_that_do_not_name_every_seat_are_refused():
    with pytest.raises(ValueError):
        running_totals(3, ["1 -1"])
