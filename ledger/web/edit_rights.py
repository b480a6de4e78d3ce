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

A table's key is kept the same way, under the table's public id (ids are unguessable
and drawn alike, so a table's never names a match): it gives edit rights on the table's
page and on every match played in it.
"""

from __future__ import annotations

import base64
import functools
import json
from dataclasses import dataclass

from cryptography.fernet import Fernet, InvalidToken
from cryptography.hazmat.primitives.hashes import SHA256
from cryptography.hazmat.primitives.kdf.hkdf import HKDF
from flask import abort, current_app, session
from sqlalchemy import select

from ledger.extensions import db
from ledger.i18n import N_
from ledger.matches.models import Match
from ledger.tables.models import Table
from ledger.tables.service import check_table_key, may_write_match

SESSION_KEY = "edit_rights"
LEGACY_KEY = "edit_keys"
MAX_KEYS = 30
READ_ONLY_MESSAGE = N_(
    "This browser may only read this match. Ask the scorekeeper for the edit link "
    "to enter or change hands."
)
TABLE_READ_ONLY_MESSAGE = N_(
    "This browser may only read this table. Ask the scorekeeper for the table's edit "
    "link to start matches, record payments or change the roster."
)


@functools.lru_cache(maxsize=4)
def _fernet(secret_key: str | bytes) -> Fernet:
    """The cipher of the edit rights: its own key, derived from the app's secret key."""
    secret = secret_key.encode("utf-8") if isinstance(secret_key, str) else secret_key
    key = HKDF(algorithm=SHA256(), length=32, salt=None, info=b"ledger edit rights").derive(secret)
    return Fernet(base64.urlsafe_b64encode(key))


def _cipher() -> Fernet:
    return _fernet(current_app.config["SECRET_KEY"])


def seal(pairs: list[list[str]]) -> str:
    """``[[public id, edit key], ...]`` as the session keeps it: encrypted, as text."""
    text = json.dumps(pairs, separators=(",", ":"))
    return _cipher().encrypt(text.encode("utf-8")).decode("ascii")


def unseal(token: object) -> list[list[str]]:
    """The pairs that ``seal`` sealed; none when ``token`` is missing, damaged, or sealed
    under another secret key."""
    if not isinstance(token, str):
        return []
    try:
        pairs = json.loads(_cipher().decrypt(token.encode("ascii")))
    except (InvalidToken, UnicodeError, ValueError):
        return []
    return _pairs(pairs)


def _pairs(pairs: object) -> list[list[str]]:
    if not isinstance(pairs, list):
        return []
    return [
        pair
        for pair in pairs
        if isinstance(pair, list) and len(pair) == 2 and all(isinstance(x, str) for x in pair)
    ]


def held_keys() -> dict[str, str]:
    """The edit keys of this browser, oldest first (a copy).

    A session from before the keys were sealed holds them in the clear under
    ``LEGACY_KEY``: they are sealed now and the clear copy leaves the cookie.
    """
    pairs = unseal(session.get(SESSION_KEY))
    if LEGACY_KEY in session:
        pairs = [*_pairs(session.pop(LEGACY_KEY)), *pairs][-MAX_KEYS:]
        session[SESSION_KEY] = seal(pairs)
    return {public_id: key for public_id, key in pairs}


def remember_key(public_id: str, key: str) -> None:
    """Give this browser edit rights to the match (the newest of at most MAX_KEYS)."""
    keys = held_keys()
    keys.pop(public_id, None)
    keys[public_id] = key
    while len(keys) > MAX_KEYS:
        del keys[next(iter(keys))]
    session[SESSION_KEY] = seal([[pid, k] for pid, k in keys.items()])
    session.permanent = True


def edit_key(match: Match) -> str | None:
    """This browser's edit key for ``match``, when it is the right one (its own first,
    else the key of the table it is played in); else None."""
    keys = held_keys()
    key = keys.get(match.public_id)
    if key is not None and may_write_match(match, key):
        return key
    if match.table_id is None:
        return None
    table = db.session.get(Table, match.table_id)
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
    public_id: str
    name: str


def editable_tables() -> list[EditableMatch]:
    """The tables this browser can edit, newest first (one query; bad keys left out)."""
    keys = held_keys()
    if not keys:
        return []
    found = db.session.scalars(select(Table).where(Table.public_id.in_(list(keys)))).all()
    by_id = {t.public_id: t for t in found if check_table_key(t, keys[t.public_id])}
    return [EditableMatch(pid, by_id[pid].name) for pid in reversed(list(keys)) if pid in by_id]


def editable_matches() -> list[EditableMatch]:
    """The matches this browser can edit, newest first (one query; bad keys left out)."""
    keys = held_keys()
    if not keys:
        return []
    found = db.session.scalars(select(Match).where(Match.public_id.in_(list(keys)))).all()
    by_id = {m.public_id: m for m in found if may_write_match(m, keys[m.public_id])}
    return [EditableMatch(pid, by_id[pid].name) for pid in reversed(list(keys)) if pid in by_id]
