"""A match's running state, kept between hands (docs/rules.md §5), so that a write costs the
same at the thousandth hand as at the tenth.

``run_match`` folds every hand from the first; a ledger that stored only the hands would
run it on every write. Here the fold is split into its steps, each of which can be
stored and taken up again:

- ``carry``: what a hand does to the fouls waiting for a finisher: the penalties it
  settles (carried in) and the fouls still waiting after it. It depends only on the
  fouls waiting before the hand, so a changed hand changes the carries of the hands
  after it only until a finisher settles them: ``refold`` stops at the first hand whose
  carry comes out as stored.
- ``Scoreboard``: the totals, each player's line of the standings, the fouls waiting
  and the last dealer. A hand adds to it (``with_hand``) and, since every figure but
  the best hand is a sum, a hand can be counted back out (``replaced``); a best hand
  cannot be taken back when it was that hand's, and then the board is rebuilt from the
  stored hands (``rebuild``: still no recount of any hand).

``run_match`` stays the definition: the tests fold random matches both ways.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field, replace
from itertools import accumulate, islice
from typing import Any

from .match import HandRecord, MatchState, Standing, hands_in_length, is_finished, next_seat
from .rules import HouseRules, MatchLength


@dataclass(frozen=True)
class Carry:
    """What the fouls waiting for a finisher do at one hand."""

    #: The foul penalties settled in this hand (name -> points, no zeros).
    penalties: Mapping[str, int]
    #: The fouls waiting for a finisher after this hand, in the order they were made.
    pending: tuple[str, ...]


def carry(pending: Sequence[str], hand: HandRecord, rules: HouseRules) -> Carry:
    """The hand's carry, given the fouls waiting before it: a finisher collects each
    waiting foul's penalty (waived for their own foul); then the hand's own fouls wait."""
    penalties: dict[str, int] = {}
    if hand.winner is not None and pending:
        for foul in pending:
            if foul != hand.winner:
                penalties[foul] = penalties.get(foul, 0) - rules.foul_penalty
                penalties[hand.winner] = penalties.get(hand.winner, 0) + rules.foul_penalty
        pending = ()
    return Carry({k: v for k, v in penalties.items() if v}, (*pending, *hand.fouls_carried))


def refold(
    pending: Sequence[str], stored: Iterable[tuple[HandRecord, Carry]], rules: HouseRules
) -> Iterator[tuple[HandRecord, Carry, Carry]]:
    """After a hand changed (``pending``: the fouls waiting after it now), the later hands
    whose carry changes, as (hand, stored carry, new carry), in order, up to the first
    hand whose carry comes out as stored. ``stored`` may be read lazily: it is read no
    further than that."""
    for hand, old in stored:
        new = carry(pending, hand, rules)
        if new == old:
            return
        yield hand, old, new
        pending = new.pending


def moves(hand: HandRecord, carried: Carry) -> dict[str, int]:
    """What the hand adds to each total: its nets and the penalties carried into it."""
    out = dict(hand.nets)
    for name, points in carried.penalties.items():
        out[name] = out.get(name, 0) + points
    return out


@dataclass(frozen=True)
class Line:
    """One player's line of the standings, as sums (and a maximum) over their hands."""

    total: int = 0
    played: int = 0
    finished: int = 0
    seen: int = 0
    best: int | None = None  # their biggest net in one hand
    maal: int = 0  # their own maal counted, summed over their hands


