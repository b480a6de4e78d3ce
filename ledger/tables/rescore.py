"""A season under other rules (docs/rules.md §8), storing nothing.

Each match of the season is rescored by ``ledger.matches.rescore.rescore_match`` (its
stored hands settled again by the engine, folded into a scoreboard) and the season's
standings are summed over those scoreboards as over the kept ones: every line and pair
of the standings under the other rules, beside each player's total and matches won as
played. A 5,000-hand season is 5,000 settles, within a few seconds on a small machine.
"""

from __future__ import annotations

from msgspec import Struct
from msgspec.structs import replace
from sqlalchemy import select
from sqlalchemy.orm import selectinload

from ledger.collector import collector_paused
from ledger.engine import HouseRules
from ledger.extensions import db
from ledger.matches.models import Match
from ledger.matches.rescore import NO, PARTLY, Rescore, rescore_match, stored_inputs
from ledger.tables import answers
from ledger.tables.figures import Pair, PlayerLine
from ledger.tables.figures import standings as figures_standings
from ledger.tables.models import Season, Table
from ledger.tables.service import roster, season_json, season_matches, standings


class RescoredLine(Struct, frozen=True):
    """One player over the season: their line of the standings under the other rules,
    beside their total and matches won as played."""

    line: PlayerLine
    total_as_played: int
    matches_won_as_played: int

    @property
    def name(self) -> str:
        return self.line.name

    @property
    def total(self) -> int:
        return self.line.total

    @property
    def matches_won(self) -> int:
        return self.line.matches_won

    @property
    def change(self) -> int:
        return self.total - self.total_as_played

    def to_json(self) -> answers.SeasonRescoreLine:
        return {
            **self.line.to_json(),
            "total_as_played": self.total_as_played,
            "matches_won_as_played": self.matches_won_as_played,
        }


class RescoredMatch(Struct, frozen=True):
    """A match of the season under the other rules (``points_race``: played as one, so
    its totals as played are each player's own maal, left out of the totals as played)."""

    public_id: str
    name: str
    rescore: Rescore
    finished: bool
    points_race: bool = False

    @property
    def hands_changed(self) -> int:
        return len(self.rescore.changed)

    @property
    def hands_partly(self) -> int:
        return sum(h.rescored == PARTLY for h in self.rescore.hands)

    @property
    def hands_refused(self) -> int:
        return sum(h.rescored == NO for h in self.rescore.hands)

    def to_json(self) -> answers.SeasonRescoreMatch:
        r = self.rescore
        return {
            "id": self.public_id,
            "name": self.name,
            "finished": self.finished,
            "points_race": self.points_race,
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
    head_to_head: tuple[Pair, ...]  # as the standings give it, under the other rules
    matches: tuple[RescoredMatch, ...] = ()

    @property
    def points_races(self) -> bool:
        """Whether a night of the season was played as a points race: the totals as
        played (the standings') leave it out, and the other rules count it."""
        return any(m.points_race for m in self.matches)

    def to_json(self, table: Table) -> answers.SeasonRescore:
        return {
            "rules": {**self.rules.to_json(), "overrides": self.rules.overrides()},
            "season": season_json(table, self.season) if self.season is not None else None,
            "players": [line.to_json() for line in self.players],
            "head_to_head": [pair.to_json() for pair in self.head_to_head],
            "matches": [m.to_json() for m in self.matches],
        }


def rescore_season(table: Table, season: Season | None, rules: HouseRules) -> SeasonRescore:
    """The season's matches (None: all time) under ``rules`` beside them as played: the
    standings summed over each match's scoreboard under the other rules."""
    query = select(Match).where(Match.table_id == table.id)
    if season is not None:
        query = query.where(Match.season_id == season.id)
    query = query.options(selectinload(Match.players)).order_by(Match.created_at, Match.id)
    found = db.session.scalars(query).all()
    kept = {figures.id: figures for figures in season_matches(table, season)}
    rescored, other = [], []
    with collector_paused():
        stored = stored_inputs([match.id for match in found])
        for match in found:
            result = rescore_match(match, rules, stored[match.id])
            as_played = kept[match.id]
            rescored.append(
                RescoredMatch(
                    match.public_id,
                    match.name,
                    result,
                    as_played.finished,
                    points_race=not as_played.zero_sum,
                )
            )
            other.append(replace(as_played, board=result.board, zero_sum=rules.zero_sum))
    names = roster(table)
    played = {line.name: line for line in standings(table, season).players}
    under = figures_standings(names, other, zero_sum=rules.zero_sum)
    lines = tuple(
        RescoredLine(line, played[line.name].total, played[line.name].matches_won)
        for line in under.players
    )
    return SeasonRescore(rules, season, lines, under.head_to_head, tuple(rescored))
