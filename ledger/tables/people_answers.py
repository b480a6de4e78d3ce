"""The answers of a player's figures and of the people's API (own links, how to pay a
player), declared as ``ledger.matches.answers`` says: ``TypedDict``s that the code
building each answer returns and the OpenAPI document's schemas are made from."""

from __future__ import annotations

from typing import Annotated, TypedDict

from msgspec import Meta

from ledger.engine.player_figures import FORM_NIGHTS, AwardName
from ledger.matches.answers import Int0, Int1, Points
from ledger.tables.answers import (
    Handle,
    Money,
    QrText,
    Season,
    TablePayment,
    TableSettleUpTransfer,
)

# --- a player's figures ---------------------------------------------------------------


class PlayerFiguresHand(TypedDict):
    """A hand (its match's id and number) and the player's net in it."""

    match: str
    number: Int1
    net: Points


class PlayerFiguresNight(TypedDict):
    """A match and the player's total in it."""

    match: str
    total: Points


class PlayerFigures(TypedDict):
    """One player's figures over a season or a match (docs/tables.md, "A player's
    figures")."""

    name: str
    matches: Int1
    total: Points
    hands: Int0
    hands_won: Int0
    seen_hands: Int0
    dublee_seen_hands: Int0
    unseen_hands: Int0
    unseen_points: Annotated[
        int, Meta(description="Their nets summed over the unseen hands whose points count.")
    ]
    unseen_points_hands: Int0
    fouls: Int0
    dublee_finishes: Int0
    best_hand: PlayerFiguresHand | None
    worst_hand: PlayerFiguresHand | None
    best_night: PlayerFiguresNight | None
    worst_night: PlayerFiguresNight | None
    places: Annotated[
        dict[Annotated[str, Meta(pattern="^[1-9][0-9]*$")], Int1],
        Meta(description="Over the finished matches they played: place → how often."),
    ]
    longest_winning_run: Int0
    form: Annotated[list[Int1], Meta(max_length=FORM_NIGHTS)]
    guest: Annotated[bool, Meta(description="Not on the table's roster.")]


class Award(TypedDict):
    """An award of the period and every player holding its largest value."""

    award: AwardName
    players: Annotated[list[str], Meta(min_length=1)]
    value: Int1


class Stats(TypedDict):
    """The figures of a table's season or of one match, and their awards."""

    season: Season | None
    players: list[PlayerFigures]
    awards: list[Award]


# --- the people's API -----------------------------------------------------------------


class PersonLink(TypedDict):
    """A player's own link, as the table key gives it or its holder renews it."""

    person_key: Annotated[str, Meta(description="Shown once; stored hashed.")]
    url: Annotated[str, Meta(description="The link to hand over.")]


class Qr(TypedDict):
    """What the player's wallet QR code says, as kept."""

    qr: QrText


class MeTable(TypedDict):
    """The table the player's link is of."""

    id: str
    name: str


class MeNight(TypedDict):
    """A night of the current season the player played."""

    match: str
    name: str
    total: int
    place: Int1
    points_race: bool


class MeEarlierSeason(TypedDict):
    """An earlier season of the table."""

    id: str
    name: str


class MeEarlier(TypedDict):
    """An earlier season in which the player still owes or is owed."""

    season: MeEarlierSeason
    balance: Money
    transfers: list[TableSettleUpTransfer]


class Me(TypedDict):
    """What the holder of a player's own link sees: their money in the current season,
    the transfers and payments that name them, what is still owed from earlier seasons,
    how to pay them, and their nights."""

    table: MeTable
    name: str
    currency: str | None
    balance: Money | None
    transfers: list[TableSettleUpTransfer]
    payments: list[TablePayment]
    handles: list[Handle]
    qr: QrText | None
    nights: list[MeNight]
    earlier: list[MeEarlier]


#: The answers that are components of the document (a class they use is one too).
ANSWERS: tuple[type, ...] = (Stats, PersonLink, Me, Qr)
