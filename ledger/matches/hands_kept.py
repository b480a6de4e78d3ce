"""The newest hands of a match as its pages show them (``view.HandView``), kept in the
process from one version of the match to the next.

Reading the newest dozen hands for the match page is mostly decoding their stored JSON
(as entered, the result, the fold record), and a new hand leaves every earlier hand as
it was. As with the chart's totals (``running_kept``), when every write since the views
were kept was an added hand (each write counts one version, and only an added hand
takes a new number), they stand and only the hands added since are read. After any
other write (an edit or a delete, which may change a later hand's carried penalties; a
renamed or forgotten player; a change of rules or players), in this process or another
one, each newest hand's kept JSON (``Hand.fragment``: every write that changes what its
view shows rewrites it) is compared, as text, with the one its view was kept with, and
only the hands that differ are read again. A kept view is shared by the requests that
read it: nothing changes one.
"""

from __future__ import annotations

from flask import Flask
from msgspec import Struct

from ledger.matches import fold
from ledger.matches.models import Match
from ledger.matches.players_kept import seating
from ledger.matches.running_kept import ByMatch, added_since, by_match
from ledger.matches.view import HandRow, HandView, hand_view

#: The most hands' views a process keeps, over all matches (a hundred matches' dozen).
MAX_HANDS = 1_200
EXTENSION = "ledger_match_newest_hands"


class KeptHands(Struct, frozen=True):
    """A match's newest hands' views as they stood at ``version``."""

    version: int
    last_hand_number: int
    players: tuple[str, ...]
    #: How many of the newest were asked for: ``views`` holds that many, or every hand.
    asked: int
    views: tuple[HandView, ...]
    #: The JSON each of ``views`` keeps of itself (``Hand.fragment``; None: not read).
    fragments: tuple[str | None, ...]


def newest_hands(match: Match, newest: int) -> tuple[tuple[HandView, ...], list[HandRow]]:
    """The views of the match's ``newest`` hands (``newest`` > 0), in number order, and
    the hands read for them as rows (with their moves: the chart's totals take up the
    added ones')."""
    store = kept_hands()
    players = seating(match).names
    kept = store.get(match.public_id)
    if kept is None or kept.asked < newest or kept.players != players:
        kept = None
    added = added_since(match, kept.version, kept.last_hand_number) if kept else None
    if kept is not None and added is not None:  # only hands added since: read those
        rows = fold.hands(match, newest, after=kept.last_hand_number) if added else []
        views = kept.views + tuple(hand_view(row, players) for row in rows)
        fragments = kept.fragments + (None,) * len(rows)
        asked = kept.asked  # a page's dozen stays kept when the big screen asks for one
    else:
        views, fragments, rows = _compared(match, kept, newest, players)
        asked = newest
    if all(view.number <= match.last_hand_number for view in views):  # none written since
        entry = KeptHands(
            match.version,
            match.last_hand_number,
            players,
            asked,
            views[-asked:],
            fragments[-asked:],
        )
        store.put(match.public_id, entry)
    return views[-newest:], rows


def _compared(
    match: Match, kept: KeptHands | None, newest: int, players: tuple[str, ...]
) -> tuple[tuple[HandView, ...], tuple[str | None, ...], list[HandRow]]:
    """Another write since (an edit, a delete, a rename, in any process): each newest
    hand's kept JSON (``Hand.fragment``, rewritten with everything its view shows) is
    compared, as text, with the view kept; only the hands that differ are read."""
    shown = sorted(fold.newest_fragments(match, newest))
    known: dict[int, tuple[HandView, str | None]] = {}
    if kept is not None:
        pairs = zip(kept.views, kept.fragments, strict=True)
        known = {view.number: (view, text) for view, text in pairs}
    stale = [n for n, text in shown if text is None or known.get(n, (None, None))[1] != text]
    rows = fold.hands_numbered(match, stale) if stale else []
    fresh = {row.number: hand_view(row, players) for row in rows}
    found = [
        (fresh[n] if n in fresh else known[n][0], text)
        for n, text in shown
        if n in fresh or n in known
    ]
    return tuple(v for v, _ in found), tuple(t for _, t in found), rows


def kept_hands(app: Flask | None = None) -> ByMatch[KeptHands]:
    """The app's store of the newest hands' views."""
    return by_match(EXTENSION, MAX_HANDS, _hands_in, app)


def _hands_in(kept: KeptHands) -> int:
    return len(kept.views)
