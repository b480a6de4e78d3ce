"""Engine throughput: random 4-player hands read and settled on one core.

Three forms of the same hands: each player's maal cards with the tiplu (what a
scorekeeper enters), the whole 21 cards (the worst case), and each maal as one number.
Each is also given as a ratio to ``copy.deepcopy`` of the same hands (the input as
posted), measured in turn with it: a yardstick that a busy machine slows alike.
"""

from __future__ import annotations

import copy
import random
import time

from ledger.engine import PROFILES, parse_hand, settle
from ledger.engine.cards import RANK_NAMES, kinds_for, parse_card

SUITS = "SHDC"
NOT_MAAL = ("ordinary", "ordinary_joker")
FORMS = ("cards", "all_cards", "numbers")


def pack(rules, tiplu: str) -> list[str]:
    codes = [f"{RANK_NAMES.get(r, str(r))}{s}" for r in range(1, 14) for s in SUITS]
    cards = [c for c in codes for _ in range(3)]
    cards.remove(tiplu)  # the indicator is set aside
    if rules.printed_jokers:
        cards += ["JK"] * 3
    return cards


def random_hand(rng: random.Random, rules, *, maal_only: bool = True) -> dict:
    """Four players of 21 cards dealt from the pack; one seen player finishes.

    A scorekeeper enters each player's maal cards (``maal_only``); the whole 21 cards
    are the worst case."""
    tiplu = f"{RANK_NAMES.get(r := rng.randint(1, 13), str(r))}{rng.choice(SUITS)}"
    cards = pack(rules, tiplu)
    rng.shuffle(cards)
    seen = ["sequences"] + [rng.choice(["sequences", "unseen", "dublees"]) for _ in range(3)]
    kinds = kinds_for(parse_card(tiplu))
    hands = [cards[21 * i : 21 * (i + 1)] for i in range(4)]
    if maal_only:
        hands = [[c for c in h if kinds[parse_card(c)] not in NOT_MAAL] for h in hands]
    players = [{"name": f"P{i}", "seen": seen[i], "maal_cards": hands[i]} for i in range(4)]
    return {"tiplu": tiplu, "finish": "sequences", "winner": "P0", "players": players}


def as_numbers(data: dict, rules) -> dict:
    """The same hand with each player's maal entered as the number its cards count."""
    counts = [p.maal for p in settle(parse_hand(data, rules), rules).players]
    players = [
        {"name": p["name"], "seen": p["seen"], "maal": maal}
        for p, maal in zip(data["players"], counts, strict=True)
    ]
    return {"finish": data["finish"], "winner": data["winner"], "players": players}


def hands_for(form: str, rules, count: int = 2000) -> list[dict]:
    rng = random.Random(7)
    hands = [random_hand(rng, rules, maal_only=form != "all_cards") for _ in range(count)]
    if form == "numbers":
        hands = [as_numbers(h, rules) for h in hands]
    return hands


def run(seconds: float = 2.0, *, form: str = "cards") -> dict[str, float]:
    """Hands read and settled per second, and µs a hand: the processor time of the best
    of short rounds, so that other work on a shared machine counts as little as it can;
    deep copies of the same rounds' hands take turns with them."""
    rules = PROFILES["amarnepal"]
    hands = hands_for(form, rules)
    done = 0
    best = best_copy = float("inf")
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        for first in range(0, len(hands), 250):
            batch = hands[first : first + 250]
            round_start = time.process_time()
            for data in batch:
                settle(parse_hand(data, rules), rules)
            best = min(best, (time.process_time() - round_start) / 250)
            round_start = time.process_time()
            for data in batch:
                copy.deepcopy(data)
            best_copy = min(best_copy, (time.process_time() - round_start) / 250)
        done += len(hands)
    elapsed = time.perf_counter() - start
    return {
        "hands": done,
        "seconds": elapsed,
        "hands_per_second": done / elapsed,
        "us_per_hand": best * 1e6,
        "x_deepcopy": best / best_copy,
    }


if __name__ == "__main__":
    for form in FORMS:
        figures = run(form=form)
        us, ratio = figures["us_per_hand"], figures["x_deepcopy"]
        print(f"{form}: {us:.1f} µs a hand, x deepcopy {ratio:.2f}")
