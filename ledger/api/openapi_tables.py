"""The tables' part of the OpenAPI document (``ledger.api.openapi`` puts it in): their
schemas and routes, in the document's own helpers."""

from __future__ import annotations

from ledger.api.openapi import (
    BODY_ERRORS,
    GUEST,
    IDEMPOTENCY_KEY,
    NAME,
    POINTS,
    PUBLIC_ID,
    REPLAYED,
    TEXT,
    TIME,
    TIME_READ,
    Schema,
    answer,
    array,
    json_body,
    nullable,
    obj,
    operation,
    ref,
    whole,
)
from ledger.engine.game import MAX_MATCH_NAME
from ledger.engine.player_figures import AWARDS, FORM_NIGHTS
from ledger.tables.export import (
    MAX_IMPORTED_MATCHES,
    MAX_IMPORTED_PAYMENTS,
    MAX_IMPORTED_SEASONS,
    TABLE_FORMAT,
)
from ledger.tables.reading import MAX_ROSTER, NEW_SEASON, PAYMENT, TABLE, TABLE_CHANGE

TABLE_ID = {
    **PUBLIC_ID,
    "description": "The table's unguessable id: whoever has it may read the table.",
}
PLAYER = {
    "name": "name",
    "in": "path",
    "required": True,
    "description": "A player on the roster (matched ignoring case).",
    "schema": {"type": "string", "minLength": 1, "maxLength": 200},
}
PAYMENT_KEY = {
    **IDEMPOTENCY_KEY,
    "description": "1 to 200 printable ASCII characters, per table: a repeat with the same "
    "key and body records nothing and answers the first answer again; the same key with "
    "another request: 422.",
}
ONCE = (
    "Done once per Idempotency-Key (as a hand is stored once); the key is kept as long "
    "as the payment it recorded."
)
PAYMENT_ID = {
    "name": "payment_id",
    "in": "path",
    "required": True,
    "description": "A payment's id.",
    "schema": whole(0),
}
SEASON = {
    "name": "season",
    "in": "query",
    "required": False,
    "description": "A season's id, or `all`; absent: the current season (422 for an id "
    "the table has no season with).",
    "schema": {"type": "string", "maxLength": 200},
}
MONEY = {
    "type": "string",
    "pattern": r"^-?[0-9]+\.[0-9]{2}$",
    "description": "Money as an exact decimal string with 2 places (never a float).",
}
TABLE_NAME = {**NAME, "maxLength": MAX_MATCH_NAME}


