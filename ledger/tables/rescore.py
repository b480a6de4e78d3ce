"""A season under other rules (docs/rules.md §8), storing nothing.

Each match of the season is rescored by ``ledger.matches.rescore.rescore_match`` (its
stored hands settled again by the engine) and the season's figures are the sums: per
player the total as played and under the other rules, and the matches they would have
won. A 5,000-hand season is 5,000 settles, within a few seconds on a small machine.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from msgspec import Struct
from msgspec.structs import asdict
from sqlalchemy import select
from sqlalchemy.orm import selectinload

from ledger.collector import collector_paused
from ledger.engine import HouseRules
from ledger.engine.match import is_finished
from ledger.engine.rules import parse_length
from ledger.extensions import db
from ledger.matches.models import Match
from ledger.matches.rescore import NO, PARTLY, Rescore, rescore_match, stored_inputs
from ledger.tables.models import Season, Table
from ledger.tables.service import roster, season_json


class RescoredLine(Struct):
    """One player over the season: as played and under the other rules."""

    name: str
    matches: int = 0
    total: int = 0
    total_as_played: int = 0
    matches_won: int = 0
    matches_won_as_played: int = 0

    @property
    def change(self) -> int:
        return self.total - self.total_as_played

    def to_json(self) -> dict[str, Any]:
        return asdict(self)


class RescoredMatch(Struct, frozen=True):
    public_id: str
    name: str
    rescore: Rescore
    finished: bool

    @property
    def hands_changed(self) -> int:
        return len(self.rescore.changed)

    @property
    def hands_partly(self) -> int:
        return sum(h.rescored == PARTLY for h in self.rescore.hands)

    @property
    def hands_refused(self) -> int:
        return sum(h.rescored == NO for h in self.rescore.hands)

    def to_json(self) -> dict[str, Any]:
        r = self.rescore
        return {
            "id": self.public_id,
            "name": self.name,
            "finished": self.finished,
            "hands": len(r.hands),
            "hands_changed": self.hands_changed,
            "hands_partly": self.hands_partly,
            "hands_refused": self.hands_refused,
            "players": [
                {"name": n, "total": r.totals[n], "total_as_played": r.totals_as_played[n]}
                for n in r.players
            ],
        }


class SeasonRescore(Struct, frozen=True):
    rules: HouseRules
    season: Season | None
    players: tuple[RescoredLine, ...]  # highest total under the other rules first
    matches: tuple[RescoredMatch, ...] = ()

    def to_json(self, table: Table) -> dict[str, Any]:
        return {
            "rules": {**self.rules.to_json(), "overrides": self.rules.overrides()},
            "season": season_json(table, self.season) if self.season is not None else None,
            "players": [line.to_json() for line in self.players],
            "matches": [m.to_json() for m in self.matches],
        }


def rescore_season(table: Table, season: Season | None, rules: HouseRules) -> SeasonRescore:
    """The season's matches (None: all time) under ``rules`` beside them as played."""
    query = select(Match).where(Match.table_id == table.id)
    if season is not None:
        query = query.where(Match.season_id == season.id)
    query = query.options(selectinload(Match.players)).order_by(Match.created_at, Match.id)
    found = db.session.scalars(query).all()
    rescored = []
    with collector_paused():
        stored = stored_inputs([match.id for match in found])
        for match in found:
            result = rescore_match(match, rules, stored[match.id])
            length = parse_length(match.length, "length")
            finished = match.ended_at is not None or is_finished(
                length, len(result.hands), len(result.players)
            )
            rescored.append(RescoredMatch(match.public_id, match.name, result, finished))
    return SeasonRescore(rules, season, _lines(roster(table), rescored), tuple(rescored))


def _lines(on_roster: Sequence[str], rescored: Sequence[RescoredMatch]) -> tuple[RescoredLine, ...]:
    order = {name: i for i, name in enumerate(on_roster)}
    lines: dict[str, RescoredLine] = {}
    for match in rescored:
        r = match.rescore
        played = [n for n in r.players if any(n in h.nets for h in r.hands)]
        for name in played:
            line = lines.setdefault(name, RescoredLine(name))
            line.matches += 1
            line.total += r.totals[name]
            line.total_as_played += r.totals_as_played[name]
        if match.finished and played:
            best = max(r.totals[n] for n in played)
            best_as_played = max(r.totals_as_played[n] for n in played)
            for name in played:
                lines[name].matches_won += r.totals[name] == best
                lines[name].matches_won_as_played += r.totals_as_played[name] == best_as_played
    return tuple(sorted(lines.values(), key=lambda x: (-x.total, order.get(x.name, len(order)))))
