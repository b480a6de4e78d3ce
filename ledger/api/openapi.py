"""GET /openapi.json: the API described as OpenAPI 3.1, every route with its request and
response schemas and the error shape of docs/api.md.

The schemas are data built here; the operations are read off the routes
(``ledger.api.openapi_paths``). tests/api/test_openapi.py keeps it true (every route of
the app is in it, it validates, and a property-based run of Schemathesis finds no answer
that breaks it). The house-rules settings' schemas are
the engine's (``SETTING_KINDS``: each setting read and described by one kind), so that
a new setting is described the moment the engine has it.
"""

from __future__ import annotations

from functools import cache
from typing import Any

import msgspec
from flask import Response, jsonify

from ledger.api import bp
from ledger.api.operations import described
from ledger.engine import PROFILES, hand_body
from ledger.engine.declare import nullable, obj, ref
from ledger.engine.game import (
    FINISHES,
    HAND_PLAYERS,
    MAX_PLAYERS,
    MIN_PLAYERS,
    PACKS,
    SEEN,
)
from ledger.engine.hand_body import NAME_SCHEMA, PLAYERS_TEXT
from ledger.engine.maal import ITEM_NOTES
from ledger.engine.rules import CHOICES, SETTING_HELP, SETTING_KINDS
from ledger.matches import answers
from ledger.matches.export import ENTRIES, EXPORT, EXPORT_FORMAT, EXPORT_FORMAT_VERSION
from ledger.matches.models import INTEGER_MAX
from ledger.matches.reading import MATCH, MATCH_CHANGE, STAKE
from ledger.tables import answers as table_answers
from ledger.tables import people_answers

Schema = dict[str, Any]

#: docs/api.md's examples: documentation, and the first cases a property-based run tries.
HAND_EXAMPLE = {
    "finish": "sequences",
    "winner": "Asha",
    "players": [
        {"name": "Asha", "seen": "sequences", "maal": 10},
        {"name": "Bikash", "seen": "sequences", "maal": 5},
        {"name": "Chandra", "seen": "unseen", "maal": 8},
    ],
}
SETTLE_EXAMPLE = {
    "rules": "amarnepal",
    "tiplu": "8H",
    "finish": "sequences",
    "winner": "Asha",
    "players": [
        {"name": "Asha", "seen": "sequences", "maal_cards": ["7H", "8H", "9H", "8D"]},
        {"name": "Bikash", "seen": "dublees", "maal_counts": {"tiplu": 1}},
        {"name": "Chandra", "seen": "unseen", "maal": 8},
        {"name": "Dipa", "seen": "sequences", "maal": 0, "dealt_tunnelas": ["5S"]},
    ],
}
EXPORT_EXAMPLE = {
    "format": EXPORT_FORMAT,
    "name": "Tihar 2026",
    "players": ["Asha", "Bikash", "Chandra"],
    "rules": "sparkai",
    "length": None,
    "hands": [{"number": 1, "dealer": "Asha", "version": 1, **HAND_EXAMPLE}],
}
MATCH_EXAMPLE = {
    "name": "Tihar 2026",
    "players": ["Asha", "Bikash", "Chandra", "Dipa"],
    "rules": "amarnepal",
    "length": {"hands": 4},
    "first_dealer": "Asha",
}

ERROR_STATUSES = {
    400: "The body is not JSON, or not a JSON object.",
    401: "No edit key: send `Authorization: Bearer <edit key>`.",
    403: "This is not the edit key of this match.",
    404: "No such match or hand.",
    409: "A conflicting edit: the hand changed since it was loaded, or the match is "
    "finished, or `number` is not the next hand's.",
    413: "The body is larger than the limit of this address (256 KiB; 4 MiB for an import).",
    422: "Well-formed JSON that is not a valid hand or match: each error names its field.",
    429: "Too many requests of this kind from this address (or, on a write, too many wrong "
    "edit keys tried on this match or table from it): try again after `Retry-After`.",
    503: "Another import is being read (one at a time; an import waits up to 10 s for its "
    "turn): nothing was stored; try again after `Retry-After`.",
}


def array(items: Schema, **extra: Any) -> Schema:
    return {"type": "array", "items": items, **extra}


def whole(least: int | None = None, most: int | None = None) -> Schema:
    out: Schema = {"type": "integer"}
    if least is not None:
        out["minimum"] = least
    if most is not None:
        out["maximum"] = most
    return out


