"""The match page's score table: a row per player, a column per hand.

Only arranges the engine's numbers for the template (the hand's net, a foul penalty
carried in from an earlier hand, the running total after the hand): nothing is added
up here, and the rows are built in one pass over the hands.
"""

from __future__ import annotations

from dataclasses import dataclass

from ledger.matches.view import MatchView

#: The hands the match page shows; the older ones are on the pages of hands (a page
#: that costs the same at the thousandth hand as at the tenth). The hand forms read as
#: many, for the last players and how each entered their maal.
RECENT_HANDS = 12


@dataclass(frozen=True)
class ScoreCell:
    hand: int
    net: int | None  # None: sat out
    finished: bool
    carried: int  # a foul penalty from an earlier hand settled in this one (0: none)
    running: int  # the total after this hand


@dataclass(frozen=True)
class ScoreRow:
    name: str
    total: int
    deals_next: bool
    cells: tuple[ScoreCell, ...]


def score_rows(view: MatchView) -> list[ScoreRow]:
    cells: dict[str, list[ScoreCell]] = {name: [] for name in view.players}
    for hand, running in zip(view.hands, view.state.cumulative, strict=True):
        nets = hand.nets
        for name in view.players:
            cells[name].append(
                ScoreCell(
                    hand=hand.number,
                    net=nets.get(name),
                    finished=hand.winner == name,
                    carried=hand.carried_penalties.get(name, 0),
                    running=running[name],
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
