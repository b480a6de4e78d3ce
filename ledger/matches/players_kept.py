"""A match's players as its pages read them (their names in seat order, the table's
guests among them), kept in the process from one version of the match to the next.

The first page after a hand read them in a query of their own (the ORM's load of
``Match.players``: some 0.25 ms, a tenth of the page), and a hand changes no player. As
with the chart's totals (``running_kept``), when every write since they were kept was
an added hand (each write counts one version, and only an added hand takes a new
number), they stand. Any other write (a rename or a forget, a guest who joined the
roster, in this process or another one) is read again. A write reads them as the ORM
holds them (it may be changing them), and so does anything that has them loaded
already. A forget empties the store (``ledger.http.forgetting``): it holds names.
"""

from __future__ import annotations

from flask import Flask
from msgspec import Struct
from sqlalchemy import inspect, select
from sqlalchemy.orm.base import NO_VALUE

from ledger.extensions import db
from ledger.matches import isolation
from ledger.matches.models import Match, MatchPlayer
from ledger.matches.running_kept import ByMatch, added_since, by_match

#: The most players a process keeps, over all matches (a thousand matches' four).
MAX_PLAYERS = 4_000
EXTENSION = "ledger_match_players"


class Seating(Struct, frozen=True):
    """A match's players as they stood at ``version``."""

    version: int
    last_hand_number: int
    names: tuple[str, ...]  # in seat order
    guests: frozenset[str]  # not on the roster of the match's table


def seating(match: Match) -> Seating:
    """``match``'s players: as loaded, kept, or read (and kept)."""
    loaded = inspect(match).attrs.players.loaded_value
    if loaded is not NO_VALUE or db.session.info.get(isolation.WRITING):
        players = match.players
        names = tuple(p.name for p in players)
        guests = frozenset(p.name for p in players if p.guest)
        return Seating(match.version, match.last_hand_number, names, guests)
    store = kept_players()
    kept = store.get(match.public_id)
    if kept is not None and added_since(match, kept.version, kept.last_hand_number) is not None:
        if kept.version != match.version:
            kept = Seating(match.version, match.last_hand_number, kept.names, kept.guests)
            store.put(match.public_id, kept)
        return kept
    rows = db.session.execute(
        select(MatchPlayer.name, MatchPlayer.guest)
        .where(MatchPlayer.match_id == match.id)
        .order_by(MatchPlayer.seat)
    ).all()
    kept = Seating(
        match.version,
        match.last_hand_number,
        tuple(name for name, _ in rows),
        frozenset(name for name, guest in rows if guest),
    )
    store.put(match.public_id, kept)
    return kept


def kept_players(app: Flask | None = None) -> ByMatch[Seating]:
    """The app's store of the matches' players."""
    return by_match(EXTENSION, MAX_PLAYERS, _players_in, app)


def _players_in(kept: Seating) -> int:
    return len(kept.names)