@dataclass(frozen=True)
class Scoreboard:
    """The match after its hands: what a write and a page need, without the hands."""

    players: tuple[str, ...]
    lines: Mapping[str, Line]
    pending: tuple[str, ...] = ()
    last_dealer: str | None = None  # None: no hand yet
    hands: int = 0
    #: The points of the hands' payments between each pair: payer -> payee -> points
    #: (no zeros): what a table's head-to-head sums over its matches.
    paid: Mapping[str, Mapping[str, int]] = field(default_factory=dict)

    @classmethod
    def empty(cls, players: Sequence[str]) -> Scoreboard:
        return cls(tuple(players), {name: Line() for name in players})

    @classmethod
    def rebuild(
        cls, players: Sequence[str], folded: Iterable[tuple[HandRecord, Carry]]
    ) -> Scoreboard:
        """The board of the stored hands (in number order) with their stored carries, as
        ``with_hand`` would build it hand by hand, counted in one pass (``_Tally``): a
        rescored season folds thousands of hands."""
        tally = _Tally(cls.empty(players))
        pending: tuple[str, ...] = ()
        last_dealer: str | None = None
        hands = 0
        for hand, carried in folded:
            tally.count(hand, carried, +1)
            hands, pending, last_dealer = hands + 1, carried.pending, hand.dealer
        return cls(tuple(players), tally.lines(), pending, last_dealer, hands, tally.payments())

    @property
    def totals(self) -> dict[str, int]:
        return {name: self.lines[name].total for name in self.players}

    def with_hand(self, hand: HandRecord, carried: Carry) -> Scoreboard:
        """The board with ``hand`` added as the newest hand (its carry as folded)."""
        board = self.replaced(None, (hand, carried))
        assert board is not None  # adding never needs a rebuild
        return replace(board, pending=carried.pending, last_dealer=hand.dealer)

    def replaced(
        self, old: tuple[HandRecord, Carry] | None, new: tuple[HandRecord, Carry] | None
    ) -> Scoreboard | None:
        """The board with hand ``old`` counted out and ``new`` counted in (either may be
        None: a hand added or deleted); the fouls waiting and the last dealer are the
        caller's to set. None when a player's best hand was ``old``'s net, since what came
        before it is not kept: rebuild the board then."""
        board = self
        if old is not None:
            if any(self.lines[name].best == net for name, net in old[0].nets.items()):
                return None
            board = board._count(*old, sign=-1)
        if new is not None:
            board = board._count(*new, sign=+1)
        return replace(board, hands=self.hands + (new is not None) - (old is not None))

    def with_penalties(self, old: Carry, new: Carry) -> Scoreboard:
        """The board after a hand's carried penalties changed from ``old`` to ``new``."""
        lines = dict(self.lines)
        for sign, carried in ((-1, old), (+1, new)):
            for name, points in carried.penalties.items():
                lines[name] = replace(lines[name], total=lines[name].total + sign * points)
        return replace(self, lines=lines)

    def _count(self, hand: HandRecord, carried: Carry, *, sign: int) -> Scoreboard:
        tally = _Tally(self)
        tally.count(hand, carried, sign)
        return replace(self, lines=tally.lines(), paid=tally.payments())

    def state(
        self,
        first_dealer: str,
        rules: HouseRules,
        length: MatchLength | None,
        carried_penalties: Mapping[int, Mapping[str, int]] | None = None,
        cumulative: Sequence[Mapping[str, int]] = (),
        *,
        ended: bool = False,
    ) -> MatchState:
        """The match's state as ``run_match`` gives it; the per-hand parts (penalties
        carried in, totals after each hand) for the hands the caller shows. ``ended``: the
        table ended the match after its last hand (finished whatever its length)."""
        players = self.players
        totals = self.totals
        next_dealer = (
            next_seat(players, self.last_dealer, rules.deal_passes)
            if self.last_dealer in players
            else first_dealer
        )
        return MatchState(
            players=players,
            totals=totals,
            carried_penalties={k: dict(v) for k, v in (carried_penalties or {}).items()},
            cumulative=[dict(c) for c in cumulative],
            fouls_pending=self.pending,
            next_dealer=next_dealer,
            hands_played=self.hands,
            finished=ended or is_finished(length, self.hands, len(players)),
            standings=self.standings(),
            hands_in_length=hands_in_length(length, len(players)),
        )

    def standings(self) -> tuple[Standing, ...]:
        """Highest total first; equal totals share a place and keep seat order."""
        totals = self.totals
        order = sorted(self.players, key=lambda name: -totals[name])
        return tuple(
            Standing(
                place=1 + sum(1 for other in self.players if totals[other] > totals[name]),
                name=name,
                total=totals[name],
                hands_played=self.lines[name].played,
                hands_finished=self.lines[name].finished,
                times_seen=self.lines[name].seen,
                best_hand=self.lines[name].best,
            )
            for name in order
        )

    def to_json(self) -> dict[str, Any]:
        return {
            "lines": {
                name: [line.total, line.played, line.finished, line.seen, line.best, line.maal]
                for name, line in self.lines.items()
            },
            "pending": list(self.pending),
            "last_dealer": self.last_dealer,
            "hands": self.hands,
            "paid": {payer: dict(payees) for payer, payees in self.paid.items()},
        }

    @classmethod
    def from_json(cls, players: Sequence[str], data: Mapping[str, Any]) -> Scoreboard:
        return cls(
            players=tuple(players),
            lines={name: Line(*data["lines"][name]) for name in players},
            pending=tuple(data["pending"]),
            last_dealer=data["last_dealer"],
            hands=data["hands"],
            paid=data.get("paid", {}),
        )


