"""A match as a JSON document (export and import) and as a CSV score table.

No database here: ``ledger.matches`` passes in a ``MatchView`` to export, and stores
what ``read_export`` accepted. An import never trusts posted scores: the document's
hands are inputs, checked and settled again by the engine.
"""

from __future__ import annotations

import csv
import io
import json
import re
from collections.abc import Mapping, Sequence
from datetime import UTC, datetime
from typing import Any

from msgspec import Struct

from ledger.engine import FieldError, Hand, HouseRules, Invalid
from ledger.engine.declare import (
    REFUSED,
    Body,
    Choice,
    Field,
    Kind,
    Reading,
    Schema,
    Whole,
    refusal,
)
from ledger.engine.errors import N_
from ledger.engine.values import is_int
from ledger.matches.answers import HISTORY_ACTIONS
from ledger.matches.models import HandVersion, utcnow
from ledger.matches.reading import (
    MATCH,
    RULES,
    MatchSpec,
    read_dealer,
    read_hand,
    read_match,
    settled_under,
)
from ledger.matches.view import MatchView, iso

EXPORT_FORMAT = "marriage-ledger/match"
EXPORT_FORMAT_VERSION = 1
#: A whole table's export (``ledger.tables.export``), named here so that a match's import
#: given one can say where it goes.
TABLE_EXPORT_FORMAT = "marriage-ledger-table"
#: An import (the export's JSON, or a summary PDF carrying it) may be this large; the
#: usual request limit is 256 KiB.
IMPORT_MAX_BYTES = 4 * 1024 * 1024

# A cell starting with one of these is a formula to a spreadsheet (OWASP's list, and the
# fullwidth forms that spreadsheets in East Asian locales read as the same signs).
FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r", "\uff1d", "\uff0b", "\uff0d", "\uff20")
#: The largest hand number, version and last_hand_number an import may carry: more than
#: any table plays, and far below the integer columns' 2**31 - 1, so that the hands and
#: edits that follow an import still fit.
NUMBER_MAX = 1_000_000
#: Imported times, in UTC: what the databases store and give back alike.
YEARS = (1970, 9999)


# --- export --------------------------------------------------------------------------


def export_document(view: MatchView, history: Sequence[HandVersion]) -> dict[str, Any]:
    """The whole match: what ``read_export`` needs to rebuild it, plus the agreed nets,
    totals and timestamps for people and other programs (an import recomputes those).

    Each hand is in the settle format (``tiplu``, ``finish``, ``winner``, ``players``)
    with its ``number``, ``dealer`` and ``version``.
    """
    return {
        **stamped(EXPORT_FORMAT, EXPORT_FORMAT_VERSION, view.public_id),
        "name": view.name,
        "rules": view.rules.spec(),
        "length": view.length.to_json() if view.length else None,
        "players": list(view.players),
        "first_dealer": view.first_dealer,
        "stake": view.stake.to_json() if view.stake else None,
        "last_hand_number": view.next_hand_number - 1,
        "created_at": iso(view.created_at),
        "updated_at": iso(view.updated_at),
        "ended_at": iso(view.ended_at),
        "hands": [
            {
                "number": hand.number,
                "dealer": hand.dealer,
                "version": hand.version,
                **hand.input,
                "nets": hand.nets,
                "created_at": iso(hand.created_at),
                "updated_at": iso(hand.updated_at),
            }
            for hand in view.hands
        ],
        "history": [
            {
                "hand": old.hand_number,
                "version": old.version,
                "action": old.action,
                "dealer": old.dealer,
                **old.input,
                "nets": {p["name"]: p["net"] for p in old.result["players"]},
                **_rules_apart(old, view),
                "saved_at": iso(old.saved_at),
                "replaced_at": iso(old.replaced_at),
            }
            for old in history
        ],
        "totals": view.totals,
    }


def stamped(fmt: str, version: int, public_id: str) -> dict[str, Any]:
    """What an export says of itself: its format, when it was made, the id it had."""
    return {"format": fmt, "format_version": version, "exported_at": iso(utcnow()), "id": public_id}


def _rules_apart(old: HandVersion, view: MatchView) -> dict[str, Any]:
    """``rules``: those an earlier version was settled under, when they are not the
    match's (its rules were changed for good since)."""
    rules = settled_under(old.result, view.rules)
    return {} if rules == view.rules else {"rules": rules.spec()}


