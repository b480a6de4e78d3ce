"""The hand body, declared once (``declare``): a hand (``HAND``) and a player in it
(``PLAYER``), in the JSON shape of docs/api.md. ``reading.parse_hand`` reads a hand with
it and then checks what no declaration can say (who may finish, the copies of the pack,
what a player holds); the OpenAPI document and the hand form's data are made from it.

The kinds below are the hand's own: a name, a card, a player's cards, counts and dealt
tunnelas. They read under the hand's rules (``HandReading``), which also carries what a
later field needs of an earlier one: the tiplu read (a dealt tunnela's kind), the
player's name (the count sentences name them), whether a joker tunnela was given by kind.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from typing import Any, ClassVar

from .cards import SPELLINGS, SUIT_SPELLINGS, Card, CardError, kinds_for, parse_card
from .declare import REFUSED, Body, Choice, Field, Flag, Kind, Reading, Schema, Whole, join, ref
from .errors import N_, FieldError
from .game import (
    FINISHES,
    HAND_CARDS,
    HAND_PLAYERS,
    MAAL_COUNT_KEYS,
    MAX_DEALT_TUNNELAS,
    MAX_MAAL,
    MAX_NAME,
    MAX_PLAYERS,
    MIN_PLAYERS,
    PACKS,
    SEEN,
    TUNNELA_KINDS,
)
from .hand import PlayerHand, Tunnela
from .names import read_name, tidy_name
from .rules import MAAL_COUNT_HELP, HouseRules
from .values import is_int

NO_NAME = N_("Each player needs a name.")
FINISH_MESSAGE = N_("The finish must be sequences, dublees or void.")
LISTED_TWICE = N_("{name!r} is listed twice; each player needs their own name.")
TOO_MANY = N_(
    "A hand has 2 to {most} players with three packs; this one lists {n}. "
    "Four packs (the packs setting) deal to 2 to 8."
)
PLAYER_COUNT = N_("A hand has 2 to {most} players; this one lists {n}.")
WHOLE = Whole().message

#: A count of one kind past what the packs hold, naming the player and the count.
COUNT_RANGES = {
    "tiplu": N_(
        "{name} cannot hold {count} tiplus: at most {most} copies of the tiplu can be in "
        "hands (one is set aside as the indicator). Enter 0 to {most}."
    ),
    "tiplu_all": N_(
        "{name} cannot hold {count} tiplus: the packs hold {most} copies of the tiplu. "
        "Enter 0 to {most}."
    ),
    "poplu": N_(
        "{name} cannot hold {count} poplus: the packs hold {most} copies of each card. "
        "Enter 0 to {most}."
    ),
    "jhiplu": N_(
        "{name} cannot hold {count} jhiplus: the packs hold {most} copies of each card. "
        "Enter 0 to {most}."
    ),
    "alter": N_(
        "{name} cannot hold {count} alters: the packs hold {most} copies of each card. "
        "Enter 0 to {most}."
    ),
    "printed_joker": N_(
        "{name} cannot hold {count} printed jokers: the packs hold at most {most}. "
        "Enter 0 to {most}."
    ),
    "ordinary_joker": N_(
        "{name} cannot hold {count} ordinary jokers: the packs hold {most} (two cards, a "
        "copy of each in every pack). Enter 0 to {most}."
    ),
    "marriage": N_(
        "{name} cannot hold {count} marriages: each needs a tiplu, and at most {most} "
        "tiplus can be in hands. Enter 0 to {most}."
    ),
}
#: The most of each key of ``maal_counts`` under any rules (four packs, no indicator set
#: aside); each profile's own limits are in ``GET /api/v1/rules``.
MOST_COUNTS = {
    **HouseRules(profile="most", packs=4, tiplu_copies_max=3).copies_limits,
    "printed_joker": max(PACKS),
}
NAME_SCHEMA: Schema = {
    "type": "string",
    "minLength": 1,
    "maxLength": MAX_NAME,
    "description": "A player's name: stored in composed form (NFC), spaces folded; control, "
    "invisible and bidirectional-override characters are refused (422 on the field), "
    'as is "." or ".." alone or between slashes.',
}
CARD_SCHEMA: Schema = {
    "type": "string",
    "maxLength": 12,
    "description": "A card code: rank (A, 2-10 or T, J, Q, K) then suit (S H D C or ♠ ♥ ♦ ♣), "
    "any case, like `8H` or `10♥`; a printed joker is `JK`.",
    "examples": ["8H", "10♥", "JK"],
}


class HandReading(Reading):
    """A hand's read: its rules, and what a later field needs of an earlier one."""

    rules: HouseRules  # a hand is always read under its rules
    __slots__ = ("tiplu", "name", "jokers_by_kind", "names", "spellings")

    def __init__(self, rules: HouseRules):
        Reading.__init__(self, rules)
        self.tiplu: Card | None = None
        self.name = ""  # the player being read
        #: A dealt tunnela entered as ordinary_joker alone: its card is placed after reading.
        self.jokers_by_kind = False
        self.names: dict[str, str] = {}  # each player's name by its casefold
        #: The usual spellings of the cards these rules play with.
        self.spellings = SPELLINGS if rules.printed_jokers else SUIT_SPELLINGS

    def fail(self, path: str, template: str, **values: object) -> None:
        """A problem of the field at ``path`` (a check of more than one field)."""
        self.errors.append(FieldError(path, template, **values))

    def card(self, value: object, parent: str, key: str | int) -> Card | None:
        try:
            card = parse_card(value)
        except CardError as problem:
            self.refuse(parent, key, problem.template, **problem.values)
            return None
        if card.is_printed_joker and not self.rules.printed_jokers:
            self.refuse(
                parent,
                key,
                "These house rules play without printed jokers, so JK is not in the pack.",
            )
            return None
        return card


