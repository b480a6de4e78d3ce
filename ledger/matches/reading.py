"""Reading a new match and a match's hand from plain data, with errors per field.

No database here: ``ledger.matches`` stores what these functions accept. Every
problem is a ``FieldError`` whose field is a dotted path into the request, and
all the problems of one input are reported together in one ``Invalid``.
"""

from __future__ import annotations

import dataclasses
import functools
from collections.abc import Mapping, Sequence
from decimal import Decimal
from typing import Any

from babel.numbers import list_currencies
from msgspec import Struct

from ledger.engine import (
    FieldError,
    Hand,
    HouseRules,
    Invalid,
    MatchLength,
    Stake,
    declare,
    parse_hand,
    resolve_rules,
)
from ledger.engine.declare import REFUSED, Body, Field, Flag, Kind, Parsed, Reading, ref, refusal
from ledger.engine.errors import N_
from ledger.engine.game import MAX_MATCH_NAME, MAX_MATCH_PLAYERS, MAX_NAME, MIN_PLAYERS
from ledger.engine.hand_body import LISTED_TWICE, NAME_SCHEMA, NO_NAME
from ledger.engine.names import name_problem, read_name, tidy_name
from ledger.engine.rules import parse_length
from ledger.engine.settle_up import STAKE as ENGINE_STAKE
from ledger.engine.settle_up import CurrencyCode, PerPoint, read_stake_body
from ledger.matches.models import IDEMPOTENCY_KEY_MAX, INTEGER_MAX


class _ProfileLength:
    """The default of ``length``: the profile's usual match length."""

    def __repr__(self) -> str:
        return "PROFILE_LENGTH"


PROFILE_LENGTH = _ProfileLength()


@functools.cache
def currencies() -> frozenset[str]:
    """ISO 4217 currency codes, as Babel (CLDR) knows them; read at the first stake:
    Babel's global data read at import would lengthen every start."""
    return frozenset(list_currencies())


#: The largest stake per point the database keeps (12 digits, 2 after the point).
MAX_PER_POINT = Decimal("9999999999.99")
#: Money given in a request: digits with at most 2 decimals, more than 0 and at most
#: MAX_PER_POINT (9999999999.99: 10 digits before the point, leading zeros aside).
AMOUNT_SCHEMA: dict[str, object] = {
    "type": "string",
    "pattern": r"^0*([1-9][0-9]{0,9}(\.[0-9]{1,2})?|0\.([1-9][0-9]?|0[1-9]))$",
    "description": f"A decimal string > 0 and at most {MAX_PER_POINT}, with at most 2 decimals "
    "(never a JSON number, which could lose cents).",
}


class RosterSpec(Struct, frozen=True):
    """What a new match and a new table both begin with, checked: a name, the players
    (names tidied), the rules (resolved) and the stake (None: points only)."""

    name: str
    players: tuple[str, ...]
    rules: HouseRules
    stake: Stake | None

    def rules_json(self) -> dict[str, Any]:
        """The rules as stored: the profile and the settings that differ from it."""
        return rules_record(self.rules)


class MatchSpec(RosterSpec, frozen=True):
    """A new match: its length, and a first dealer who is one of the players."""

    length: MatchLength | None
    first_dealer: str


def rules_record(rules: HouseRules) -> dict[str, Any]:
    return {"profile": rules.profile, "overrides": rules.overrides()}


def rules_from_record(record: Mapping[str, Any]) -> HouseRules:
    """The HouseRules stored by ``rules_record``, as they were stored (a falling table
    kept from before it was refused included: ``resolve_rules``'s ``stored``)."""
    spec = {"profile": record["profile"], **record.get("overrides", {})}
    return resolve_rules(spec, stored=True)


#: The key of a history version's stored result that keeps the rules it was settled
#: under (a ``rules_record``), present only while they differ from the match's rules: a
#: change of rules for good keeps each earlier version as it was (docs/rules.md §8).
SETTLED_UNDER = "rules"


def settled_under(result: Mapping[str, Any], match_rules: HouseRules) -> HouseRules:
    """The rules an earlier version of a hand (its stored ``result``) was settled under."""
    record = result.get(SETTLED_UNDER)
    return match_rules if record is None else rules_from_record(record)


def kept_under(
    result: Mapping[str, Any], rules: HouseRules, match_rules: HouseRules
) -> dict[str, Any]:
    """``result`` stored as settled under ``rules`` in a match playing ``match_rules``."""
    out = {k: v for k, v in result.items() if k != SETTLED_UNDER}
    if rules != match_rules:
        out[SETTLED_UNDER] = rules_record(rules)
    return out


