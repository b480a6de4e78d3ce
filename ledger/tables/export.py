"""A whole table as one JSON document, and a new table from one: the roster, the
seasons, the payments and every match as its own export (``ledger.matches.export``)."""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping, Sequence
from datetime import datetime
from typing import Any

from ledger import matches
from ledger.collector import collector_paused
from ledger.engine import FieldError, Invalid, Stake
from ledger.engine.declare import Body, Choice, Field, Reading, refusal, within
from ledger.engine.errors import N_
from ledger.engine.game import MAX_MATCH_NAME
from ledger.extensions import db
from ledger.matches.export import (
    EXPORT_FORMAT,
    TABLE_EXPORT_FORMAT,
    TIME,
    check_format_version,
    stamped,
)
from ledger.matches.models import Match, utcnow
from ledger.matches.reading import ListedCurrency, find_player, read_stake
from ledger.matches.view import iso
from ledger.tables import models, service
from ledger.tables.guests import read_guests
from ledger.tables.models import Season, Table, TablePayment
from ledger.tables.reading import (
    NEW_SEASON,
    PaymentSpec,
    read_payment,
    read_table,
    season_key,
)

TABLE_FORMAT = TABLE_EXPORT_FORMAT
TABLE_FORMAT_VERSION = 1
#: The most matches, seasons and payments one table's import may carry (a season a
#: month for forty years; ten payments a match): an import costs at most a few seconds.
MAX_IMPORTED_MATCHES = 500
MAX_IMPORTED_SEASONS = 500
MAX_IMPORTED_PAYMENTS = 5_000


def export_table(table: Table) -> dict[str, Any]:
    """The table and all it holds; ``import_table`` reads it back."""
    index: dict[int | None, int] = {s.id: i for i, s in enumerate(table.seasons)}
    stake = service.stake(table)
    in_table = sorted(service.table_matches(table), key=lambda m: (m.created_at, m.id))
    return {
        **stamped(TABLE_FORMAT, TABLE_FORMAT_VERSION, table.public_id),
        "name": table.name,
        "rules": service.rules_spec(table),
        "stake": stake.to_json() if stake else None,
        "players": service.roster(table),
        "seasons": [{"name": s.name, "started_at": iso(s.started_at)} for s in table.seasons],
        "payments": [
            {
                "from": p.payer,
                "to": p.payee,
                "amount": format(p.amount, "f"),
                "currency": p.currency,
                "at": iso(p.at),
                "recorded_at": iso(p.recorded_at),
                "season": index[p.season_id],
                "state": p.state,
                "recorded_by": p.recorded_by,
            }
            for p in service.payments(table, None)
        ],
        "matches": _matches(in_table, index),
    }


def _matches(in_table: list[Match], index: dict[int | None, int]) -> list[dict[str, Any]]:
    with collector_paused():  # every hand of the table, read and written out
        return [
            {
                "season": index.get(m.season_id),
                "guests": [p.name for p in m.players if p.guest],
                **matches.export_json(m),
            }
            for m in in_table
        ]


def import_table(data: object) -> tuple[Table, str]:
    """A new table (new ids, new edit key) from an ``export_table`` document. Everything
    is checked first (each match as a match's import checks it, its hands settled again),
    so that a document with any problem stores nothing."""
    if isinstance(data, Mapping) and data.get("format") == EXPORT_FORMAT:
        raise refusal(  # one match's export (or summary PDF) loaded as a table
            "format",
            "This is one match's export, not a whole table's: a match is loaded "
            "with POST /api/v1/matches/import, or on the new-match page.",
        )
    if not isinstance(data, Mapping) or data.get("format") != TABLE_FORMAT:
        raise refusal("format", "This is not a table exported by the ledger.")
    check_format_version(data, TABLE_FORMAT_VERSION)
    reading = Reading()
    errors = reading.errors
    listed = _listed(data, "seasons", MAX_IMPORTED_SEASONS, errors)
    seasons = _read_seasons(listed, reading)
    # The indexes the matches and payments may give: the document's seasons, read or not
    # (None: no list of them, refused above, so that no index is refused for it too).
    indexes = len(listed) or None
    # The table's own fields; its rules with no default (left out or null: refused here,
    # with the document's other problems, not by ``create_table`` once all is settled).
    given = {**data, "season": seasons[0][0] if seasons else "1", "rules": data.get("rules")}
    try:
        spec = read_table(given)
    except Invalid as problem:
        errors += problem.errors
        spec = None
    names = list(spec.players) if spec else []
    guests: list[str] = []  # the table's guests: players of a match marked so, not on the roster
    docs = _listed(data, "matches", MAX_IMPORTED_MATCHES, errors)
    imported = _read_matches(docs, indexes, names, guests, errors)
    items = _listed(data, "payments", MAX_IMPORTED_PAYMENTS, errors)
    paid = _read_payments(
        items,
        indexes,
        lambda n: find_player(n, [*names, *guests]),
        spec.stake if spec else _stake_alone(data),
        reading,
    )
    if errors:
        raise Invalid(errors)
    assert spec is not None
    # Everything is read and settled: the transaction only writes (a few batched
    # INSERTs), so that it holds SQLite's write lock for a moment a save does not notice.
    with matches.transaction():  # the table and every match, or nothing
        table, key = service.create_table(
            {**given, "players": names},
            imported=True,  # its former players stay the ones who left
        )
        if seasons:
            table.seasons[0].started_at = seasons[0][1]
        for name, started in seasons[1:]:
            table.seasons.append(Season(name=name, started_at=started))
        db.session.flush()
        db.session.add_all(
            TablePayment(
                table_id=table.id,
                season_id=table.seasons[season].id,
                payer=payment.payer,
                payee=payment.payee,
                amount=payment.amount,
                currency=payment.currency,
                at=payment.at or utcnow(),
                recorded_at=recorded or utcnow(),
                state=state,
                recorded_by=recorded_by,
                # From a player to themselves (merged before that was refused): it moved
                # no money, and is taken back as the upgrade took such a payment back.
                deleted_at=(recorded or utcnow()) if payment.payer == payment.payee else None,
            )
            for payment, season, recorded, (state, recorded_by) in paid
        )
        for match, season in imported:
            for seat in match.players:
                seat["guest"] = find_player(seat["name"], guests) is not None
            match.place(table.id, table.seasons[season].id if season is not None else None)
        matches.store_imports([match for match, _ in imported])
    return table, key