def csv_cell(value: object) -> object:
    """A text cell that a spreadsheet would run as a formula gets a leading ``'``.

    Numbers stay numbers (-5 is a score, not a formula).

    >>> csv_cell("=HYPERLINK(1)"), csv_cell("-x"), csv_cell(-5), csv_cell("Asha")
    ("'=HYPERLINK(1)", "'-x", -5, 'Asha')
    >>> csv_cell("\uff1dHYPERLINK(1)") == "'\uff1dHYPERLINK(1)"
    True
    """
    if isinstance(value, str) and value.startswith(FORMULA_STARTS):
        return "'" + value
    return value


def export_csv(view: MatchView) -> str:
    """A row per hand (a column per player: the hand's net, empty when sitting out),
    a row for foul penalties carried into a hand, and the totals (all the engine's)."""
    out = io.StringIO()
    writer = csv.writer(out)

    def row(first: tuple[object, ...], each: Mapping[str, object]) -> None:
        """The first cells, then a cell per player from ``each`` (empty: none for them)."""
        writer.writerow([csv_cell(c) for c in (*first, *(each.get(p, "") for p in players))])

    players = view.players
    row(("Hand", "Dealer", "Finish", "Winner"), dict(zip(players, players, strict=True)))
    for hand in view.hands:
        row((hand.number, hand.dealer, hand.finish, hand.winner or ""), hand.nets)
        if hand.carried_penalties:
            row((hand.number, "", "foul penalty carried in", ""), hand.carried_penalties)
    row(("Total", "", "", ""), view.totals)
    return out.getvalue()


def export_filename(match_name: str, extension: str) -> str:
    """A safe ASCII file name for a download, from the match's name.

    >>> export_filename('Tihar 2026 "<b>"', "csv"), export_filename("नेपाली", "json")
    ('tihar-2026-b.csv', 'match.json')
    """
    slug = re.sub(r"[^A-Za-z0-9]+", "-", match_name).strip("-").lower()[:40].strip("-")
    return f"{slug or 'match'}.{extension}"


# --- import --------------------------------------------------------------------------


class ImportedHand(Struct, frozen=True):
    number: int
    dealer: str
    version: int
    action: str  # history only: "edit", "delete" or "rename"
    hand: Hand
    #: The rules the hand was settled under (an earlier version's own, else the match's).
    rules: HouseRules
    #: The document's timestamps (created_at/updated_at, or saved_at/replaced_at).
    stamps: dict[str, datetime]


class ImportSpec(Struct, frozen=True):
    match: MatchSpec
    last_hand_number: int
    hands: tuple[ImportedHand, ...]
    history: tuple[ImportedHand, ...]
    #: When the table ended the match after its last hand (None: it was not ended so).
    ended_at: datetime | None = None
    #: When the match was made and last changed (None: an export printed before it
    #: carried them; ``made_and_changed`` reads them from its hands then).
    created_at: datetime | None = None
    updated_at: datetime | None = None

    def made_and_changed(self) -> tuple[datetime, datetime] | None:
        """When the match was made and last changed: as the export says, else its
        earliest and newest time (of its hands, their earlier versions, its end), so that
        a match kept for a year and loaded again is not dated the day it was loaded (its
        summary said "created" after it was played, a table's nights all that day).
        None when the document gives no time at all."""
        moments = [
            moment for item in (*self.hands, *self.history) for moment in item.stamps.values()
        ] + ([self.ended_at] if self.ended_at else [])
        made = self.created_at or min(moments, default=None)
        changed = self.updated_at or max(moments, default=made)
        return None if made is None or changed is None else (made, max(made, changed))


def check_format_version(data: Mapping[str, Any], known: int) -> None:
    """Refuse an export (a match's or a table's) whose ``format_version`` is not ``known``
    (left out: it is): a newer ledger's fields may mean what this one cannot read."""
    given = data.get("format_version", known)
    if not is_int(given) or given != known:
        raise refusal(
            "format_version",
            "This ledger reads exports of format_version {known}; this one has {given}.",
            known=known,
            given=json.dumps(given)[:40],
        )