TEXT = {"type": "string"}
TIME = nullable({"type": "string", "format": "date-time"})
OTHER_RULES = {**ref("ResolvedRules"), "description": "The other rules, resolved."}


def ignored(what: str) -> Schema:
    """A field of an export that an import does not read: any value."""
    return {"description": f"{what}; ignored on import, whatever it holds."}


#: A player row's mark: a guest of the table plays without being on its roster.
GUEST = {"type": "boolean", "description": "A guest of the table: not on its roster."}
POINTS = {"type": "integer", "description": "Points (whole numbers; money is never a float)."}
NAME = NAME_SCHEMA
TOTALS = {"type": "object", "additionalProperties": {"type": "integer"}}
#: The words of ``props``: a field's kind (``@Name`` a reference to a component).
KINDS: dict[str, Schema] = {
    "text": TEXT,
    "int": whole(),
    "int0": whole(0),
    "int1": whole(1),
    "num": {"type": "number"},
    "bool": {"type": "boolean"},
    "points": POINTS,
    "guest": GUEST,
    "time": TIME,
    "totals": TOTALS,
    "name": NAME,
    "seen": {"enum": list(SEEN)},
    "finish": {"enum": list(FINISHES)},
    "action": {"enum": ["edit", "delete"]},
}


def kind(word: str, where: dict[str, Schema]) -> Schema:
    """A kind of ``KINDS`` or ``where``; ``?`` after it: or null, ``[]``: a list of it."""
    if word.endswith("?"):
        return nullable(kind(word[:-1], where))
    if word.endswith("[]"):
        return array(kind(word[:-2], where))
    return ref(word[1:]) if word.startswith("@") else {**KINDS, **where}[word]


def props(spec: str, where: dict[str, Schema] | None = None) -> dict[str, Schema]:
    """``key[*][:kind] ...`` as properties (``*``: required; a kind left out: the key's
    own in ``where``, else text)."""
    where, out = where or {}, {}
    for field in spec.split():
        key, _, word = field.partition(":")
        key = key.rstrip("*")
        out[key] = kind(word or (key if key in where else "text"), where)
    return out


def shape(spec: str, where: dict[str, Schema] | None = None, **extra: Any) -> Schema:
    """An object of ``props``, the keys marked ``*`` required in their order."""
    required = tuple(word.split(":")[0][:-1] for word in spec.split() if "*:" in word + ":")
    return obj(props(spec, where), required, **extra)


def _setting_schema(name: str, *, resolved: bool = False) -> Schema:
    """The JSON value of one house-rules setting, as the engine declares it."""
    return {**SETTING_KINDS[name].schema(resolved), "description": SETTING_HELP.get(name, "")}


SETTINGS = [name for name in PROFILES["amarnepal"].to_json() if name != "profile"]
LIMITS = obj(
    {
        "players": obj({"least": whole(), "most": whole()}, ("least", "most")),
        "copies": TOTALS,
        "hand_cards": whole(),
        "dealt_tunnelas": whole(),
    },
    ("players", "copies", "hand_cards", "dealt_tunnelas"),
    description="What a hand may hold: players, the copies of each kind across the table, "
    "a player's cards and dealt tunnelas.",
)


