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

from collections.abc import Callable
from datetime import datetime
from typing import Generic, TypeVar

from flask import Blueprint, abort, redirect, url_for
from msgspec import Struct
from werkzeug.wrappers import Response

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
from ledger.http.no_store import unkept
from ledger.http.owned import MATCH, TABLE, Owned
from ledger.i18n import N_, tr
from ledger.matches.models import Match
from ledger.matches.view import MatchView
from ledger.tables.models import Table
from ledger.tables.service import check_table_key, may_write_match, table_of, tables_with_ids
from ledger.web.qr import qr_svg

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


def can_edit(match: Match) -> bool:
    return edit_key(match) is not None


def keeps_table(match: Match) -> Table | None:
    """The table ``match`` is played in, when this browser holds the table's key (it
    starts the table's next night); else None (a lone match, a reader, or a
    co-scorekeeper given only this match's link)."""
    table = table_of(match)
    return table if table is not None and table_edit_key(table) is not None else None


D = TypeVar("D")


class OwnedPages(Struct, Generic[D], frozen=True):
    """A kind of owned document (``ledger.http.owned``) as the pages share it and check
    its writes: the key this browser holds for it, its edit link, its read-only QR."""

    kind: Owned[D]
    #: This browser's key that may write to the document, or None.
    held_key: Callable[[D], str | None]
    #: The 403 page of a write from a browser that holds no key for it.
    read_only: str
    #: The 403 page of an edit link whose key may not write to it.
    wrong_link: str
    #: The endpoint of the document's page (``public_id``), where its edit link leads.
    page: str
    #: The text of the read-only link's QR code (its alternative text).
    qr_label: str

    def require(self, document: D) -> str:
        """The edit key for a write to ``document``, or a 403 page."""
        key = self.held_key(document)
        if key is None:
            abort(403, self.read_only)
        return key

    def editable(self, public_id: str) -> D:
        """The document of a write: 404 when there is none, 403 without edit rights."""
        document = self.kind.load(public_id)
        self.require(document)
        return document

    def join(self, public_id: str, key: str) -> Response:
        """An edit link opened: the key checked (a wrong one counted), kept in this
        browser, and dropped from the URL."""
        document = self.kind.load(public_id)
        if not self.kind.check(public_id, document, key):
            abort(403, self.wrong_link)
        remember_key(public_id, key)
        return key_taken(url_for(self.page, public_id=public_id))

    def qr(self, public_id: str) -> Response:
        """The read-only link as a QR code (never the edit key)."""
        self.kind.load(public_id)
        url = url_for(self.page, public_id=public_id, _external=True)
        return qr_svg(url, tr(self.qr_label))

    def share(self, bp: Blueprint) -> None:
        """The document's sharing routes on its blueprint: ``qr`` (``/<public_id>/qr.svg``)
        and ``join`` (``/<public_id>/join/<key>``, its edit link)."""
        bp.add_url_rule("/<public_id>/qr.svg", "qr", self.qr)
        bp.add_url_rule("/<public_id>/join/<key>", "join", self.join)


def key_taken(url: str) -> Response:
    """The answer to a link whose key was just kept: on to ``url``, so that the key
    leaves the address bar, and kept by no cache."""
    return unkept(redirect(url, 303))


MATCH_PAGES = OwnedPages(
    MATCH,
    edit_key,
    READ_ONLY_MESSAGE,
    N_(
        "This edit link is not valid for this match. Ask the scorekeeper for a new copy of "
        "the link; the read-only page still works."
    ),
    "matches.show",
    N_("QR code of the match's read-only link"),
)
TABLE_PAGES = OwnedPages(
    TABLE,
    table_edit_key,
    TABLE_READ_ONLY_MESSAGE,
    N_(
        "This edit link is not valid for this table. Ask the scorekeeper for a new copy of "
        "the link; the read-only page still works."
    ),
    "tables.show",
    N_("QR code of the table's read-only link"),
)


class EditableMatch(Struct, frozen=True):
    """A match of the home page's list: what tells one evening's matches apart (their
    names may be alike): the day it was started, its players and how far it is."""

    public_id: str
    name: str
    created_at: datetime
    view: MatchView


class EditableTable(Struct, frozen=True):
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