def _stake_alone(data: Mapping[str, Any]) -> Stake | None:
    """The document's stake when the table's other fields were refused, so that its
    payments without a currency (an older export's) are read in it, not refused as a
    table's without a stake (a stake refused itself: none, said on ``stake``)."""
    try:
        return read_stake(data.get("stake"))
    except Invalid:
        return None


#: A season of the document (the first is the table's first).
SEASON_ENTRY = Body(
    (NEW_SEASON.fields[0], Field("started_at", TIME, nullable=True)),
    N_("Each season must be an object."),
)
#: What a payment of the document carries beside a payment's own fields (``PAYMENT``)
#: and its season's index: its currency, when it was recorded, its state and who
#: recorded it (an export from before payments had them: the table's currency,
#: unconfirmed, recorded with the table key). A pending payment stays pending; a
#: confirmed or rejected one keeps its answer.
PAYMENT_ENTRY = Body(
    (
        Field(
            "currency",
            ListedCurrency(),
            nullable=True,
            help="The currency it was handed over in (absent or null: the table's stake's).",
        ),
        Field("recorded_at", TIME, nullable=True),
        Field(
            "state",
            Choice(
                (models.UNCONFIRMED, models.PENDING, models.CONFIRMED, models.REJECTED),
                N_("state must be unconfirmed, pending, confirmed or rejected."),
            ),
            absent=models.UNCONFIRMED,
        ),
        Field(
            "recorded_by",
            Choice((models.BY_TABLE, models.BY_PAYER), N_("recorded_by must be table or payer.")),
            absent=models.BY_TABLE,
        ),
    ),
    N_("Each payment must be an object."),
    nulls_absent=False,
)


#: A list of the document too long or of no list, by its key (the seasons: none too).
_NOT_A_LIST = {
    "seasons": N_("seasons must be a list of the table's seasons, 1 to {most}."),
    "matches": N_("matches must be a list of at most {most}."),
    "payments": N_("payments must be a list of at most {most}."),
}


def _listed(data: Mapping[str, Any], key: str, most: int, errors: list[FieldError]) -> list[Any]:
    """The document's list under ``key`` (at most ``most`` items; empty when absent, but
    for the seasons: a table has one at least)."""
    items = data.get(key, [])
    if isinstance(items, list) and len(items) <= most and (items or key != "seasons"):
        return items
    errors.append(FieldError(key, _NOT_A_LIST[key], most=most))
    return []


def _read_matches(
    docs: list[Any],
    seasons: int | None,
    names: list[str],
    guests: list[str],
    errors: list[FieldError],
) -> list[tuple[matches.ImportedMatch, int | None]]:
    """Each match read as a match's import reads it, with its season's index; the
    roster's ``names`` and the ``guests`` grow with the players met."""
    imported: list[tuple[matches.ImportedMatch, int | None]] = []
    for i, doc in enumerate(docs):
        if not isinstance(doc, Mapping):
            errors.append(FieldError(f"matches.{i}", "Each match must be an object."))
            continue
        try:
            match = matches.prepare_import({k: v for k, v in doc.items() if k not in _TABLE_KEYS})
            players = [p["name"] for p in match.players]
            marked = _guests_of(doc, players, names)
        except Invalid as problem:
            errors += within(f"matches.{i}", problem.errors)
            continue
        guests += [n for n in marked if find_player(n, guests) is None]
        names += [
            n for n in players if find_player(n, names) is None and find_player(n, marked) is None
        ]
        try:
            imported.append((match, _season_index(doc.get("season"), seasons, nullable=True)))
        except Invalid as problem:
            errors += within(f"matches.{i}", problem.errors)
    return imported