def schemas() -> dict[str, Schema]:
    """The document's components: every body the API takes or gives."""
    profile = {"enum": list(PROFILES), "description": "A house-rules profile."}
    settings = {name: _setting_schema(name) for name in SETTINGS}
    resolved_settings = {name: _setting_schema(name, resolved=True) for name in SETTINGS}
    # The hand's bodies as declared (looked up in their module when the document is made:
    # tests/api/test_openapi_derived.py adds a field to a throwaway declaration).
    player_input = hand_body.PLAYER.schema()
    hand_fields = hand_body.HAND.properties()
    hand_read = shape(
        "tiplu*:text? finish*:finish winner*:text? players*:player[]",
        {"player": shape("name* seen*:seen")},
        description="A hand as the engine read it (names in their registered spelling).",
    )
    breakdown = shape(
        "item* count:int cards:text[] points*:int kind reason:reason note:note past_table:past",
        {
            "reason": {
                "enum": ["unseen", "seen_by_dublees", "kind_not_scored"],
                "description": "Why dealt tunnelas earn no bonus: the player's route, or "
                "a kind the rules never score (its cards then count as maal).",
            },
            "note": {
                "enum": list(ITEM_NOTES),
                "description": "bonus_added: a dealt tunnela's bonus on top of its cards, "
                "which are counted in the items after it; marriages_entered: marriages "
                "entered as a count; no_maal_cards: a dealt tunnela of ordinary cards, "
                "which are no maal and listed in no other item.",
            },
            "past": shape(
                "entries*:int1 last*:int0 step*:int",
                description="A count past its table's last entry: that entry plus the "
                "step again for each further copy.",
            ),
        },
    )
    player_result = shape(
        "name* seen*:seen maal*:int effective_maal*:int maal_points*:points fee*:points "
        "foul_penalty:points net*:points finisher:bool foul:bool breakdown*:breakdown[]",
        {"breakdown": breakdown},
    )
    settlement = props(
        "scoring:scoring finish:finish winner:text? n:n total_maal:int players:@PlayerResult[] "
        "payments:@Payment[] fouls_carried:text[]",
        {"scoring": {"enum": list(CHOICES["scoring"])}, "n": whole(MIN_PLAYERS, MAX_PLAYERS)},
    )
    resolved_rules = obj(
        {
            "profile": profile,
            **resolved_settings,
            "overrides": {
                "type": "object",
                "description": "In a match: the settings that differ from the profile.",
            },
        },
        ("profile",),
        description="Every setting as resolved.",
    )
    time = {
        "ended": {
            **TIME,
            "description": "When the table ended the match after its last hand "
            "(`finished: true`); null while it runs.",
        },
        "reopened": {**TIME, "description": "When such an end was last taken back."},
    }
    summary = props(
        "id name rules:rules length:@Length? hands_in_length:int1? first_dealer players:player[] "
        "hands_played:int0 next_dealer next_sitting_out:sitting finished:bool leaders:text[] "
        "standings:@Standing[] fouls_pending:text[] version:int1 next_hand_number:int1 "
        "stake:@Stake? created_at:time updated_at:time ended_at:ended reopened_at:reopened",
        {
            **time,
            "rules": {**ref("ResolvedRules"), "description": "Resolved, with `overrides`."},
            "player": shape("name* total*:points guest:guest"),
            "sitting": array(
                TEXT,
                description="Who sits out the next hand in turn when more play than a hand "
                "deals to: its dealer, then the seats after (the way the deal passes); [] when "
                "all fit or the match is finished. A default only.",
            ),
        },
    )
    summary_required = ("id", "name", "rules", "length", "players", "next_dealer", "finished")
    hand = obj(
        {
            **props("number:int1 dealer version:int1"),
            **settlement,
            **props(
                "tiplu:text? carried_penalties:totals sitting_out:text[] hand:@HandRead "
                "created_at:time updated_at:time"
            ),
        },
        ("number", "dealer", "version", "finish", "winner", "players", "payments", "hand"),
        description="A stored hand: per player the fields entered, then the engine's result.",
    )
    history_entry = shape(
        "version*:int1 action*:action dealer hand*:@HandRead nets*:totals saved_at:time "
        "replaced_at:time"
    )
    export_hand = {
        **hand_fields,
        "players": {
            **hand_fields["players"],
            "description": PLAYERS_TEXT + " Players of the match not listed sit out.",
        },
        "dealer": NAME,
        "nets": ignored("The hand's nets (an object of integers): it is settled again"),
    }

    def entries(where: str, *required: str) -> Schema:
        entry, times = ENTRIES[where]
        return array(obj({**entry.properties(), **export_hand, **times.properties()}, required))

    export = obj(
        {
            "format": {"const": EXPORT_FORMAT},
            "format_version": {"const": EXPORT_FORMAT_VERSION},
            "exported_at": ignored("When it was exported"),
            "id": ignored("The match's id in the ledger it came from"),
            **MATCH.properties(),
            **EXPORT.properties(),
            "hands": entries("hands", "number", "dealer", "finish", "players"),
            "history": entries("history", "hand", "version", "dealer", "finish", "players"),
            "totals": ignored("The totals after the last hand (an object of integers)"),
        },
        ("name", "players", "rules"),
        description="A whole match, as export.json gives it and the import takes it "
        "(times in the years 1970 to 9999).",
        examples=[EXPORT_EXAMPLE],
    )
    error = {
        "field": {
            "type": "string",
            "description": 'A dotted path into the request ("" for the request as a whole), '
            "like `players.2.maal_cards.0`.",
        },
        "message": {
            "type": "string",
            "description": "A sentence a person at the table can act on.",
        },
    }
    return {
        "Errors": obj({"errors": array(shape("field* message*", error), minItems=1)}, ("errors",)),
        "Length": {
            "oneOf": [
                obj({"hands": whole(1, 1000)}, ("hands",), additionalProperties=False),
                obj({"rotations": whole(1, 1000)}, ("rotations",), additionalProperties=False),
            ],
            "description": "A number of hands or of full dealer rotations.",
        },
        "RulesSpec": {
            "anyOf": [
                profile,
                obj(
                    {"profile": profile, **settings},
                    ("profile",),
                    additionalProperties=False,
                    description="A profile and single-setting overrides.",
                    # Every profile plays three packs: dublees_min_players above a
                    # three-pack hand's most players needs packs 4 given with it.
                    **{
                        "if": {"properties": {"packs": {"const": 4}}, "required": ["packs"]},
                        "else": {"properties": {"dublees_min_players": whole(0, HAND_PLAYERS[3])}},
                    },
                ),
            ]
        },
        "ResolvedRules": resolved_rules,
        "Stake": STAKE.schema(),
        "PlayerInput": player_input,
        "HandInput": obj(
            {
                **hand_fields,
                "dealer": NAME,
                "number": {
                    **whole(1, INTEGER_MAX),
                    "description": "The number the client believes it is adding: 409 when the "
                    "match's next hand has another.",
                },
                "version": {
                    **whole(1, INTEGER_MAX),
                    "description": "PUT only: the version loaded (409 when it changed).",
                },
            },
            ("players",),
            description="A hand in the settle format without rules (the match's rules apply); "
            "players of the match not listed sit out.",
            examples=[HAND_EXAMPLE],
        ),
        "SettleRequest": obj(
            {"rules": ref("RulesSpec"), **hand_fields},
            ("rules", "players"),
            examples=[SETTLE_EXAMPLE],
        ),
        "HandRead": hand_read,
        "PlayerResult": player_result,
        "Payment": shape("from* to* points*:int1"),
        "Settlement": obj(
            {"hand": ref("HandRead"), "rules": ref("ResolvedRules"), **settlement},
            ("hand", "rules", "scoring", "total_maal", "players", "payments"),
        ),
        "Standing": shape(
            "place*:int1 name* total*:points hands_played:int0 hands_finished:int0 "
            "times_seen:int0 best_hand:int? guest:guest"
        ),
        "NewMatch": {**MATCH.schema(), "examples": [MATCH_EXAMPLE]},
        "MatchChange": MATCH_CHANGE.schema(),
        "MatchSummary": obj(summary, summary_required),
        "Match": obj(
            {
                **summary,
                **props(
                    "hands:@Hand[] cumulative:step[]", {"step": shape("hand*:int1 totals*:totals")}
                ),
            },
            (*summary_required, "hands"),
        ),
        "CreatedMatch": {
            "allOf": [
                ref("Match"),
                shape(
                    "edit_key*:key",
                    {"key": {"type": "string", "description": "Shown once: keep it."}},
                ),
            ]
        },
        "Hand": hand,
        "HandWithHistory": {
            "allOf": [ref("Hand"), shape("history*:entry[]", {"entry": history_entry})]
        },
        "HandAnswer": {"allOf": [ref("Hand"), shape("totals*:totals match*:@MatchSummary")]},
        "Deleted": shape("deleted*:int1 totals*:totals match*:@MatchSummary"),
        "Export": export,
        "SettleUp": shape(
            "stake*:@Stake? balances*:balance[] transfers*:transfer[]",
            {
                "balance": shape(
                    "name* total*:points amount*:text? guest:guest pay_to:pay_to",
                    {
                        "pay_to": {
                            **nullable(ref("PayTo")),
                            "description": "A match's settle-up: how to pay this player, "
                            "as they set it (null outside a table).",
                        }
                    },
                ),
                "transfer": shape("from* to* points*:int1 amount*:text?"),
            },
        ),
        "RescoreRequest": obj(
            {"rules": ref("RulesSpec")},
            ("rules",),
            additionalProperties=False,
            examples=[{"rules": {"profile": "sparkai", "unseen_maal": "kidnap"}}],
        ),
        "Rescore": shape(
            "rules*:rules players*:players hands*:hands settle_up*:settle_up",
            {
                "rules": OTHER_RULES,
                "players": array(
                    shape("name* total*:points total_as_played*:points"),
                    description="In seat order.",
                ),
                "hands": array(
                    shape(
                        "number*:int1 rescored*:rescored why*:why players*:players "
                        "carried_penalties:totals carried_penalties_as_played:totals",
                        {
                            "rescored": {
                                "enum": ["full", "partly", "no"],
                                "description": "partly: a maal entered as one number is "
                                "kept as entered; no: the other rules refuse the hand, which "
                                "keeps its nets as played.",
                            },
                            "why": {**nullable(TEXT), "description": "For partly and no."},
                            "players": array(
                                shape("name* net*:points net_as_played*:points"),
                                description="The hand's players (the others sat out).",
                            ),
                        },
                    ),
                    description="In the order played.",
                ),
                "settle_up": {
                    **nullable(ref("SettleUp")),
                    "description": "Under the other rules; null when they are a points "
                    "race, or when the totals do not add up to 0 (a refused hand keeps its "
                    "nets as played).",
                },
            },
        ),
        "RulesList": shape(
            "profiles*:profile[] settings*:texts packs*:packs maal_counts*:texts",
            {
                "profile": shape(
                    "id*:id title* rules*:@ResolvedRules limits*:limits",
                    {"id": profile, "limits": LIMITS},
                ),
                "texts": {"type": "object", "additionalProperties": TEXT},
                "packs": obj(
                    {str(packs): LIMITS for packs in PACKS},
                    description="The limits of the default profile with 3 and with 4 packs.",
                ),
            },
        ),
    }