class PlayerName(Kind):
    """A player's name (``names.read_name``); the reading remembers it."""

    def read(self, value: object, parent: str, key: str | int, reading: HandReading) -> object:
        # A plain printable ASCII name, not too long, needs no more than folding (one word
        # of letters and digits not even that: ``fast``).
        if type(value) is str and value.isascii():
            name = " ".join(value.split()) if value.isprintable() else ""
            if name and len(name) <= MAX_NAME:
                reading.name = name
                return name
        try:
            reading.name = read_name(value, "name", most=MAX_NAME, missing=NO_NAME)
        except FieldError as problem:
            reading.refuse(parent, key, problem.template, **problem.values)
            reading.name = f"player {parent.rsplit('.', 1)[-1]}"
        return reading.name

    def fast(self) -> str:
        # The commonest name: one ASCII word of letters and digits.
        return f"""
if type(given) is str and given.isascii() and given.isalnum() and len(given) <= {MAX_NAME}:
    reading.name = {{got}} = given
else:
    {{read}}"""

    def schema(self) -> Schema:
        return NAME_SCHEMA


@dataclass(frozen=True)
class Winner(Kind):
    """The finisher's name, written as a name is (spaces folded; case is the hand's)."""

    message: str

    def read(self, value: object, parent: str, key: str | int, reading: Reading) -> object:
        if isinstance(value, str):
            return tidy_name(value)
        reading.refuse(parent, key, self.message)
        return REFUSED

    def fast(self) -> str:
        # One ASCII word of letters and digits is its own tidy form.
        return """
if type(given) is str and given.isascii() and given.isalnum():
    {got} = given
else:
    {read}"""

    def schema(self) -> Schema:
        return NAME_SCHEMA


