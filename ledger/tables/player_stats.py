"""A player's figures and the awards, of a table's season or of one match
(``GET /api/v1/tables/<id>/stats``, ``GET /api/v1/matches/<id>/stats``).

Computed from the stored hands (their settlements, as agreed), so a rename, a merge or
a change of rules carries through; the arithmetic is the engine's
(``ledger.engine.player_figures``). Each match's tallies are kept in memory by its id
and version, as its standings' figures are: after a new hand only that match's hands
are read again.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from sqlalchemy import select

from ledger.engine.player_figures import (
    Award,
    HandFacts,
    Night,
    PlayerFigures,
    Tally,
    awards,
    player_figures,
    tally_hands,
)
from ledger.extensions import db
from ledger.matches import fold
from ledger.matches.models import Hand, Match
from ledger.tables import figures, service
from ledger.tables.figures import MatchFigures
from ledger.tables.models import Season, Table


@dataclass(frozen=True)
class Stats:
    """The figures of a period: a row per player with a hand in it, highest total first
    (``guests``: the names of those not on the table's roster), and its awards."""

    players: tuple[PlayerFigures, ...]
    awards: tuple[Award, ...]
    guests: frozenset[str] = frozenset()

    def row(self, name: str) -> PlayerFigures | None:
        return next((row for row in self.players if row.name == name), None)

    def to_json(self, season: dict[str, Any] | None) -> dict[str, Any]:
        return {
            "season": season,
            "players": [
                {**row.to_json(), "guest": row.name in self.guests} for row in self.players
            ],
            "awards": [award.to_json() for award in self.awards],
        }


def is_guest(table: Table | None, name: str) -> bool:
    """Whether ``name`` played as a guest: not on the table's roster (ignoring case). A
    match outside a table has no guests."""
    if table is None:
        return False
    return name.casefold() not in {p.name_key for p in table.players}


def stats(table: Table | None, matches: Sequence[MatchFigures]) -> Stats:
    """The figures over ``matches`` (in play order) of ``table`` (None: a lone match)."""
    nights = []
    for match, tallies in zip(matches, _tallies(matches), strict=True):
        totals = match.totals
        nights.append(Night(match.public_id, match.finished, tallies, totals))
    rows = player_figures(nights)
    guests = frozenset(row.name for row in rows if is_guest(table, row.name))
    return Stats(tuple(rows), tuple(awards(rows)), guests)


def table_stats(table: Table, season: Season | None) -> Stats:
    """The season's figures (None: all time)."""
    return stats(table, service.season_matches(table, season))


def table_stats_json(table: Table, season: Season | None) -> dict[str, Any]:
    """The body of ``GET /api/v1/tables/<id>/stats``."""
    shown = service.season_json(table, season) if season is not None else None
    return table_stats(table, season).to_json(shown)


def match_stats(match: Match) -> Stats:
    """Tonight's figures: the match's alone."""
    fold.scoreboard(match)  # an older match's scoreboard is filled in first
    table = service.table_of(match)
    return stats(table, [figures.match_figures(match, match.player_names)])


def match_stats_json(match: Match) -> dict[str, Any]:
    """The body of ``GET /api/v1/matches/<id>/stats``: ``season`` is the match's, or
    null outside a table."""
    table = service.table_of(match)
    season = None
    if table is not None:
        found = next((s for s in table.seasons if s.id == match.season_id), None)
        season = service.season_json(table, found) if found is not None else None
    return match_stats(match).to_json(season)


# --- inside --------------------------------------------------------------------------

#: Each match's tallies by (public id, version): a write changes the version.
_KEPT: OrderedDict[tuple[str, int], dict[str, Tally]] = OrderedDict()
_KEPT_MOST = 4096
_KEPT_LOCK = threading.Lock()


def _tallies(matches: Sequence[MatchFigures]) -> list[dict[str, Tally]]:
    """Each match's tallies, reading the hands only of those not kept at their version
    (one query for all of them)."""
    keys = [(m.public_id, m.version) for m in matches]
    with _KEPT_LOCK:
        found = {key: _KEPT.get(key) for key in keys}
    missing = [m for m, key in zip(matches, keys, strict=True) if found[key] is None]
    if missing:
        hands: dict[int, list[HandFacts]] = {m.id: [] for m in missing}
        rows = db.session.connection().execute(
            select(Hand.match_id, Hand.number, Hand.result)
            .where(Hand.match_id.in_(list(hands)))
            .order_by(Hand.match_id, Hand.number)
        )
        for match_id, number, result in rows:
            hands[match_id].append(HandFacts.from_result(number, result))
        for m in missing:
            found[(m.public_id, m.version)] = tally_hands(m.public_id, hands[m.id])
    with _KEPT_LOCK:
        for key in keys:
            _KEPT[key] = found[key]  # type: ignore[assignment]
            _KEPT.move_to_end(key)
        while len(_KEPT) > _KEPT_MOST:
            _KEPT.popitem(last=False)
    return [found[key] for key in keys]  # type: ignore[misc]