def table_schemas() -> dict[str, Schema]:
    rating = obj(
        {"mu": {"type": "number"}, "sigma": {"type": "number"}, "ordinal": {"type": "number"}},
        ("mu", "sigma", "ordinal"),
        description="OpenSkill Plackett-Luce; ordinal = mu − 3 sigma.",
    )
    season = obj(
        {"id": TEXT, "name": TEXT, "started_at": TIME, "current": {"type": "boolean"}},
        ("id", "name", "started_at", "current"),
    )
    line = obj(
        {
            "name": TEXT,
            "guest": GUEST,
            "matches": whole(0),
            "matches_won": whole(0),
            "hands": whole(0),
            "hands_won": whole(0),
            "seen_hands": whole(0),
            "maal": whole(0),
            "total": POINTS,
            "amount": nullable(MONEY),
            "rating": rating,
        },
        (
            "name",
            "matches",
            "matches_won",
            "hands",
            "hands_won",
            "seen_hands",
            "maal",
            "total",
            "amount",
            "rating",
        ),
    )
    pair = obj(
        {
            "a": TEXT,
            "b": TEXT,
            "a_guest": GUEST,
            "b_guest": GUEST,
            "matches": whole(1),
            "a_above": whole(0),
            "b_above": whole(0),
            "a_paid_b": whole(0),
            "b_paid_a": whole(0),
        },
        ("a", "b", "matches", "a_above", "b_above", "a_paid_b", "b_paid_a"),
    )
    table_match = obj(
        {
            "id": TEXT,
            "name": TEXT,
            "season": nullable(TEXT),
            "created_at": TIME,
            "finished": {"type": "boolean"},
            "hands_played": whole(0),
            "players": array(
                obj({"name": TEXT, "total": POINTS, "guest": GUEST}, ("name", "total"))
            ),
            "leaders": array(TEXT),
        },
        ("id", "name", "season", "created_at", "finished", "hands_played", "players"),
    )
    payment = obj(
        {
            "id": whole(1),
            "from": TEXT,
            "to": TEXT,
            "amount": MONEY,
            "currency": nullable(TEXT),
            "season": nullable(TEXT),
            "at": TIME,
            "recorded_at": TIME,
            "state": {"enum": ["unconfirmed", "pending", "confirmed", "rejected"]},
            "confirmed": {"type": "boolean"},
            "rejected": {"type": "boolean"},
            "recorded_by": {"enum": ["table", "payer"]},
            "deleted": {"type": "boolean", "description": "A confirmed payment taken back."},
            "deleted_at": TIME,
        },
        ("id", "from", "to", "amount", "at", "state", "confirmed", "rejected", "recorded_by"),
    )
    night = obj(
        {
            "match": TEXT,
            "name": TEXT,
            "date": TIME,
            "total": POINTS,
            "place": whole(1),
            "finished": {"type": "boolean"},
        },
        ("match", "name", "date", "total", "place"),
    )
    return {
        **stats_schemas(),
        "NewTable": TABLE.schema(),
        "TableChange": TABLE_CHANGE.schema(),
        "Season": season,
        "NewSeason": NEW_SEASON.schema(),
        "TableMatch": table_match,
        "Table": obj(
            {
                "id": TEXT,
                "name": TEXT,
                "rules": {"type": "object"},
                "stake": nullable(ref("Stake")),
                "players": array(obj({"name": TEXT}, ("name",))),
                "seasons": array(ref("Season")),
                "matches": {**array(ref("TableMatch")), "description": "Newest first."},
                "version": whole(1),
                "created_at": TIME,
            },
            ("id", "name", "rules", "stake", "players", "seasons", "matches"),
        ),
        "CreatedTable": {
            "allOf": [
                ref("Table"),
                obj({"edit_key": {"type": "string", "description": "Shown once."}}, ("edit_key",)),
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
                obj({"match": TEXT, "match_edit_key": TEXT}, ("match", "match_edit_key")),
            ],
        },
        "PlayerChange": {
            "anyOf": [
                obj({"name": NAME}, ("name",), additionalProperties=False),
                obj({"merge_into": NAME}, ("merge_into",), additionalProperties=False),
            ]
        },
        "Standings": obj(
            {
                "season": nullable(ref("Season")),
                "players": array(line),
                "head_to_head": array(pair),
            },
            ("season", "players", "head_to_head"),
        ),
        "PlayerRecord": obj(
            {
                "name": TEXT,
                "guest": GUEST,
                "season": nullable(ref("Season")),
                "figures": nullable(line),
                "all_time": nullable(line),
                "nights": array(night),
                "best_night": nullable(night),
                "worst_night": nullable(night),
                "head_to_head": array(
                    obj(
                        {
                            "other": TEXT,
                            "guest": GUEST,
                            "matches": whole(1),
                            "above": whole(0),
                            "below": whole(0),
                            "paid": whole(0),
                            "received": whole(0),
                        },
                        ("other", "matches", "above", "below", "paid", "received"),
                    )
                ),
                "rival": nullable(TEXT),
                "nemesis": nullable(TEXT),
                "rival_matches": whole(1),
            },
            ("name", "nights", "head_to_head", "rival", "nemesis"),
        ),
        "RatingHistory": obj(
            {
                "games": array(
                    obj(
                        {
                            "match": TEXT,
                            "name": TEXT,
                            "date": TIME,
                            "ratings": {"type": "object", "additionalProperties": rating},
                        },
                        ("match", "ratings"),
                    )
                )
            },
            ("games",),
        ),
        "TableSettleUp": obj(
            {
                "stake": nullable(ref("Stake")),
                "balances": array(
                    obj(
                        {
                            "name": TEXT,
                            "guest": GUEST,
                            "total": POINTS,
                            "amount": nullable(MONEY),
                            "won": nullable(MONEY),
                            "paid": nullable(MONEY),
                            "received": nullable(MONEY),
                            "pay_to": ref("PayTo"),
                        },
                        ("name", "total", "amount", "pay_to"),
                    )
                ),
                "transfers": array(
                    obj(
                        {
                            "from": TEXT,
                            "to": TEXT,
                            "points": nullable(whole(1)),
                            "amount": nullable(MONEY),
                        },
                        ("from", "to", "points", "amount"),
                    )
                ),
                "unconfirmed": array(whole(1), description="Counted, not yet confirmed."),
                "pending": array(whole(1), description="Recorded by the payer: not counted."),
            },
            ("stake", "balances", "transfers", "unconfirmed", "pending"),
        ),
        "NewPayment": PAYMENT.schema(),
        "TablePayment": payment,
        "TablePayments": obj({"payments": array(payment)}, ("payments",)),
        "NextDealer": obj({"next_dealer": nullable(TEXT)}, ("next_dealer",)),
        "SeasonRescore": obj(
            {
                "rules": {**ref("ResolvedRules"), "description": "The other rules, resolved."},
                "season": nullable(ref("Season")),
                "players": array(
                    obj(
                        {
                            "name": TEXT,
                            "matches": whole(1),
                            "total": POINTS,
                            "total_as_played": POINTS,
                            "matches_won": whole(0),
                            "matches_won_as_played": whole(0),
                        },
                        ("name", "matches", "total", "total_as_played"),
                    ),
                    description="By total under the other rules, highest first.",
                ),
                "matches": array(
                    obj(
                        {
                            "id": TEXT,
                            "name": TEXT,
                            "finished": {"type": "boolean"},
                            "hands": whole(0),
                            "hands_changed": whole(0),
                            "hands_partly": whole(0),
                            "hands_refused": whole(0),
                            "players": array(
                                obj(
                                    {"name": TEXT, "total": POINTS, "total_as_played": POINTS},
                                    ("name", "total", "total_as_played"),
                                )
                            ),
                        },
                        ("id", "name", "players"),
                    ),
                    description="The season's matches in play order.",
                ),
            },
            ("rules", "season", "players", "matches"),
        ),
        "TableExport": {
            "type": "object",
            "properties": {
                "format": {"const": TABLE_FORMAT},
                "name": TABLE_NAME,
                "players": array(NAME, maxItems=MAX_ROSTER, uniqueItems=True),
                "rules": ref("RulesSpec"),
                "stake": nullable(ref("Stake")),
                "seasons": array(
                    obj({"name": TABLE_NAME, "started_at": TIME_READ}, ("name",)),
                    minItems=1,
                    maxItems=MAX_IMPORTED_SEASONS,
                ),
                "payments": array({"type": "object"}, maxItems=MAX_IMPORTED_PAYMENTS),
                "matches": array({"type": "object"}, maxItems=MAX_IMPORTED_MATCHES),
            },
            "required": ["format", "name", "rules", "seasons"],
            "description": "The table, its seasons (the first is the table's first), "
            "payments and every match as in a match's export, with its `season` (an index) "
            "and its `guests` (players not on the roster).",
        },
    }


