"""The match service: the one place that reads and writes matches and hands.

Both the JSON API and the HTML pages call these functions, so that validation,
edit rights, history and the single transaction per write live in one place.

- Every score comes from the engine (``parse_hand``, ``settle``, the fold of
  ``engine.scoreboard``, kept with the match by ``ledger.matches.fold`` so that a write
  costs the same whatever the number of hands).
- Problems with input raise ``ledger.engine.Invalid`` (``FieldError(field, message)``,
  the field a dotted path into the request); nothing is stored then.
- A missing match or hand raises werkzeug's ``NotFound`` and a stale edit raises
  ``HandConflict`` (a werkzeug ``Conflict``), so an unhandled one still answers
  404/409, as JSON under /api/ and as a page elsewhere.
- Each write commits once, or rolls back and stores nothing.
- Every write to a match takes the match's row first (the UPDATE that counts the
  write, ``_touch``), then its hands, then their history: two writes to one match
  queue on that row instead of deadlocking on the others (PostgreSQL locks rows). A
  write the database still refuses for meeting another (a deadlock, a serialization
  failure, SQLite's busy lock) is a 409, never a 500.
"""

from __future__ import annotations

import hashlib
import hmac
import re
import secrets
import sqlite3
from collections.abc import Callable, Collection, Iterator, Mapping, Sequence
from contextlib import contextmanager
from datetime import datetime
from functools import cache
from typing import Any, ParamSpec, TypeGuard, TypeVar, cast

from msgspec import Struct
from sqlalchemy import Table, bindparam, column, func, insert, inspect, select, table, update
from sqlalchemy.engine import CursorResult
from sqlalchemy.exc import DBAPIError, IntegrityError
from sqlalchemy.orm import QueryableAttribute, selectinload
from sqlalchemy.orm.exc import StaleDataError
from werkzeug.exceptions import Conflict, NotFound

from ledger.engine import (
    FieldError,
    Hand,
    HandRecord,
    HouseRules,
    Invalid,
    Settlement,
    Stake,
    parse_hand,
    settle,
)
from ledger.engine.match import hands_in_length, is_finished
from ledger.engine.rules import falling_tables, parse_length
from ledger.engine.scoreboard import Carry, Scoreboard, record_from_json
from ledger.engine.values import is_int
from ledger.extensions import db
from ledger.i18n import Msg, PluralMsg
from ledger.matches import answers, fold, hands_kept, isolation
from ledger.matches import export as match_export
from ledger.matches.digests import request_digest
from ledger.matches.models import Hand as StoredHand
from ledger.matches.models import HandVersion, Match, MatchPlayer, utcnow
from ledger.matches.reading import (
    MATCH_CHANGE,
    MatchSpec,
    kept_under,
    read_dealer,
    read_hand,
    read_hand_number,
    read_idempotency_key,
    read_match,
    rules_from_record,
    rules_record,
    settled_under,
)
from ledger.matches.rescore import Reason, refusal
from ledger.matches.view import HandRow, HandView, MatchView, build_match_view, json_text

P = ParamSpec("P")
R = TypeVar("R")

__all__ = [
    "PUBLIC_ID_MAX",
    "HandConflict",
    "HandNumberTaken",
    "HandThere",
    "ImportedMatch",
    "KeyReused",
    "LengthReached",
    "MatchCannotEnd",
    "MatchConflict",
    "MatchEnded",
    "MatchFinished",
    "MatchHasHands",
    "Receipt",
    "RulesRefused",
    "WriteConflict",
    "add_hand",
    "by_public_id",
    "change_match",
    "check_edit_key",
    "create_match",
    "delete_hand",
    "delete_match",
    "export_csv",
    "export_json",
    "find_hand",
    "get_hand",
    "get_match",
    "hand_history",
    "hands_page",
    "versions_not_edits",
    "import_match",
    "prepare_import",
    "stop_here",
    "store_imports",
    "is_public_id",
    "match_json",
    "match_view",
    "match_views",
    "matches_started_between",
    "matches_with_ids",
    "preview_hand",
    "replace_hand",
    "restore_hand",
    "set_stake",
    "submit_hand",
    "transaction",
]

PUBLIC_ID_MAX = 64
#: What a public id can look like (``secrets.token_urlsafe``): anything else is no match,
#: answered before any query (PostgreSQL refuses a NUL in a query's text).
_PUBLIC_ID = re.compile(rf"[A-Za-z0-9_-]{{1,{PUBLIC_ID_MAX}}}")


class MatchConflict(Conflict):
    """A write refused because the match is no longer as the writer saw it (409).
    ``field``: the part of the request concerned ("" for the request as a whole)."""

    field = ""


class HandConflict(MatchConflict):
    """The hand changed since the editor loaded it: the second save is refused (409)."""

    field = "version"

    def __init__(self, number: int, current_version: int | None):
        self.number = number
        self.current_version = current_version
        if current_version is None:
            message = Msg(
                "Hand {number} was deleted by someone else while you were editing it.",
                number=number,
            )
        else:
            message = Msg(
                "Hand {number} was changed by someone else since you opened it "
                "(it is now version {version}). Reload it, check their change, "
                "then enter yours again.",
                number=number,
                version=current_version,
            )
        super().__init__(message)


class HandThere(MatchConflict):
    """A hand to be put back is in the match: not deleted, or put back already (409)."""

    def __init__(self, number: int):
        self.number = number
        super().__init__(
            Msg("Hand {number} is in the match: there is nothing to put back.", number=number)
        )


