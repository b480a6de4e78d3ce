"""The tables' part of the OpenAPI document (``ledger.api.openapi`` puts it in): their
schemas and routes, in the document's own helpers."""

from __future__ import annotations

from ledger.api.openapi import (
    GUEST,
    NAME,
    POINTS,
    TEXT,
    TIME,
    TIME_READ,
    Schema,
    array,
    nullable,
    obj,
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