class Tiplu(Kind):
    """The tiplu: a card of a suit; the reading keeps it for the dealt tunnelas."""

    usual: ClassVar[dict[str, Card]] = SUIT_SPELLINGS  # its usual spellings, read at once

    def read(self, value: object, parent: str, key: str | int, reading: HandReading) -> object:
        card = reading.card(value, parent, key)  # its usual spellings: ``fast``
        if card is not None and card.is_printed_joker:
            reading.refuse(parent, key, "The tiplu is a card of a suit, not a printed joker.")
            card = None
        reading.tiplu = card
        return card

    def fast(self) -> str:
        return """
if type(given) is str and ({got} := {kind}.usual.get(given)) is not None:
    reading.tiplu = {got}
else:
    {read}"""

    def schema(self) -> Schema:
        return CARD_SCHEMA


class MaalCards(Kind):
    """A player's maal cards: the usual spellings looked up at once, anything else read
    card by card with its problems."""

    def read(self, value: object, parent: str, key: str | int, reading: HandReading) -> object:
        if not isinstance(value, list):
            reading.refuse(
                parent, key, 'maal_cards must be a list of card codes, like ["8H", "9H"].'
            )
            return REFUSED
        try:
            return tuple(map(reading.spellings.__getitem__, value))
        except (KeyError, TypeError):
            path = join(parent, key)
            read = [reading.card(code, path, i) for i, code in enumerate(value)]
            return tuple(card for card in read if card is not None)

    def fast(self) -> str:
        return """
if type(given) is list:
    try:
        {got} = tuple(map(reading.spellings.__getitem__, given))
    except (KeyError, TypeError):
        {read}
else:
    {read}"""

    def schema(self) -> Schema:
        return {"type": "array", "items": CARD_SCHEMA}


class MaalCounts(Kind):
    """Copies of each kind of maal, each at most what the packs hold under the rules."""

    def read(self, value: object, parent: str, key: str | int, reading: HandReading) -> object:
        if not isinstance(value, dict):
            reading.refuse(
                parent, key, 'maal_counts must be an object like {"tiplu": 1, "poplu": 2}.'
            )
            return REFUSED
        path, rules, counts = join(parent, key), reading.rules, {}
        for kind, count in value.items():
            if kind not in MAAL_COUNT_KEYS:
                reading.refuse(
                    path,
                    kind,
                    "{kind!r} is not a kind of maal; the kinds are {kinds}.",
                    kind=kind,
                    kinds=", ".join(MAAL_COUNT_KEYS),
                )
                continue
            # A count of printed jokers where the pack has none is the copies check's.
            most = rules.packs if kind == "printed_joker" else rules.copies_limits[kind]
            if isinstance(count, int) and most < count <= MAX_MAAL:
                template = COUNT_RANGES[kind]
                if kind == "tiplu" and most == rules.packs:
                    template = COUNT_RANGES["tiplu_all"]
                name = reading.name
                reading.refuse(path, kind, template, name=name, count=count, most=most)
                continue
            if is_int(count) and 0 <= count <= most:
                counts[kind] = count
            else:
                reading.refuse(path, kind, WHOLE, most=most)
        return {k: counts[k] for k in MAAL_COUNT_KEYS if counts.get(k)}

    def schema(self) -> Schema:
        return {
            "type": "object",
            "properties": {
                key: {**Whole(0, MOST_COUNTS[key]).schema(), "description": MAAL_COUNT_HELP[key]}
                for key in MAAL_COUNT_KEYS
            },
            "additionalProperties": False,
        }


