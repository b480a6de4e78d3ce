"""The tables' and the people's schemas of the OpenAPI document (``ledger.api.openapi``
puts them in): a table, its figures and money, each player's own link and how to pay them
(docs/api.md, "People"), in the document's own helpers."""

from __future__ import annotations

from ledger.api.openapi import (
    NAME,
    POINTS,
    TEXT,
    Schema,
    array,
    shape,
    whole,
)
from ledger.engine.declare import nullable, obj, ref
from ledger.engine.player_figures import AWARDS, FORM_NIGHTS
from ledger.tables.export import (
    MAX_IMPORTED_MATCHES,
    MAX_IMPORTED_PAYMENTS,
    MAX_IMPORTED_SEASONS,
    PAYMENT_ENTRY,
    SEASON_ENTRY,
    TABLE_FORMAT,
)
from ledger.tables.models import MAX_QR_TEXT
from ledger.tables.people import HANDLE_KINDS, MAX_HANDLE, MAX_HANDLES, MAX_LABEL
from ledger.tables.reading import NEW_SEASON, PAYMENT, TABLE, TABLE_CHANGE

MONEY = {
    "type": "string",
    "pattern": r"^-?[0-9]+\.[0-9]{2}$",
    "description": "Money as an exact decimal string with 2 places (never a float).",
}
PRINTABLE = "printable: control, invisible and direction characters are refused (422 on the field)"
#: The kinds of the tables' fields (``shape``'s words).
KINDS: dict[str, Schema] = {
    "money": MONEY,
    "qr": nullable({"type": "string", "maxLength": MAX_QR_TEXT}),
}


def table_schemas() -> dict[str, Schema]:
    """The tables' components, the stats and the people's."""
    return {
        **stats_schemas(),
        "NewTable": TABLE.schema(),
        "TableChange": TABLE_CHANGE.schema(),
        "NewSeason": NEW_SEASON.schema(),
        "TableMatchRequest": {
            "description": "A new match (the body of POST /api/v1/matches; rules and stake "
            "default to the table's), or a match moved in with its own edit key.",
            "anyOf": [
                {
                    "allOf": [
                        ref("NewMatch"),
                        obj(
                            {
                                "guests": {
                                    **array(NAME),
                                    "description": "Players (also in `players`) who play "
                                    "this night without joining the roster; 422 on `guests` "
                                    "for a name not among the players or on the roster. With "
                                    "no `length` the match is open (a night).",
                                }
                            }
                        ),
                    ]
                },
                shape("match* match_edit_key*"),
            ],
        },
        "PlayerChange": {
            "anyOf": [
                obj({"name": NAME}, ("name",), additionalProperties=False),
                obj({"merge_into": NAME}, ("merge_into",), additionalProperties=False),
            ]
        },
        "NewPayment": PAYMENT.schema(),
        "TableExport": obj(
            {
                "format": {"const": TABLE_FORMAT},
                # a new table's fields; its first season's name is its seasons' first
                **{key: schema for key, schema in TABLE.properties().items() if key != "season"},
                "seasons": array(
                    SEASON_ENTRY.schema(),
                    minItems=1,
                    maxItems=MAX_IMPORTED_SEASONS,
                ),
                "payments": array(
                    obj(
                        {**PAYMENT.properties(), "season": whole(0), **PAYMENT_ENTRY.properties()},
                        ("from", "to", "amount", "season"),
                    ),
                    maxItems=MAX_IMPORTED_PAYMENTS,
                ),
                "matches": array(
                    {"allOf": [ref("Export"), obj({"season": nullable(whole(0))})]},
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


def stats_schemas() -> dict[str, Schema]:
    """A player's figures and the awards (a table's season, or one match)."""
    where: dict[str, Schema] = {
        "member": {"type": "boolean", "description": "Not on the table's roster."},
        "unseen_points": {
            **POINTS,
            "description": "Their nets summed over the unseen hands whose points count.",
        },
        "hand": shape(
            "match* number*:int1 net*:points",
            description="A hand (its match's id and number) and the player's net in it.",
        ),
        "night": shape("match* total*:points", description="A match and the player's total in it."),
        "places": {
            "type": "object",
            "description": "Over the finished matches they played: place → how often.",
            "propertyNames": {"pattern": "^[1-9][0-9]*$"},
            "additionalProperties": whole(1),
        },
        "form": array(whole(1), maxItems=FORM_NIGHTS),
        "award": {"type": "string", "enum": list(AWARDS)},
        "players": array(TEXT, minItems=1),
    }
    return {
        "PlayerFigures": shape(
            "name* guest*:member matches:int1 total:points hands*:int0 hands_won*:int0 "
            "seen_hands*:int0 dublee_seen_hands*:int0 unseen_hands*:int0 fouls*:int0 "
            "dublee_finishes*:int0 unseen_points* unseen_points_hands*:int0 "
            "best_hand*:hand? worst_hand*:hand? best_night*:night? worst_night*:night? "
            "places* longest_winning_run*:int0 form*",
            where,
        ),
        "Award": shape("award* players* value*:int1", where),
        "Stats": shape("season*:@Season? players*:@PlayerFigures[] awards*:@Award[]"),
    }


def people_schemas() -> dict[str, Schema]:
    """Each player's own link, how to pay them."""
    where: dict[str, Schema] = {
        **KINDS,
        "kind": {"enum": list(HANDLE_KINDS)},
        "handle": {
            "type": "string",
            "minLength": 1,
            "maxLength": MAX_HANDLE,
            "description": f"The wallet's id, number or account; {PRINTABLE}.",
        },
        "label": {"type": "string", "maxLength": MAX_LABEL, "description": PRINTABLE},
        "person_key": {"type": "string", "description": "Shown once; stored hashed."},
        "url": {"type": "string", "description": "The link to hand over."},
        "table": shape("id* name*"),
        "transfer": shape("from* to* amount:money?", KINDS),
        "night": shape("match* name* total*:int place*:int1 points_race:bool"),
        "season_ref": shape("id* name*"),
    }
    where["season_owed"] = shape(
        "season*:season_ref balance*:money? transfers*:transfer[]",
        where,
        description="An earlier season in which the player still owes or is owed.",
    )
    return {
        "Handles": obj(
            {
                "handles": array(
                    shape("kind* handle* label", where, additionalProperties=False),
                    maxItems=MAX_HANDLES,
                )
            },
            ("handles",),
            additionalProperties=False,
        ),
        "PersonLink": shape("person_key* url*", where),
        "Me": shape(
            "table* name* currency:text? balance*:money? transfers*:transfer[] "
            "payments*:@TablePayment[] handles*:@Handle[] qr* nights*:night[] "
            "earlier*:season_owed[]",
            where,
        ),
        "Qr": shape("qr*:qr_text", {"qr_text": {"type": "string", "maxLength": MAX_QR_TEXT}}),
    }
