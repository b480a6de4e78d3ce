"""Settle-up time: ten players with random balances (summing to zero), their fewest
payments and money at a stake, by the engine alone (``settle_up``) on one core.

Some tables are random; others are made of small zero-sum groups, which is when the
fewest payments and the greedy count differ. Either way the answer should take a few
milliseconds, far below a page's time.
"""

from __future__ import annotations

import random
import statistics
import time
from decimal import Decimal

from ledger.engine import Stake, settle_up

PLAYERS = [f"P{i}" for i in range(10)]
STAKE = Stake(Decimal("0.35"), "NPR")


def random_totals(rng: random.Random) -> dict[str, int]:
    """Ten totals summing to zero: all at random, or split into zero-sum groups."""
    if rng.random() < 0.5:
        values = [rng.randint(-300, 300) for _ in range(9)]
        values.append(-sum(values))
    else:
        values, left = [], 10
        while left:
            size = min(left, rng.randint(2, 4)) if left > 1 else 1
            group = [rng.randint(-150, 150) for _ in range(size - 1)]
            values += [*group, -sum(group)]
            left -= size
        rng.shuffle(values)
    return dict(zip(PLAYERS, values, strict=True))


def run(tables: int = 200) -> dict[str, float]:
    rng = random.Random(12)
    all_totals = [random_totals(rng) for _ in range(tables)]
    times = []
    payments = 0
    for totals in all_totals:
        start = time.perf_counter()
        result = settle_up(totals, STAKE)
        times.append(time.perf_counter() - start)
        payments += len(result.transfers)
    return {
        "tables": tables,
        "median_ms": statistics.median(times) * 1000,
        "max_ms": max(times) * 1000,
        "mean_payments": payments / tables,
    }


if __name__ == "__main__":
    print(run())
