"""House rules: every number and choice of a table, the published profiles, overrides.

A *table* is a tuple of totals by count: poplu ``(2, 5, 10)`` means one poplu
scores 2, two score 5, three score 10 (not per card).

>>> PROFILES["amarnepal"].tiplu
(3, 8)
>>> resolve_rules({"profile": "amarnepal", "unseen_maal": "kidnap"}).unseen_maal
'kidnap'
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from dataclasses import dataclass
from functools import cached_property
from typing import Any, TypedDict

from .errors import N_, FieldError, Invalid, cut
from .game import HAND_CARDS, HAND_PLAYERS, MAX_DEALT_TUNNELAS, MIN_PLAYERS, PACKS
from .values import is_int

Table = tuple[int, ...]


class PlayerRange(TypedDict):
    """How many may play a hand."""

    least: int
    most: int


# GET /api/v1/rules gives them; the OpenAPI document is made from this declaration.
class HandLimits(TypedDict):
    """What a hand may hold: players, the copies of each kind across the table, a
    player's cards and dealt tunnelas."""

    players: PlayerRange
    copies: dict[str, int]
    hand_cards: int
    dealt_tunnelas: int


@dataclass(frozen=True)
class MatchLength:
    """A match's length: a number of hands or of full dealer rotations."""

    unit: str  # "hands" or "rotations"
    count: int

    def to_json(self) -> dict[str, int]:
        return {self.unit: self.count}


@dataclass(frozen=True)
class HouseRules:
    profile: str
    scoring: str = "zero_sum"  # zero_sum | points_race
    packs: int = 3  # 3 or 4: every card exists this many times (docs/rules.md §7)
    printed_jokers: bool = False
    tiplu_copies_max: int = 2  # copies of the tiplu that can be in hands (one is set aside)
    tiplu: Table = (3, 8)
    poplu: Table = (2, 5, 10)
    jhiplu: Table = (2, 5, 10)
    alter: Table | None = (5, 15, 25)  # None: the alter is no maal category
    ordinary_jokers_wild: bool = True
    ordinary_joker: Table = (0, 0, 0)
    printed_joker: Table | None = None
    marriage: Table = (10, 30)
    marriage_shown: Table | None = None  # scored apart when shown on the table
    marriage_grouping: str = "best"  # best | marriages_first
    tunnela_ordinary: int | Table | None = None
    tunnela_ordinary_joker: int | Table | None = None
    tunnela_poplu_jhiplu: int | Table | None = None
    tunnela_alter: int | Table | None = None
    tunnela_printed_joker: int | Table | None = None
    tunnela_tiplu: int | Table | None = None
    dealt_tunnela_needs: str = "seen_by_sequences"  # seen_by_sequences | nothing
    dealt_tunnela_bonus_mode: str = "instead"  # instead of its cards | added to them
    unseen_maal: str = "murder"  # murder | kidnap | keep | keep_not_between_unseen
    fee_seen: int = 3
    fee_seen_dublee: int = 3
    fee_unseen: int = 10
    dublee_finish_bonus: int = 5
    dublee_finish_bonus_mode: str = "per_loser"  # per_loser | finisher_maal
    void_hand: str = "nothing"  # nothing | maal_only
    dublees_allowed: bool = True
    dublees_min_players: int = 2
    deal_passes: str = "left"  # left | right
    match_length: MatchLength | None = None
    finisher_bonus_per_opponent: int = 0
    foul: str = "off"  # off | same_hand | next_hand
    foul_penalty: int = 15

    @cached_property
    def derived(self) -> dict[object, Any]:
        """Tables the engine derives from these rules, kept with them (rules never change):
        a key names the table and what else it depends on."""
        return {}

    @cached_property
    def route_fees(self) -> dict[str, int]:
        """The fee a player who did not finish pays by the route they saw by."""
        return {
            "sequences": self.fee_seen,
            "dublees": self.fee_seen_dublee,
            "unseen": self.fee_unseen,
        }

    @cached_property
    def zero_sum(self) -> bool:
        return self.scoring == "zero_sum"

    @property
    def max_players(self) -> int:
        """The most players a hand deals to with these packs."""
        return HAND_PLAYERS[self.packs]

    @cached_property
    def copies_limits(self) -> dict[str, int]:
        """The most copies of each kind that can be in hands across the table (docs/rules.md
        §2, each one higher with four packs, §7); any other card: ``packs``."""
        extra = self.packs - 3
        return {
            "tiplu": self.tiplu_copies_max + extra,
            "poplu": self.packs,
            "jhiplu": self.packs,
            "alter": self.packs,
            "printed_joker": self.packs if self.printed_jokers else 0,
            "ordinary_joker": 2 * self.packs,  # two cards
            "marriage": self.tiplu_copies_max + extra,  # a tiplu each
        }

    def limits(self) -> HandLimits:
        """What a hand may hold under these rules (docs/rules.md §2, §7), as JSON."""
        return {
            "players": {"least": MIN_PLAYERS, "most": self.max_players},
            "copies": dict(self.copies_limits),
            "hand_cards": HAND_CARDS,
            "dealt_tunnelas": MAX_DEALT_TUNNELAS,
        }

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {}
        for f in dataclasses.fields(self):
            value = getattr(self, f.name)
            if isinstance(value, tuple):
                value = list(value)
            elif isinstance(value, MatchLength):
                value = value.to_json()
            out[f.name] = value
        return out

    def overrides(self) -> dict[str, Any]:
        """The settings that differ from this rules' profile, as JSON values."""
        return overrides_of(self.to_json())

    def spec(self) -> dict[str, Any]:
        """These rules as the settle format's ``rules``: ``resolve_rules(r.spec()) == r``."""
        return {"profile": self.profile, **self.overrides()}


