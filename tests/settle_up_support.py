"""Counting payments without the engine's method, for the settle-up tests of every layer:
the fewest by an exhaustive search over payments, and how many the greedy rule takes."""

from __future__ import annotations


def fewest_by_search(balances: list[int]) -> int:
    """The fewest payments, by trying every way to square the first unsquared player
    against each later one of the other sign (the exhaustive search of "optimal account
    balancing"): no use of zero-sum groups."""
    owed = [b for b in balances if b]

    def search(start: int) -> int:
        while start < len(owed) and owed[start] == 0:
            start += 1
        if start == len(owed):
            return 0
        best = len(owed)
        for i in range(start + 1, len(owed)):
            if owed[i] * owed[start] < 0:
                owed[i] += owed[start]
                best = min(best, 1 + search(start + 1))
                owed[i] -= owed[start]
        return best

    return search(0)


def greedy_count(totals: dict[str, int]) -> int:
    """How many payments the greedy rule takes over the whole table: whoever owes most
    pays whoever is owed most, as much as squares one of them."""
    owed = list(totals.values())
    count = 0
    while any(owed):
        payer = min(range(len(owed)), key=lambda i: (owed[i], i))
        payee = max(range(len(owed)), key=lambda i: (owed[i], -i))
        paid = min(-owed[payer], owed[payee])
        owed[payer] += paid
        owed[payee] -= paid
        count += 1
    return count