def declared(*types: type) -> dict[str, Schema]:
    """The components of answers declared as ``TypedDict``s (``ledger.matches.answers``)
    and of every class they use, by class name."""
    _, found = msgspec.json.schema_components(types, ref_template="#/components/schemas/{name}")
    return {name: {k: v for k, v in one.items() if k != "title"} for name, one in found.items()}


@cache
def document() -> Schema:
    """The whole OpenAPI document (built once: it only changes with the code)."""
    from ledger.api.openapi_paths import paths  # these build on this module
    from ledger.api.openapi_tables import table_schemas

    return {
        "openapi": "3.1.0",
        "info": {
            "title": "Marriage ledger API",
            "version": "1",
            "description": "Scorekeeping and settlement for the card game Marriage. Every body "
            "is JSON in UTF-8; errors come back as `Errors`. Writes to a match need its edit "
            "key as `Authorization: Bearer <edit key>` (no cookies, no CSRF token). Nothing "
            "is stored when a request fails. See docs/api.md.",
        },
        "tags": [
            {"name": "rules", "description": "House rules and the dispute checker."},
            {"name": "matches", "description": "Matches: create, read, export, import."},
            {"name": "hands", "description": "A match's hands."},
            {"name": "tables", "description": "Tables: the same people, many nights."},
            {"name": "people", "description": "Each player's own link; payments that close."},
            {"name": "meta", "description": "This description."},
        ],
        "paths": paths(),
        "components": {
            "schemas": {
                **schemas(),
                **table_schemas(),
                **declared(*answers.ANSWERS, *table_answers.ANSWERS, *people_answers.ANSWERS),
            },
            "responses": {
                f"E{code}": {
                    "description": text,
                    "content": {"application/json": {"schema": ref("Errors")}},
                    **(
                        {"headers": {"Retry-After": {"description": "Seconds.", "schema": TEXT}}}
                        if code in (429, 503)
                        else {}
                    ),
                }
                for code, text in ERROR_STATUSES.items()
            },
            "securitySchemes": {
                "editKey": {
                    "type": "http",
                    "scheme": "bearer",
                    "description": "The match's edit key, given once when it is created.",
                },
                "personKey": {
                    "type": "http",
                    "scheme": "bearer",
                    "description": "A player's own link's key, given with the table key.",
                },
            },
        },
    }


@bp.get("/openapi.json")
@described("meta", "", "200 json: OpenAPI 3.1")
def openapi_document() -> Response:
    """This document"""
    return jsonify(document())
