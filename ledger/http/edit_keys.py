"""The edit keys a browser holds, sealed inside its Flask session (see
``ledger.web.edit_rights`` for what they give): per-request plumbing, read by the pages
and by the rate limits (an editor's own budget).

The session keeps, under ``SESSION_KEY``, the list ``[[public id, edit key], ...]``,
newest last, at most ``MAX_KEYS``, encrypted with Fernet (AES with an HMAC) under a key
derived from ``SECRET_KEY``: Flask's cookie is only signed, and a key read off a copied
cookie would give edit rights for good."""

from __future__ import annotations

import base64
import functools
import json
from typing import TYPE_CHECKING

from flask import current_app, session

if TYPE_CHECKING:
    from cryptography.fernet import Fernet

SESSION_KEY = "edit_rights"
LEGACY_KEY = "edit_keys"
MAX_KEYS = 30
#: The players' own links this browser was given, sealed the same way, as
#: ``[[table public id, person key], ...]``: the browser's "Me" across tables (the
#: server keeps no identity across tables; docs/security.md).
PERSON_SESSION_KEY = "person_links"


@functools.lru_cache(maxsize=4)
def _fernet(secret_key: str | bytes) -> Fernet:
    """The cipher of the edit rights: its own key, derived from the app's secret key."""
    # cryptography (OpenSSL through Rust) is loaded by the first sealed key, not at start
    from cryptography.fernet import Fernet
    from cryptography.hazmat.primitives.hashes import SHA256
    from cryptography.hazmat.primitives.kdf.hkdf import HKDF

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
    from cryptography.fernet import InvalidToken  # as _fernet's imports

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
    _remember(SESSION_KEY, held_keys(), public_id, key)


def held_person_keys() -> dict[str, str]:
    """The own links this browser holds, by table public id, oldest first (a copy)."""
    return {public_id: key for public_id, key in unseal(session.get(PERSON_SESSION_KEY))}


def remember_person_key(public_id: str, key: str) -> None:
    """Keep a player's own link of the table (one per table: the newest given)."""
    _remember(PERSON_SESSION_KEY, held_person_keys(), public_id, key)


def forget_person_key(public_id: str) -> None:
    keys = held_person_keys()
    keys.pop(public_id, None)
    session[PERSON_SESSION_KEY] = seal([[pid, k] for pid, k in keys.items()])


def _remember(slot: str, keys: dict[str, str], public_id: str, key: str) -> None:
    keys.pop(public_id, None)
    keys[public_id] = key
    while len(keys) > MAX_KEYS:
        del keys[next(iter(keys))]
    session[slot] = seal([[pid, k] for pid, k in keys.items()])
    session.permanent = True
