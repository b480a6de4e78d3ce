"""Reading a table, its changes, a player's rename and a payment from plain data, with
errors per field (as ``ledger.matches.reading`` reads a match). No database here."""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime
from decimal import Decimal
from typing import Any

from msgspec import Struct

from ledger.engine import PROFILES, FieldError, Invalid
from ledger.engine.declare import REFUSED, Body, Field, Kind, Parsed, Reading, Schema, refusal
from ledger.engine.errors import N_
from ledger.engine.game import MAX_MATCH_NAME, MAX_NAME
from ledger.engine.hand_body import NAME_SCHEMA, NO_NAME
from ledger.engine.names import read_name
from ledger.engine.settle_up import CENT
from ledger.i18n.numbers import western_digits
from ledger.matches.export import Moment
from ledger.matches.reading import (
    AMOUNT_SCHEMA,
    CHANGES_OBJECT,
    MAX_PER_POINT,
    RULES,
    STAKE_FIELD,
    RosterSpec,
    read_names,
)

#: The most people a roster holds (a settle-up over them stays an exact search).
MAX_ROSTER = 40
_AMOUNT = re.compile(r"[0-9]+(?:\.[0-9]{1,2})?", re.ASCII)


class TableSpec(RosterSpec, frozen=True):
    """A new table: its roster's names unique ignoring case, and its first season."""

    season: str


class PaymentSpec(Struct, frozen=True):
    payer: str
    payee: str
    amount: Decimal
    at: datetime | None
    #: The currency it is handed over in (the table's stake's).
    currency: str
    #: The id of the season whose money it settles (None: the current season).
    season: str | None = None


def read_table(data: Mapping[str, object]) -> TableSpec:
    """``{"name", "players", "rules", "stake", "season"}`` as ``TABLE`` declares them:
    ``season`` names the first season (default "1"); every problem together in one
    Invalid."""
    return TableSpec(**TABLE.read_all(dict(data)))  # the fields the body declares


class RosterReading(Reading):
    """A change of a table read against its roster as it is (names joining it)."""

    def __init__(self, roster: Sequence[str]):
        super().__init__()
        self.roster = roster


def read_table_changes(data: Mapping[str, object], roster: Sequence[str]) -> dict[str, object]:
    """``name``, ``rules``, ``stake`` and ``players`` (names to add to the roster), as
    ``TABLE_CHANGE`` declares them."""
    return TABLE_CHANGE.read_changes(data, RosterReading(roster))


def read_player_name(value: object, field: str) -> str:
    """A player's name, tidied; Invalid on ``field`` (the API's 422)."""
    try:
        return read_name(value, field, most=MAX_NAME, missing=NO_NAME)
    except FieldError as problem:
        raise Invalid([problem]) from None


def read_table_name(value: object, field: str = "name") -> str:
    return read_name(value, field, most=MAX_MATCH_NAME, missing=N_("Give the table a name."))


def read_season_name(value: object, field: str = "name") -> str:
    """A season's name; one written only in digits is a number, kept in Western digits
    whatever digits it was typed in ("१", as a Nepali page shows the first season, is
    "1"), as the pages show such a name in their own (``season_name``)."""
    name = read_name(value, field, most=MAX_MATCH_NAME, missing=N_("Give the season a name."))
    number = western_digits(name)
    return number if number.isascii() and number.isdigit() else name


def season_key(name: str) -> str:
    """A season's name as two seasons' names are compared: as the roster compares names
    (case and surrounding space aside), and with its digits alike in either script
    ("Tihar २०८३" is "Tihar 2083"; a season kept as "२" before such names were written
    in Western digits is "2")."""
    return western_digits(name.strip()).casefold()


