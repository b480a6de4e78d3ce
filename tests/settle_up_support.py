"""For the settle-up tests of every layer: two-player hands that lead to totals the
greedy rule settles with one payment too many, and counting payments without the
engine's method (the fewest by an exhaustive search over payments; the greedy rule's)."""

from __future__ import annotations

from ledger.engine import parse_hand, resolve_rules, settle

SIX = ["Asha", "Bikash", "Chandra", "Dipa", "Esha", "Gopal"]


def duel(winner: str, loser: str, points: int) -> dict:
    """A two-player hand (settle format) that ``winner`` wins by ``points`` under sparkai:
    both seen by sequences, the finisher gets 3 + their maal - the other's. The match's
    other players sit it out."""
    return {
        "finish": "sequences",
        "winner": winner,
        "players": [
            {"name": winner, "seen": "sequences", "maal": max(points - 3, 0)},
            {"name": loser, "seen": "sequences", "maal": max(3 - points, 0)},
        ],
    }


#: Two zero-sum groups of SIX (Esha owes Asha 4; Dipa and Gopal owe Bikash and Chandra 6):
#: the greedy rule (Dipa, owing most, pays Asha, owed most) mixes them: 5 payments, not 4.
GREEDY_HANDS = [
    duel("Asha", "Esha", 4),
    duel("Bikash", "Dipa", 3),
    duel("Chandra", "Dipa", 2),
    duel("Chandra", "Gopal", 1),
]


def engine_totals(hands: list[dict], players=SIX, rules: str = "sparkai") -> dict[str, int]:
    """The match totals the engine gives these hands, added up here, not by the app."""
    resolved = resolve_rules(rules)
    totals = dict.fromkeys(players, 0)
    for data in hands:
        for name, net in settle(parse_hand(data, resolved), resolved).nets().items():
            totals[name] += net
    return totals


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
