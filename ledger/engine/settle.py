"""Settling one hand: effective maal, maal points, fees, nets, who pays whom (docs/rules.md §3-4).

The worked example of docs/rules.md §3 (murder, four players):

>>> from .reading import parse_hand
>>> from .rules import PROFILES
>>> hand = parse_hand({"finish": "sequences", "winner": "Asha", "players": [
...     {"name": "Asha", "seen": "sequences", "maal": 10},
...     {"name": "Bikash", "seen": "sequences", "maal": 5},
...     {"name": "Chandra", "seen": "sequences", "maal": 0},
...     {"name": "Dipa", "seen": "unseen", "maal": 8}]}, PROFILES["sparkai"])
>>> [(p.name, p.net) for p in settle(hand, PROFILES["sparkai"]).players]
[('Asha', 41), ('Bikash', 2), ('Chandra', -18), ('Dipa', -25)]
"""

from __future__ import annotations

from typing import Any, NamedTuple

from .errors import EngineError
from .hand import Hand
from .maal import MaalCount, MaalItem, count_players_maal
from .rules import HouseRules
from .values import new


class PlayerResult(NamedTuple):
    name: str
    seen: str
    maal: int  # the player's own maal count
    breakdown: tuple[MaalItem, ...]
    effective_maal: int  # E, after murder, kidnap or keep
    maal_points: int  # n × E − T; in a points race, the player's own maal
    fee: int  # received (+, the finisher) or paid (−); the finisher bonus in a points race
    foul_penalty: int  # received (+) or paid (−) in this hand
    net: int
    finisher: bool = False
    foul: bool = False

    def to_json(self) -> dict[str, object]:
        return {
            "name": self.name,
            "seen": self.seen,
            "maal": self.maal,
            "effective_maal": self.effective_maal,
            "maal_points": self.maal_points,
            "fee": self.fee,
            "foul_penalty": self.foul_penalty,
            "net": self.net,
            "finisher": self.finisher,
            "foul": self.foul,
            "breakdown": [item.to_json() for item in self.breakdown],
        }


class Payment(NamedTuple):
    payer: str
    payee: str
    points: int

    def to_json(self) -> dict[str, object]:
        return {"from": self.payer, "to": self.payee, "points": self.points}


class Settlement(NamedTuple):
    rules: HouseRules
    finish: str
    winner: str | None
    total_maal: int  # T
    players: tuple[PlayerResult, ...]
    payments: tuple[Payment, ...]
    #: Players whose foul penalty goes to the next hand's finisher (foul = next_hand).
    fouls_carried: tuple[str, ...] = ()

    @property
    def n(self) -> int:
        return len(self.players)

    def nets(self) -> dict[str, int]:
        return {p.name: p.net for p in self.players}

    def to_json(self) -> dict[str, object]:
        return {
            "rules": self.rules.to_json(),
            "scoring": self.rules.scoring,
            "finish": self.finish,
            "winner": self.winner,
            "n": self.n,
            "total_maal": self.total_maal,
            "players": [p.to_json() for p in self.players],
            "payments": [p.to_json() for p in self.payments],
            "fouls_carried": list(self.fouls_carried),
        }


def settlement_json(hand: Hand, result: Settlement) -> dict[str, object]:
    """A settled hand as the API answers it: the hand as read, then the result."""
    return {"hand": hand.to_json(), **result.to_json()}


def _fees(hand: Hand, rules: HouseRules, w: int | None) -> tuple[list[int], list[int]]:
    """Each player's fee and same-hand foul penalty, received (+) or paid (−): in a
    zero-sum hand each non-finisher pays the finisher the fee of the route they saw by
    (docs/rules.md §3 step 4); a foul player pays no fee, and the penalty where the house
    settles it in the same hand; in a points race the finisher earns a bonus per
    opponent."""
    n = len(hand.players)
    fees, penalties = [0] * n, [0] * n
    if w is None:
        return fees, penalties
    zero_sum = rules.zero_sum
    route_fee = rules.route_fees
    per_loser = hand.finish == "dublees" and rules.dublee_finish_bonus_mode == "per_loser"
    bonus = rules.dublee_finish_bonus if per_loser else 0
    penalty = rules.foul_penalty if rules.foul == "same_hand" else 0
    for i, p in enumerate(hand.players):
        if i == w:
            continue
        if p.foul:
            penalties[i] -= penalty
            penalties[w] += penalty
        elif zero_sum:
            fee = route_fee[p.seen] + bonus
            fees[i] -= fee
            fees[w] += fee
    if not zero_sum:
        fees[w] += rules.finisher_bonus_per_opponent * (n - 1)
    return fees, penalties