def overrides_of(values: Mapping[str, Any]) -> dict[str, Any]:
    """The settings of rules given as JSON (``HouseRules.to_json()``, with ``profile``)
    that differ from that profile; other keys are ignored."""
    base = PROFILES[values["profile"]].to_json() if values.get("profile") in PROFILES else {}
    return {k: v for k, v in values.items() if k in base and base[k] != v}


TUNNELA_SETTINGS = (
    "tunnela_ordinary",
    "tunnela_ordinary_joker",
    "tunnela_poplu_jhiplu",
    "tunnela_alter",
    "tunnela_printed_joker",
    "tunnela_tiplu",
)

PROFILES: dict[str, HouseRules] = {
    "amarnepal": HouseRules(
        profile="amarnepal",
        printed_jokers=True,
        printed_joker=(5, 15, 25),
        tunnela_ordinary=5,
        tunnela_ordinary_joker=10,
        tunnela_poplu_jhiplu=20,
        tunnela_alter=35,
        tunnela_printed_joker=35,
        match_length=MatchLength("hands", 4),
    ),
    "sparkai": HouseRules(profile="sparkai"),
    "classic": HouseRules(
        profile="classic",
        tiplu=(3, 7),
        alter=None,
        tunnela_ordinary=5,
        tunnela_ordinary_joker=10,
        tunnela_poplu_jhiplu=20,
        void_hand="maal_only",
        match_length=MatchLength("rotations", 1),
    ),
    "everestbuzz": HouseRules(
        profile="everestbuzz",
        tiplu_copies_max=3,
        tiplu=(3, 7, 12),
        alter=(5, 10, 15),
        marriage=(10, 30, 60),
        marriage_grouping="marriages_first",
        tunnela_ordinary=5,
        tunnela_ordinary_joker=10,
        tunnela_poplu_jhiplu=20,
        tunnela_alter=10,
        tunnela_tiplu=30,
        fee_seen_dublee=0,
    ),
    "gamerules": HouseRules(
        profile="gamerules",
        scoring="points_race",
        tiplu_copies_max=3,  # the indicator goes back under the stock
        tiplu=(3, 7),
        alter=None,
        ordinary_jokers_wild=False,
        marriage_shown=(15, 35),
        tunnela_ordinary=(5, 15, 25),
        tunnela_poplu_jhiplu=(15, 35),
        dealt_tunnela_needs="nothing",
        unseen_maal="keep",
        fee_seen=0,
        fee_seen_dublee=0,
        fee_unseen=0,
        dublee_finish_bonus=0,
        dublees_allowed=False,
        match_length=MatchLength("rotations", 1),
        finisher_bonus_per_opponent=10,
    ),
}
#: The profile a new match or the dispute checker starts from.
DEFAULT_PROFILE = next(iter(PROFILES))

