"""The newest hands of a match as its pages show them (``view.HandView``), kept in the
process from one version of the match to the next.

Reading the newest dozen hands for the match page is mostly decoding their stored JSON
(as entered, the result, the fold record), and a new hand leaves every earlier hand as
it was. As with the chart's totals (``running_kept``), the views kept at one version
stand at a later one only when every write since was an added hand (each write counts
one version, and only an added hand takes a new number): then only the hands added
since are read. Any other write reads them again: an edit or a delete (which may change
a later hand's carried penalties), a renamed or forgotten player (which rewrites the
hands), a change of rules, players or guests, in this process or another one. A kept
view is shared by the requests that read it: nothing changes one.
"""

from __future__ import annotations

from dataclasses import dataclass

from flask import Flask

from ledger.matches import fold
from ledger.matches.models import Match
from ledger.matches.running_kept import ByMatch, added_since, by_match
from ledger.matches.view import HandRow, HandView, hand_view

#: The most hands' views a process keeps, over all matches (a hundred matches' dozen).
MAX_HANDS = 1_200
EXTENSION = "ledger_match_newest_hands"


@dataclass(frozen=True)
class KeptHands:
    """A match's newest hands' views as they stood at ``version``."""

    version: int
    last_hand_number: int
    #: How many of the newest were asked for: ``views`` holds that many, or every hand.
    asked: int
    views: tuple[HandView, ...]


def newest_hands(match: Match, newest: int) -> tuple[tuple[HandView, ...], list[HandRow]]:
    """The views of the match's ``newest`` hands (``newest`` > 0), in number order, and
    the hands read for them as rows (with their moves: the chart's totals take up the
    added ones'): those added since the views kept, or all ``newest``."""
    store = kept_hands()
    players = tuple(match.player_names)
    kept = store.get(match.public_id)
    added = added_since(match, kept.version, kept.last_hand_number) if kept else None
    if kept is None or added is None or kept.asked < newest:
        rows = fold.hands(match, newest)
        views, asked = tuple(hand_view(row, players) for row in rows), newest
    else:
        rows = fold.hands(match, newest, after=kept.last_hand_number) if added else []
        views = kept.views + tuple(hand_view(row, players) for row in rows)
        asked = kept.asked  # a page's dozen stays kept when the big screen asks for one
    if all(view.number <= match.last_hand_number for view in views):  # none written since
        entry = KeptHands(match.version, match.last_hand_number, asked, views[-asked:])
        store.put(match.public_id, entry)
    return views[-newest:], rows


def kept_hands(app: Flask | None = None) -> ByMatch[KeptHands]:
    """The app's store of the newest hands' views."""
    return by_match(EXTENSION, MAX_HANDS, _hands_in, app)


def _hands_in(kept: KeptHands) -> int:
    return len(kept.views)