def read_match(
    name: object = None,
    players: object = None,
    rules: object = None,
    length: object = PROFILE_LENGTH,
    first_dealer: object = None,
    stake: object = None,
) -> MatchSpec:
    """Check a new match, as ``MATCH`` declares it (a document's fields given by
    keyword: ``read_match(**MATCH.given(document))``). ``players``: 2 to 12 names in
    seat order, unique ignoring case. ``rules``: a profile id or ``{"profile": id,
    **overrides}``. ``length``: ``{"hands": N}``, ``{"rotations": N}``, None (open), or
    left out for the profile's usual length. ``first_dealer``: a player's name; None
    means the first player. ``stake``: ``{"per_point": "0.50", "currency": "NPR"}`` as
    ``read_stake`` reads it, or None to play for points only."""
    given = {"name": name, "players": players, "rules": rules, "first_dealer": first_dealer}
    if length is not PROFILE_LENGTH:
        given["length"] = length
    reading = Reading()
    read: dict[str, Any] | None = MATCH.read({**given, "stake": stake}, "", reading)
    assert read is not None  # given as an object
    resolved, names = read["rules"], read["players"]
    match_length = read["length"]
    if match_length is PROFILE_LENGTH:
        match_length = resolved.match_length if resolved else None
    dealer = names[0] if names else ""
    if first_dealer is not None:
        found = find_player(first_dealer, names)
        # A dealer who is a player refused (a name with a zero-width space, say) is told
        # by that name's own problem: not a second time as a dealer who is no player.
        refused = isinstance(players, list) and first_dealer in players
        if found is not None:
            dealer = found
        elif not refused:
            reading.refuse(
                "", "first_dealer", "The first dealer must be one of the match's players."
            )
    if reading.errors:
        raise Invalid(reading.errors)
    return MatchSpec(read["name"], tuple(names), resolved, read["stake"], match_length, dealer)


class ListedCurrency(CurrencyCode):
    """A currency code ISO 4217 lists (Babel's list)."""

    def read(self, value: object, parent: str, key: str | int, reading: Reading) -> object:
        code = super().read(value, parent, key, reading)
        if code is REFUSED or code in currencies():
            return code
        reading.refuse(
            parent,
            key,
            "{code} is not an ISO 4217 currency code; use one such as NPR, INR, USD, GBP or EUR.",
            code=code,
        )
        return REFUSED

    def schema(self) -> dict[str, object]:
        return {
            "enum": sorted(currencies()),
            "description": "An ISO 4217 code, as CLDR lists them.",
        }


class StoredPerPoint(PerPoint):
    """Money per point that fits the database (``MAX_PER_POINT``)."""

    def read(self, value: object, parent: str, key: str | int, reading: Reading) -> object:
        amount = super().read(value, parent, key, reading)
        if not isinstance(amount, Decimal) or amount <= MAX_PER_POINT:
            return amount
        reading.refuse(parent, key, "per_point can be at most {most}.", most=MAX_PER_POINT)
        return REFUSED

    def schema(self) -> dict[str, object]:
        return {**AMOUNT_SCHEMA, "description": f"Money per point. {AMOUNT_SCHEMA['description']}"}


#: A match's or a table's stake: the engine's, its currency one ISO 4217 lists and its
#: amount one the database keeps.
STAKE = dataclasses.replace(
    ENGINE_STAKE,
    fields=(
        Field("per_point", StoredPerPoint(), required=True),
        Field("currency", ListedCurrency(), required=True),
    ),
)


def read_stake(value: object, field: str = "stake") -> Stake | None:
    """A match's stake, ``{"per_point": "0.50", "currency": "NPR"}``, or None (null: points
    only), as ``STAKE`` declares it."""
    return read_stake_body(STAKE, value, field)


def read_season_id(value: object) -> str:
    """The id of a season of the match's table (``ledger.tables``), checked there."""
    if not isinstance(value, str) or not value:
        raise FieldError("season", "season must be the id of one of the table's seasons.")
    return value