PROFILE_TITLES = {
    "amarnepal": N_("Amar Nepal"),
    "sparkai": N_("Sparkai"),
    "classic": N_("Classic"),
    "everestbuzz": N_("Everest Buzz"),
    "gamerules": N_("Game rules (points race)"),
}

#: What the ledger reads where a profile's source is silent (docs/rule-choices.md), for
#: the rules page: each says which setting changes it, or that none does.
PROFILE_NOTES = {
    "classic": N_(
        "The source states no rule for an unseen player's maal, and its only example has "
        "an unseen player holding none: the ledger counts it as nothing (murder). A match "
        "can change this with the unseen maal setting (kidnap or keep)."
    ),
    "gamerules": N_(
        "The poplu and the jhiplu are counted each on its own table: one of each is "
        "2 + 2, not two wild cards worth 5 together. The poplu and jhiplu settings change "
        "each table; no setting counts them as one. The indicator goes back under the "
        "stock, so all three tiplus can be in hands: three tiplus score 11 and three "
        "marriages 50, each table going on by its last step."
    ),
}

CHOICES: dict[str, tuple[str, ...]] = {
    "scoring": ("zero_sum", "points_race"),
    "marriage_grouping": ("best", "marriages_first"),
    "dealt_tunnela_needs": ("seen_by_sequences", "nothing"),
    "dealt_tunnela_bonus_mode": ("instead", "added"),
    "unseen_maal": ("murder", "kidnap", "keep", "keep_not_between_unseen"),
    "dublee_finish_bonus_mode": ("per_loser", "finisher_maal"),
    "void_hand": ("nothing", "maal_only"),
    "deal_passes": ("left", "right"),
    "foul": ("off", "same_hand", "next_hand"),
}
TABLES = ("tiplu", "poplu", "jhiplu", "ordinary_joker", "marriage")
OPTIONAL_TABLES = ("alter", "printed_joker", "marriage_shown")
BOOLS = ("printed_jokers", "ordinary_jokers_wild", "dublees_allowed")
#: The values tiplu_copies_max may take (copies of the tiplu that can be in hands).
TIPLU_COPIES_MAX = (2, 3)
COUNTS = (
    "packs",
    "tiplu_copies_max",
    "fee_seen",
    "fee_seen_dublee",
    "fee_unseen",
    "dublee_finish_bonus",
    "dublees_min_players",
    "finisher_bonus_per_opponent",
    "foul_penalty",
)