class DealtTunnelas(Kind):
    """Each a card code (its kind from the tiplu) or a kind of tunnela."""

    def read(self, value: object, parent: str, key: str | int, reading: HandReading) -> object:
        if not isinstance(value, list):
            reading.refuse(parent, key, "dealt_tunnelas must be a list of card codes or kinds.")
            return REFUSED
        out = []
        for i, entry in enumerate(value):
            kind = entry.strip().lower() if isinstance(entry, str) else None
            if kind in TUNNELA_KINDS:
                out.append(Tunnela(kind))
                reading.jokers_by_kind |= kind == "ordinary_joker"
                continue
            try:
                card = parse_card(entry)
            except CardError:
                reading.refuse(
                    join(parent, key),
                    i,
                    "{entry!r} is neither a card like 5S nor a kind of tunnela ({kinds}).",
                    entry=entry,
                    kinds=", ".join(TUNNELA_KINDS),
                )
                continue
            if card.is_printed_joker:
                out.append(Tunnela("printed_joker"))
            else:
                # Without a tiplu the kind is unknown; the hand's reader reports that.
                out.append(
                    Tunnela(kinds_for(reading.tiplu)[card] if reading.tiplu else "ordinary", card)
                )
        return tuple(out)

    def schema(self) -> Schema:
        return {
            "type": "array",
            "items": {"anyOf": [{"enum": list(TUNNELA_KINDS)}, CARD_SCHEMA]},
            "maxItems": MAX_DEALT_TUNNELAS,
        }


PLAYER = Body(
    (
        Field("name", PlayerName(), required=True, form="name"),
        Field(
            "seen",
            Choice(SEEN, N_("seen must be sequences, dublees or unseen.")),
            required=True,
            refused="unseen",
            form="seen",
        ),
        Field(
            "maal",
            Whole(0, MAX_MAAL),
            refused=0,
            help="The whole count, added up.",
            form="maal",
        ),
        Field(
            "maal_counts",
            MaalCounts(),
            help="Each kind at most what the packs hold under the hand's rules "
            "(the tiplu 2 where the indicator is set aside, one more with four packs); "
            f"with the dealt tunnelas at most {HAND_CARDS} cards (a marriage is 3).",
            form="count_{}",
        ),
        Field(
            "maal_cards",
            MaalCards(),
            help=f"With the dealt tunnelas (3 cards each) at most {HAND_CARDS} cards.",
            form="maal_cards",
        ),
        Field(
            "dealt_tunnelas",
            DealtTunnelas(),
            absent=(),
            refused=(),
            help="Each a card code or a kind of tunnela; at most "
            f"{MAX_DEALT_TUNNELAS} (a player holds {HAND_CARDS} cards).",
            form="dealt_tunnelas",
        ),
        Field(
            "marriages_shown",
            Whole(0, max(PACKS), most_for=lambda rules: rules.packs),
            absent=0,
            refused=0,
            form="count_marriages_shown",
        ),
        Field(
            "foul",
            Flag(N_("foul must be true or false.")),
            absent=False,
            refused=False,
            form="foul",
        ),
    ),
    N_("Each player must be an object with a name and seen."),
    help="At most one of maal, maal_counts and maal_cards.",
    makes=PlayerHand,
)


@dataclass(frozen=True)
class Players(Kind):
    """The players of a hand, in seat order, as many as the rules deal to: each made a
    ``PlayerHand`` as ``PLAYER`` declares it, then checked as a whole."""

    message: str

    def read(self, value: object, parent: str, key: str | int, reading: HandReading) -> object:
        most = reading.rules.max_players
        if not isinstance(value, list):
            reading.refuse(parent, key, self.message, most=most)
            return REFUSED
        if not MIN_PLAYERS <= len(value) <= most:
            too_many = most < len(value) <= MAX_PLAYERS
            template = TOO_MANY if too_many else PLAYER_COUNT
            reading.refuse(parent, key, template, most=most, n=len(value))
        paths, make, players = item_paths(parent, key, len(value)), PLAYER.make, []
        names = reading.names
        for index, item in enumerate(value):
            where = paths[index]
            player: PlayerHand | None = make(item, where, reading)
            if player is None:
                continue
            # Checked as a whole: one maal given one way, at most the cards a player
            # holds, a name listed once. A maal form read is None only where it was not
            # given, or refused (a problem kept).
            name, _, maal, counts, cards, tunnelas, _, _ = player  # its fields at once
            forms = (maal is not None) + (counts is not None) + (cards is not None)
            if forms > 1 or reading.errors:
                check_one_way(item, where, reading)
            if tunnelas or counts or (cards is not None and len(cards) > HAND_CARDS):
                check_held(reading, name, where, cards, counts, tunnelas)
            folded = name.casefold()
            if folded in names:
                reading.fail(f"{where}.name", LISTED_TWICE, name=name)
            names[folded] = name
            players.append(player)
        return players

    def schema(self) -> Schema:
        return {
            "type": "array",
            "items": ref("PlayerInput"),
            "minItems": MIN_PLAYERS,
            "maxItems": MAX_PLAYERS,
        }