class HandNumberTaken(MatchConflict):
    """The hand number a client believed it was adding is not the match's next one:
    most often another scorekeeper stored that hand first (409, nothing stored)."""

    field = "number"

    def __init__(self, number: int, next_number: int, existing: StoredHand | None):
        self.number = number
        self.next_number = next_number
        if existing is not None:
            message = Msg(
                "Hand {number} is already stored (dealt by {dealer}): someone else entered "
                "it first. This match's next hand is {next}; send yours as that one if it "
                "is another hand.",
                number=number,
                dealer=existing.dealer,
                next=next_number,
            )
        elif number < next_number:
            message = Msg(
                "Hand {number} was stored and then deleted, and numbers are not used again. "
                "This match's next hand is {next}.",
                number=number,
                next=next_number,
            )
        else:
            message = Msg(
                "This match's next hand is {next}, not {number}.", number=number, next=next_number
            )
        super().__init__(message)


class MatchFinished(MatchConflict):
    """The match's length is reached: it takes no more hands until its length is changed."""

    def __init__(self, played: int):
        self.played = played
        super().__init__(
            PluralMsg(
                "This match is over: its {played} hand is played. It takes more hands "
                "only once its length is changed.",
                "This match is over: its {played} hands are played. It takes more hands "
                "only once its length is changed.",
                played,
                played=played,
            )
        )


class MatchEnded(MatchConflict):
    """The table ended the match after its last hand: it takes no hand until the end is
    taken back (``{"finished": false}``)."""

    def __init__(self, played: int):
        self.played = played
        super().__init__(
            PluralMsg(
                "This match was ended after its {played} hand. It takes more hands only "
                "once that end is taken back (play on).",
                "This match was ended after its {played} hands. It takes more hands only "
                "once that end is taken back (play on).",
                played,
                played=played,
            )
        )


class MatchCannotEnd(MatchConflict):
    """A match with no hand cannot be ended: there is no last hand to end it after."""

    field = "finished"

    def __init__(self) -> None:
        super().__init__(Msg("This match has no hand yet, so it cannot end after its last hand."))


class MatchHasHands(MatchConflict):
    """A match with a hand in it is kept: only one started by mistake, with no hand (none
    played, or every one deleted), may be deleted (409)."""

    def __init__(self, played: int):
        self.played = played
        super().__init__(
            PluralMsg(
                "This match has {played} hand in it, so it is kept: only a match with no "
                "hand can be deleted.",
                "This match has {played} hands in it, so it is kept: only a match with no "
                "hand can be deleted.",
                played,
                played=played,
            )
        )


class LengthReached(MatchConflict):
    """Reopening a match whose length is reached: its length must be changed instead."""

    field = "finished"

    def __init__(self, played: int):
        self.played = played
        super().__init__(
            PluralMsg(
                "This match is over because its length is reached ({played} hand played): "
                "change its length to play on.",
                "This match is over because its length is reached ({played} hands played): "
                "change its length to play on.",
                played,
                played=played,
            )
        )


class WriteConflict(MatchConflict):
    """The database refused a write for meeting another one at the same moment (409);
    nothing was stored and trying again works."""

    def __init__(self) -> None:
        super().__init__(
            Msg(
                "Another change to this match was being saved at the same moment. Please try again."
            )
        )


class KeyReused(Invalid):
    """An idempotency key sent again with another request: refused (422), as a key names
    one request; ``number`` is the hand that key stored."""

    def __init__(self, number: int):
        self.number = number
        super().__init__(
            [
                FieldError(
                    "Idempotency-Key",
                    "This Idempotency-Key was already used for hand {number}, with another "
                    "request. Send a new key with a new hand, or the very same request to "
                    "get its answer again.",
                    number=number,
                )
            ]
        )


class Receipt(Struct, frozen=True):
    """A submitted hand: the stored hand, whether an earlier request with the same key
    had stored it (then nothing was stored now), and the API's answer (on a replay, the
    first answer, as it was given)."""

    hand: StoredHand
    replayed: bool
    answer: answers.HandAnswer

    # From the answer, made before the commit: after it the stored row may be out of reach.
    @property
    def number(self) -> int:
        number: int = self.answer["number"]
        return number

    @property
    def version(self) -> int:
        version: int = self.answer["version"]
        return version


class _StoredMeanwhile(Exception):
    """Inside the transaction: another request with the same key stored its hand first."""


# --- matches -------------------------------------------------------------------------


def _stored(read: Callable[P, MatchSpec]) -> Callable[P, tuple[Match, str]]:
    """A new match from ``read``'s arguments, checked by it and stored in one commit:
    the match and its edit key (shown once, stored hashed)."""

    def create(*args: P.args, **kwargs: P.kwargs) -> tuple[Match, str]:
        spec = read(*args, **kwargs)
        with transaction():
            return _new_match(spec)

    return create


#: Check and store a new match, from ``read_match``'s arguments (its docstring says them).
create_match = _stored(read_match)


#: The 404 of a match that is not (or no longer) there.
NO_MATCH = Msg(
    "There is no match at this address. Check the link; a match started by mistake may "
    "have been deleted."
)


def get_match(public_id: str) -> Match:
    """The match with this public id (one query: its players and hands are read by what
    needs them, so that a kept page or PDF costs only this); 404."""
    return by_public_id(Match, Match.public_id, public_id, NO_MATCH)


def by_public_id(
    model: type[R], column: QueryableAttribute[str], public_id: str, missing: Msg
) -> R:
    """The row of ``model`` whose ``column`` is ``public_id``; 404 saying ``missing`` (a
    mistyped link, or one deleted since: made by mistake)."""
    row = None
    if is_public_id(public_id):
        row = db.session.scalars(select(model).where(column == public_id)).one_or_none()
    if row is None:
        raise NotFound(missing)
    return row


