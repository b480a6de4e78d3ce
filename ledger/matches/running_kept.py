"""The totals after every hand of a match (the chart's points) and when it was played,
kept in the process from one version of the match to the next.

Reading a thousand hands' moves and summing them is most of what the first page after
a hand costs that grows with the match, and a new hand leaves every earlier total as it
was. Every write counts one version of the match, and only adding a hand takes a new
hand number: when the match is as many versions on from the one kept as it took new
numbers, every write since was an added hand, so the kept totals are taken up and only
the hands after the last one kept are read (their totals must come out at the
scoreboard's). Anything else (an edit, a delete, a change of rules or players, in this
process or another one) reads them all again. Each process keeps its own entries, by
the match's public id (a row id may be used again), least recently used dropped first,
bounded by the hands they hold.
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime
from typing import TypeVar

from flask import Flask, current_app
from msgspec import Struct

from ledger.matches.models import Match
from ledger.matches.page_cache import Bounded

#: The most hands' totals a process keeps, over all matches (some 300 bytes a hand).
MAX_HANDS = 20_000
EXTENSION = "ledger.match_running_totals"

Running = tuple[tuple[int, tuple[int, ...]], ...]
Played = tuple[datetime | None, datetime | None]
Entry = TypeVar("Entry")


class Kept(Struct, frozen=True):
    """A match's totals after every hand as they stood at ``version``."""

    version: int
    last_hand_number: int
    seats: int
    running: Running
    #: None: not read yet (the match's JSON needs no dates).
    played: Played | None


class ByMatch(Bounded[str, Entry]):
    """Entries by the match's public id (never reused, as a row id may be), least recently
    used dropped first, bounded by the hands they hold (``weight``)."""

    def __init__(self, hands: int, weight: Callable[[Entry], int]):
        super().__init__(None, hands, weight)


def added_since(match: Match, version: int, last_hand_number: int) -> int | None:
    """How many hands were added to ``match`` since it stood at ``version`` with
    ``last_hand_number``, when nothing else was written since (each write counts one
    version, and only an added hand takes a new number); else None."""
    added = match.last_hand_number - last_hand_number
    return added if added >= 0 and match.version - version == added else None


def by_match(
    name: str, hands: int, weight: Callable[[Entry], int], app: Flask | None = None
) -> ByMatch[Entry]:
    """The app's store ``name`` (made on first use): one per app, as its database is."""
    app = app or current_app
    found = app.extensions.get(name)
    if not isinstance(found, ByMatch):
        found = app.extensions.setdefault(name, ByMatch(hands, weight))
    assert isinstance(found, ByMatch)
    return found


def running_kept(app: Flask | None = None) -> ByMatch[Kept]:
    """The app's store of the chart's totals."""
    return by_match(EXTENSION, MAX_HANDS, _hands_in, app)


def _hands_in(kept: Kept) -> int:
    return len(kept.running)
