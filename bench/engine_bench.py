"""Engine throughput: random 4-player hands given as cards, read and settled on one core."""

from __future__ import annotations

import random
import time

from ledger.engine import PROFILES, parse_hand, settle
from ledger.engine.cards import RANK_NAMES, kinds_for, parse_card

SUITS = "SHDC"
NOT_MAAL = ("ordinary", "ordinary_joker")


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


def run(seconds: float = 2.0, *, maal_only: bool = True) -> dict[str, float]:
    rules = PROFILES["amarnepal"]
    rng = random.Random(7)
    hands = [random_hand(rng, rules, maal_only=maal_only) for _ in range(2000)]
    done = 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        for data in hands:
            settle(parse_hand(data, rules), rules)
        done += len(hands)
    elapsed = time.perf_counter() - start
    return {"hands": done, "seconds": elapsed, "hands_per_second": done / elapsed}


if __name__ == "__main__":
    print("maal cards:", run())
    print("all 21 cards:", run(maal_only=False))