def stats_schemas() -> dict[str, Schema]:
    """A player's figures and the awards (a table's season, or one match)."""
    counts = (
        "hands",
        "hands_won",
        "seen_hands",
        "dublee_seen_hands",
        "unseen_hands",
        "fouls",
        "dublee_finishes",
    )
    hand = obj(
        {"match": TEXT, "number": whole(1), "net": POINTS},
        ("match", "number", "net"),
        description="A hand (its match's id and number) and the player's net in it.",
    )
    night = obj(
        {"match": TEXT, "total": POINTS},
        ("match", "total"),
        description="A match and the player's total in it.",
    )
    extremes = ("best_hand", "worst_hand", "best_night", "worst_night")
    figures = obj(
        {
            "name": TEXT,
            "guest": {"type": "boolean", "description": "Not on the table's roster."},
            "matches": whole(1),
            "total": POINTS,
            **{count: whole(0) for count in counts},
            "unseen_points": {**POINTS, "description": "Their nets summed over unseen hands."},
            "best_hand": nullable(hand),
            "worst_hand": nullable(hand),
            "best_night": nullable(night),
            "worst_night": nullable(night),
            "places": {
                "type": "object",
                "description": "Over the finished matches they played: place → how often.",
                "propertyNames": {"pattern": "^[1-9][0-9]*$"},
                "additionalProperties": whole(1),
            },
            "longest_winning_run": whole(0),
            "form": array(whole(1), maxItems=FORM_NIGHTS),
        },
        (
            "name",
            "guest",
            *counts,
            "unseen_points",
            *extremes,
            "places",
            "longest_winning_run",
            "form",
        ),
    )
    award = obj(
        {
            "award": {"type": "string", "enum": list(AWARDS)},
            "players": array(TEXT, minItems=1),
            "value": whole(1),
        },
        ("award", "players", "value"),
    )
    return {
        "PlayerFigures": figures,
        "Award": award,
        "Stats": obj(
            {
                "season": nullable(ref("Season")),
                "players": array(ref("PlayerFigures")),
                "awards": array(ref("Award")),
            },
            ("season", "players", "awards"),
        ),
    }