def read_player_change(data: Mapping[str, Any]) -> tuple[str, object]:
    """``{"name": new}`` (a rename) or ``{"merge_into": other}``: which, and the name."""
    given = [key for key in ("name", "merge_into") if key in data]
    others = [key for key in data if key not in ("name", "merge_into")]
    if len(given) != 1 or others:
        raise refusal(
            "",
            "Send name (the new name) to rename the player, or merge_into (another "
            "player on the roster) to fold them into that one: one of the two.",
        )
    return given[0], data[given[0]]


def read_payment(
    data: Mapping[str, Any],
    find: object,
    currency: str | None,
    seasons: Sequence[str] = (),
    *,
    to_self: bool = False,
) -> PaymentSpec:
    """``{"from", "to", "amount", "at"?, "season"?}``: two players of the roster (``find``
    gives the roster's spelling of a name, or None), an amount in ``currency`` (the
    table's stake's) as a decimal string > 0 with at most 2 places, and the id of the
    season it settles, one of ``seasons`` (the table's); 422 without a currency (a table
    without a stake). ``to_self``: a payer who is the payee is read, not refused (an
    export made before such payments were taken back, ``tables.export``)."""
    if currency is None:
        raise refusal(
            "",
            "This table plays for points only: it has no stake, so no money is "
            "owed or paid. Give the table a stake first.",
        )
    assert callable(find)
    read = PAYMENT.read_all(dict(data), PaymentReading(find, seasons, to_self))
    return PaymentSpec(
        read["from"], read["to"], read["amount"], read["at"], currency, read["season"]
    )


@dataclass(frozen=True)
class NewPlayers(Kind):
    """Names joining a table's roster (the roster a ``RosterReading`` is against, or
    none), each a player's name, none already on it (ignoring case)."""

    described: Schema

    def read(self, value: object, parent: str, key: str | int, reading: Reading) -> object:
        if not isinstance(value, list):
            reading.refuse(parent, key, "players must be a list of the players' names.")
            return REFUSED
        roster = reading.roster if isinstance(reading, RosterReading) else ()
        known = frozenset(name.casefold() for name in roster)
        if len(known) + len(value) > MAX_ROSTER:
            reading.refuse(
                parent, key, "A table's roster holds at most {most} people.", most=MAX_ROSTER
            )
            return REFUSED
        on_roster = N_(
            "{name} is already on the table's roster (names are the same ignoring capitals)."
        )
        return tuple(read_names(value, parent, key, reading, known, on_roster))

    def schema(self) -> Schema:
        return self.described


TABLE_NAME: Schema = {**NAME_SCHEMA, "maxLength": MAX_MATCH_NAME}
_NAMES: Schema = {"type": "array", "items": NAME_SCHEMA}
_TABLE_NAME = Field("name", Parsed(read_table_name, TABLE_NAME), required=True)
_STAKE = Field("stake", STAKE_FIELD, nullable=True)

#: A new table (POST /api/v1/tables; a table's import).
TABLE = Body(
    (
        _TABLE_NAME,
        Field(
            "players",
            NewPlayers({**_NAMES, "maxItems": MAX_ROSTER, "uniqueItems": True}),
            absent=(),
        ),
        Field("rules", RULES, absent=PROFILES["amarnepal"]),
        _STAKE,
        Field(
            "season",
            # its problems are on "season" (they were on "name": a table whose name was
            # fine was told its name was too long)
            Parsed(read_season_name, TABLE_NAME),
            absent="1",
            help="The first season's name.",
        ),
    ),
    N_("The table must be a JSON object with a name."),
    nulls_absent=False,
)

#: A change of a table (PATCH /api/v1/tables/<id>).
TABLE_CHANGE = Body(
    (
        Field("name", _TABLE_NAME.kind),
        Field("rules", RULES),
        _STAKE,
        Field(
            "players",
            NewPlayers(_NAMES),
            help="Names to add to the roster.",
        ),
    ),
    CHANGES_OBJECT,
    unknown=N_("{given!r} cannot be changed here; a table's changes are {fields}."),
    nulls_absent=False,
)