def _read_payments(
    items: list[Any],
    seasons: int | None,
    find: Callable[[object], str | None],
    stake: Stake | None,
    reading: Reading,
) -> list[tuple[PaymentSpec, int, datetime | None, tuple[str, str]]]:
    """Each payment read as a payment is (``find``: a player of the table), in the
    currency it carries (an export from before payments kept one: the table's), with its
    season's index, when it was recorded and its state."""
    paid = []
    for i, item in enumerate(items):
        before = len(reading.errors)  # an item that is no object: PAYMENT_ENTRY's sentence
        marks: Any = PAYMENT_ENTRY.read(item, f"payments.{i}", reading)
        if len(reading.errors) > before:
            continue
        try:
            payment = read_payment(
                {k: v for k, v in item.items() if k in ("from", "to", "amount", "at")},
                find,
                marks["currency"] or (stake.currency if stake else None),
                to_self=True,
            )
            season = _season_index(item.get("season"), seasons, nullable=False)
            assert season is not None  # not nullable: refused
        except Invalid as problem:
            reading.errors += within(f"payments.{i}", problem.errors)
            continue
        paid.append((payment, season, marks["recorded_at"], (marks["state"], marks["recorded_by"])))
    return paid


#: What a match of a table's export carries beside the match's own export.
_TABLE_KEYS = ("season", "guests")


def _guests_of(doc: Mapping[str, Any], players: Sequence[str], roster: Sequence[str]) -> list[str]:
    """The players of an exported match marked as guests, not on the roster (an export
    made before guests has none). ``guests`` is read as a new match's is: a list of
    the match's players, else Invalid on it (before, a name typed wrong, or one name
    where a list belongs, was no guest, and the guest joined the roster)."""
    marked = read_guests(doc.get("guests"), players)
    return [n for n in players if n in marked and find_player(n, roster) is None]


def _read_seasons(items: list[Any], reading: Reading) -> list[tuple[str, Any]]:
    out: list[tuple[str, Any]] = []
    taken: set[str] = set()  # the seasons' names so far, by ``season_key``
    for i, item in enumerate(items):
        before = len(reading.errors)
        read: Any = SEASON_ENTRY.read(item, f"seasons.{i}", reading)
        if len(reading.errors) != before:
            continue
        name = _own_name(read["name"], taken)
        taken.add(season_key(name))
        out.append((name, read["started_at"] or utcnow()))
    return out


#: A name numbered already: "Tihar 2083 (2)" (its digits in either script).
_NUMBERED = re.compile(r"(.*\S) \((\d{1,9})\)")


def _own_name(name: str, taken: set[str]) -> str:
    """``name``, numbered ("Tihar 2083 (2)") when an earlier season of the export has it
    (compared by ``season_key``): a ledger from before season names were told apart
    may hold two, and its export, or a season PDF kept as the archive of a ledger gone,
    must load; the season picker then tells them apart. A name numbered already takes
    the next free number ("Tihar 2083 (3)"), not a second one ("Tihar 2083 (2) (2)")."""
    if season_key(name) not in taken:
        return name
    numbered = _NUMBERED.fullmatch(name)
    base, number = (numbered[1], int(numbered[2])) if numbered else (name, 1)
    while True:
        number += 1
        suffix = f" ({number})"
        own = base[: MAX_MATCH_NAME - len(suffix)].rstrip() + suffix
        if season_key(own) not in taken:
            return own


#: What a season's index that names none of the document's seasons is told: a match's
#: may be null (no season), a payment's may not.
_NO_SEASON = {
    True: N_(
        "season must be the index of one of the document's seasons, from 0 to {last}, or null."
    ),
    False: N_("season must be the index of one of the document's seasons, from 0 to {last}."),
}


def _season_index(value: object, count: int | None, *, nullable: bool) -> int | None:
    """A season's index among the document's ``count``, or None (no season: a match's,
    ``nullable``); Invalid on ``season`` else. ``count`` None: the document has no list
    of seasons, refused already, so every index is read as the first rather than refused
    for it too (nothing is stored)."""
    if count is None:
        return 0
    if value is None and nullable:
        return None
    if isinstance(value, int) and not isinstance(value, bool) and 0 <= value < count:
        return value
    raise refusal("season", _NO_SEASON[nullable], last=count - 1)