def change_match(match: Match, data: object) -> Match:
    """Change what ``data`` gives of the match (``name``, ``length``, ``stake``, ``season``,
    ``rules``, ``finished``: the PATCH of docs/api.md); a field left out stays. The length
    may not ask for fewer hands than are played: checked while the match is held for this
    write, so that a hand saved at the same moment counts. Raises Invalid and changes
    nothing on a problem (a MatchConflict when the match cannot end or open again)."""
    changes = MATCH_CHANGE.read_changes(data)
    if not changes:
        return match
    with transaction():
        now = _touch(match)  # first: the match's row, as in every write
        if "length" in changes:
            played = fold.held_scoreboard(match).hands
            wanted = hands_in_length(changes["length"], len(match.players))
            if wanted is not None and wanted < played:
                raise Invalid(
                    [
                        FieldError(
                            "length",
                            "This match has {played} hands played; its length cannot be "
                            "fewer hands than that.",
                            played=played,
                        )
                    ]
                )
        if "name" in changes:
            match.name = changes["name"]
        if "length" in changes:
            match.length = changes["length"].to_json() if changes["length"] else None
        if "stake" in changes:
            _put_stake(match, changes["stake"])
        if "season" in changes:
            match.season_id = _season_of_table(match, changes["season"])
        if "rules" in changes:
            _resettle(match, changes["rules"], now)
        if "finished" in changes:
            _end_or_reopen(match, changes["finished"], now)
    return match


def stop_here(match: Match) -> int:
    """End the match after the hands played when the stop is stored: its length becomes
    their number, which is returned (0: no hand is left, nothing changed). Counted while
    the match is held, so that a hand saved at the same moment as "Stop here" is among
    them: the number its page showed would be a length below the hands played."""
    with transaction():
        _touch(match)  # first: the match's row, as in every write
        played = fold.held_scoreboard(match).hands
        if played:
            match.length = {"hands": played}
    return played


def _end_or_reopen(match: Match, finished: bool, now: datetime) -> None:
    """Inside ``change_match``'s write: end the match after its last hand (``finished``),
    or take such an end back; each kept with its moment. Ending twice, or reopening a
    match that was not ended, changes nothing."""
    played = fold.held_scoreboard(match).hands
    if finished:
        if not played:
            raise MatchCannotEnd()
        if match.ended_at is None:
            match.ended_at = now
        return
    length = parse_length(match.length, "length")
    if is_finished(length, played, len(match.players)):
        raise LengthReached(played)
    if match.ended_at is not None:
        match.ended_at = None
        match.reopened_at = now


#: The seasons of ``ledger.tables``, as far as a match's change needs them (the match
#: service does not import the table service, which stands on it).
_SEASONS = table("seasons", column("id"), column("public_id"), column("table_id"))
_TABLES = table("tables", column("id"), column("public_id"))


def _season_of_table(match: Match, public_id: object) -> int:
    """The row id of the season ``public_id`` of the match's table; Invalid otherwise."""
    found: int | None = None
    if match.table_id is not None and is_public_id(public_id):
        found = db.session.scalar(
            select(_SEASONS.c.id).where(
                _SEASONS.c.public_id == public_id, _SEASONS.c.table_id == match.table_id
            )
        )
    if found is None and match.table_id is None:
        raise Invalid([FieldError("season", "This match is in no table, so it has no seasons.")])
    if found is None:
        raise Invalid([FieldError("season", "The table of this match has no season with this id.")])
    return found


class RulesRefused(Invalid):
    """A change of rules refused because they refuse some hands (422, nothing changed):
    ``refused`` names each hand with the engine's reasons (``rescore.Reason``)."""

    def __init__(self, refused: list[tuple[int, tuple[Reason, ...]]]):
        self.refused = refused
        super().__init__(
            [
                FieldError(
                    "rules",
                    "Hand {number} cannot be scored under these rules: {why}",
                    number=number,
                    why=" ".join(str(reason) for reason in reasons),
                )
                for number, reasons in refused
            ]
        )


def _resettle(match: Match, rules: HouseRules, now: datetime) -> None:
    """Inside ``change_match``'s write: the match's rules become ``rules`` (docs/rules.md
    §8), every hand settled again under them; each hand whose result changes is an edit
    in its history, then the fold is kept again from the first hand. Raises
    ``RulesRefused`` while they refuse any hand."""
    rows = db.session.scalars(
        select(StoredHand).where(StoredHand.match_id == match.id).order_by(StoredHand.number)
    ).all()
    settled: list[tuple[StoredHand, dict[str, Any], dict[str, Any]]] = []
    refused: list[tuple[int, tuple[Reason, ...]]] = []
    for row in rows:
        try:
            hand = parse_hand(dict(row.input), rules)
        except Invalid as problem:
            refused.append((row.number, refusal(problem, row.input)))
            continue
        settled.append((row, hand.to_json(), _result_json(settle(hand, rules))))
    if refused:
        raise RulesRefused(refused)
    before = rules_from_record(match.rules)
    for past in db.session.scalars(select(HandVersion).where(HandVersion.match_id == match.id)):
        kept = kept_under(past.result, settled_under(past.result, before), rules)
        if kept != past.result:
            past.result = kept
    match.rules = rules_record(rules)
    for row, entered, result in settled:
        if (entered, result) == (row.input, row.result):
            continue
        edit = _history(row, "edit")
        edit.result = kept_under(edit.result, before, rules)
        db.session.add(edit)
        row.input, row.result = entered, result
        row.version = row.version + 1
        row.updated_at = now
    db.session.flush()
    fold.fill(match, at=now)


def matches_started_between(
    start: datetime, end: datetime, table_id: int | None = None, among: Collection[str] = ()
) -> int:
    """How many matches were created from ``start`` to before ``end`` (a day's count, for
    the default name of the next): with ``table_id``, that table's; else the lone matches
    whose ids are ``among`` (a browser's: a hosted ledger's other lone matches are
    strangers', and their count no business of this browser's)."""
    created = select(func.count()).select_from(Match)
    created = created.where(Match.created_at >= start, Match.created_at < end)
    if table_id is not None:
        created = created.where(Match.table_id == table_id)
    else:
        if not among:
            return 0
        created = created.where(Match.table_id.is_(None), Match.public_id.in_(list(among)))
    return db.session.scalar(created) or 0