#: A new season of a table (POST /api/v1/tables/<id>/seasons).
NEW_SEASON = Body(
    (Field("name", Parsed(read_season_name, TABLE_NAME), required=True),),
    N_("The season must be a JSON object with a name."),
    nulls_absent=False,
)


def read_new_season(data: object) -> str:
    """A new season's name, as ``NEW_SEASON`` declares it."""
    name: str = NEW_SEASON.read_all(data)["name"]  # read_season_name gave it
    return name


class PaymentReading(Reading):
    """A payment read against the table's players: ``find`` gives a name's spelling on
    the roster (or a guest's), or None; the payer found, for the payee's check (none with
    ``to_self``); the ids of the table's ``seasons``."""

    def __init__(
        self, find: Callable[[object], str | None], seasons: Sequence[str], to_self: bool = False
    ):
        super().__init__()
        self.find = find
        self.payer: str | None = None
        self.seasons = seasons
        self.to_self = to_self


@dataclass(frozen=True)
class TablePlayer(Kind):
    """A player of the table who pays (``from``) or is paid (``to``): not the same one."""

    def read(self, value: object, parent: str, key: str | int, reading: Reading) -> object:
        assert isinstance(reading, PaymentReading)  # a payment is read against its table
        found = reading.find(value)
        if found is None:
            reading.refuse(
                parent,
                key,
                "{which} must be a player of the table: on its roster, or a guest of a night.",
                which=key,
            )
            return REFUSED
        if key == "from":
            reading.payer = found
        elif found == reading.payer and not reading.to_self:
            reading.refuse(parent, key, "A payment goes from one player to another.")
            return REFUSED
        return found

    def schema(self) -> Schema:
        return NAME_SCHEMA


class Money(Kind):
    """Money handed over: a decimal string > 0 with at most 2 places (``AMOUNT_SCHEMA``)."""

    def read(self, value: object, parent: str, key: str | int, reading: Reading) -> object:
        if not isinstance(value, str):
            template = N_(
                "amount must be the money handed over as a decimal string with at most 2 "
                'decimal places, like "150.00" (not a JSON number, which could lose cents).'
            )
        elif _AMOUNT.fullmatch(value) is None:  # what a person typed: no word of JSON
            template = N_(
                'amount must be written in digits with at most 2 decimal places, like "150.00".'
            )
        elif not Decimal(value) or Decimal(value) > MAX_PER_POINT:
            template = N_("amount must be more than 0 and at most {most}.")
        else:
            return Decimal(value).quantize(CENT)  # "5.5" is 5.50: money has its 2 places
        reading.refuse(parent, key, template, most=MAX_PER_POINT)
        return REFUSED

    def schema(self) -> Schema:
        return AMOUNT_SCHEMA


class PaymentSeason(Kind):
    """The season whose money a payment settles: one of the table's seasons' ids (a debt
    outlives its season: it is paid after a new season has begun)."""

    def read(self, value: object, parent: str, key: str | int, reading: Reading) -> object:
        assert isinstance(reading, PaymentReading)
        if isinstance(value, str) and value in reading.seasons:
            return value
        reading.refuse(
            parent,
            key,
            "season must be the id of one of the table's seasons.",
        )
        return REFUSED

    def schema(self) -> Schema:
        return {"type": "string", "maxLength": 200}


#: A payment (POST /api/v1/tables/<id>/payments; a table's import, which gives its
#: season as an index of its own).
PAYMENT = Body(
    (
        Field("from", TablePlayer(), required=True),
        Field("to", TablePlayer(), required=True),
        Field("amount", Money(), required=True),
        Field("at", Moment(), nullable=True),
        Field("season", PaymentSeason(), help="The season it settles; absent: the current one."),
    ),
    N_("A payment must be a JSON object with from, to and amount."),
    unknown=N_("A payment has from, to, amount, at and season; not {given!r}."),
)