class _Tally:
    """A board's sums as plain numbers while hands are counted in or out, made into frozen
    ``Line``s once at the end: one per player per hand cost more than settling the
    hands when a season is folded."""

    def __init__(self, board: Scoreboard):
        self.sums = {
            name: [line.total, line.played, line.finished, line.seen, line.maal]
            for name, line in board.lines.items()
        }
        self.best = {name: line.best for name, line in board.lines.items()}
        self.paid = {payer: dict(payees) for payer, payees in board.paid.items()}

    def count(self, hand: HandRecord, carried: Carry, sign: int) -> None:
        """Count ``hand`` in (``sign`` +1) or out (-1)."""
        for name, points in moves(hand, carried).items():
            self.sums[name][0] += sign * points
        for name, net in hand.nets.items():
            line = self.sums[name]
            line[1] += sign
            line[2] += sign * (hand.winner == name)
            line[3] += sign * (hand.seen.get(name, "unseen") != "unseen")
            line[4] += sign * hand.maal.get(name, 0)
            best = self.best[name]
            self.best[name] = net if best is None or net > best else best
        for payer, payee, points in hand.payments:
            payees = self.paid.setdefault(payer, {})
            payees[payee] = payees.get(payee, 0) + sign * points

    def lines(self) -> dict[str, Line]:
        return {
            name: Line(total, played, finished, seen, self.best[name], maal)
            for name, (total, played, finished, seen, maal) in self.sums.items()
        }

    def payments(self) -> dict[str, dict[str, int]]:
        """The points paid between each pair, no zeros."""
        out = {payer: {q: v for q, v in payees.items() if v} for payer, payees in self.paid.items()}
        return {payer: payees for payer, payees in out.items() if payees}


def moves_text(players: Sequence[str], hand: HandRecord, carried: Carry) -> str:
    """``moves`` in seat order as text, "12 -4 -8 0": short to keep, quick to read.

    >>> moves_text(["A", "B", "C"], HandRecord(1, "A", "A", {"A": 5, "C": -5}), Carry({}, ()))
    '5 0 -5'
    """
    added = moves(hand, carried)
    return " ".join(str(added.get(name, 0)) for name in players)


def running_totals(
    seats: int, kept: Sequence[str], start: Sequence[int] | None = None
) -> list[tuple[int, ...]]:
    """The totals after each hand in seat order, from the hands' ``moves_text`` in order
    (tuples, not dicts, summed a seat at a time: a thousand hands are summed for every
    page of a match), from the totals ``start`` (None: from zero).

    >>> running_totals(2, ["5 -5", "-2 2"])
    [(5, -5), (3, -3)]
    >>> running_totals(2, ["-2 2"], start=(5, -5))
    [(3, -3)]
    """
    values = list(map(int, " ".join(kept).split()))
    if len(values) != seats * len(kept):
        raise ValueError("a hand's moves do not name every seat")
    if start is None:
        return list(zip(*(accumulate(values[seat::seats]) for seat in range(seats)), strict=True))
    sums = (accumulate(values[seat::seats], initial=start[seat]) for seat in range(seats))
    return list(zip(*(islice(sums_of_seat, 1, None) for sums_of_seat in sums), strict=True))


def record_json(hand: HandRecord, carried: Carry) -> dict[str, Any]:
    """What a stored hand keeps for the fold: small, so that reading every hand's is cheap."""
    return {
        "winner": hand.winner,
        "nets": dict(hand.nets),
        "seen": {name: status for name, status in hand.seen.items() if status != "unseen"},
        "fouls": list(hand.fouls_carried),
        "carried": dict(carried.penalties),
        "pending": list(carried.pending),
        "maal": {name: maal for name, maal in hand.maal.items() if maal},
        "paid": [list(payment) for payment in hand.payments],
    }


def record_from_json(number: int, dealer: str, data: Mapping[str, Any]) -> tuple[HandRecord, Carry]:
    hand = HandRecord(
        number=number,
        dealer=dealer,
        winner=data["winner"],
        nets=data["nets"],
        seen=data["seen"],
        fouls_carried=tuple(data["fouls"]),
        maal=data.get("maal", {}),
        payments=tuple((payer, payee, points) for payer, payee, points in data.get("paid", ())),
    )
    return hand, Carry(data["carried"], tuple(data["pending"]))
