"""Edit rights of a browser: the edit keys it holds, sealed inside the Flask session.

The session keeps, under ``SESSION_KEY``, the list ``[[match public id, edit key], ...]``
for the matches this browser created or joined through an edit link, newest last, at
most ``MAX_KEYS`` of them, encrypted with Fernet (AES with an HMAC) under a key derived
from ``SECRET_KEY``. Flask's cookie is only signed: anyone holding it can read what is
inside, and an edit key read off a borrowed phone or a copied cookie would give edit
rights for good. Sealed, the cookie shows nothing, and it still needs nothing kept on
the server (several processes serve one database). A key is only ever trusted after
``ledger.tables.service.may_write_match`` (constant time) accepts it for that very match (its
own key, or the key of the table it is played in), so
another match's key, a stale key or no key all mean read-only.

A table's key is kept the same way, under the table's public id (ids are unguessable
and drawn alike, so a table's never names a match): it gives edit rights on the table's
page and on every match played in it.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from flask import abort

from ledger import matches
from ledger.http.edit_keys import (  # noqa: F401  (the pages' names for them)
    LEGACY_KEY,
    MAX_KEYS,
    SESSION_KEY,
    held_keys,
    remember_key,
    seal,
    unseal,
)
from ledger.i18n import N_
from ledger.matches.models import Match
from ledger.matches.view import MatchView
from ledger.tables.models import Table
from ledger.tables.service import check_table_key, may_write_match, table_of, tables_with_ids

READ_ONLY_MESSAGE = N_(
    "This browser may only read this match. Ask the scorekeeper for the edit link "
    "to enter or change hands."
)
TABLE_READ_ONLY_MESSAGE = N_(
    "This browser may only read this table. Ask the scorekeeper for the table's edit "
    "link to start matches, record payments or change the roster."
)


def edit_key(match: Match) -> str | None:
    """This browser's edit key for ``match``, when it is the right one (its own first,
    else the key of the table it is played in); else None."""
    keys = held_keys()
    key = keys.get(match.public_id)
    if key is not None and may_write_match(match, key):
        return key
    table = table_of(match)
    return table_edit_key(table, keys) if table is not None else None


def table_edit_key(table: Table, keys: dict[str, str] | None = None) -> str | None:
    """This browser's edit key for ``table``, when it is the right one; else None."""
    key = (held_keys() if keys is None else keys).get(table.public_id)
    return key if key is not None and check_table_key(table, key) else None


def require_table_editor(table: Table) -> str:
    """The edit key for a write to ``table``, or a 403 page."""
    key = table_edit_key(table)
    if key is None:
        abort(403, TABLE_READ_ONLY_MESSAGE)
    return key


def can_edit(match: Match) -> bool:
    return edit_key(match) is not None


def require_editor(match: Match) -> str:
    """The edit key for a write to ``match``, or a 403 page."""
    key = edit_key(match)
    if key is None:
        abort(403, READ_ONLY_MESSAGE)
    return key


@dataclass(frozen=True)
class EditableMatch:
    """A match of the home page's list: what tells one evening's matches apart (their
    names may be alike): the day it was started, its players and how far it is."""

    public_id: str
    name: str
    created_at: datetime
    view: MatchView


@dataclass(frozen=True)
class EditableTable:
    public_id: str
    name: str


def editable_tables() -> list[EditableTable]:
    """The tables this browser can edit, newest first (one query; bad keys left out)."""
    keys = held_keys()
    if not keys:
        return []
    found = tables_with_ids(list(keys))
    by_id = {t.public_id: t for t in found if check_table_key(t, keys[t.public_id])}
    return [EditableTable(pid, by_id[pid].name) for pid in reversed(list(keys)) if pid in by_id]


def editable_matches() -> list[EditableMatch]:
    """The matches this browser can edit, newest first (two queries; bad keys left out)."""
    keys = held_keys()
    if not keys:
        return []
    found = matches.match_views(list(keys))
    return [
        EditableMatch(pid, match.name, match.created_at, view)
        for pid in reversed(list(keys))
        if pid in found
        for match, view in [found[pid]]
        if may_write_match(match, keys[pid])
    ]
