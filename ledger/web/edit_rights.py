"""Edit rights of a browser: the edit keys it holds, sealed inside the Flask session.

The session keeps, under ``SESSION_KEY``, the list ``[[match public id, edit key], ...]``
for the matches this browser created or joined through an edit link, newest last, at
most ``MAX_KEYS`` of them, encrypted with Fernet (AES with an HMAC) under a key derived
from ``SECRET_KEY``. Flask's cookie is only signed: anyone holding it can read what is
inside, and an edit key read off a borrowed phone or a copied cookie would give edit
rights for good. Sealed, the cookie shows nothing, and it still needs nothing kept on
the server (several processes serve one database). A key is only ever trusted after
``ledger.matches.check_edit_key`` (constant time) accepts it for that very match, so
another match's key, a stale key or no key all mean read-only.
"""

from __future__ import annotations

import base64
import functools
import json
from dataclasses import dataclass
from datetime import datetime

from cryptography.fernet import Fernet, InvalidToken
from cryptography.hazmat.primitives.hashes import SHA256
from cryptography.hazmat.primitives.kdf.hkdf import HKDF
from flask import abort, current_app, session

from ledger import matches
from ledger.i18n import N_
from ledger.matches import check_edit_key
from ledger.matches.models import Match
from ledger.matches.view import MatchView

SESSION_KEY = "edit_rights"
LEGACY_KEY = "edit_keys"
MAX_KEYS = 30
READ_ONLY_MESSAGE = N_(
    "This browser may only read this match. Ask the scorekeeper for the edit link "
    "to enter or change hands."
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
    """A match of the home page's list: what tells one evening's matches apart (their
    names may be alike): the day it was started, its players and how far it is."""

    public_id: str
    name: str
    created_at: datetime
    view: MatchView


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
        if check_edit_key(match, keys[pid])
    ]
