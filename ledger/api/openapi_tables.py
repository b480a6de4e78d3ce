"""The tables' and the people's schemas of the OpenAPI document (``ledger.api.openapi``
puts them in): a table, its figures and money, each player's own link and how to pay them
(docs/api.md, "People"), in the document's own helpers."""

from __future__ import annotations

from ledger.api.openapi import TEXT, Schema, array, declared, whole
from ledger.engine.declare import nullable, obj, ref
from ledger.engine.hand_body import NAME_SCHEMA
from ledger.tables.answers import Handle
from ledger.tables.export import (
    MAX_IMPORTED_MATCHES,
    MAX_IMPORTED_PAYMENTS,
    MAX_IMPORTED_SEASONS,
    PAYMENT_ENTRY,
    SEASON_ENTRY,
    TABLE_FORMAT,
    TABLE_FORMAT_VERSION,
)
from ledger.tables.people import MAX_HANDLES
from ledger.tables.reading import NEW_SEASON, PAYMENT, TABLE, TABLE_CHANGE

#: A night's guests (a new match of the table, a match of its export; null: none).
GUESTS = {
    **nullable(array(NAME_SCHEMA)),
    "description": "Players (also in `players`) who play this night without joining the "
    "roster; 422 on `guests` for a name not among the players.",
}


def table_schemas() -> dict[str, Schema]:
    """The tables' components and the people's."""
    return {
        "NewTable": TABLE.schema(),
        "TableChange": TABLE_CHANGE.schema(),
        "NewSeason": NEW_SEASON.schema(),
        "TableMatchRequest": {
            "description": "A new match (the body of POST /api/v1/matches; rules and stake "
            "default to the table's, and with no `length` it is open: a night; a guest on the "
            "roster is refused), or a match moved in with its own edit key.",
            "anyOf": [
                {"allOf": [ref("NewMatch"), obj({"guests": GUESTS})]},
                obj({"match": TEXT, "match_edit_key": TEXT}, ("match", "match_edit_key")),
            ],
        },
        "PlayerChange": {
            "anyOf": [
                obj({"name": NAME_SCHEMA}, ("name",), additionalProperties=False),
                obj({"merge_into": NAME_SCHEMA}, ("merge_into",), additionalProperties=False),
            ]
        },
        "NewPayment": PAYMENT.schema(),
        "TableExport": obj(
            {
                "format": {"const": TABLE_FORMAT},
                "format_version": {"const": TABLE_FORMAT_VERSION},
                # a new table's fields; its first season's name is its seasons' first
                **{key: schema for key, schema in TABLE.properties().items() if key != "season"},
                "seasons": array(
                    SEASON_ENTRY.schema(),
                    minItems=1,
                    maxItems=MAX_IMPORTED_SEASONS,
                ),
                "payments": array(
                    obj(
                        {
                            **PAYMENT.properties(),
                            "season": whole(0),
                            **PAYMENT_ENTRY.properties(),
                        },
                        ("from", "to", "amount", "season"),
                    ),
                    maxItems=MAX_IMPORTED_PAYMENTS,
                ),
                "matches": array(
                    {
                        "allOf": [
                            ref("Export"),
                            obj({"season": nullable(whole(0)), "guests": GUESTS}),
                        ]
                    },
                    maxItems=MAX_IMPORTED_MATCHES,
                ),
            },
            ("format", "name", "rules", "seasons"),
            description="The table, its seasons (the first is the table's first), "
            "payments and every match as in a match's export, with its `season` (an index) "
            "and its `guests` (players not on the roster).",
        ),
        **people_schemas(),
    }


def people_schemas() -> dict[str, Schema]:
    """The body of PUT /api/v1/me/handles: the handles as the answers give them back
    (``answers.Handle``: its kinds, bounds and texts said there once), no other
    key (``people.read_handles`` reads them)."""
    handle = {**declared(Handle)["Handle"], "additionalProperties": False}
    return {
        "Handles": obj(
            {"handles": array(handle, maxItems=MAX_HANDLES)},
            ("handles",),
            additionalProperties=False,
        ),
    }