def matches_with_ids(public_ids: Collection[str]) -> list[Match]:
    """The matches with these public ids, in no order (one query; unknown ids left out)."""
    return list(db.session.scalars(select(Match).where(Match.public_id.in_(list(public_ids)))))


def is_public_id(text: object) -> TypeGuard[str]:
    """Whether ``text`` can be a match's public id (letters, digits, ``-`` and ``_``)."""
    return isinstance(text, str) and _PUBLIC_ID.fullmatch(text) is not None


def check_edit_key(match: Match, key: object) -> bool:
    """Whether ``key`` is this match's edit key (compared in constant time, as hashes)."""
    if not isinstance(key, str) or not key:
        return False
    return hmac.compare_digest(_hash_key(key), match.edit_key_hash)


def set_stake(match: Match, value: object) -> Match:
    """Set or change the match's stake (``{"per_point": "0.50", "currency": "NPR"}``), or
    drop it (None: points only). Raises Invalid (fields ``stake.per_point``,
    ``stake.currency``) and stores nothing when it is not a stake."""
    return change_match(match, {"stake": value})


def match_view(match: Match, newest: int | None = None, also: int | None = None) -> MatchView:
    """Totals, next dealer, finished, leaders, standings, the totals after every hand,
    and every hand (``newest`` None) or the newest few and hand ``also``: a page's
    view costs the same at the thousandth hand as at the tenth (no query per hand)."""
    board = fold.scoreboard(match)
    if newest == 0:  # no hand shown in a row of totals: the running totals are not read
        return build_match_view(match, board, fold.hands(match, 0, also))
    if newest is None:
        rows = fold.hands(match)
        return build_match_view(match, board, rows, fold.totals_after_each_hand(match))
    views, rows = hands_kept.newest_hands(match, newest)
    shown: list[HandView | HandRow] = list(views)
    if also is not None and all(view.number != also for view in views):
        shown += fold.hands(match, 0, also)
    return build_match_view(
        match, board, shown, fold.totals_after_each_hand(match, rows), fold.played(match)
    )


