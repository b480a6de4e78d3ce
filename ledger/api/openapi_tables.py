"""The tables' and the people's schemas of the OpenAPI document (``ledger.api.openapi``
puts them in): a table, its figures and money, each player's own link and how to pay them
(docs/api.md, "People"), in the document's own helpers."""

from __future__ import annotations

from ledger.api.openapi import (
    NAME,
    OTHER_RULES,
    TEXT,
    Schema,
    array,
    declared,
    shape,
    whole,
)
from ledger.engine.declare import nullable, obj, ref
from ledger.tables.export import (
    MAX_IMPORTED_MATCHES,
    MAX_IMPORTED_PAYMENTS,
    MAX_IMPORTED_SEASONS,
    PAYMENT_ENTRY,
    SEASON_ENTRY,
    TABLE_FORMAT,
)
from ledger.tables.people import MAX_HANDLES
from ledger.tables.people_answers import Handle
from ledger.tables.reading import NEW_SEASON, PAYMENT, TABLE, TABLE_CHANGE

MONEY = {
    "type": "string",
    "pattern": r"^-?[0-9]+\.[0-9]{2}$",
    "description": "Money as an exact decimal string with 2 places (never a float).",
}
#: The kinds of the tables' fields (``shape``'s words).
KINDS: dict[str, Schema] = {
    "money": MONEY,
    "object": {"type": "object"},
    "rating": shape(
        "mu*:num sigma*:num ordinal*:num",
        description="OpenSkill Plackett-Luce; ordinal = mu − 3 sigma.",
    ),
    "season": nullable(ref("Season")),
    "played": shape("name* total*:points guest:guest"),
    "totals_then": shape("name* total*:points total_as_played*:points"),
}
KINDS["line"] = shape(
    "name* guest:guest matches*:int0 matches_won*:int0 hands*:int0 hands_won*:int0 "
    "seen_hands*:int0 maal*:int0 total*:points amount*:money? rating*",
    KINDS,
)
KINDS["pair"] = shape(
    "a* b* a_guest:guest b_guest:guest matches*:int1 a_above*:int0 b_above*:int0 "
    "a_paid_b*:int0 b_paid_a*:int0"
)
KINDS["night"] = shape(
    "match* name* date*:time total*:points place*:int1 finished:bool points_race:bool",
)
KINDS["payment"] = shape(
    "id*:int1 from* to* amount*:money currency season:text? at*:time recorded_at:time "
    "state*:state confirmed*:bool rejected*:bool recorded_by*:by deleted deleted_at:time",
    {
        **KINDS,
        "state": {"enum": ["unconfirmed", "pending", "confirmed", "rejected"]},
        "by": {"enum": ["table", "payer"]},
        "deleted": {"type": "boolean", "description": "A confirmed payment taken back."},
        "currency": nullable(TEXT)
        | {
            "description": "The currency the money was handed over in: the table's stake's "
            "when it was recorded, kept when the table later drops its stake, moved with "
            "the matches when the table's currency is put right. Null only for a payment "
            "recorded before payments kept theirs, in a table that had no stake when the "
            "ledger was upgraded."
        },
    },
)


def table_schemas() -> dict[str, Schema]:
    """The tables' components and the people's."""
    return {
        "NewTable": TABLE.schema(),
        "TableChange": TABLE_CHANGE.schema(),
        "NewSeason": NEW_SEASON.schema(),
        "TableMatch": shape(
            "id* name* season*:text? created_at*:time finished*:bool hands_played*:int0 "
            "players*:played[] leaders:text[]",
            KINDS,
        ),
        "Table": shape(
            "id* name* rules*:object stake*:@Stake? players*:roster[] seasons*:@Season[] "
            "matches*:matches version:int1 created_at:time",
            {
                **KINDS,
                "roster": shape("name*"),
                "matches": {**array(ref("TableMatch")), "description": "Newest first."},
            },
        ),
        "CreatedTable": {
            "allOf": [
                ref("Table"),
                shape("edit_key*:key", {"key": {"type": "string", "description": "Shown once."}}),
            ]
        },
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
        "Standings": shape("season*:season players*:line[] head_to_head*:pair[]", KINDS),
        "PlayerRecord": shape(
            "name* guest:guest season:season figures:line? all_time:line? nights*:night[] "
            "best_night:night? worst_night:night? head_to_head*:versus[] rival*:text? "
            "nemesis*:text? rival_matches:int1",
            {
                **KINDS,
                "versus": shape(
                    "other* guest:guest matches*:int1 above*:int0 below*:int0 paid*:int0 "
                    "received*:int0"
                ),
            },
        ),
        "RatingHistory": shape(
            "games*:game[]",
            {
                "game": shape(
                    "match* name date:time ratings*",
                    {"ratings": {"type": "object", "additionalProperties": KINDS["rating"]}},
                )
            },
        ),
        "TableSettleUp": shape(
            "stake*:@Stake? balances*:balance[] transfers*:transfer[] unconfirmed* pending*",
            {
                "balance": shape(
                    "name* guest:guest total*:points amount*:money? won:money? paid:money? "
                    "received:money? pay_to*:@PayTo?",
                    KINDS,
                ),
                "transfer": shape("from* to* points*:int1? amount*:money?", KINDS),
                "unconfirmed": array(whole(1), description="Counted, not yet confirmed."),
                "pending": array(whole(1), description="Recorded by the payer: not counted."),
            },
        ),
        "NewPayment": PAYMENT.schema(),
        "TablePayment": KINDS["payment"],
        "TablePayments": shape("payments*:payment[]", KINDS),
        "NextDealer": shape("next_dealer*:text?"),
        "SeasonRescore": shape(
            "rules* season*:season players* head_to_head*:pair[] matches*",
            {
                **KINDS,
                "rules": OTHER_RULES,
                "players": array(
                    {
                        "allOf": [
                            KINDS["line"],
                            shape("total_as_played*:points matches_won_as_played*:int0", KINDS),
                        ]
                    },
                    description="The standings' lines under the other rules, by total "
                    "highest first, each with its total and matches won as played.",
                ),
                "matches": array(
                    shape(
                        "id* name* finished:bool points_race:bool hands:int0 hands_changed:int0 "
                        "hands_partly:int0 hands_refused:int0 players*:totals_then[]",
                        KINDS,
                    ),
                    description="The season's matches in play order.",
                ),
            },
        ),
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


def people_schemas() -> dict[str, Schema]:
    """The body of PUT /api/v1/me/handles: the handles as the answers give them back
    (``people_answers.Handle``: its kinds, bounds and texts said there once), no other
    key (``people.read_handles`` reads them)."""
    handle = {**declared(Handle)["Handle"], "additionalProperties": False}
    return {
        "Handles": obj(
            {"handles": array(handle, maxItems=MAX_HANDLES)},
            ("handles",),
            additionalProperties=False,
        ),
    }
