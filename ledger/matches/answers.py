"""The answers of the match API, declared once as ``TypedDict``s: the code that builds
each answer is typed to return it, so mypy holds that code to its keys and their types,
and the OpenAPI document's schemas are made from the same classes
(``msgspec.json.schema_components``: a class is a component of its name, its docstring
the description, a ``Meta`` its bounds and text). A key the answer may leave out is
``NotRequired``; every other key is always there.

The kinds below are the ones every answer shares (the tables' answers use them too).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Annotated, Any, Literal, NotRequired, TypedDict

from msgspec import Meta

from ledger.engine.declare import ref
from ledger.engine.game import FINISHES, MAX_PLAYERS, MIN_PLAYERS, SEEN
from ledger.engine.maal import ITEM_NOTES, NO_BONUS_REASONS
from ledger.engine.rules import CHOICES, PROFILES, HandLimits

#: Whole points: a total, a net, a fee.
Points = Annotated[int, Meta(description="Points (whole numbers; money is never a float).")]
Int0 = Annotated[int, Meta(ge=0)]
Int1 = Annotated[int, Meta(ge=1)]
#: A moment, in ISO 8601 with its offset; null when it is not known.
Time = Annotated[str, Meta(extra_json_schema={"format": "date-time"})] | None
Guest = Annotated[bool, Meta(description="A guest of the table: not on its roster.")]
Totals = dict[str, int]


def component(name: str, description: str | None = None) -> Meta:
    """A component the document writes by hand (a house-rules setting's schema is the
    engine's), referred to from a declared answer: ``Annotated[dict[str, Any], ...]``."""
    extra = {"description": description} if description else {}
    return Meta(extra_json_schema={**ref(name), **extra})


def one_of(choices: Iterable[str], description: str | None = None) -> Meta:
    """One of the engine's words (``SEEN``, ``FINISHES``...): the engine keeps them as
    tuples, so the document takes its enum from there and mypy sees a ``str``."""
    extra = {"description": description} if description else {}
    return Meta(extra_json_schema={"enum": list(choices), **extra})


#: What a hand's history keeps: "rename" is the hand as it was before a player was renamed
#: (``matches.membership``); its names are the ones it had then.
HISTORY_ACTIONS = ("edit", "delete", "rename")

Seen = Annotated[str, one_of(SEEN)]
Finish = Annotated[str, one_of(FINISHES)]
Texts = list[str]


# --- a settled hand ----------------------------------------------------------------------


class HandReadPlayer(TypedDict):
    """A player of the hand as read: their name and how they saw."""

    name: str
    seen: Seen


class HandRead(TypedDict):
    """A hand as the engine read it (names in their registered spelling)."""

    tiplu: str | None
    finish: Finish
    winner: str | None
    players: list[HandReadPlayer]


class PlayerResultPastTable(TypedDict):
    """A count past its table's last entry: that entry plus the step again for each
    further copy."""

    entries: Int1
    last: Int0
    step: int


class PlayerResultBreakdown(TypedDict):
    """One item of a player's maal: what it is, how many, and its points."""

    item: str
    count: NotRequired[int]
    cards: NotRequired[Texts]
    points: int
    kind: NotRequired[str]
    reason: NotRequired[
        Annotated[
            str,
            one_of(
                NO_BONUS_REASONS,
                "Why dealt tunnelas earn no bonus: the player's route, or a kind the rules "
                "never score (its cards then count as maal).",
            ),
        ]
    ]
    note: NotRequired[
        Annotated[
            str,
            one_of(
                ITEM_NOTES,
                "bonus_added: a dealt tunnela's bonus on top of its cards, which are counted "
                "in the items after it; marriages_entered: marriages entered as a count; "
                "no_maal_cards: a dealt tunnela of ordinary cards, which are no maal and "
                "listed in no other item; in_entered: a dealt tunnela's bonus inside a maal "
                "given as one number; rest_of_entered: that number's entered item, the "
                "number less that bonus.",
            ),
        ]
    ]
    past_table: NotRequired[PlayerResultPastTable]


class PlayerResult(TypedDict):
    """A player's result in a hand: maal, fee, penalty, net, and how the maal adds up."""

    name: str
    seen: Seen
    maal: int
    effective_maal: int
    maal_points: Points
    fee: Points
    foul_penalty: NotRequired[Points]
    net: Points
    finisher: NotRequired[bool]
    foul: NotRequired[bool]
    breakdown: list[PlayerResultBreakdown]


#: Who pays whom in a hand (``from`` is a keyword: the class is made by a call).
Payment = TypedDict("Payment", {"from": str, "to": str, "points": Int1})


class Settled(TypedDict):
    """What the engine's ``Settlement.to_json`` writes, as a stored hand gives it too (not
    a component: ``Settlement`` and ``Hand`` are made of it)."""

    scoring: Annotated[str, one_of(CHOICES["scoring"])]
    finish: Finish
    winner: str | None
    n: Annotated[int, Meta(ge=MIN_PLAYERS, le=MAX_PLAYERS)]
    total_maal: int
    players: list[PlayerResult]
    payments: list[Payment]
    fouls_carried: Texts


class Settlement(Settled):
    """POST /settle's answer: the hand as read, the rules resolved, then the result."""

    hand: HandRead
    rules: Annotated[dict[str, Any], component("ResolvedRules")]


class Hand(Settled):
    """A stored hand: per player the fields entered, then the engine's result."""

    number: Int1
    dealer: str
    version: Int1
    tiplu: str | None
    carried_penalties: Totals
    sitting_out: Texts
    hand: HandRead
    created_at: Time
    updated_at: Time


class HandWithHistoryEntry(TypedDict):
    """An earlier version of the hand: what was entered, the nets it had, when."""

    version: Int1
    action: Annotated[str, one_of(HISTORY_ACTIONS)]
    dealer: str
    hand: HandRead
    nets: Totals
    saved_at: Time
    replaced_at: Time


class HandWithHistory(Hand):
    """A stored hand with its earlier versions, oldest first."""

    history: list[HandWithHistoryEntry]


# --- a match -----------------------------------------------------------------------------


class Standing(TypedDict):
    """A player's place in the match, with their figures so far."""

    place: Int1
    name: str
    total: Points
    hands_played: Int0
    hands_finished: Int0
    times_seen: Int0
    best_hand: int | None
    guest: Guest


class MatchSummaryPlayer(TypedDict):
    """A player of the match, in seat order, with their total."""

    name: str
    total: Points
    guest: Guest


class MatchSummary(TypedDict):
    """A match without its hands: totals, dealer, standings."""

    id: str
    name: str
    rules: Annotated[dict[str, Any], component("ResolvedRules", "Resolved, with `overrides`.")]
    length: Annotated[dict[str, Any], component("Length")] | None
    hands_in_length: Int1 | None
    first_dealer: str
    stake: Annotated[dict[str, Any], component("Stake")] | None
    players: list[MatchSummaryPlayer]
    hands_played: Int0
    next_dealer: str
    next_sitting_out: Annotated[
        Texts,
        Meta(
            description="Who sits out the next hand in turn when more play than a hand deals "
            "to: its dealer, then the seats after (the way the deal passes); [] when all fit "
            "or the match is finished. A default only."
        ),
    ]
    finished: bool
    ended_at: Annotated[
        Time,
        Meta(
            description="When the table ended the match after its last hand "
            "(`finished: true`); null while it runs."
        ),
    ]
    reopened_at: Annotated[Time, Meta(description="When such an end was last taken back.")]
    leaders: Texts
    standings: list[Standing]
    fouls_pending: Texts
    version: Int1
    next_hand_number: Int1
    created_at: Time
    updated_at: Time


class MatchCumulative(TypedDict):
    """Each player's total after a hand (for the chart)."""

    hand: Int1
    totals: Totals


class MatchPlace(TypedDict):
    """Where a match in a table is played; a lone match has neither key (a base of
    ``Match``: no component of its own)."""

    table: NotRequired[
        Annotated[str, Meta(description="The id of the table the match is played in.")]
    ]
    season: NotRequired[
        Annotated[str | None, Meta(description="The id of its season in that table.")]
    ]


class MatchHead(MatchSummary, MatchPlace):
    """A match but its hands, which ``match_json`` writes in from the JSON each hand keeps
    (a base of ``Match``: no component of its own)."""

    cumulative: list[MatchCumulative]


class Match(MatchHead):
    """A match with its hands and each player's total after each hand."""

    hands: list[Hand]


class CreatedMatch(Match):
    """A match just created or imported, with its edit key."""

    edit_key: Annotated[str, Meta(description="Shown once: keep it.")]


class HandAnswer(Hand):
    """A hand just written, with the match's totals and the match without its hands."""

    totals: Totals
    match: MatchSummary


class Deleted(TypedDict):
    """A hand deleted: its number, the match's totals and the match without its hands."""

    deleted: Int1
    totals: Totals
    match: MatchSummary


# --- the settle-up and a rescore ---------------------------------------------------------


class SettleUpBalance(TypedDict):
    """A player's balance: points, and money at the stake (null without one)."""

    name: str
    total: Points
    amount: str | None
    guest: NotRequired[Guest]
    # The tables' ``PayTo``, declared above this layer: a Mapping, which it is one of.
    pay_to: NotRequired[
        Annotated[
            Annotated[Mapping[str, Any], component("PayTo")] | None,
            Meta(
                description="A match's settle-up: how to pay this player, as they set it "
                "(null outside a table)."
            ),
        ]
    ]


#: A payment that settles the table (``from`` is a keyword: the class is made by a call).
SettleUpTransfer = TypedDict(
    "SettleUpTransfer", {"from": str, "to": str, "points": Int1, "amount": str | None}
)


class SettleUp(TypedDict):
    """Each player's balance and the fewest payments that settle the table."""

    stake: Annotated[dict[str, Any], component("Stake")] | None
    balances: list[SettleUpBalance]
    transfers: list[SettleUpTransfer]


class RescorePlayer(TypedDict):
    """A player's total under the other rules and as played."""

    name: str
    total: Points
    total_as_played: Points


class RescoreHandPlayer(TypedDict):
    """A player's net in the hand under the other rules and as played."""

    name: str
    net: Points
    net_as_played: Points


#: How a hand was rescored (docs/rules.md §8).
Rescored = Literal["full", "partly", "no"]


class RescoreHand(TypedDict):
    """A hand under the other rules: how far it was rescored, and why not in full."""

    number: Int1
    rescored: Annotated[
        Rescored,
        Meta(
            description="partly: a maal entered as one number is kept as entered; no: the "
            "other rules refuse the hand, which keeps its nets as played."
        ),
    ]
    why: Annotated[str | None, Meta(description="For partly and no.")]
    players: Annotated[
        list[RescoreHandPlayer], Meta(description="The hand's players (the others sat out).")
    ]
    carried_penalties: Totals
    carried_penalties_as_played: Totals


class Rescore(TypedDict):
    """A match's hands under other rules beside the hands as played; nothing stored."""

    rules: Annotated[dict[str, Any], component("ResolvedRules", "The other rules, resolved.")]
    players: Annotated[list[RescorePlayer], Meta(description="In seat order.")]
    hands: Annotated[list[RescoreHand], Meta(description="In the order played.")]
    settle_up: Annotated[
        SettleUp | None,
        Meta(
            description="Under the other rules; null when they are a points race, or when "
            "the totals do not add up to 0 (a refused hand keeps its nets as played)."
        ),
    ]


# --- a problem ---------------------------------------------------------------------------


class ErrorsEntry(TypedDict):
    """One problem: the field it is on, and what to do."""

    field: Annotated[
        str,
        Meta(
            description='A dotted path into the request ("" for the request as a whole), '
            "like `players.2.maal_cards.0`."
        ),
    ]
    message: Annotated[str, Meta(description="A sentence a person at the table can act on.")]


class Errors(TypedDict):
    """Every problem found in a request; nothing was stored."""

    errors: Annotated[list[ErrorsEntry], Meta(min_length=1)]


# --- the rules ------------------------------------------------------------------------


class RulesProfile(TypedDict):
    """A published profile: its values and what a hand may hold under them."""

    id: Annotated[str, one_of(PROFILES, "A house-rules profile.")]
    title: str
    rules: Annotated[dict[str, Any], component("ResolvedRules")]
    limits: HandLimits


class RulesList(TypedDict):
    """Every profile's values and what each setting means."""

    profiles: list[RulesProfile]
    settings: dict[str, str]
    packs: Annotated[
        dict[str, HandLimits],
        Meta(description="The limits of the default profile with 3 and with 4 packs."),
    ]
    maal_counts: dict[str, str]


#: The answers that are components of the document (a class they use is one too).
ANSWERS: tuple[type, ...] = (
    RulesList,
    Settlement,
    Match,
    CreatedMatch,
    Hand,
    HandWithHistory,
    HandAnswer,
    Deleted,
    SettleUp,
    Rescore,
    Errors,
)