def table_paths() -> dict[str, Schema]:
    table = [TABLE_ID]
    read = (404, 422)
    write_errors = (400, 401, 403, 404, 413, 422, 429)  # 429: wrong keys
    location = {"Location": {"description": "The new table's address.", "schema": TEXT}}
    return {
        "/api/v1/tables": {
            "post": operation(
                "Create a table: a roster, the rules and stake of its matches",
                {201: answer("CreatedTable", "The table and its edit key.", location)},
                (*BODY_ERRORS, 429),
                tag="tables",
                body=json_body("NewTable"),
            )
        },
        "/api/v1/tables/import": {
            "post": operation(
                "Create a table from its export",
                {201: answer("CreatedTable", "The new table (new ids, new edit key).", location)},
                (*BODY_ERRORS, 429, 503),
                tag="tables",
                body=json_body("TableExport"),
            )
        },
        "/api/v1/tables/{public_id}": {
            "get": operation(
                "A table: roster, seasons, matches (newest first)",
                {200: answer("Table", "The table.")},
                (404,),
                tag="tables",
                parameters=table,
            ),
            "patch": operation(
                "Change a table's name, rules, stake, or add players to its roster",
                {200: answer("Table", "The table, changed.")},
                write_errors,
                tag="tables",
                parameters=table,
                body=json_body("TableChange"),
                write=True,
            ),
        },
        "/api/v1/tables/{public_id}/matches": {
            "post": operation(
                "A new match in the table, or a match moved in",
                {
                    201: answer("CreatedMatch", "The new match and its edit key."),
                    200: answer("Match", "The match moved in."),
                },
                write_errors,
                tag="tables",
                parameters=table,
                body=json_body("TableMatchRequest"),
                write=True,
            )
        },
        "/api/v1/tables/{public_id}/next-dealer": {
            "get": operation(
                "Who deals first if these players sit down again",
                {200: answer("NextDealer", "A name, or null: the first player deals.")},
                (404,),
                tag="tables",
                parameters=[
                    *table,
                    {
                        "name": "players",
                        "in": "query",
                        "required": False,
                        "description": "The names, comma-separated, in seat order.",
                        "schema": TEXT,
                    },
                ],
            )
        },
        "/api/v1/tables/{public_id}/players/{name}": {
            "get": operation(
                "A player's record: nights, figures, head-to-head, rival and nemesis",
                {200: answer("PlayerRecord", "The record.")},
                read,
                tag="tables",
                parameters=[*table, PLAYER, SEASON],
            ),
            "patch": operation(
                "Rename a player, or merge them into another, through every match and hand",
                {200: answer("Table", "The table, changed.")},
                write_errors,
                tag="tables",
                parameters=[*table, PLAYER],
                body=json_body("PlayerChange"),
                write=True,
            ),
        },
        "/api/v1/tables/{public_id}/seasons": {
            "post": operation(
                "Start a new season (the current one is kept, closed)",
                {201: answer("Season", "The new current season.")},
                write_errors,
                tag="tables",
                parameters=table,
                body=json_body("NewSeason"),
                write=True,
            )
        },
        "/api/v1/tables/{public_id}/standings": {
            "get": operation(
                "The standings of a season: figures, rating, head-to-head",
                {200: answer("Standings", "Players by total, highest first.")},
                read,
                tag="tables",
                parameters=[*table, SEASON],
            )
        },
        "/api/v1/tables/{public_id}/stats": {
            "get": operation(
                "Each player's figures over a season, and the season's awards",
                {200: answer("Stats", "A row per player with a hand; highest total first.")},
                read,
                tag="tables",
                parameters=[*table, SEASON],
                description="Computed from the stored hands: hands, seen, unseen and what "
                "they cost, fouls, dublee finishes, best and worst hand and night, places, "
                "the longest winning run, form; awards to the holders of the largest value.",
            )
        },
        "/api/v1/matches/{public_id}/stats": {
            "get": operation(
                "Tonight's figures of each player and tonight's awards",
                {200: answer("Stats", "As a table's stats, over this match alone.")},
                (404,),
                tag="matches",
                parameters=[PUBLIC_ID],
            )
        },
        "/api/v1/tables/{public_id}/rating-history": {
            "get": operation(
                "The ratings after each finished match of a season, in play order",
                {200: answer("RatingHistory", "A chart's points.")},
                read,
                tag="tables",
                parameters=[*table, SEASON],
            )
        },
        "/api/v1/tables/{public_id}/rescore": {
            "post": operation(
                "A season under other rules, beside it as played (stores nothing)",
                {200: answer("SeasonRescore", "Each player's totals, each match's changes.")},
                (*BODY_ERRORS, 404, 429),
                tag="tables",
                parameters=[*table, SEASON],
                body=json_body("RescoreRequest"),
                description="Needs no key. Each match of the season is rescored as "
                "`POST /api/v1/matches/{id}/rescore` does (docs/rules.md §8) and the "
                "totals are summed; a match is won by its highest totals once it is over.",
            )
        },
        "/api/v1/tables/{public_id}/settle-up": {
            "get": operation(
                "Money across nights: balances net of payments, the fewest transfers",
                {200: answer("TableSettleUp", "Balances and transfers.")},
                read,
                tag="tables",
                parameters=[*table, SEASON],
            )
        },
        "/api/v1/tables/{public_id}/payments": {
            "post": {
                **operation(
                    "Record money handed over (a table without a stake: 422)",
                    {201: answer("TablePayment", "The payment.", REPLAYED)},
                    write_errors,
                    tag="tables",
                    parameters=[*table, PAYMENT_KEY],
                    body=json_body("NewPayment"),
                    description="With the table key: unconfirmed, counted. With the payer's "
                    "own key: pending, counted once the payee confirms it (`from` must be "
                    "the payer: 403). " + ONCE,
                ),
                "security": [{"editKey": []}, {"personKey": []}],
            },
            "get": operation(
                "The payments recorded, rejected ones marked",
                {200: answer("TablePayments", "Oldest first.")},
                read,
                tag="tables",
                parameters=[
                    *table,
                    {**SEASON, "description": "A season's id; absent: all."},
                    {
                        "name": "deleted",
                        "in": "query",
                        "required": False,
                        "description": "`1`: with the kept records of deleted confirmed payments.",
                        "schema": {"enum": ["0", "1"]},
                    },
                ],
            ),
        },
        "/api/v1/tables/{public_id}/payments/{payment_id}": {
            "delete": {
                **operation(
                    "Take a payment back",
                    {204: {"description": "Taken back.", "headers": REPLAYED}},
                    (401, 403, 404, 409, 422, 429),
                    tag="tables",
                    parameters=[*table, PAYMENT_ID, PAYMENT_KEY],
                    description="Unconfirmed: the table key; pending: the table key or "
                    "the payer's own key; confirmed: the table key, and a record is kept "
                    "(`?deleted=1`); rejected: 409 (kept, marked). " + ONCE,
                ),
                "security": [{"editKey": []}, {"personKey": []}],
            }
        },
        "/api/v1/tables/{public_id}/export.json": {
            "get": operation(
                "The whole table as JSON (the import takes it back)",
                {200: answer("TableExport", "An attachment.")},
                (404,),
                tag="tables",
                parameters=table,
            )
        },
    }