def hands_page(match: Match, page: object, size: int) -> tuple[MatchView, int, int]:
    """The match showing one page of ``size`` hands in number order; ``page`` counts from
    1, and anything that is no page (not a number, past the end) is the last page. The
    view, the page shown and how many pages there are."""
    board = fold.scoreboard(match)
    pages = max(1, -(-board.hands // size))
    shown = page if isinstance(page, int) and 1 <= page <= pages else pages
    rows = fold.page_of_hands(match, (shown - 1) * size, size)
    view = build_match_view(
        match, board, rows, fold.totals_after_each_hand(match), fold.played(match)
    )
    return view, shown, pages


def match_json(match: Match) -> str:
    """The match's JSON (``MatchView.to_json()``, with its table and season in a table)
    as text, put together from the JSON each hand keeps: no hand is decoded or encoded
    again."""
    view = build_match_view(match, fold.scoreboard(match), (), fold.totals_after_each_hand(match))
    head = json_text(view.head_json(_place(match)))
    fragments = db.session.scalars(
        select(StoredHand.fragment)
        .where(StoredHand.match_id == match.id)
        .order_by(StoredHand.number)
    )
    return f'{head[:-1]},"hands":[{",".join(fragments)}]}}'  # type: ignore[arg-type]  # kept


def _place(match: Match) -> answers.MatchPlace:
    """``{"table": its public id, "season": its season's}`` for a match in a table;
    nothing for a lone match."""
    if match.table_id is None:
        return {}
    found = db.session.scalar(select(_TABLES.c.public_id).where(_TABLES.c.id == match.table_id))
    season = db.session.scalar(select(_SEASONS.c.public_id).where(_SEASONS.c.id == match.season_id))
    return {"table": found, "season": season} if found is not None else {}


def match_views(public_ids: Sequence[str]) -> dict[str, tuple[Match, MatchView]]:
    """These matches without their hands (players, length, totals, state), by public id,
    from their kept scoreboards: the home page's list, in two queries whatever its length."""
    found = db.session.scalars(
        select(Match)
        .where(Match.public_id.in_(list(public_ids)))
        .options(selectinload(Match.players))
    ).all()
    return {m.public_id: (m, build_match_view(m, fold.scoreboard(m), ())) for m in found}


def _write_view(match: Match) -> MatchView:
    """What checking a new or changed hand needs: players, rules, the next dealer."""
    return build_match_view(match, fold.scoreboard(match), ())


# --- hands ---------------------------------------------------------------------------


def preview_hand(match: Match, data: object, dealer: object = None) -> tuple[Hand, Settlement, str]:
    """Check and settle a hand without storing it (the live preview of the hand form).

    Returns the engine's hand, its settlement and the dealer (the given one, else the
    match's next dealer). Raises Invalid like ``add_hand``.
    """
    return _read_and_settle(_write_view(match), data, dealer, default_dealer=None)


def add_hand(match: Match, data: object, dealer: object = None) -> StoredHand:
    """Check, settle and store a new hand; returns the stored hand (``submit_hand``
    without a key)."""
    return submit_hand(match, data, dealer).hand


def submit_hand(
    match: Match,
    data: object,
    dealer: object = None,
    *,
    key: object = None,
    number: object = None,
) -> Receipt:
    """Check, settle and store a new hand, at most once per ``key``.

    ``data`` is the settle format without ``rules``: the players of the match who are
    not listed sit out; each listed name must be a registered player (error at
    ``players.N.name``). The dealer is ``dealer``, else ``data["dealer"]``, else the
    match's next dealer. The hand's number is one more than any number ever given
    in this match (numbers of deleted hands are not reused).

    - ``key`` (an idempotency key): when a hand of this match was stored with it, the
      same request again stores nothing and gets that hand and the first answer back
      (``replayed``); another request with it raises ``KeyReused``.
    - ``number`` (else ``data["number"]``): the number the client believes it is
      adding; when the next number is another, raises ``HandNumberTaken``.
    - A finished match (its length reached) raises ``MatchFinished``.

    The checks that depend on other writers are made while the match's row is held by
    this write, and the key is unique in the database, so two requests at the same
    instant (in any process) cannot both store a hand for one key or one number.
    """
    if number is None and isinstance(data, Mapping):
        number = data.get("number")
    errors: list[FieldError] = []
    try:
        number = read_hand_number(number)
    except FieldError as problem:
        errors.append(problem)
    digest = None
    if key is not None:
        try:
            key = read_idempotency_key(key)
            digest = request_digest({"hand": data, "dealer": dealer, "number": number})
            earlier = _hand_with_key(match, key)
            if earlier is not None:
                return _replay(earlier, digest)
        except FieldError as problem:
            errors.append(problem)
    try:
        _read_and_settle(_write_view(match), data, dealer, default_dealer=None)
    except Invalid as problem:
        raise Invalid([*errors, *problem.errors]) from None
    if errors:
        raise Invalid(errors)
    assert (number is None or is_int(number)) and (key is None or isinstance(key, str))  # read
    try:
        with transaction():
            stored, answer = _store_new_hand(
                match, data, dealer, key=key, digest=digest, number=number
            )
    except (_StoredMeanwhile, IntegrityError):
        # The key's first request won (the unique key catches what the check missed).
        earlier = _hand_with_key(match, key) if key is not None else None
        if earlier is None:
            raise
        return _replay(earlier, digest)
    return Receipt(stored, False, answer)


def replace_hand(
    match: Match,
    number: int,
    data: object,
    expected_version: int | None = None,
    dealer: object = None,
) -> answers.HandAnswer:
    """Re-settle hand ``number`` from new input, keeping the old one in its history; the
    API's answer (the hand, the totals, the match), made before the commit.

    ``expected_version``: the version the editor loaded; when the stored hand has
    another, raises ``HandConflict`` and changes nothing (also when another save
    lands between this read and the write). 404 when there is no such hand. The
    dealer stays unless ``dealer`` (or ``data["dealer"]``) gives another.
    """
    stored = get_hand(match, number)
    if expected_version is not None and expected_version != stored.version:
        raise HandConflict(number, stored.version)
    with transaction(match, number):
        now = _touch(match)  # first: the match's row, as in every write
        hand, result, dealer_name = _read_and_settle(  # against the match as it is now
            build_match_view(match, fold.held_scoreboard(match), ()),
            data,
            dealer,
            default_dealer=stored.dealer,
        )
        db.session.add(_history(stored, "edit"))
        old = _folded(stored)
        stored.dealer = dealer_name
        stored.input = hand.to_json()
        stored.result = _result_json(result)
        stored.version = stored.version + 1  # UPDATE ... WHERE version = the one we read
        stored.updated_at = now
        board = fold.rewrite(match, number, old, stored)
        fold.keep(match, board, now)
        # Made before the commit, after which the database may be out of reach while the
        # change is stored; the match was read again once the write held its row.
        answer = build_match_view(match, board, [stored]).hand_answer(number)
    return answer


def delete_hand(match: Match, number: int, expected_version: int | None = None) -> answers.Deleted:
    """Delete hand ``number`` (its history keeps a record); later hands keep their numbers.
    The API's answer: the match's totals and the match after it."""
    stored = get_hand(match, number)
    if expected_version is not None and expected_version != stored.version:
        raise HandConflict(number, stored.version)
    with transaction(match, number):
        now = _touch(match)  # first: the match's row, as in every write
        db.session.add(_history(stored, "delete"))
        old = _folded(stored)
        db.session.delete(stored)
        db.session.flush()
        board = fold.rewrite(match, number, old, None)
        fold.keep(match, board, now)
        view = build_match_view(match, board, ())  # the answer, made before the commit
        return {"deleted": number, "totals": view.totals, "match": view.summary_json()}


def delete_match(match: Match) -> None:
    """Delete a match that has no hand (started by mistake: the wrong players, a second
    tap), with its players and the records of its deleted hands. A match with a hand
    raises ``MatchHasHands`` and is kept: its hands count in totals, money and figures."""
    with transaction(match):
        _touch(match)  # first: holds the match's row, so no hand is added meanwhile
        played = db.session.scalar(
            select(func.count()).select_from(StoredHand).where(StoredHand.match_id == match.id)
        )
        if played:
            raise MatchHasHands(played)
        db.session.delete(match)


def restore_hand(match: Match, number: int) -> answers.HandAnswer:
    """Put deleted hand ``number`` back as it was before its delete, with its number, its
    dealer and what was entered, read and settled again against the match as it is now;
    the later hands' carried penalties follow. Its history keeps the delete; the hand
    takes the next version. The API's answer, as for a replaced hand. 404 when the match
    has no deleted hand ``number``; 409 when the hand is there, or the match is over."""
    if _hand_numbered(match, number) is not None:
        raise HandThere(number)
    deleted = _deleted_version(match, number)
    with transaction(match, number):
        now = _touch(match)  # first: the match's row, as in every write
        if _hand_numbered(match, number) is not None:  # put back meanwhile
            raise HandThere(number)
        board = fold.held_scoreboard(match)  # as other writers left it
        _refuse_when_over(match, board)
        hand, result, dealer_name = _read_and_settle(
            build_match_view(match, board, ()),
            deleted.input,
            deleted.dealer,
            default_dealer=deleted.dealer,
        )
        stored = StoredHand(
            match_id=match.id,
            number=number,
            dealer=dealer_name,
            input=hand.to_json(),
            result=_result_json(result),
            version=deleted.version + 1,
            created_at=_first_saved(match, number),
            updated_at=now,
        )
        db.session.add(stored)
        db.session.flush()
        board = fold.rewrite(match, number, None, stored)
        fold.keep(match, board, now)
        answer = build_match_view(match, board, [stored]).hand_answer(number)
    return answer


def _deleted_version(match: Match, number: int) -> HandVersion:
    """The delete that hand ``number`` ended with; 404 when it was never deleted."""
    newest = db.session.scalars(
        select(HandVersion)
        .where(HandVersion.match_id == match.id, HandVersion.hand_number == number)
        .order_by(HandVersion.version.desc(), HandVersion.id.desc())
        .limit(1)
    ).one_or_none()
    if newest is None or newest.action != "delete":
        raise NotFound(Msg("This match has no deleted hand {number}.", number=number))
    return newest


def _first_saved(match: Match, number: int) -> datetime:
    """When hand ``number`` was first saved (its first version's time): a hand put back
    keeps its place in the night's times."""
    first = db.session.scalar(
        select(func.min(HandVersion.saved_at)).where(
            HandVersion.match_id == match.id, HandVersion.hand_number == number
        )
    )
    assert first is not None  # a deleted hand has its delete, at least
    return first


def get_hand(match: Match, number: int) -> StoredHand:
    """The stored hand ``number`` of this match; 404 when there is none."""
    found = _hand_numbered(match, number)
    if found is None:
        raise NotFound(Msg("This match has no hand {number}.", number=number))
    return found


def find_hand(match: Match, number: int) -> StoredHand | None:
    """The stored hand ``number`` of this match, or None."""
    return _hand_numbered(match, number)


def hand_history(match: Match, number: int) -> list[HandVersion]:
    """The earlier versions of hand ``number`` (edits, and a delete), oldest first."""
    return list(
        db.session.scalars(
            select(HandVersion)
            .where(HandVersion.match_id == match.id, HandVersion.hand_number == number)
            .order_by(HandVersion.version, HandVersion.id)
        )
    )


def versions_not_edits(match: Match) -> dict[int, dict[str, int]]:
    """Each hand's versions that were no edit of its play (hand number -> action ->
    times; only hands that have some): ``delete``, a delete it was put back from while
    the hand is in the match (``restore_hand``), and ``rename``, a player renamed. A
    hand's version counts them as it counts its edits; the printed summary says which
    it was, and a rename alone is no change to print."""
    rows = db.session.execute(
        select(HandVersion.hand_number, HandVersion.action, func.count())
        .where(HandVersion.match_id == match.id, HandVersion.action.in_(("delete", "rename")))
        .group_by(HandVersion.hand_number, HandVersion.action)
    )
    found: dict[int, dict[str, int]] = {}
    for number, action, times in rows:
        found.setdefault(number, {})[action] = times
    return found


# --- export and import ---------------------------------------------------------------


def export_json(match: Match, view: MatchView | None = None) -> dict[str, Any]:
    """The whole match as a JSON document that ``import_match`` reads back. ``view``:
    the match's view when the caller has built it (the summary PDF prints it and carries
    its export: the same version, and the view is not built twice)."""
    return match_export.export_document(view or match_view(match), _all_history(match))


def export_csv(match: Match) -> str:
    """The score table (a row per hand, a column per player, the totals) as CSV text,
    with text cells escaped against spreadsheet formula injection."""
    return match_export.export_csv(match_view(match))


def import_match(data: object) -> tuple[Match, str]:
    """A new match (new id, new edit key) from an ``export_json`` document: read and
    settled first (``prepare_import``), then stored in one short transaction."""
    imported = prepare_import(data)
    with transaction():
        store_imports([imported])
    return get_match(imported.public_id), imported.key


class ImportedMatch(Struct):
    """A match read from its export and settled again, not stored yet: the column values
    of its row, its players, its hands and their earlier versions (the last three name
    the match by ``match_public_id``), and its edit key."""

    key: str
    match: dict[str, Any]
    players: list[dict[str, Any]]
    hands: list[dict[str, Any]]
    history: list[dict[str, Any]]

    @property
    def public_id(self) -> str:
        public_id: str = self.match["public_id"]
        return public_id

    def place(self, table_id: int, season_id: int | None) -> None:
        """Import it into a table (and season)."""
        self.match.update(table_id=table_id, season_id=season_id)


def prepare_import(data: object) -> ImportedMatch:
    """The match an ``export_json`` document holds, checked, settled and laid out as the
    rows to insert, outside any transaction: storing it (``store_imports``) then holds
    the database's write lock (SQLite's is the whole file's) only for the inserts.

    Each hand is checked and settled again under the match's rules (posted scores
    are never trusted), each earlier version under the rules it was settled under;
    numbers, dealers, versions, timestamps and history are kept.
    """
    spec = match_export.read_export(data)
    match, key = _match_row(spec.match)
    match.last_hand_number = spec.last_hand_number
    match.ended_at = spec.ended_at
    times = spec.made_and_changed()
    if times:
        match.created_at, match.updated_at = times
    board = Scoreboard.empty(spec.match.players)
    hands = []
    for item in sorted(spec.hands, key=lambda item: item.number):
        row = StoredHand(
            number=item.number,
            dealer=item.dealer,
            input=item.hand.to_json(),
            result=_result_json(settle(item.hand, spec.match.rules)),
            version=item.version,
            **item.stamps,
        )
        board = fold.add(match, board, row)
        hands.append(row)
    match.scoreboard = board.to_json()
    history = [
        HandVersion(
            hand_number=old.number,
            version=old.version,
            action=old.action,
            dealer=old.dealer,
            input=old.hand.to_json(),
            result=kept_under(
                _result_json(settle(old.hand, old.rules)), old.rules, spec.match.rules
            ),
            **{"saved_at": utcnow(), **old.stamps},
        )
        for old in spec.history
    ]
    (values,) = _column_values([match])
    named = {"match_public_id": values["public_id"]}
    return ImportedMatch(
        key,
        values,
        *(
            [{**row, **named} for row in _column_values(rows)]
            for rows in (match.players, hands, history)
        ),
    )


def store_imports(imported: Sequence[ImportedMatch]) -> None:
    """Write prepared matches (``prepare_import``) within the caller's transaction: one
    executemany per table (the matches, their players, hands and history), whatever
    their number, with values made beforehand."""
    if not imported:
        return
    db.session.execute(insert(_table(Match)), [item.match for item in imported])
    match_id = (
        select(Match.id).where(Match.public_id == bindparam("match_public_id")).scalar_subquery()
    )
    for kind, rows in (
        (MatchPlayer, [row for item in imported for row in item.players]),
        (StoredHand, [row for item in imported for row in item.hands]),
        (HandVersion, [row for item in imported for row in item.history]),
    ):
        if rows:
            db.session.execute(insert(_table(kind)).values(match_id=match_id), rows)


def _table(model: type[Any]) -> Table:
    """The model's table, for a Core INSERT (executemany, none of the ORM's bookkeeping)."""
    found: Table = model.metadata.tables[model.__tablename__]
    return found


def _column_values(rows: Sequence[Any]) -> list[dict[str, Any]]:
    """The columns' values of new rows (objects never added to a session) for one
    executemany, their ids and match left out: each column left unset takes its
    default here, so that every row carries the same columns."""
    if not rows:
        return []
    columns = [
        (attr.key, attr.columns[0])
        for attr in inspect(type(rows[0])).column_attrs
        if not attr.columns[0].primary_key and attr.key != "match_id"
    ]
    out = []
    for row in rows:
        values = {}
        for key, stored in columns:
            value = row.__dict__.get(key)
            if key not in row.__dict__ and stored.default is not None:
                default = stored.default
                value = default.arg(None) if default.is_callable else default.arg
            values[stored.key] = value
        out.append(values)
    return out


# --- inside --------------------------------------------------------------------------


@contextmanager
def transaction(match: Match | None = None, number: int | None = None) -> Iterator[None]:
    """Commit at the end of the block, or roll back and store nothing.

    A block inside another adds to the outer one, which alone commits: a write made of
    several (a table's import: the table, then each match) is stored whole or not at all.

    When hand ``number`` of ``match`` changed or vanished since it was read, the write
    fails (SQLAlchemy's version check on UPDATE and DELETE: ``StaleDataError``; or the
    history row of that version exists: ``IntegrityError``) and becomes ``HandConflict``.
    A write that met another (``_met_another``) becomes ``HandConflict`` too, or
    ``WriteConflict`` when no hand was named.
    """
    info = db.session.info
    if info.get(_OPEN):
        yield
        return
    match_id = match.id if match is not None else None
    info[_OPEN] = True
    try:
        with isolation.writing():
            yield
            db.session.commit()
    except BaseException as error:
        db.session.rollback()
        _raise_conflict(error, match_id, number)
        raise  # the block's (or the commit's) error goes on
    finally:
        info.pop(_OPEN, None)


#: The session's mark of an open transaction block (``transaction``).
_OPEN = "open_transaction"


def _raise_conflict(error: BaseException, match_id: int | None, number: int | None) -> None:
    met = _met_another(error)
    if number is not None and (met or isinstance(error, StaleDataError | IntegrityError)):
        raise HandConflict(number, _current_version(match_id, number)) from error
    if met:
        raise WriteConflict() from error


def _current_version(match_id: int | None, number: int) -> int | None:
    return db.session.scalar(
        select(StoredHand.version).where(
            StoredHand.match_id == match_id, StoredHand.number == number
        )
    )


#: PostgreSQL's serialization_failure and deadlock_detected.
RETRYABLE_SQLSTATES = {"40001", "40P01"}


def _met_another(error: BaseException) -> bool:
    """Whether the database refused a write because another one held what it needed."""
    if not isinstance(error, DBAPIError):
        return False
    cause = error.orig
    if isinstance(cause, sqlite3.OperationalError):
        return "locked" in str(cause)  # "database is locked" after the busy timeout
    return getattr(cause, "sqlstate", None) in RETRYABLE_SQLSTATES


def _new_match(spec: MatchSpec, guests: Collection[str] = ()) -> tuple[Match, str]:
    """The match of ``spec``, added to the session; ``guests``: those of its players who
    play without being on its table's roster."""
    match, key = _match_row(spec, guests)
    db.session.add(match)
    return match, key


def _match_row(spec: MatchSpec, guests: Collection[str] = ()) -> tuple[Match, str]:
    """A new match's row (not in the session) and its edit key."""
    key = secrets.token_urlsafe(24)
    match = Match(
        name=spec.name,
        rules=spec.rules_json(),
        length=spec.length.to_json() if spec.length else None,
        first_dealer=spec.first_dealer,
        edit_key_hash=_hash_key(key),
        players=[
            MatchPlayer(seat=seat, name=name, name_key=name.casefold(), guest=name in guests)
            for seat, name in enumerate(spec.players)
        ],
    )
    _put_stake(match, spec.stake)
    return match, key


def _put_stake(match: Match, stake: Stake | None) -> None:
    match.stake_per_point = stake.per_point if stake else None
    match.stake_currency = stake.currency if stake else None


def _hash_key(key: str) -> str:
    return hashlib.sha256(key.encode("utf-8", "surrogatepass")).hexdigest()


def _read_and_settle(
    view: MatchView, data: object, dealer: object, default_dealer: str | None
) -> tuple[Hand, Settlement, str]:
    """The hand and its dealer checked together (every problem in one Invalid), settled.
    A match kept with a points table that falls takes no new hand or edit until its rules
    change (docs/rules.md §9): its stored hands keep their results."""
    errors: list[FieldError] = falling_tables(view.rules)
    if dealer is None and isinstance(data, Mapping):
        dealer = data.get("dealer")
    dealer_name = default_dealer or view.next_dealer
    if dealer is not None:
        try:
            dealer_name = read_dealer(dealer, view.players)
        except Invalid as problem:
            errors += problem.errors
    hand = None
    try:
        hand = read_hand(data, view.players, view.rules)
    except Invalid as problem:
        errors += problem.errors
    if errors:
        raise Invalid(errors)
    assert hand is not None
    return hand, settle(hand, view.rules), dealer_name


def _result_json(result: Settlement) -> dict[str, Any]:
    """The result as stored: ``Settlement.to_json()`` without the rules (the match has them)."""
    out = result.to_json()
    del out["rules"]
    return out


def _history(stored: StoredHand, action: str) -> HandVersion:
    return HandVersion(
        match_id=stored.match_id,
        hand_number=stored.number,
        version=stored.version,
        action=action,
        dealer=stored.dealer,
        input=stored.input,
        result=stored.result,
        saved_at=stored.updated_at,
    )


def _touch(match: Match, *, new_number: bool = False) -> datetime:
    """Count a write on the match (version, updated_at) in one UPDATE, atomic in the
    database (with ``new_number``, also take the next hand number); the write's moment.

    The write holds the match's row from here to its commit, and reads the match and
    its players again: as other writes left them (a rename, a change of rules), not as
    this request first read them."""
    now = utcnow()
    values: dict[str, Any] = {"version": Match.version + 1, "updated_at": now}
    if new_number:
        values["last_hand_number"] = Match.last_hand_number + 1
    touched = db.session.execute(
        update(Match).where(Match.id == match.id).values(**values),
        execution_options={"synchronize_session": False},
    )
    if not cast("CursorResult[Any]", touched).rowcount:
        # Deleted since the request read it (a night started by mistake, deleted on
        # another phone while a hand was being added): 404, as for the next request.
        raise NotFound(NO_MATCH)
    players = inspect(match).attrs.players.loaded_value
    for player in players if isinstance(players, list) else ():
        db.session.expire(player)
    # Named, so that the hands loaded stay as read (their versions are checked on write).
    db.session.expire(match, _read_again())
    return now


@cache
def _read_again() -> list[str]:
    """What a write reads again of the match once it holds its row: its columns, its
    players. Listed at the first write, not at import: the mapper's columns are known once
    SQLAlchemy has configured every mapper, work it otherwise leaves to the first query."""
    return [*(column.key for column in inspect(Match).column_attrs), "players"]


def _folded(stored: StoredHand) -> tuple[HandRecord, Carry]:
    """The hand as the match's fold counted it (its kept record)."""
    assert stored.record is not None  # kept since the match was first read
    return record_from_json(stored.number, stored.dealer, stored.record)


def _store_new_hand(
    match: Match,
    data: object,
    dealer: object,
    *,
    key: str | None,
    digest: str | None,
    number: int | None,
) -> tuple[StoredHand, answers.HandAnswer]:
    """Inside ``submit_hand``'s transaction: take the next number (holding the match's
    row until the commit), check what other writers may have changed (the key, the
    number, the end of the match), read and settle the hand against the match as it is
    now (its players renamed meanwhile, its next dealer), add it as one step of the
    match's fold; it and the API's answer."""
    now = _touch(match, new_number=True)  # first: the match's row, as in every write
    taken = db.session.scalar(select(Match.last_hand_number).where(Match.id == match.id))
    assert taken is not None  # the match's row, held
    if key is not None and _hand_with_key(match, key) is not None:
        raise _StoredMeanwhile
    if number is not None and number != taken:
        raise HandNumberTaken(number, taken, _hand_numbered(match, number))
    board = fold.held_scoreboard(match)  # as other writers left it
    _refuse_when_over(match, board)
    hand, result, dealer_name = _read_and_settle(
        build_match_view(match, board, ()), data, dealer, default_dealer=None
    )
    stored = StoredHand(
        match_id=match.id,
        number=taken,
        dealer=dealer_name,
        input=hand.to_json(),
        result=_result_json(result),
        version=1,
        created_at=now,
        updated_at=now,
        idempotency_key=key,
        request_digest=digest,
    )
    board = fold.add(match, board, stored)
    fold.keep(match, board, now)
    # The answer is the match as this write leaves it (other writers' changes included).
    db.session.expire(match)
    with db.session.no_autoflush:  # one INSERT of the hand, answer and all, at the commit
        after = tuple(board.totals.values())  # in seat order
        view = build_match_view(match, board, [stored], [(taken, after)])
        answer = view.hand_answer(taken)
        if key is not None:
            stored.first_answer = {**answer}
    db.session.add(stored)
    return stored, answer


def _refuse_when_over(match: Match, board: Scoreboard) -> None:
    """Inside a write that holds the match's row: a match whose length is reached, or
    that the table ended, takes no hand (``MatchFinished``, ``MatchEnded``)."""
    length, ended_at = db.session.execute(
        select(Match.length, Match.ended_at).where(Match.id == match.id)
    ).one()
    if is_finished(parse_length(length, "length"), board.hands, len(match.players)):
        raise MatchFinished(board.hands)
    if ended_at is not None:
        raise MatchEnded(board.hands)


def _hand_with_key(match: Match, key: str) -> StoredHand | None:
    return db.session.scalars(
        select(StoredHand).where(StoredHand.match_id == match.id, StoredHand.idempotency_key == key)
    ).one_or_none()


def _replay(earlier: StoredHand, digest: str | None) -> Receipt:
    if earlier.request_digest != digest:
        raise KeyReused(earlier.number)
    assert earlier.first_answer is not None
    # Kept as JSON, it is the answer ``hand_answer`` gave then: mypy cannot see it is one.
    return Receipt(earlier, True, cast(answers.HandAnswer, earlier.first_answer))


def _hand_numbered(match: Match, number: int) -> StoredHand | None:
    return db.session.scalars(
        select(StoredHand).where(StoredHand.match_id == match.id, StoredHand.number == number)
    ).one_or_none()


def _all_history(match: Match) -> list[HandVersion]:
    return list(
        db.session.scalars(
            select(HandVersion)
            .where(HandVersion.match_id == match.id)
            .order_by(HandVersion.hand_number, HandVersion.version, HandVersion.id)
        )
    )
