"""The answers of the tables' API (a table, its seasons, standings, records and money),
declared as ``ledger.matches.answers`` says: ``TypedDict``s that the code building each
answer returns and the OpenAPI document's schemas are made from.

A part of an answer that has no name of its own is named after it (``StandingsLine``,
``TableSettleUpTransfer``): every class is a component of the one document, and no two
may share a name. A key that is a Python word (``from``) is declared in a base of the
functional form (``Between``), which makes no component of its own.
"""

from __future__ import annotations

from typing import Annotated, Any, NotRequired, TypedDict

from msgspec import Meta

from ledger.matches.answers import Guest, Int0, Int1, Points, Time, component
from ledger.tables.models import (
    BY_PAYER,
    BY_TABLE,
    CONFIRMED,
    MAX_QR_TEXT,
    PENDING,
    REJECTED,
    UNCONFIRMED,
)
from ledger.tables.people import MAX_HANDLE, MAX_LABEL, HandleKind

PRINTABLE = "printable: control, invisible and direction characters are refused (422 on the field)"
#: Money as the tables write it: an exact decimal string, never a float.
Money = Annotated[
    str,
    Meta(
        pattern=r"^-?[0-9]+\.[0-9]{2}$",
        description="Money as an exact decimal string with 2 places (never a float).",
    ),
]
QrText = Annotated[str, Meta(max_length=MAX_QR_TEXT)]
#: The table's stake, as the request's ``Stake`` (the engine's ``Stake.to_json``); null without one.
TableStake = Annotated[dict[str, Any], component("Stake")] | None
#: Payments by their ids.
PaymentIds = list[Int1]
#: Who paid whom.
Between = TypedDict("Between", {"from": str, "to": str})


class Season(TypedDict):
    """A season of a table: its matches and payments are counted together."""

    id: str
    name: str
    started_at: Time
    current: bool


class TableMatchPlayer(TypedDict):
    """A player of the match and their total."""

    name: str
    total: Points
    guest: Guest


class TableMatch(TypedDict):
    """A match in its table's list."""

    id: str
    name: str
    season: str | None
    created_at: Time
    finished: bool
    hands_played: Int0
    players: list[TableMatchPlayer]
    leaders: list[str]


class TableRosterPlayer(TypedDict):
    """A player on the table's roster."""

    name: str


class Table(TypedDict):
    """A table: the same people, many nights."""

    id: str
    name: str
    rules: dict[str, Any]
    stake: TableStake
    players: list[TableRosterPlayer]
    seasons: list[Season]
    matches: Annotated[list[TableMatch], Meta(description="Newest first.")]
    version: Int1
    created_at: Time


class CreatedTable(Table):
    """A new table, with its edit key."""

    edit_key: Annotated[str, Meta(description="Shown once.")]


class StandingsRating(TypedDict):
    """OpenSkill Plackett-Luce; ordinal = mu − 3 sigma."""

    mu: float
    sigma: float
    ordinal: float


class StandingsLine(TypedDict):
    """A player's line of the standings: sums over the season's matches."""

    name: str
    guest: Guest
    matches: Int0
    matches_won: Int0
    hands: Int0
    hands_won: Int0
    seen_hands: Int0
    maal: Int0
    total: Points
    amount: Money | None
    rating: StandingsRating


class StandingsPair(TypedDict):
    """Two players who played a match together (`a` before `b` on the roster)."""

    a: str
    b: str
    a_guest: Guest
    b_guest: Guest
    matches: Int1
    a_above: Int0
    b_above: Int0
    a_paid_b: Int0
    b_paid_a: Int0


class Standings(TypedDict):
    """A season's standings (or all time's): highest total first, and the head-to-head."""

    season: Season | None
    players: list[StandingsLine]
    head_to_head: list[StandingsPair]


class PlayerRecordNight(TypedDict):
    """A night the player played: its match, their total and place."""

    match: str
    name: str
    date: Time
    total: Points
    place: Int1
    finished: bool
    points_race: bool


class PlayerRecordVersus(TypedDict):
    """The player's head-to-head with another player."""

    other: str
    guest: Guest
    matches: Int1
    above: Int0
    below: Int0
    paid: Int0
    received: Int0


class PlayerRecord(TypedDict):
    """One player's record over a season (or all time)."""

    name: str
    guest: Guest
    season: Season | None
    figures: StandingsLine | None
    all_time: StandingsLine | None
    nights: list[PlayerRecordNight]
    best_night: PlayerRecordNight | None
    worst_night: PlayerRecordNight | None
    head_to_head: list[PlayerRecordVersus]
    rival: str | None
    nemesis: str | None
    rival_matches: Int1


