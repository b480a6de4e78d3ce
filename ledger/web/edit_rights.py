"""Edit rights of a browser: the edit keys it holds, in the signed Flask session.

The session keeps ``[[match public id, edit key], ...]`` (a list: the session's JSON
sorts object keys) for the matches this browser created or joined through an edit
link, newest last, at most ``MAX_KEYS`` of them. A key is
only ever trusted after ``ledger.matches.check_edit_key`` (constant time) accepts it
for that very match, so another match's key, a stale key or no key all mean read-only.
"""

from __future__ import annotations

from dataclasses import dataclass

from flask import abort, session
from sqlalchemy import select

from ledger.extensions import db
from ledger.i18n import N_
from ledger.matches import check_edit_key
from ledger.matches.models import Match

SESSION_KEY = "edit_keys"
MAX_KEYS = 30
READ_ONLY_MESSAGE = N_(
    "This browser may only read this match. Ask the scorekeeper for the edit link "
    "to enter or change hands."
)


def held_keys() -> dict[str, str]:
    """The edit keys of this browser, oldest first (a copy)."""
    pairs = session.get(SESSION_KEY)
    if not isinstance(pairs, list):
        return {}
    return {
        pair[0]: pair[1]
        for pair in pairs
        if isinstance(pair, list) and len(pair) == 2 and all(isinstance(x, str) for x in pair)
    }


def remember_key(public_id: str, key: str) -> None:
    """Give this browser edit rights to the match (the newest of at most MAX_KEYS)."""
    keys = held_keys()
    keys.pop(public_id, None)
    keys[public_id] = key
    while len(keys) > MAX_KEYS:
        del keys[next(iter(keys))]
    session[SESSION_KEY] = [[pid, k] for pid, k in keys.items()]
    session.permanent = True


def edit_key(match: Match) -> str | None:
    """This browser's edit key for ``match``, when it is the right one; else None."""
    key = held_keys().get(match.public_id)
    return key if key is not None and check_edit_key(match, key) else None


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
    found = db.session.scalars(select(Match).where(Match.public_id.in_(list(keys)))).all()
    by_id = {m.public_id: m for m in found if check_edit_key(m, keys[m.public_id])}
    return [EditableMatch(pid, by_id[pid].name) for pid in reversed(list(keys)) if pid in by_id]