#: What each setting means, for the rules page and for error messages.
SETTING_HELP: dict[str, str] = {
    "profile": N_("The published profile these rules start from."),
    "scoring": N_(
        "zero_sum: players settle with each other every hand; "
        "points_race: everyone scores their own maal and the highest total wins."
    ),
    "packs": N_(
        "How many packs are shuffled together: 3 (2 to 5 players a hand) or 4 (2 to 8 "
        "players; every card exists 4 times and each copies limit is one higher; a count "
        "past the end of a table adds its last step again for each extra copy)."
    ),
    "printed_jokers": N_("Whether the pack has the 3 printed jokers (159 cards)."),
    "tiplu_copies_max": N_(
        "How many copies of the tiplu can be in hands with three packs (2 when the "
        "indicator is set aside, 3 when it is not; one more with four packs)."
    ),
    "tiplu": N_("Totals for holding 1, 2 (, 3) tiplus."),
    "poplu": N_("Totals for holding 1, 2, 3 poplus."),
    "jhiplu": N_("Totals for holding 1, 2, 3 jhiplus."),
    "alter": N_("Totals for holding 1, 2, 3 alters; empty when the alter is no maal."),
    "ordinary_jokers_wild": N_("Whether the tiplu's rank in the other colour is wild."),
    "ordinary_joker": N_("Totals for 1, 2, 3 copies of an ordinary joker card (usually 0)."),
    "printed_joker": N_("Totals for holding 1, 2, 3 printed jokers."),
    "marriage": N_("Totals for 1, 2 (, 3) marriages (jhiplu + tiplu + poplu) held in hand."),
    "marriage_shown": N_("Totals for 1, 2 marriages shown on the table, where scored apart."),
    "marriage_grouping": N_(
        "best: form the number of marriages that scores most; "
        "marriages_first: form as many marriages as possible."
    ),
    "tunnela_ordinary": N_(
        "Bonus for a dealt tunnela of ordinary cards (a number per tunnela, "
        "or totals for 1, 2, 3 tunnelas)."
    ),
    "tunnela_ordinary_joker": N_(
        "Bonus for a dealt tunnela of ordinary jokers (and of alters where the alter is no maal)."
    ),
    "tunnela_poplu_jhiplu": N_("Bonus for a dealt tunnela of poplus or jhiplus."),
    "tunnela_alter": N_("Bonus for a dealt tunnela of alters."),
    "tunnela_printed_joker": N_("Bonus for a dealt tunnela of printed jokers."),
    "tunnela_tiplu": N_("Bonus for a dealt tunnela of tiplus."),
    "dealt_tunnela_needs": N_(
        "Who may score a dealt tunnela: a player seen by sequences, or anybody."
    ),
    "dealt_tunnela_bonus_mode": N_(
        "instead: a dealt tunnela scores its bonus instead of its three cards; added: the "
        "bonus is added on top and its cards still count as maal (they may form marriages)."
    ),
    "unseen_maal": N_(
        "An unseen player's maal: murder (worth 0), kidnap (goes to the finisher), keep "
        "(counts as theirs) or keep_not_between_unseen (counts as theirs, but two unseen "
        "players exchange nothing with each other)."
    ),
    "fee_seen": N_("Fee each player seen by sequences pays the finisher."),
    "fee_seen_dublee": N_("Fee each player seen by dublees pays the finisher."),
    "fee_unseen": N_("Fee each unseen player pays the finisher."),
    "dublee_finish_bonus": N_("Extra points for finishing by dublees."),
    "dublee_finish_bonus_mode": N_(
        "per_loser: every other player pays the bonus; "
        "finisher_maal: the bonus is added to the finisher's maal."
    ),
    "void_hand": N_(
        "When nobody finishes: nothing (all 0) or maal_only (maal is exchanged, no fees)."
    ),
    "dublees_allowed": N_("Whether players may see and finish by dublees."),
    "dublees_min_players": N_("Fewest players in a hand for dublees to be allowed."),
    "deal_passes": N_("Which way the deal passes each hand."),
    "match_length": N_("The usual length of a match: hands, full dealer rotations, or open."),
    "finisher_bonus_per_opponent": N_("Points race: the finisher's bonus for each opponent."),
    "foul": N_(
        "Penalty for a false show or finish: off, to this hand's finisher, or to the "
        "next hand's finisher."
    ),
    "foul_penalty": N_("Points the foul player pays when fouls are penalised."),
}


#: What each key of a player's ``maal_counts`` holds, for the rules page and the API.
MAAL_COUNT_HELP: dict[str, str] = {
    "tiplu": N_("Copies of the tiplu held, not counting those in marriages entered as such."),
    "poplu": N_("Copies of the poplu held, not counting those in marriages entered as such."),
    "jhiplu": N_("Copies of the jhiplu held, not counting those in marriages entered as such."),
    "alter": N_("Copies of the alter held."),
    "printed_joker": N_("Printed jokers held."),
    "ordinary_joker": N_("Ordinary jokers held (both cards together)."),
    "marriage": N_(
        "Marriages entered as such: a tiplu, a poplu and a jhiplu each, scored from the "
        "marriage table whatever the grouping rule; the tiplus, poplus and jhiplus counted "
        "beside them are loose. Their cards count towards the copies limits."
    ),
}


#: The longest table: one hand holds at most 7 of anything a table counts (7 dealt
#: tunnelas in 21 cards; 6 ordinary jokers; 3 copies of every other card).
MAX_TABLE_ENTRIES = 7
#: The most a table's total may be, and so the most one number per card may be: its
#: table is written out for 1, 2 and 3 cards, and 3 × 333 stays within the totals' bound
#: (a larger number would give a table that no later read of the stored rules takes).
MAX_TABLE_TOTAL = 1000
MAX_PER_CARD = MAX_TABLE_TOTAL // 3


