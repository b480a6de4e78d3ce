"""GET /api/v1/openapi.json: the API as OpenAPI 3.1, each part made from what the code
declares: the request bodies from their declarations (``ledger.engine.declare``), the
answers from the TypedDicts their builders return (``ledger.matches.answers``), the
house-rules settings from the engine's kinds, the operations from the routes
(``ledger.api.openapi_paths``). tests/api/test_openapi.py keeps it true: every route is
in it, it validates, and a Schemathesis run finds no answer that breaks it."""

from __future__ import annotations

from functools import cache
from typing import Any

import msgspec
from flask import Response, jsonify

from ledger.api import bp
from ledger.api.operations import described
from ledger.engine import PROFILES, hand_body
from ledger.engine.declare import Whole, obj, ref
from ledger.engine.game import HAND_PLAYERS
from ledger.engine.hand_body import NAME_SCHEMA, PLAYERS_TEXT
from ledger.engine.rules import SETTING_HELP, SETTING_KINDS
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


def whole(least: int, most: int | None = None) -> Schema:
    """A whole number from ``least`` (to ``most``), as a declared field's."""
    return Whole(least, most).schema()


TEXT = {"type": "string"}


def ignored(what: str) -> Schema:
    """A field of an export that an import does not read: any value."""
    return {"description": f"{what}; ignored on import, whatever it holds."}


def _setting_schema(name: str, *, resolved: bool = False) -> Schema:
    """The JSON value of one house-rules setting, as the engine declares it."""
    return {**SETTING_KINDS[name].schema(resolved), "description": SETTING_HELP.get(name, "")}


SETTINGS = [name for name in PROFILES["amarnepal"].to_json() if name != "profile"]


def schemas() -> dict[str, Schema]:
    """The document's components: every body the API takes or gives."""
    profile = {"enum": list(PROFILES), "description": "A house-rules profile."}
    settings = {name: _setting_schema(name) for name in SETTINGS}
    resolved_settings = {name: _setting_schema(name, resolved=True) for name in SETTINGS}
    # The hand's bodies as declared (looked up in their module when the document is made:
    # tests/api/test_openapi_derived.py adds a field to a throwaway declaration).
    player_input = hand_body.PLAYER.schema()
    hand_fields = hand_body.HAND.properties()
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
    export_hand = {
        **hand_fields,
        "players": {
            **hand_fields["players"],
            "description": PLAYERS_TEXT + " Players of the match not listed sit out.",
        },
        "dealer": NAME_SCHEMA,
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
    return {
        "Length": {
            "oneOf": [
                obj({"hands": whole(1, 1000)}, ("hands",), additionalProperties=False),
                obj(
                    {"rotations": whole(1, 1000)},
                    ("rotations",),
                    additionalProperties=False,
                ),
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
                "dealer": NAME_SCHEMA,
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
        "NewMatch": {**MATCH.schema(), "examples": [MATCH_EXAMPLE]},
        "MatchChange": MATCH_CHANGE.schema(),
        "Export": export,
        "RescoreRequest": obj(
            {"rules": ref("RulesSpec")},
            ("rules",),
            additionalProperties=False,
            examples=[{"rules": {"profile": "sparkai", "unseen_maal": "kidnap"}}],
        ),
    }


def declared(*types: type) -> dict[str, Schema]:
    """The components of answers declared as ``TypedDict``s (``ledger.matches.answers``)
    and of every class they use, by class name (a docstring's lines one paragraph)."""
    _, found = msgspec.json.schema_components(types, ref_template="#/components/schemas/{name}")
    for one in found.values():
        del one["title"]
        if "description" in one:
            one["description"] = " ".join(one["description"].split())
    return found


@cache
def components() -> Schema:
    """The document's components: every body, the error answers, the keys (no app
    needed: a test validates a body against them alone)."""
    from ledger.api.openapi_tables import table_schemas  # it builds on this module

    return {
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
    }


@cache
def document() -> Schema:
    """The whole OpenAPI document, its paths read off the app's routes (built once: it
    only changes with the code)."""
    from ledger.api.openapi_paths import paths  # it builds on this module

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
        "components": components(),
    }


@bp.get("/openapi.json")
@described("meta", "", "200 json: OpenAPI 3.1")
def openapi_document() -> Response:
    """This document"""
    return jsonify(document())