def _own_maal(hand: Hand, rules: HouseRules) -> list[MaalCount]:
    counts = count_players_maal(hand.players, rules, hand.tiplu)
    bonus = rules.dublee_finish_bonus
    if hand.finish == "dublees" and rules.dublee_finish_bonus_mode == "finisher_maal" and bonus:
        w = _finisher_index(hand)
        assert w is not None
        counts[w] = MaalCount(
            counts[w].total + bonus, (*counts[w].items, MaalItem("dublee_finish_bonus", bonus))
        )
    return counts


def _finisher_index(hand: Hand) -> int | None:
    if hand.finish == "void":
        return None
    assert hand.winner is not None  # a finished hand has a winner (parse_hand checks it)
    return [p.name for p in hand.players].index(hand.winner)


def _effective(hand: Hand, own: list[int], rules: HouseRules, w: int | None) -> list[int]:
    """E per player (docs/rules.md §3 step 1)."""
    effective = []
    kidnapped = 0
    kept = rules.unseen_maal in KEPT
    for p, count in zip(hand.players, own, strict=True):
        if p.foul:
            effective.append(0)
        elif kept or p.seen != "unseen":
            effective.append(count)
        else:
            effective.append(0)
            if rules.unseen_maal == "kidnap":
                kidnapped += count
    if w is not None:
        effective[w] += kidnapped
    return effective


#: The unseen_maal rules under which an unseen player's maal counts as theirs.
KEPT = ("keep", "keep_not_between_unseen")


def _exchange(hand: Hand, effective: list[int], total: int, rules: HouseRules) -> list[int]:
    """Maal points of a zero-sum hand: n × E − T, the sum over every other player j of
    E_i − E_j; under keep_not_between_unseen two unseen players exchange nothing, so an
    unseen player's sum runs over the seen players only (docs/rules.md §7)."""
    n = len(effective)
    points = [n * e - total for e in effective]
    if rules.unseen_maal == "keep_not_between_unseen":
        unseen = [i for i, p in enumerate(hand.players) if p.seen == "unseen"]
        between = sum([effective[i] for i in unseen])
        for i in unseen:
            # Take back the exchange with each other unseen player: Σ (E_i − E_j) over them.
            points[i] -= len(unseen) * effective[i] - between
    return points


def settle(hand: Hand, rules: HouseRules) -> Settlement:
    """Settle a hand that ``parse_hand`` accepted under the same rules."""
    counts = _own_maal(hand, rules)
    own = [c.total for c in counts]
    w = _finisher_index(hand)
    effective = _effective(hand, own, rules, w)
    total = sum(effective)

    if hand.finish == "void" and rules.void_hand == "nothing":
        maal_points = [0] * len(own)
    elif rules.zero_sum:
        maal_points = _exchange(hand, effective, total, rules)
    else:
        maal_points = effective

    fees, penalties = _fees(hand, rules, w)

    # PlayerResult's fields in order, every one given (every hand builds several).
    players = tuple(
        [
            new(
                PlayerResult,
                (p.name, p.seen, c.total, c.items, e, m, f, k, m + f + k, i == w, p.foul),
            )
            for i, (p, c, e, m, f, k) in enumerate(
                zip(hand.players, counts, effective, maal_points, fees, penalties, strict=True)
            )
        ]
    )
    carried: tuple[str, ...] = ()
    if rules.foul == "next_hand":
        carried = tuple(p.name for p in hand.players if p.foul)
    payments: tuple[Payment, ...] = ()
    if rules.zero_sum:
        _check_zero_sum(players)
        payments = _payments(players, w)
    return new(Settlement, (rules, hand.finish, hand.winner, total, players, payments, carried))


def _payments(players: tuple[PlayerResult, ...], w: int | None) -> tuple[Payment, ...]:
    """Who pays whom: each non-finisher with the finisher (§3 step 6); with no finisher,
    debtors pay creditors in seat order."""
    if w is not None:
        finisher = players[w].name
        out = []
        for p in players:
            if p.finisher or p.net == 0:
                continue
            out.append(
                new(Payment, (p.name, finisher, -p.net) if p.net < 0 else (finisher, p.name, p.net))
            )
        return tuple(out)
    debts: list[list[Any]] = [[p.name, -p.net] for p in players if p.net < 0]  # name, left
    credits: list[list[Any]] = [[p.name, p.net] for p in players if p.net > 0]
    out = []
    for debtor in debts:
        for creditor in credits:
            amount = min(debtor[1], creditor[1])
            if amount:
                out.append(Payment(debtor[0], creditor[0], amount))
                debtor[1] -= amount
                creditor[1] -= amount
    return tuple(out)


def _check_zero_sum(players: tuple[PlayerResult, ...]) -> None:
    """Fail loudly if the nets do not sum to zero. The payments are made from the nets, so
    then they give the nets (the property tests hold them to that)."""
    if sum([p.net for p in players]) != 0:
        raise EngineError(f"nets do not sum to zero: { {p.name: p.net for p in players} }")