def _table(name: str, value: object) -> Table:
    if is_int(value) and 0 <= value <= MAX_PER_CARD:  # one number: that much per card
        return (value, 2 * value, 3 * value)
    if is_int(value):
        raise FieldError(
            f"rules.{name}",
            "{setting} as one number is that much per card: a whole number from 0 to "
            "{most} (three cards then total at most {total}); give a list of totals "
            "for more.",
            setting=name,
            most=MAX_PER_CARD,
            total=MAX_TABLE_TOTAL,
        )
    if (
        not isinstance(value, list | tuple)
        or not 1 <= len(value) <= MAX_TABLE_ENTRIES
        or not all(is_int(v) and 0 <= v <= 1000 for v in value)
    ):
        raise FieldError(
            f"rules.{name}",
            "{setting} must be a list of 1 to {most} whole numbers from 0 to 1000, the totals "
            "for holding 1, 2, 3 of the kind, like {example} (or one number: that much "
            "per card).",
            setting=name,
            most=MAX_TABLE_ENTRIES,
            example=[2, 5, 10],
        )
    return tuple(value)


def parse_length(value: object, field: str) -> MatchLength | None:
    if value is None:
        return None
    if isinstance(value, Mapping) and len(value) == 1:
        ((unit, count),) = value.items()
        if unit in ("hands", "rotations") and is_int(count) and 1 <= count <= 1000:
            return MatchLength(unit, count)
    raise FieldError(
        field,
        'The length must be {"hands": N} or {"rotations": N} with N from 1 to 1000, '
        "or null for an open match.",
    )


#: A setting's JSON Schema (the engine's own words: ``ledger.api.openapi`` adds the help).
Schema = dict[str, Any]


def _whole(least: int, most: int | None = None) -> Schema:
    return {"type": "integer", "minimum": least, **({} if most is None else {"maximum": most})}


def _totals(resolved: bool) -> Schema:
    """A table's totals (``resolved``: as given back, written out for one number per
    card: up to 4 × 1000 with four packs)."""
    most = 4000 if resolved else MAX_TABLE_TOTAL
    return {"type": "array", "items": _whole(0, most), "minItems": 1, "maxItems": MAX_TABLE_ENTRIES}


_PER_CARD = {
    **_whole(0, MAX_PER_CARD),
    "description": f"That much per card: the totals for 1, 2, 3 cards are 1, 2, 3 times "
    f"it (at most {MAX_PER_CARD}, so that they stay within {MAX_TABLE_TOTAL}).",
}
_NULL = {"type": "null"}


class Setting:
    """How a house-rules setting of one kind is read (``read``: its value, or FieldError
    on ``rules.<name>``) and the JSON it takes (``schema``), said once for both."""

    def read(self, name: str, value: object) -> object:
        raise NotImplementedError

    def schema(self, resolved: bool = False) -> Schema:
        raise NotImplementedError


#: How much of a setting's value its refusal repeats: a typo whole, a flood cut.
SHOWN_MOST = 40


@dataclass(frozen=True)
class OneOf(Setting):
    values: tuple[str, ...]

    def read(self, name: str, value: object) -> object:
        if value in self.values:
            return value
        raise FieldError(
            f"rules.{name}",
            "{setting} must be one of {allowed}; got {value!r}.",
            setting=name,
            allowed=", ".join(self.values),
            value=cut(value, SHOWN_MOST),
        )

    def schema(self, resolved: bool = False) -> Schema:
        return {"enum": list(self.values)}


class YesNo(Setting):
    def read(self, name: str, value: object) -> object:
        if isinstance(value, bool):
            return value
        raise FieldError(f"rules.{name}", "{setting} must be true or false.", setting=name)

    def schema(self, resolved: bool = False) -> Schema:
        return {"type": "boolean"}


@dataclass(frozen=True)
class Count(Setting):
    """A whole number from 0 to 1000 (``described``: narrower, as ``_check_consistent``
    has it, with the other settings)."""

    described: Schema = dataclasses.field(default_factory=lambda: _whole(0, 1000))

    def read(self, name: str, value: object) -> object:
        if is_int(value) and 0 <= value <= 1000:
            return value
        raise FieldError(
            f"rules.{name}", "{setting} must be a whole number from 0 to 1000.", setting=name
        )

    def schema(self, resolved: bool = False) -> Schema:
        return self.described