def item_paths(parent: str, key: str | int, count: int) -> tuple[str, ...]:
    """The paths of the items of a list (``players`` → ``players.0``, ``players.1``, …):
    a hand's players are read and checked on them. Kept for a list as long as a table's;
    a longer one (refused, its players read all the same) has them made for it alone."""
    return (_item_paths if count <= MAX_PLAYERS else _item_paths.__wrapped__)(parent, key, count)


@lru_cache(maxsize=64)
def _item_paths(parent: str, key: str | int, count: int) -> tuple[str, ...]:
    path = join(parent, key)
    return tuple(f"{path}.{index}" for index in range(count))


def check_one_way(item: dict[str, Any], path: str, hand: HandReading) -> None:
    """A player's maal given at most one way (as a number, counts or cards)."""
    given = [k for k in ("maal", "maal_counts", "maal_cards") if item.get(k) is not None]
    if len(given) > 1:
        hand.fail(
            f"{path}.{given[1]}",
            "Give the maal one way only: {forms}, not both.",
            forms=" or ".join(given),
        )


def check_held(
    hand: HandReading,
    name: str,
    path: str,
    cards: tuple[Card, ...] | None,
    counts: dict[str, int] | None,
    tunnelas: tuple[Tunnela, ...],
) -> None:
    """A player holds 21 cards: their maal cards (or counted copies, three a marriage)
    and three cards a dealt tunnela (docs/rules.md §7)."""
    laid = len(tunnelas)
    if laid > MAX_DEALT_TUNNELAS:
        hand.fail(
            f"{path}.dealt_tunnelas",
            "{name} lists {count} dealt tunnelas, but a player holds {cards} cards: at "
            "most {most} tunnelas of 3.",
            name=name,
            count=laid,
            cards=HAND_CARDS,
            most=MAX_DEALT_TUNNELAS,
        )
        return
    if cards is not None:
        held, where = len(cards), "maal_cards"
    elif counts is not None:
        held, where = sum(counts.values()) + 2 * counts.get("marriage", 0), "maal_counts"
    else:
        return
    if held + 3 * laid > HAND_CARDS:
        hand.fail(
            f"{path}.{where}",
            "{name} holds {count} cards here (maal cards: {held}; dealt tunnelas, 3 cards "
            "each: {laid}), but a player holds {cards} cards.",
            name=name,
            count=held + 3 * laid,
            held=held,
            laid=laid,
            cards=HAND_CARDS,
        )


PLAYERS_TEXT = (
    f"The players of this hand, in seat order: 2 to {HAND_PLAYERS[3]} with three packs, "
    f"2 to {HAND_PLAYERS[4]} with `packs` 4."
)

HAND = Body(
    (
        Field("tiplu", Tiplu(), nullable=True),
        Field(
            "players",
            Players(N_("players must be a list of the 2 to {most} players of this hand.")),
            required=True,
            refused=[],
            help=PLAYERS_TEXT,
        ),
        Field(
            "winner",
            Winner(N_("The winner must be a player's name, or null for a void hand.")),
            nullable=True,
        ),
        Field(
            "finish",
            Choice(FINISHES, FINISH_MESSAGE),
            nullable=True,
            refused="",  # told already: not taken from the winner's route
            help="null or absent: the route by which the winner saw (a winner who saw "
            "must then be named).",
        ),
    ),
    N_("The hand must be a JSON object with finish, winner and players."),
)
