"""A match: running totals, dealer rotation, sit-outs, foul carry-over, standings
(docs/rules.md §5).

The match works from the nets each hand agreed (they are stored), so an old hand
keeps its result even if the engine's arithmetic were ever to change.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

from .errors import N_, FieldError
from .rules import HouseRules, MatchLength


@dataclass(frozen=True)
class HandRecord:
    """What the match needs of one played hand."""

    number: int
    dealer: str
    winner: str | None
    nets: Mapping[str, int]  # players of the hand only; the rest sat out
    seen: Mapping[str, str] = field(default_factory=dict)
    fouls_carried: tuple[str, ...] = ()
    #: Each player's own maal counted in the hand (for a table's standings).
    maal: Mapping[str, int] = field(default_factory=dict)
    #: The hand's payments as (payer, payee, points): who paid whom in it.
    payments: tuple[tuple[str, str, int], ...] = ()


@dataclass(frozen=True)
class Standing:
    place: int  # equal totals share a place: 1, 1, 3
    name: str
    total: int
    hands_played: int
    hands_finished: int
    times_seen: int
    best_hand: int | None  # the player's biggest net in one hand


@dataclass(frozen=True)
class MatchState:
    players: tuple[str, ...]
    totals: dict[str, int]
    #: Per hand number: the foul penalties carried in from an earlier hand (name -> points).
    carried_penalties: dict[int, dict[str, int]]
    #: Cumulative total of each player after each hand, in hand order.
    cumulative: list[dict[str, int]]
    #: Fouls still waiting for a hand with a finisher.
    fouls_pending: tuple[str, ...]
    next_dealer: str
    hands_played: int
    #: The length has been played, or the table ended the match: it takes no more hands.
    finished: bool
    standings: tuple[Standing, ...]
    hands_in_length: int | None = None  # None: an open match

    @property
    def leaders(self) -> list[str]:
        if not self.hands_played:
            return []
        return [s.name for s in self.standings if s.place == 1]


def next_seat(players: Sequence[str], current: str, direction: str) -> str:
    """The seat the deal passes to: left is the next name in seat order."""
    step = 1 if direction == "left" else -1
    return players[(players.index(current) + step) % len(players)]


def sitting_out_in_turn(
    players: Sequence[str], dealer: str, most: int, direction: str
) -> list[str]:
    """Who sits out the hand ``dealer`` deals when more players sit at the table than a
    hand deals to (``most``): the dealer, then as many players after them (the way the
    deal passes) as must; nobody when all fit. So the sitting out goes round with the
    deal: over 12 hands of 6 players on three packs each sits out twice."""
    extra = len(players) - most
    if extra <= 0 or dealer not in players:
        return []
    out = [dealer]
    while len(out) < extra:
        out.append(next_seat(players, out[-1], direction))
    return out


def hands_in_length(length: MatchLength | None, n_players: int) -> int | None:
    if length is None:
        return None
    return length.count if length.unit == "hands" else length.count * n_players


def is_finished(length: MatchLength | None, hands_played: int, n_players: int) -> bool:
    needed = hands_in_length(length, n_players)
    return needed is not None and hands_played >= needed


def check_another_hand(state: MatchState) -> list[FieldError]:
    """A finished match takes no more hands until the table changes its length (docs/rules.md
    §5): its result stands. Editing or removing a played hand is no further hand."""
    if not state.finished:
        return []
    return [
        FieldError(
            "",
            N_(
                "This match is over: the {hands} hand(s) of its length have been played. "
                "To play on, change its length."
            ),
            hands=state.hands_in_length,
        )
    ]


def run_match(
    players: Sequence[str],
    first_dealer: str,
    rules: HouseRules,
    length: MatchLength | None,
    hands: Sequence[HandRecord],
) -> MatchState:
    players = tuple(players)
    totals = dict.fromkeys(players, 0)
    carried: dict[int, dict[str, int]] = {}
    cumulative: list[dict[str, int]] = []
    pending: list[str] = []
    for hand in sorted(hands, key=lambda h: h.number):
        for name, net in hand.nets.items():
            totals[name] += net
        if hand.winner is not None and pending:
            moves = dict.fromkeys(players, 0)
            for foul in pending:
                if foul != hand.winner:  # waived when the foul player finishes
                    moves[foul] -= rules.foul_penalty
                    moves[hand.winner] += rules.foul_penalty
            carried[hand.number] = {k: v for k, v in moves.items() if v}
            for name, delta in moves.items():
                totals[name] += delta
            pending = []
        pending += hand.fouls_carried
        cumulative.append(dict(totals))
    ordered = sorted(hands, key=lambda h: h.number)
    next_dealer = (
        next_seat(players, ordered[-1].dealer, rules.deal_passes)
        if ordered and ordered[-1].dealer in players
        else first_dealer
    )
    return MatchState(
        players=players,
        totals=totals,
        carried_penalties=carried,
        cumulative=cumulative,
        fouls_pending=tuple(pending),
        next_dealer=next_dealer,
        hands_played=len(hands),
        finished=is_finished(length, len(hands), len(players)),
        standings=standings(players, totals, hands),
        hands_in_length=hands_in_length(length, len(players)),
    )


def standings(
    players: Sequence[str], totals: Mapping[str, int], hands: Sequence[HandRecord]
) -> tuple[Standing, ...]:
    """Highest total first; equal totals share a place and keep seat order."""
    order = sorted(players, key=lambda name: -totals[name])
    out = []
    for name in order:
        played = [h for h in hands if name in h.nets]
        out.append(
            Standing(
                place=1 + sum(1 for other in players if totals[other] > totals[name]),
                name=name,
                total=totals[name],
                hands_played=len(played),
                hands_finished=sum(1 for h in played if h.winner == name),
                times_seen=sum(1 for h in played if h.seen.get(name, "unseen") != "unseen"),
                best_hand=max((h.nets[name] for h in played), default=None),
            )
        )
    return tuple(out)