@dataclass(frozen=True)
class Totals(Setting):
    """A points table (one number: that much per card). ``optional``: null or [] says
    none; ``per_tunnela``: null says none, and one number is a bonus per tunnela."""

    optional: bool = False
    per_tunnela: bool = False

    def read(self, name: str, value: object) -> object:
        if self.optional and (value is None or value == []):
            return None
        if self.per_tunnela:
            if value is None or (is_int(value) and 0 <= value <= MAX_TABLE_TOTAL):
                return value
            if is_int(value):
                return Count().read(name, value)
        return _table(name, value)

    def schema(self, resolved: bool = False) -> Schema:
        if self.per_tunnela:
            return {"anyOf": [_totals(resolved), _whole(0, MAX_TABLE_TOTAL), _NULL]}
        none = [{"type": "array", "items": {"type": "integer"}, "maxItems": 0}, _NULL]
        return {"anyOf": [_totals(resolved), _PER_CARD, *(none if self.optional else ())]}


class Length(Setting):
    def read(self, name: str, value: object) -> object:
        return parse_length(value, f"rules.{name}")

    def schema(self, resolved: bool = False) -> Schema:
        return {"anyOf": [{"$ref": "#/components/schemas/Length"}, _NULL]}


#: Each setting's kind, from the groups above: what ``with_overrides`` reads and what
#: the OpenAPI document says of it.
SETTING_KINDS: dict[str, Setting] = {
    **{name: Count() for name in COUNTS},
    "packs": Count({"enum": list(PACKS)}),
    "tiplu_copies_max": Count({"enum": list(TIPLU_COPIES_MAX)}),
    # at most HAND_PLAYERS[packs]: 5 unless packs is 4
    "dublees_min_players": Count(_whole(0, max(HAND_PLAYERS.values()))),
    **{name: OneOf(values) for name, values in CHOICES.items()},
    **dict.fromkeys(BOOLS, YesNo()),
    **dict.fromkeys(TABLES, Totals()),
    **dict.fromkeys(OPTIONAL_TABLES, Totals(optional=True)),
    **dict.fromkeys(TUNNELA_SETTINGS, Totals(per_tunnela=True)),
    "match_length": Length(),
}


def _parse_setting(name: str, value: object) -> object:
    kind = SETTING_KINDS.get(name)
    if kind is None:
        raise FieldError(
            f"rules.{name}", "There is no house-rules setting called {name!r}.", name=name
        )
    return kind.read(name, value)


def _check_consistent(rules: HouseRules) -> list[FieldError]:
    """Settings that make sense alone but not together."""
    problems = []
    if rules.packs not in PACKS:
        problems.append(FieldError("rules.packs", "{setting} must be 3 or 4.", setting="packs"))
        return problems
    if rules.tiplu_copies_max not in TIPLU_COPIES_MAX:
        problems.append(
            FieldError(
                "rules.tiplu_copies_max", "{setting} must be 2 or 3.", setting="tiplu_copies_max"
            )
        )
    if rules.printed_jokers and rules.printed_joker is None:
        problems.append(
            FieldError(
                "rules.printed_joker",
                "With printed jokers in the pack, {setting} needs its totals, like {example}.",
                setting="printed_joker",
                example=[5, 15, 25],
            )
        )
    if rules.dublees_min_players > rules.max_players:
        problems.append(
            FieldError(
                "rules.dublees_min_players",
                "{setting} must be from 2 to {most} (the most players a hand has with "
                "{packs} packs).",
                setting="dublees_min_players",
                most=rules.max_players,
                packs=rules.packs,
            )
        )
    return problems