def read_export(data: object) -> ImportSpec:
    """Check an exported match; raises Invalid with every problem (fields like
    ``hands.3.players.0.name``)."""
    if not isinstance(data, Mapping):
        raise refusal("", EXPORT.message)
    fmt = data.get("format", EXPORT_FORMAT)
    if fmt == TABLE_EXPORT_FORMAT:  # a table's export (or season PDF) loaded as a match
        raise refusal(
            "format",
            "This is a whole table's export, not one match's: a table is loaded "
            "on the new-table page, or with POST /api/v1/tables/import.",
        )
    if fmt != EXPORT_FORMAT:
        raise refusal(
            "format", "This is not a match exported by the ledger ({given!r}).", given=fmt
        )
    check_format_version(data, EXPORT_FORMAT_VERSION)
    match = read_match(**MATCH.given(data))
    reading = Reading()
    hands = _read_hands(data.get("hands", []), "hands", match, reading)
    history = _read_hands(data.get("history", []), "history", match, reading)
    read: Any = EXPORT.read(data, "", reading)
    last = max([read["last_hand_number"], *(h.number for h in hands)])
    if not reading.errors:
        _check_history(history, hands, last, reading.errors)
    if reading.errors:
        raise Invalid(reading.errors)
    return ImportSpec(
        match,
        last,
        tuple(hands),
        tuple(history),
        read["ended_at"] if hands else None,
        read["created_at"],
        read["updated_at"],
    )


#: Why a version of a hand does not fit the hands imported (``_check_history``): its
#: field and sentence.
_MISFITS = {
    "past": ("hand", N_("Hand {number} is past the match's last hand, {last}.")),
    "not older": (
        "version",
        N_(
            "An earlier version of hand {number} must be older than the hand's own "
            "version {current}."
        ),
    ),
    "after delete": (
        "version",
        N_(
            "Hand {number} was deleted at version {deleted} and is not in the match: its "
            "history can have no later version."
        ),
    ),
}


def _check_history(
    history: Sequence[ImportedHand],
    hands: Sequence[ImportedHand],
    last: int,
    errors: list[FieldError],
) -> None:
    """The history must fit the hands, as the ledger writes it: each entry is a hand of
    the match (numbers are never reused), an earlier version of a hand still there is
    older than it (a delete among them: the hand was put back), and a hand no longer
    there was deleted at its newest version. Else the hands imported could never be
    edited or deleted (their next history row would collide with one imported)."""
    current = {hand.number: hand.version for hand in hands}
    deleted: dict[int, int] = {}
    for old in history:
        if old.action == "delete":
            deleted[old.number] = max(old.version, deleted.get(old.number, 0))
    for i, old in enumerate(history):
        number = old.number
        if number > last:
            misfit = "past"
        elif number in current and old.version >= current[number]:
            misfit = "not older"
        elif number not in current and old.version > deleted.get(number, old.version):
            misfit = "after delete"
        else:
            continue
        key, template = _MISFITS[misfit]
        values = {"current": current.get(number), "deleted": deleted.get(number)}
        errors.append(
            FieldError(f"history.{i}.{key}", template, number=number, last=last, **values)
        )


class Moment(Kind):
    """A time an import reads, in UTC (one without an offset is UTC): RFC 3339, in the
    years ``YEARS`` (a date that does not exist, like 30 February, is refused too)."""

    def __init__(self, described: Schema | None = None):
        self.described = described or {"type": "string", "format": "date-time"}

    def read(self, value: object, parent: str, key: str | int, reading: Reading) -> object:
        try:
            moment = datetime.fromisoformat(value) if isinstance(value, str) else None
            if moment is not None:
                moment = (moment if moment.tzinfo else moment.replace(tzinfo=UTC)).astimezone(UTC)
        except (ValueError, OverflowError):
            moment = None
        if moment is not None and YEARS[0] <= moment.year <= YEARS[1]:
            return moment
        reading.refuse(
            parent,
            key,
            "A time must be like 2026-11-01T18:30:00Z, in the years {first} to {last}.",
            first=YEARS[0],
            last=YEARS[1],
        )
        return REFUSED

    def schema(self) -> Schema:
        return self.described


