"""The match page's score table: a row per player, a column per hand.

Only arranges the engine's numbers for the template (the hand's net, a foul penalty
carried in from an earlier hand, the running total after the hand): nothing is added
up here, and the rows are built in one pass over the hands. Each figure is also written
here as the page shows it, once, rather than by a filter in each of the table's cells.
"""

from __future__ import annotations

from msgspec import Struct

from ledger.i18n.numbers import signed_writer
from ledger.matches.view import MatchView

#: The hands the match page shows; the older ones are on the pages of hands (a page
#: that costs the same at the thousandth hand as at the tenth). The hand forms read as
#: many, for the last players and how each entered their maal.
RECENT_HANDS = 12


class ScoreCell(Struct, frozen=True):
    hand: int
    net: int | None  # None: sat out
    finished: bool
    carried: int  # a foul penalty from an earlier hand settled in this one (0: none)
    running: int  # the total after this hand
    #: The three as shown (the page's digits, a sign): "" for a net or penalty not there.
    shown_net: str
    shown_carried: str
    shown_running: str


class ScoreRow(Struct, frozen=True):
    name: str
    total: int
    deals_next: bool
    cells: tuple[ScoreCell, ...]


def score_rows(view: MatchView) -> list[ScoreRow]:
    signed = signed_writer()
    cells: dict[str, list[ScoreCell]] = {name: [] for name in view.players}
    for hand, running in zip(view.hands, view.state.cumulative, strict=True):
        nets = hand.nets
        for name in view.players:
            net, carried = nets.get(name), hand.carried_penalties.get(name, 0)
            cells[name].append(
                ScoreCell(
                    hand=hand.number,
                    net=net,
                    finished=hand.winner == name,
                    carried=carried,
                    running=running[name],
                    shown_net=signed(net) if net is not None else "",
                    shown_carried=signed(carried) if carried else "",
                    shown_running=signed(running[name]),
                )
            )
    return [
        ScoreRow(
            name=name,
            total=view.totals[name],
            deals_next=name == view.next_dealer and not view.finished,
            cells=tuple(cells[name]),
        )
        for name in view.players
    ]


#: The deleted hands the note under the score table names at most (the newest).
DELETED_NAMED = 20


def deleted_hands(view: MatchView) -> list[int]:
    """The numbers no kept hand of the match has, below the next hand's (a deleted hand
    keeps its number: numbers are not used again), the last hands undone or deleted
    too: the note under the score table links each to the hand's page, where it is put
    back. The newest ``DELETED_NAMED``, read off the gaps between the kept numbers (a
    gap of any width costs nothing)."""
    kept = sorted(number for number, _ in view.running)
    bounds = [0, *kept, view.next_hand_number]
    found: list[int] = []
    for low, high in zip(reversed(bounds[:-1]), reversed(bounds[1:]), strict=True):
        found.extend(range(high - 1, low, -1)[: DELETED_NAMED - len(found)])
        if len(found) == DELETED_NAMED:
            break
    return sorted(found)