class RatingHistoryGame(TypedDict):
    """The ratings after a finished match."""

    match: str
    name: str
    date: Time
    ratings: dict[str, StandingsRating]


class RatingHistory(TypedDict):
    """The rating after each finished match of the season, in play order."""

    games: list[RatingHistoryGame]


class Handle(TypedDict):
    """One way to pay a player: a wallet or a bank and their id there."""

    kind: HandleKind
    handle: Annotated[
        str,
        Meta(
            min_length=1,
            max_length=MAX_HANDLE,
            description=f"The wallet's id, number or account; {PRINTABLE}.",
        ),
    ]
    label: NotRequired[Annotated[str, Meta(max_length=MAX_LABEL, description=PRINTABLE)]]


class PayTo(TypedDict):
    """How to pay this player, as they set it with their own link."""

    handles: list[Handle]
    qr: QrText | None
    set_at: Time


class TableSettleUpBalance(TypedDict):
    """A player's balance over the season's matches counted for money."""

    name: str
    guest: Guest
    total: Points
    amount: Money | None
    won: Money | None
    paid: Money
    received: Money
    pay_to: PayTo | None


class TableSettleUpTransfer(Between):
    """One of the fewest transfers that settle every balance."""

    points: Int1 | None
    amount: Money | None


class TableSettleUp(TypedDict):
    """Money across nights: each balance and the fewest transfers that settle them."""

    stake: TableStake
    balances: list[TableSettleUpBalance]
    transfers: list[TableSettleUpTransfer]
    unconfirmed: Annotated[PaymentIds, Meta(description="Counted, not yet confirmed.")]
    pending: Annotated[PaymentIds, Meta(description="Recorded by the payer: not counted.")]


class TablePayment(Between):
    """A payment between two players of the table."""

    id: Int1
    amount: Money
    currency: Annotated[
        str | None,
        Meta(
            description="The currency the money was handed over in: the table's stake's "
            "when it was recorded, kept when the table later drops its stake, moved with "
            "the matches when the table's currency is put right. Null only for a payment "
            "recorded before payments kept theirs, in a table that had no stake when the "
            "ledger was upgraded."
        ),
    ]
    season: str | None
    at: Time
    recorded_at: Time
    # the model's states, as its column holds them
    state: Annotated[
        str, Meta(extra_json_schema={"enum": [UNCONFIRMED, PENDING, CONFIRMED, REJECTED]})
    ]
    confirmed: bool
    rejected: bool
    recorded_by: Annotated[str, Meta(extra_json_schema={"enum": [BY_TABLE, BY_PAYER]})]
    deleted: Annotated[bool, Meta(description="A confirmed payment taken back.")]
    deleted_at: Time


class TablePayments(TypedDict):
    """A table's payments."""

    payments: list[TablePayment]


class NextDealer(TypedDict):
    """Who deals first if the players sit down again (null: the first player)."""

    next_dealer: str | None


class SeasonRescoreLine(StandingsLine):
    """A standings line under the other rules, with the total and matches won as played."""

    total_as_played: Points
    matches_won_as_played: Int0


class SeasonRescoreMatchPlayer(TypedDict):
    """A player of the match: their total under the other rules and as played."""

    name: str
    total: Points
    total_as_played: Points


class SeasonRescoreMatch(TypedDict):
    """A match of the season under the other rules."""

    id: str
    name: str
    finished: bool
    points_race: bool
    hands: Int0
    hands_changed: Int0
    hands_partly: Int0
    hands_refused: Int0
    players: list[SeasonRescoreMatchPlayer]


class SeasonRescore(TypedDict):
    """A season's standings under other rules, beside them as played."""

    rules: Annotated[dict[str, Any], component("ResolvedRules", "The other rules, resolved.")]
    season: Season | None
    players: Annotated[
        list[SeasonRescoreLine],
        Meta(
            description="The standings' lines under the other rules, by total highest "
            "first, each with its total and matches won as played."
        ),
    ]
    head_to_head: list[StandingsPair]
    matches: Annotated[
        list[SeasonRescoreMatch], Meta(description="The season's matches in play order.")
    ]


#: The answers that are components of the document (a class they use is one too).
ANSWERS: tuple[type, ...] = (
    PayTo,
    Season,
    Table,
    CreatedTable,
    Standings,
    PlayerRecord,
    RatingHistory,
    TableSettleUp,
    TablePayment,
    TablePayments,
    NextDealer,
    SeasonRescore,
)