def read_whole_number(
    value: object,
    field: str,
    *,
    least: int = 0,
    most: int = INTEGER_MAX,
    template: str = N_("{name} must be a whole number from {least} to {most}."),
    text: bool = False,
) -> int:
    """A whole number from a request, from ``least`` to ``most`` (at most the database's
    integer): a JSON integer (not a bool), or with ``text`` (a form's field) decimal digits
    as text (Devanagari ones too).
    Anything else is a FieldError on ``field`` whose ``template`` may use ``{name}`` (the field),
    ``{least}`` and ``{most}``. Text is measured before ``int()``, which fails on ``²`` (a
    digit that is no decimal digit) and on more than 4300 digits.

    Every whole number the app reads from a request comes through here (the forms'
    ``read_whole`` too), so none can overflow a query.

    >>> read_whole_number("१२", "n", text=True), read_whole_number(7, "n", least=1)
    (12, 7)
    """
    most = min(most, INTEGER_MAX)
    number = None
    if isinstance(value, int) and not isinstance(value, bool):
        number = value
    elif text and isinstance(value, str) and value.isdecimal():
        digits = value.lstrip("0\u0966") or "0"  # leading zeros (० too) are no size
        if len(digits) <= len(str(most)):
            number = int(digits)
    if number is None or not least <= number <= most:
        raise FieldError(field, template, name=field, least=least, most=most)
    return number


def read_hand_number(value: object) -> int | None:
    """The hand number a client believes it is adding (``"number"``), or None."""
    if value is None:
        return None
    return read_whole_number(
        value,
        "number",
        least=1,
        template=N_(
            "number must be the number of the hand you are adding, a whole number from "
            "{least} to {most}."
        ),
    )


def read_idempotency_key(value: object) -> str:
    """An idempotency key: 1 to 200 printable ASCII characters (docs/api.md)."""
    if (
        not isinstance(value, str)
        or not 1 <= len(value) <= IDEMPOTENCY_KEY_MAX
        or not all(" " <= c <= "~" for c in value)
    ):
        raise FieldError(
            "Idempotency-Key",
            "An Idempotency-Key is 1 to {most} printable ASCII characters.",
            most=IDEMPOTENCY_KEY_MAX,
        )
    return value


def find_player(name: object, players: Sequence[str]) -> str | None:
    """The registered spelling of ``name`` (matched ignoring case and spacing), or None."""
    if not isinstance(name, str):
        return None
    key = tidy_name(name).casefold()
    return next((p for p in players if p.casefold() == key), None)


def read_hand(data: object, players: Sequence[str], rules: HouseRules, *, parent: str = "") -> Hand:
    """Check a hand of a match (on ``parent``'s path): the settle format without ``rules``.

    Every listed name must be a registered player (matched ignoring case; the hand is
    stored with the registered spelling); the players not listed sit out. A ``rules``
    key is accepted only when it gives the match's own rules.
    """
    if not isinstance(data, Mapping):
        raise refusal(parent, "The hand must be a JSON object.")
    reading, data = Reading(), dict(data)
    if "rules" in data:
        try:
            same = resolve_rules(data["rules"]) == rules
        except Invalid:
            same = False
        if not same:
            reading.refuse(
                parent,
                "rules",
                "This match plays by its own rules ({profile}); leave rules out of the hand.",
                profile=rules.profile,
            )
    listed = data.get("players")
    if isinstance(listed, list):
        listed = [dict(p) if isinstance(p, Mapping) else p for p in listed]
        for index, entry in enumerate(listed):
            name = entry.get("name") if isinstance(entry, dict) else None
            if not isinstance(name, str) or not tidy_name(name) or name_problem(name, ""):
                continue  # the engine says what is wrong with it
            registered = find_player(name, players)
            if registered is None:
                reading.refuse(
                    parent,
                    f"players.{index}.name",
                    "{name!r} is not a player of this match; the players are {players}.",
                    name=tidy_name(name),
                    players=", ".join(players),
                )
            else:
                entry["name"] = registered
        data["players"] = listed
        winner = find_player(data.get("winner"), players)
        if winner is not None:
            data["winner"] = winner
    try:
        hand = parse_hand(data, rules)
    except Invalid as problem:
        reading.errors += declare.within(parent, problem.errors)
    if reading.errors:
        raise Invalid(reading.errors)
    return hand


def read_dealer(value: object, players: Sequence[str], *, field: str = "dealer") -> str:
    """A dealer given by name: one of the registered players."""
    found = find_player(value, players)
    if found is None:
        raise refusal(field, "The dealer must be one of the match's players.")
    return found


