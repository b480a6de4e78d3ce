"""Edit rights of a browser: the edit keys it holds, sealed inside the Flask session.

The session keeps, under ``SESSION_KEY``, the list ``[[match public id, edit key], ...]``
for the matches this browser created or joined through an edit link, newest last, at
most ``MAX_KEYS`` of them, encrypted with Fernet (AES with an HMAC) under a key derived
from ``SECRET_KEY``. Flask's cookie is only signed: anyone holding it can read what is
inside, and an edit key read off a borrowed phone or a copied cookie would give edit
rights for good. Sealed, the cookie shows nothing, and it still needs nothing kept on
the server (several processes serve one database). A key is only ever trusted after
``ledger.tables.may_write_match`` (constant time) accepts it for that very match (its
own key, or the key of the table it is played in), so
another match's key, a stale key or no key all mean read-only.
"""

from __future__ import annotations

from dataclasses import dataclass

from flask import abort

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
from ledger.matches import matches_with_ids
from ledger.matches.models import Match
from ledger.tables.service import may_write_match

READ_ONLY_MESSAGE = N_(
    "This browser may only read this match. Ask the scorekeeper for the edit link "
    "to enter or change hands."
)


def edit_key(match: Match) -> str | None:
    """This browser's edit key for ``match``, when it is the right one; else None."""
    key = held_keys().get(match.public_id)
    return key if key is not None and may_write_match(match, key) else None


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
    public_id: str
    name: str


def editable_matches() -> list[EditableMatch]:
    """The matches this browser can edit, newest first (one query; bad keys left out)."""
    keys = held_keys()
    if not keys:
        return []
    found = matches_with_ids(keys)
    by_id = {m.public_id: m for m in found if may_write_match(m, keys[m.public_id])}
    return [EditableMatch(pid, by_id[pid].name) for pid in reversed(list(keys)) if pid in by_id]
