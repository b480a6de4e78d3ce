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
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

from ledger.engine import FieldError, Hand, HouseRules, Invalid, resolve_rules
from ledger.engine.values import is_int
from ledger.matches.models import HandVersion, utcnow
from ledger.matches.reading import (
    PROFILE_LENGTH,
    MatchSpec,
    read_dealer,
    read_hand,
    read_match,
    settled_under,
)
from ledger.matches.view import MatchView, iso

EXPORT_FORMAT = "marriage-ledger/match"
EXPORT_FORMAT_VERSION = 1
#: An import (the export's JSON, or a summary PDF carrying it) may be this large; the
#: usual request limit is 256 KiB.
IMPORT_MAX_BYTES = 4 * 1024 * 1024
#: "rename": the hand as it was before a player was renamed (``matches.membership``);
#: its names are the ones it had then.
HISTORY_ACTIONS = ("edit", "delete", "rename")
HAND_STAMPS = ("created_at", "updated_at")
HISTORY_STAMPS = ("saved_at", "replaced_at")

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
        "format": EXPORT_FORMAT,
        "format_version": EXPORT_FORMAT_VERSION,
        "exported_at": iso(utcnow()),
        "id": view.public_id,
        "name": view.name,
        "rules": view.rules.spec(),
        "length": view.length.to_json() if view.length else None,
        "players": list(view.players),
        "first_dealer": view.first_dealer,
        "stake": view.stake.to_json() if view.stake else None,
        "last_hand_number": view.next_hand_number - 1,
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

    def row(*cells: object) -> None:
        writer.writerow([csv_cell(c) for c in cells])

    players = view.players
    row("Hand", "Dealer", "Finish", "Winner", *players)
    for hand in view.hands:
        nets = hand.nets
        row(
            hand.number,
            hand.dealer,
            hand.finish,
            hand.winner or "",
            *(nets.get(p, "") for p in players),
        )
        if hand.carried_penalties:
            carried = hand.carried_penalties
            row(
                hand.number,
                "",
                "foul penalty carried in",
                "",
                *(carried.get(p, "") for p in players),
            )
    row("Total", "", "", "", *(view.totals[p] for p in players))
    return out.getvalue()


def export_filename(match_name: str, extension: str) -> str:
    """A safe ASCII file name for a download, from the match's name.

    >>> export_filename('Tihar 2026 "<b>"', "csv"), export_filename("नेपाली", "json")
    ('tihar-2026-b.csv', 'match.json')
    """
    slug = re.sub(r"[^A-Za-z0-9]+", "-", match_name).strip("-").lower()[:40].strip("-")
    return f"{slug or 'match'}.{extension}"


# --- import --------------------------------------------------------------------------


@dataclass(frozen=True)
class ImportedHand:
    number: int
    dealer: str
    version: int
    action: str  # history only: "edit", "delete" or "rename"
    hand: Hand
    #: The rules the hand was settled under (an earlier version's own, else the match's).
    rules: HouseRules
    #: The document's timestamps (created_at/updated_at, or saved_at/replaced_at).
    stamps: dict[str, datetime]


@dataclass(frozen=True)
class ImportSpec:
    match: MatchSpec
    last_hand_number: int
    hands: tuple[ImportedHand, ...]
    history: tuple[ImportedHand, ...]
    #: When the table ended the match after its last hand (None: it was not ended so).
    ended_at: datetime | None = None


def read_export(data: object) -> ImportSpec:
    """Check an exported match; raises Invalid with every problem (fields like
    ``hands.3.players.0.name``)."""
    if not isinstance(data, Mapping):
        raise Invalid([FieldError("", "An import must be a match exported as JSON.")])
    fmt = data.get("format", EXPORT_FORMAT)
    if fmt != EXPORT_FORMAT:
        raise Invalid(
            [FieldError("format", f"This is not a match exported by the ledger ({fmt!r}).")]
        )
    given = data.get("format_version", EXPORT_FORMAT_VERSION)
    if not is_int(given) or given != EXPORT_FORMAT_VERSION:
        raise Invalid(
            [
                FieldError(
                    "format_version",
                    "This ledger reads exports of format_version {known}; this one has {given}.",
                    known=EXPORT_FORMAT_VERSION,
                    given=json.dumps(given)[:40],
                )
            ]
        )
    match = read_match(
        data.get("name"),
        data.get("players"),
        data.get("rules"),
        data.get("length", PROFILE_LENGTH),
        data.get("first_dealer"),
        data.get("stake"),
    )
    errors: list[FieldError] = []
    hands = _read_hands(data.get("hands", []), "hands", match, errors, history=False)
    history = _read_hands(data.get("history", []), "history", match, errors, history=True)
    numbers = [h.number for h in hands]
    last = data.get("last_hand_number", 0)
    if not is_int(last) or not 0 <= last <= NUMBER_MAX:
        errors.append(
            FieldError(
                "last_hand_number",
                "last_hand_number must be a whole number from 0 to {most}.",
                most=NUMBER_MAX,
            )
        )
        last = 0
    last = max([last, *numbers])
    ended = data.get("ended_at")
    ended_at = _timestamp(ended, "ended_at", errors) if ended is not None else None
    if not errors:
        _check_history(history, hands, last, errors)
    if errors:
        raise Invalid(errors)
    return ImportSpec(match, last, tuple(hands), tuple(history), ended_at if hands else None)


