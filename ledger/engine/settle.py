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


def _with_bonus(count: MaalCount, bonus: int) -> MaalCount:
    """The finisher's maal with the dublee finish bonus, where the house adds it there."""
    return MaalCount(count.total + bonus, (*count.items, MaalItem("dublee_finish_bonus", bonus)))


def _finisher_index(hand: Hand) -> int | None:
    if hand.finish == "void":
        return None
    for i, p in enumerate(hand.players):
        if p.name == hand.winner:
            return i
    raise EngineError(f"the winner {hand.winner!r} is not a player")  # parse_hand checks it


#: The unseen_maal rules under which an unseen player's maal counts as theirs.
KEPT = ("keep", "keep_not_between_unseen")


def _owed(
    hand: Hand, counts: list[MaalCount], rules: HouseRules, w: int | None
) -> tuple[list[int], list[int], list[int]]:
    """Each player's E (docs/rules.md §3 step 1), fee and same-hand foul penalty, received
    (+) or paid (−), in one pass over the players. E: a foul player's is 0, and an unseen
    player's where the house murders or kidnaps it (the finisher then takes it). Fees: in
    a zero-sum hand each non-finisher pays the finisher the fee of the route they saw by
    (§3 step 4); a foul player pays no fee, and the penalty where the house settles it in
    the same hand; in a points race the finisher earns a bonus per opponent."""
    effective: list[int] = []
    fees: list[int] = []
    penalties: list[int] = []
    kept = rules.unseen_maal in KEPT
    kidnap = rules.unseen_maal == "kidnap"
    zero_sum, route_fee = rules.zero_sum, rules.route_fees
    per_loser = hand.finish == "dublees" and rules.dublee_finish_bonus_mode == "per_loser"
    bonus = rules.dublee_finish_bonus if per_loser else 0
    penalty = rules.foul_penalty if rules.foul == "same_hand" else 0
    kidnapped = fees_won = penalties_won = 0  # the finisher's, added after the pass
    for i, (_, seen, _, _, _, _, _, foul) in enumerate(hand.players):
        total = counts[i].total
        effective.append(total if not foul and (kept or seen != "unseen") else 0)
        if kidnap and not foul and seen == "unseen":
            kidnapped += total
        if w is None or i == w or not (foul or zero_sum):
            fees.append(0)
            penalties.append(0)
        elif foul:
            fees.append(0)
            penalties.append(-penalty)
            penalties_won += penalty
        else:
            fee = route_fee[seen] + bonus
            fees.append(-fee)
            penalties.append(0)
            fees_won += fee
    if w is not None:
        effective[w] += kidnapped
        fees[w] = fees_won
        if not zero_sum:
            fees[w] += rules.finisher_bonus_per_opponent * (len(counts) - 1)
        penalties[w] = penalties_won
    return effective, fees, penalties


def _unseen_apart(hand: Hand, effective: list[int], points: list[int]) -> None:
    """Under keep_not_between_unseen two unseen players exchange nothing, so an unseen
    player's maal points run over the seen players only (docs/rules.md §7)."""
    unseen = [i for i, p in enumerate(hand.players) if p.seen == "unseen"]
    between = sum([effective[i] for i in unseen])
    for i in unseen:
        # Take back the exchange with each other unseen player: Σ (E_i − E_j) over them.
        points[i] -= len(unseen) * effective[i] - between


def settle(hand: Hand, rules: HouseRules) -> Settlement:
    """Settle a hand that ``parse_hand`` accepted under the same rules: what each player
    holds and owes in one pass over the players (``_owed``), then, with the total T, what
    each scores, nets and pays the finisher in another."""
    finish, winner, seated, tiplu = hand
    counts = count_players_maal(seated, rules, tiplu)
    w = _finisher_index(hand)
    bonus = rules.dublee_finish_bonus
    if finish == "dublees" and rules.dublee_finish_bonus_mode == "finisher_maal" and bonus:
        assert w is not None
        counts[w] = _with_bonus(counts[w], bonus)
    effective, fees, penalties = _owed(hand, counts, rules, w)
    total = sum(effective)

    if finish == "void" and rules.void_hand == "nothing":
        maal_points = [0] * len(counts)
    elif rules.zero_sum:
        # n × E − T: the sum over every other player j of E_i − E_j.
        n = len(effective)
        maal_points = [n * e - total for e in effective]
        if rules.unseen_maal == "keep_not_between_unseen":
            _unseen_apart(hand, effective, maal_points)
    else:
        maal_points = effective

    zero_sum = rules.zero_sum
    finisher = seated[w].name if w is not None and zero_sum else None
    players, paid, nets = [], [], 0
    for i, (name, seen, _, _, _, _, _, foul) in enumerate(seated):
        (own, items), e, m, f, k = counts[i], effective[i], maal_points[i], fees[i], penalties[i]
        net = m + f + k
        nets += net
        # PlayerResult's fields in order, every one given (every hand builds several).
        players.append(new(PlayerResult, (name, seen, own, items, e, m, f, k, net, i == w, foul)))
        if finisher is not None and i != w and net:
            # Each non-finisher with the finisher (§3 step 6).
            paid.append(new(Payment, (name, finisher, -net) if net < 0 else (finisher, name, net)))
    results = tuple(players)
    carried: tuple[str, ...] = ()
    if rules.foul == "next_hand":
        carried = tuple(p.name for p in seated if p.foul)
    payments: tuple[Payment, ...] = ()
    if zero_sum:
        if nets != 0:  # the payments are made from the nets, so they give them then
            raise EngineError(f"nets do not sum to zero: { {p.name: p.net for p in results} }")
        payments = tuple(paid) if w is not None else _debts_paid(results)
    return new(Settlement, (rules, finish, winner, total, results, payments, carried))


def _debts_paid(players: tuple[PlayerResult, ...]) -> tuple[Payment, ...]:
    """Who pays whom with no finisher: debtors pay creditors in seat order."""
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
