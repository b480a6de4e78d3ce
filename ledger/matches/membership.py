"""A match's place in a table of players (``ledger.tables``): the table and season it
is played in, and a player renamed through every hand.

The table service calls these; they are match writes like any other (the match's row
taken first, one commit), so a table never writes a hand itself. What the table adds to
the session before the call (its roster, say) is stored by the same commit, or not at
all.
"""

from __future__ import annotations

from collections.abc import Collection, Sequence
from typing import Any

from sqlalchemy import delete, select
from sqlalchemy.orm import undefer

from ledger.engine import settle
from ledger.extensions import db
from ledger.matches import fold
from ledger.matches.models import Hand, HandVersion, Match
from ledger.matches.reading import (
    MatchSpec,
    kept_under,
    read_hand,
    rules_from_record,
    settled_under,
)
from ledger.matches.service import _history, _new_match, _result_json, _touch, transaction

#: The history action of a hand as it was before one of its players was renamed.
RENAMED = "rename"


def create_placed(
    spec: MatchSpec, table_id: int, season_id: int, guests: Collection[str] = ()
) -> tuple[Match, str]:
    """A new match (checked: ``reading.read_match``) played in a table and season, with
    ``guests`` among its players (not on the roster); it and its edit key."""
    with transaction():
        match, key = _new_match(spec, guests)
        match.table_id, match.season_id = table_id, season_id
    return match, key


def place_match(match: Match, table_id: int | None, season_id: int | None) -> Match:
    """Put the match in a table and season (None, None: a lone match again)."""
    with transaction():
        _touch(match)
        match.table_id, match.season_id = table_id, season_id
    return match


def rename_player(matches: Sequence[Match], old: str, new: str) -> None:
    """Call player ``old`` ``new`` in each of ``matches`` (where they are registered):
    their seat, the first dealer, every hand and its history. Each hand is read and
    settled again under its new names, so every net and total stays as it was; the
    hand as it was before goes into its history (action ``rename``). One transaction:
    every match or none. ``new`` must not be another player of any of these matches."""
    with transaction():
        for match in matches:
            if old in match.player_names:
                _rename_in(match, old, new)


def forget_player(matches: Sequence[Match], old: str, new: str) -> None:
    """As ``rename_player``, for a player who asked to be forgotten: the old name is
    kept nowhere, so the rename leaves no record, the stored first answers of
    idempotent writes are renamed too, and the match's rename records (each keeps the
    names as they were before a rename, theirs among them) are dropped. Every net and
    total stays as it was."""
    with transaction():
        for match in matches:
            if old in match.player_names:
                _rename_in(match, old, new, forget=True)


def _rename_in(match: Match, old: str, new: str, *, forget: bool = False) -> None:
    now = _touch(match)
    rules = rules_from_record(match.rules)
    for player in match.players:
        if player.name == old:
            player.name, player.name_key = new, new.casefold()
    if match.first_dealer == old:
        match.first_dealer = new
    players = tuple(match.player_names)

    def renamed(
        hand_input: dict[str, Any], result: dict[str, Any]
    ) -> tuple[dict[str, Any], dict[str, Any]]:
        # An earlier version is settled again under the rules it was settled under.
        under = settled_under(result, rules)
        hand = read_hand(_renamed_input(hand_input, old, new), players, under)
        again = _result_json(settle(hand, under))
        nets = {_swap(p["name"], old, new): p["net"] for p in result["players"]}
        assert {p["name"]: p["net"] for p in again["players"]} == nets, "a rename moved points"
        return hand.to_json(), kept_under(again, under, rules)

    query = select(Hand).where(Hand.match_id == match.id)
    if forget:  # every stored first answer is read, in the same query
        query = query.options(undefer(Hand.first_answer))
    for row in db.session.scalars(query):
        if forget and row.first_answer is not None:  # the match as it was: every name
            row.first_answer = _swap_json(row.first_answer, old, new)
        names = {p["name"] for p in row.input["players"]}
        if old not in names and row.dealer != old:
            continue
        if not forget:
            before = _history(row, RENAMED)
            before.replaced_at = now
            db.session.add(before)
        row.input, row.result = renamed(row.input, row.result)
        row.dealer = _swap(row.dealer, old, new)
        row.version += 1
        row.updated_at = now
    for past in db.session.scalars(
        select(HandVersion).where(HandVersion.match_id == match.id, HandVersion.action != RENAMED)
    ):
        past.input, past.result = renamed(past.input, past.result)
        past.dealer = _swap(past.dealer, old, new)
    if forget:
        db.session.execute(
            delete(HandVersion).where(
                HandVersion.match_id == match.id, HandVersion.action == RENAMED
            )
        )
    db.session.flush()
    fold.keep(match, fold.fill(match), now)


def _swap(name: str, old: str, new: str) -> str:
    return new if name == old else name


def _swap_json(value: Any, old: str, new: str) -> Any:
    """``value`` (JSON) with every string and key that is ``old`` made ``new``."""
    if isinstance(value, str):
        return _swap(value, old, new)
    if isinstance(value, list):
        return [_swap_json(v, old, new) for v in value]
    if isinstance(value, dict):
        return {_swap(k, old, new): _swap_json(v, old, new) for k, v in value.items()}
    return value


def _renamed_input(hand_input: dict[str, Any], old: str, new: str) -> dict[str, Any]:
    return {
        **hand_input,
        "winner": _swap(hand_input["winner"], old, new) if hand_input.get("winner") else None,
        "players": [{**p, "name": _swap(p["name"], old, new)} for p in hand_input["players"]],
    }