def _check_history(
    history: Sequence[ImportedHand],
    hands: Sequence[ImportedHand],
    last: int,
    errors: list[FieldError],
) -> None:
    """The history must fit the hands, as the ledger writes it: each entry is a hand of
    the match (numbers are never reused), an earlier version of a hand still there is
    older than it and no delete, and a deleted hand's delete is its newest version.
    Else the hands imported could never be edited or deleted (their next history row
    would collide with one imported)."""
    current = {hand.number: hand.version for hand in hands}
    deleted: dict[int, int] = {}
    for old in history:
        if old.action == "delete":
            deleted[old.number] = max(old.version, deleted.get(old.number, 0))
    for i, old in enumerate(history):
        path = f"history.{i}"
        if old.number > last:
            errors.append(
                FieldError(
                    f"{path}.hand",
                    "Hand {number} is past the match's last hand, {last}.",
                    number=old.number,
                    last=last,
                )
            )
        elif old.number in current and old.action == "delete":
            errors.append(
                FieldError(
                    f"{path}.action",
                    "Hand {number} is in the match, so its history cannot say it was deleted.",
                    number=old.number,
                )
            )
        elif old.number in current and old.version >= current[old.number]:
            errors.append(
                FieldError(
                    f"{path}.version",
                    "An earlier version of hand {number} must be older than the hand's "
                    "own version {current}.",
                    number=old.number,
                    current=current[old.number],
                )
            )
        elif old.number in deleted and (
            old.version > deleted[old.number]
            or (old.action == "delete" and old.version < deleted[old.number])
        ):
            errors.append(
                FieldError(
                    f"{path}.version",
                    "Hand {number} was deleted at version {deleted}: its history can have "
                    "no other delete and no later version.",
                    number=old.number,
                    deleted=deleted[old.number],
                )
            )


def _read_hands(
    items: object, where: str, match: MatchSpec, errors: list[FieldError], *, history: bool
) -> list[ImportedHand]:
    if not isinstance(items, list):
        errors.append(FieldError(where, f"{where} must be a list."))
        return []
    out = []
    keys: set[tuple[int, int]] = set()
    number_key = "hand" if history else "number"
    for i, item in enumerate(items):
        path = f"{where}.{i}"
        if not isinstance(item, Mapping):
            errors.append(FieldError(path, "Each hand must be a JSON object."))
            continue
        before = len(errors)
        number = item.get(number_key)
        if not is_int(number) or not 1 <= number <= NUMBER_MAX:
            errors.append(
                FieldError(
                    f"{path}.{number_key}",
                    "A hand number is a whole number from 1 to {most}.",
                    most=NUMBER_MAX,
                )
            )
        version = item.get("version", 1)
        if not is_int(version) or not 1 <= version <= NUMBER_MAX:
            errors.append(
                FieldError(
                    f"{path}.version",
                    "A version is a whole number from 1 to {most}.",
                    most=NUMBER_MAX,
                )
            )
        action = item.get("action", "edit") if history else "current"
        if history and action not in HISTORY_ACTIONS:
            errors.append(FieldError(f"{path}.action", "action must be edit, delete or rename."))
        names = _names_then(item) if action == "rename" else match.players
        rules = match.rules
        if history and item.get("rules") is not None:
            try:
                rules = resolve_rules(item["rules"])
            except Invalid as problem:
                errors += [
                    FieldError(f"{path}.{e.field}", e.template, **e.values) for e in problem.errors
                ]
        dealer = ""
        try:
            dealer = read_dealer(item.get("dealer"), names, field=f"{path}.dealer")
        except Invalid as problem:
            errors += problem.errors
        hand = None
        try:
            hand = read_hand(item, names, rules, prefix=f"{path}.")
        except Invalid as problem:
            errors += problem.errors
        stamps = {}
        for name in HISTORY_STAMPS if history else HAND_STAMPS:
            if item.get(name) is not None:
                stamps[name] = _timestamp(item[name], f"{path}.{name}", errors)
        if len(errors) > before:
            continue
        key = (number, version if history else 0)
        if key in keys:
            field = f"{path}.version" if history else f"{path}.number"
            errors.append(FieldError(field, f"Hand {number} is listed twice."))
            continue
        keys.add(key)  # type: ignore[arg-type]  # number and version were read above
        assert hand is not None
        out.append(ImportedHand(number, dealer, version, action, hand, rules, stamps))  # type: ignore[arg-type]
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


def _timestamp(value: object, field: str, errors: list[FieldError]) -> datetime:
    """The time in ``value`` in UTC (a time without an offset is UTC)."""
    try:
        moment = datetime.fromisoformat(value) if isinstance(value, str) else None
        if moment is not None:
            moment = (moment if moment.tzinfo else moment.replace(tzinfo=UTC)).astimezone(UTC)
    except (ValueError, OverflowError):
        moment = None
    if moment is None or not YEARS[0] <= moment.year <= YEARS[1]:
        errors.append(
            FieldError(
                field,
                "A time must be like 2026-11-01T18:30:00Z, in the years {first} to {last}.",
                first=YEARS[0],
                last=YEARS[1],
            )
        )
        return utcnow()
    return moment