def falling_tables(rules: HouseRules) -> list[FieldError]:
    """A problem for each points table that falls somewhere (docs/rules.md §9): extended
    past its end (§7), a falling table would give a negative total. A table must rise or
    stay level, each total at least the one before it."""
    problems = []
    for name in (*TABLES, *OPTIONAL_TABLES, *TUNNELA_SETTINGS):
        table = getattr(rules, name)
        if not isinstance(table, tuple):
            continue
        fall = next((i for i in range(1, len(table)) if table[i] < table[i - 1]), None)
        if fall is not None:
            problems.append(
                FieldError(
                    f"rules.{name}",
                    "{setting} must not fall: each total must be at least the one before "
                    "it, but the total for {count} is {value}, less than {before} for "
                    "{fewer}.",
                    setting=name,
                    count=fall + 1,
                    value=table[fall],
                    before=table[fall - 1],
                    fewer=fall,
                )
            )
    return problems


def resolve_rules(spec: object, *, stored: bool = False) -> HouseRules:
    """Rules from a profile id or ``{"profile": id, **overrides}``; raises Invalid.

    ``stored``: rules a match already keeps, read as they are (a table that falls was
    allowed before docs/rules.md §9: its hands keep their results)."""
    field = "rules"
    if spec is None:  # left out (or null): say so, and what to give
        raise Invalid(
            [
                FieldError(
                    "rules",
                    "rules is missing: give a house-rules profile id (one of {profiles}), "
                    "or an object with a profile and overrides.",
                    profiles=", ".join(PROFILES),
                )
            ]
        )
    if isinstance(spec, str):
        spec = {"profile": spec}
    elif isinstance(spec, Mapping):
        field = "rules.profile"
    if not isinstance(spec, Mapping):
        raise Invalid(
            [
                FieldError(
                    "rules",
                    "rules must be a profile id or an object with a profile and overrides.",
                )
            ]
        )
    profile = spec.get("profile")
    if profile is None and field == "rules.profile":
        # Overrides sent without their profile: say it is missing, not "None is not ...".
        raise Invalid(
            [
                FieldError(
                    field,
                    "Give the profile that these overrides change: one of {profiles}.",
                    profiles=", ".join(PROFILES),
                )
            ]
        )
    if not isinstance(profile, str) or profile not in PROFILES:
        raise Invalid(
            [
                FieldError(
                    field,
                    "{profile!r} is not a house-rules profile; choose one of {profiles}.",
                    profile=profile,
                    profiles=", ".join(PROFILES),
                )
            ]
        )
    overrides = {k: v for k, v in spec.items() if k != "profile"}
    return with_overrides(PROFILES[profile], overrides, stored=stored)


def with_overrides(
    base: HouseRules, overrides: Mapping[str, object], *, stored: bool = False
) -> HouseRules:
    """``base`` with each setting of ``overrides`` (``stored``: as in ``resolve_rules``)."""
    changes: dict[str, Any] = {}  # each checked by _parse_setting for its field
    problems: list[FieldError] = []
    for name, value in overrides.items():
        try:
            changes[str(name)] = _parse_setting(str(name), value)
        except FieldError as problem:
            problems.append(problem)
    if problems:
        raise Invalid(problems)
    rules = dataclasses.replace(base, **changes)
    problems = _check_consistent(rules)
    if not stored:
        problems += falling_tables(rules)
    if problems:
        raise Invalid(problems)
    return rules


def past_table(table: int | Table | None, count: int) -> tuple[int, int, int] | None:
    """How a count past a table's last entry is scored (docs/rules.md §7): the table's
    length, its last entry and the step added for each further item; None within it.

    >>> past_table((2, 5, 10), 4), past_table((2, 5, 10), 3)
    ((3, 10, 5), None)
    """
    if not isinstance(table, tuple) or count <= len(table):
        return None
    return len(table), table[-1], table[-1] - (table[-2] if len(table) > 1 else 0)


def table_total(table: int | Table | None, count: int) -> int:
    """The total for holding ``count``; a number is per item; past a table's end each
    further item adds the table's last step; no table (None) scores nothing.

    >>> table_total((2, 5, 10), 2), table_total(5, 3), table_total((5, 15, 25), 4)
    (5, 15, 35)
    """
    if count <= 0 or table is None:
        return 0
    if isinstance(table, int):
        return table * count
    if count <= len(table):
        return table[count - 1]
    step = table[-1] - (table[-2] if len(table) > 1 else 0)
    return table[-1] + step * (count - len(table))
