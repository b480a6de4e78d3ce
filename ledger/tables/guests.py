"""Guests: people who play a night of a table without joining its roster.

What a guest is, in one place (every figure that marks a player ``guest`` asks here):

- A player of a table's match who is not on the table's roster. A match made with
  ``guests`` keeps the mark on each such seat (``MatchPlayer.guest``), so a match's
  own JSON knows it without reading the roster.
- Within a table a guest is known by name, ignoring case (as the roster's names are):
  the same name on another night is the same guest, spelt as the first night had it.
- Adding the name to the roster later makes every night they played theirs: the marks
  are cleared in every match of the table (``join_roster``), and those matches' versions
  move so that every kept page and answer follows.
"""

from __future__ import annotations

from collections.abc import Collection, Sequence

from sqlalchemy import select, update

from ledger.engine import FieldError, Invalid
from ledger.extensions import db
from ledger.matches.models import Match, MatchPlayer, utcnow


def roster_keys(names: Collection[str]) -> frozenset[str]:
    """The roster's names as a guest is told from them: ignoring case."""
    return frozenset(name.casefold() for name in names)


def is_guest(name: str, on_roster: frozenset[str]) -> bool:
    """Whether ``name``, a player of one of the table's matches, is a guest: not on the
    roster (``on_roster``: ``roster_keys`` of the roster)."""
    return name.casefold() not in on_roster


def guest_names(table_id: int) -> list[str]:
    """The table's guests (players marked guest in its matches), each once, as first
    spelt, in the order they first played."""
    rows = db.session.execute(
        select(MatchPlayer.name, MatchPlayer.name_key)
        .join(Match, Match.id == MatchPlayer.match_id)
        .where(Match.table_id == table_id, MatchPlayer.guest.is_(True))
        .order_by(Match.created_at, Match.id, MatchPlayer.seat)
    ).all()
    found: dict[str, str] = {}
    for name, key in rows:
        found.setdefault(key, name)
    return list(found.values())


def refuse_roster_players(value: object, on_roster: frozenset[str]) -> None:
    """Invalid on ``guests`` for each name of ``value`` (the body's ``guests``) on the
    roster (``on_roster``: ``roster_keys``), compared ignoring case, a sentence naming
    them. Asked before the match's players are read: a roster player ticked and typed
    again as a guest is among the players twice, and "listed twice" on the players
    named neither the field they were typed in nor what to do."""
    if not isinstance(value, list):
        return  # read_guests says what the field must be
    errors = [
        FieldError(
            "guests",
            "{name} is on the table's roster, so plays as themselves, not as a guest.",
            name=name,
        )
        for name in value
        if isinstance(name, str) and name.strip().casefold() in on_roster
    ]
    if errors:
        raise Invalid(errors)


def read_guests(value: object, players: Sequence[str]) -> frozenset[str]:
    """The guests of a new match, as the players' names (``value``: the body's
    ``guests``, None for none; none on the roster, ``refuse_roster_players`` asked
    first): each must be one of ``players``, compared ignoring case; Invalid on
    ``guests`` otherwise, a sentence for each guest refused, naming them (the field is
    the list's, as docs/api.md has it)."""
    if value is None:
        return frozenset()
    if not isinstance(value, list) or not all(isinstance(name, str) for name in value):
        raise Invalid(
            [FieldError("guests", "guests must be a list of names, each one of the players.")]
        )
    seats = {name.casefold(): name for name in players}
    refused = [name for name in value if name.strip().casefold() not in seats]
    if refused:
        raise Invalid(
            [
                FieldError(
                    "guests",
                    "{name} is not one of this match's players: a guest plays too, so "
                    "list them among the players as well.",
                    name=name,
                )
                for name in refused
            ]
        )
    return frozenset(seats[name.strip().casefold()] for name in value)


def spelt_as_before(names: Sequence[object], known: Sequence[str]) -> list[object]:
    """``names`` (as sent) with each earlier guest spelt as the table first knew them."""
    spelling = {name.casefold(): name for name in known}
    return [spelling.get(n.strip().casefold(), n) if isinstance(n, str) else n for n in names]


def join_roster(table_id: int, names: Collection[str]) -> None:
    """Inside a table's write: ``names`` joined the roster, so every night they played
    as guests is theirs: the marks cleared, and those matches' versions moved (their
    kept answers and pages follow)."""
    keys = [name.casefold() for name in names]
    if not keys:
        return
    in_table = select(Match.id).where(Match.table_id == table_id)
    matches = db.session.scalars(
        select(MatchPlayer.match_id).where(
            MatchPlayer.match_id.in_(in_table),
            MatchPlayer.guest.is_(True),
            MatchPlayer.name_key.in_(keys),
        )
    ).all()
    if not matches:
        return
    db.session.execute(
        update(MatchPlayer)
        .where(MatchPlayer.match_id.in_(matches), MatchPlayer.name_key.in_(keys))
        .values(guest=False),
        execution_options={"synchronize_session": False},
    )
    db.session.execute(
        update(Match)
        .where(Match.id.in_(set(matches)))
        .values(version=Match.version + 1, updated_at=utcnow()),
        execution_options={"synchronize_session": False},
    )
    changed = set(matches)
    for held in list(db.session.identity_map.values()):  # loaded ones read the new marks
        if isinstance(held, Match) and held.id in changed:
            db.session.expire(held, ["version", "updated_at"])
        elif isinstance(held, MatchPlayer) and held.match_id in changed:
            db.session.expire(held, ["guest"])