class MatchPlayers(Kind):
    """A match's players, in seat order: names, each once."""

    def read(self, value: object, parent: str, key: str | int, reading: Reading) -> object:
        if not isinstance(value, list):
            reading.refuse(
                parent, key, "players must be a list of the players' names, in seat order."
            )
            return []
        if not MIN_PLAYERS <= len(value) <= MAX_MATCH_PLAYERS:
            reading.refuse(
                parent,
                key,
                "A match has {least} to {most} players (each hand has 2 to 5 of them, 2 to 8 "
                "with four packs); this one lists {n}.",
                least=MIN_PLAYERS,
                most=MAX_MATCH_PLAYERS,
                n=len(value),
            )
        items = [item.get("name") if isinstance(item, Mapping) else item for item in value]
        return read_names(items, parent, key, reading)  # {"name": ...}, as in a match's JSON

    def schema(self) -> dict[str, object]:
        return {
            "type": "array",
            "items": NAME_SCHEMA,
            "minItems": MIN_PLAYERS,
            "maxItems": MAX_MATCH_PLAYERS,
            "uniqueItems": True,
        }


def read_names(
    items: list[Any],
    parent: str,
    key: str | int,
    reading: Reading,
    known: frozenset[str] = frozenset(),
    on_roster: str = "",
) -> list[str]:
    """The players' names of the list ``key``, each once ignoring case; one already
    ``known`` (a roster's, folded) is refused with the sentence ``on_roster``."""
    names: list[str] = []
    taken: set[str] = set()
    for index, item in enumerate(items):
        where = f"{key}.{index}"
        try:
            name = read_name(item, "", most=MAX_NAME, missing=NO_NAME)
        except FieldError as problem:
            reading.refuse(parent, where, problem.template, **problem.values)
            continue
        folded = name.casefold()
        if folded in taken or folded in known:
            reading.refuse(parent, where, LISTED_TWICE if folded in taken else on_roster, name=name)
        else:
            taken.add(folded)
            names.append(name)
    return names


#: A match's name, tidied (``engine.names``): present, not too long, nothing that disguises it.
MATCH_NAME = Field(
    "name",
    Parsed(
        functools.partial(
            read_name,
            most=MAX_MATCH_NAME,
            missing=N_("Give the match a name."),
            too_long=N_("A match name can have at most {most} characters."),
        ),
        {**NAME_SCHEMA, "maxLength": MAX_MATCH_NAME},
    ),
    required=True,
)
RULES = Parsed(lambda value, path: resolve_rules(value), ref("RulesSpec"), root="rules")
LENGTH = Parsed(parse_length, ref("Length"))
STAKE_FIELD = Parsed(read_stake, ref("Stake"))  # a stake in a match or a table
CHANGES_OBJECT = N_("The changes must be a JSON object.")

#: A new match (POST /api/v1/matches; a match of an import, at its prefix).
MATCH = Body(
    (
        MATCH_NAME,
        Field("players", MatchPlayers(), required=True, refused=[]),
        Field("rules", RULES, required=True),
        Field(
            "length",
            LENGTH,
            absent=PROFILE_LENGTH,
            nullable=True,
            help="null: open; left out: the profile's usual length.",
        ),
        Field("stake", STAKE_FIELD, nullable=True),
        Field("first_dealer", Parsed(lambda value, path: value, NAME_SCHEMA), nullable=True),
    ),
    N_("The match must be a JSON object with a name, players and rules."),
    nulls_absent=False,
)

#: A change of a match (PATCH /api/v1/matches/<id>): what ``ledger.matches.change_match``
#: writes.
MATCH_CHANGE = Body(
    (
        Field("name", MATCH_NAME.kind),
        Field("length", LENGTH, nullable=True),
        Field("stake", STAKE_FIELD, nullable=True),
        Field(
            "season",
            Parsed(lambda value, path: read_season_id(value), {"type": "string"}),
            help="A season of the match's table (its id).",
        ),
        Field(
            "rules",
            RULES,
            help="Every hand is settled again under these rules, each change "
            "kept in the hand's history; 422 naming the hands they refuse.",
        ),
        Field(
            "finished",
            Flag(
                N_(
                    "Send true to end the match after its last hand, or false to take that "
                    "end back."
                )
            ),
            help="true: end the match after its last hand, whatever its "
            "length (409 with no hand); false: take such an end back (409 when its "
            "length is reached: change the length to play on).",
        ),
    ),
    CHANGES_OBJECT,
    unknown=N_("{given!r} cannot be changed here; a match's changes are {fields}."),
)