#: ``Moment``'s schema in an import's documents (the years ``YEARS``).
TIME = Moment(
    {
        "type": "string",
        "format": "date-time",
        "pattern": r"^(19[7-9][0-9]|[2-9][0-9]{3})-(0[1-9]|1[0-2])-(0[1-9]|[12][0-9]|3[01])"
        r"T([01][0-9]|2[0-3]):[0-5][0-9]:[0-5][0-9](\.[0-9]{1,6})?"
        r"(Z|[+-]([01][0-9]|2[0-3]):[0-5][0-9])$",
    }
)
_NUMBER = Whole(1, NUMBER_MAX, message=N_("A hand number is a whole number from 1 to {most}."))
_VERSION = Field(
    "version",
    Whole(1, NUMBER_MAX, message=N_("A version is a whole number from 1 to {most}.")),
    absent=1,
)
_ENTRY = N_("Each hand must be a JSON object.")


def _times(*keys: str) -> Body:
    return Body(tuple(Field(key, TIME, nullable=True) for key in keys), _ENTRY)


#: An export's own fields beside the match's (``MATCH``) and its hands.
EXPORT = Body(
    (
        Field(
            "last_hand_number",
            Whole(
                0,
                NUMBER_MAX,
                message=N_("last_hand_number must be a whole number from 0 to {most}."),
            ),
            absent=0,
            refused=0,
        ),
        Field(
            "ended_at",
            TIME,
            nullable=True,
            help="When the table ended the match (End the night).",
        ),
        Field("created_at", TIME, nullable=True, help="When the match was made."),
        Field("updated_at", TIME, nullable=True, help="When the match last changed."),
    ),
    N_("An import must be a match exported as JSON."),
    nulls_absent=False,
)
#: A hand of an export (beside its dealer and the hand's own fields, ``HAND``), and its
#: times (read after the hand, so that its problems come in that order).
HAND_ENTRY = Body((Field("number", _NUMBER, required=True), _VERSION), _ENTRY, nulls_absent=False)
HAND_TIMES = _times("created_at", "updated_at")
#: An earlier version of a hand (``rules``: those it was settled under, when they are
#: not the match's), and its times.
HISTORY_ENTRY = Body(
    (
        Field("hand", _NUMBER, required=True),
        _VERSION,
        Field(
            "action",
            Choice(HISTORY_ACTIONS, N_("action must be edit, delete or rename.")),
            absent="edit",
        ),
        Field("rules", RULES, nullable=True),
    ),
    _ENTRY,
    nulls_absent=False,
)
HISTORY_TIMES = _times("saved_at", "replaced_at")
#: How each list of an export's hands is read (and described).
ENTRIES = {"hands": (HAND_ENTRY, HAND_TIMES), "history": (HISTORY_ENTRY, HISTORY_TIMES)}


def _read_hands(
    items: object, where: str, match: MatchSpec, reading: Reading
) -> list[ImportedHand]:
    if not isinstance(items, list):
        reading.errors.append(FieldError(where, f"{where} must be a list."))
        return []
    history = where == "history"
    entry, times = ENTRIES[where]
    out = []
    keys: set[tuple[int, int]] = set()
    for i, item in enumerate(items):
        path = f"{where}.{i}"
        before = len(reading.errors)
        read: Any = entry.read(item, path, reading)
        if read is None:
            continue
        number, version = read["hand" if history else "number"], read["version"]
        action = read.get("action", "current")
        names = _names_then(item) if action == "rename" else match.players
        rules = read.get("rules") or match.rules
        dealer, hand = "", None
        try:
            dealer = read_dealer(item.get("dealer"), names, field=f"{path}.dealer")
        except Invalid as problem:
            reading.errors += problem.errors
        try:
            hand = read_hand(item, names, rules, parent=path)
        except Invalid as problem:
            reading.errors += problem.errors
        moments: Any = times.read(item, path, reading)  # an object: read as one above
        stamps = {key: moment for key, moment in moments.items() if moment}
        if len(reading.errors) > before:
            continue
        key = (number, version if history else 0)
        if key in keys:
            field = f"{path}.version" if history else f"{path}.number"
            reading.errors.append(FieldError(field, f"Hand {number} is listed twice."))
            continue
        keys.add(key)
        assert hand is not None
        out.append(ImportedHand(number, dealer, version, action, hand, rules, stamps))
    return out


def _names_then(item: Mapping[str, Any]) -> tuple[str, ...]:
    """The names a hand had before a rename: its players' and its dealer's."""
    listed = item.get("players")
    names = (
        [p.get("name") for p in listed if isinstance(p, Mapping)]
        if isinstance(listed, list)
        else []
    )
    names.append(item.get("dealer"))
    return tuple(dict.fromkeys(n for n in names if isinstance(n, str)))
