"""A match under other rules, storing nothing: "what if we had played kidnap?"
(docs/rules.md §8).

Each stored hand is read again from its input under the other rules and settled, as if
it had been entered under them; the hands are then folded into a scoreboard by the
engine's fold (``carry``, ``Scoreboard.rebuild``, as a match keeps its own) in the order
played, so that sit-outs stay as played and the foul penalties carried to a later hand
follow the rescored hands; a table's standings sum those scoreboards. Two kinds of hand are not
rescored in full:

- ``partly``: a player's maal was entered as one number, which cannot be counted again:
  it is kept as entered, and the rest of the hand is settled under the other rules;
- ``no``: the other rules refuse the hand (the engine says why): it keeps its nets as
  played.

One hand costs one read and one settle, so a thousand-hand match costs a thousand
settles (the engine's own speed) and no write.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from msgspec import Struct
from sqlalchemy import select

from ledger.engine import (
    FieldError,
    HandRecord,
    HouseRules,
    Invalid,
    SettleUp,
    Stake,
    parse_hand,
    resolve_rules,
    settle,
    settle_up,
)
from ledger.engine.errors import Tally
from ledger.engine.scoreboard import Carry, Scoreboard, carry, record_from_json
from ledger.extensions import db
from ledger.i18n import Msg
from ledger.matches import answers, fold
from ledger.matches.models import Hand, Match
from ledger.matches.view import settle_up_json, stake_of

FULL: answers.Rescored = "full"
PARTLY: answers.Rescored = "partly"
NO: answers.Rescored = "no"


class Reason(Struct, frozen=True):
    """Why a hand was rescored in part or not at all: a sentence (the engine's
    ``FieldError``, or a ``Msg``: both keep their template for a page to translate) and
    the player it concerns (None: the hand as a whole)."""

    message: FieldError | Msg
    who: str | None = None

    def __str__(self) -> str:
        text = self.message.message if isinstance(self.message, FieldError) else self.message
        return f"{self.who}: {text}" if self.who else str(text)


class StoredInput(Struct, frozen=True):
    """What a rescore needs of one stored hand: its input and its fold as played."""

    number: int
    dealer: str
    input: Mapping[str, Any]
    record: Mapping[str, Any]  # the hand's kept fold record (``scoreboard.record_json``)


class RescoredHand(Struct, frozen=True):
    number: int
    rescored: answers.Rescored
    reasons: tuple[Reason, ...]
    #: Per player of the hand: the net under the other rules, and as played.
    nets: Mapping[str, int]
    nets_as_played: Mapping[str, int]
    #: Foul penalties carried into this hand from an earlier one (no zeros).
    carried: Mapping[str, int]
    carried_as_played: Mapping[str, int]

    @property
    def why(self) -> str | None:
        """The reasons as one text (English, as the API gives it); None for a full rescore."""
        return " ".join(str(reason) for reason in self.reasons) or None

    def added(self, name: str) -> int:
        """What the hand adds to ``name``'s total under the other rules."""
        return self.nets.get(name, 0) + self.carried.get(name, 0)

    def added_as_played(self, name: str) -> int:
        """What the hand adds to ``name``'s total as played."""
        return self.nets_as_played.get(name, 0) + self.carried_as_played.get(name, 0)

    def change(self, name: str) -> int:
        """How much more (or less) the hand adds to ``name``'s total under the other rules."""
        return self.added(name) - self.added_as_played(name)

    def changes(self, players: Sequence[str]) -> dict[str, int]:
        """Each player's change (``change``), for the players whose total it changes."""
        return {name: delta for name in players if (delta := self.change(name))}

    def to_json(self) -> answers.RescoreHand:
        return {
            "number": self.number,
            "rescored": self.rescored,
            "why": self.why,
            "players": [
                {"name": name, "net": self.nets[name], "net_as_played": net}
                for name, net in self.nets_as_played.items()
            ],
            "carried_penalties": dict(self.carried),
            "carried_penalties_as_played": dict(self.carried_as_played),
        }


class Rescore(Struct, frozen=True):
    """A match's hands under other rules beside the hands as played."""

    rules: HouseRules
    players: tuple[str, ...]  # in seat order
    totals: Mapping[str, int]
    totals_as_played: Mapping[str, int]
    hands: tuple[RescoredHand, ...]  # in the order played
    #: The match's scoreboard under the other rules: what a table's standings sum.
    board: Scoreboard
    stake: Stake | None = None

    @property
    def changed(self) -> tuple[RescoredHand, ...]:
        """The hands whose moves differ under the other rules, in the order played."""
        return tuple(h for h in self.hands if h.changes(self.players))

    @property
    def not_in_full(self) -> tuple[RescoredHand, ...]:
        """The hands rescored in part or not at all, in the order played."""
        return tuple(h for h in self.hands if h.rescored != FULL)

    @property
    def settles(self) -> bool:
        """Whether the totals can be settled: the other rules are zero-sum and the totals
        sum to 0. A hand they refuse keeps its nets as played, which a points race does not
        sum to 0 (docs/rules.md §9): then there is no settle-up, and no failure."""
        return self.rules.zero_sum and sum(self.totals[n] for n in self.players) == 0

    def settle_up(self) -> SettleUp | None:
        """Who would pay whom under the other rules (None: they do not ``settle``)."""
        if not self.settles:
            return None
        return settle_up({name: self.totals[name] for name in self.players}, self.stake)

    def to_json(self) -> answers.Rescore:
        settled = self.settle_up()
        return {
            "rules": {**self.rules.to_json(), "overrides": self.rules.overrides()},
            "players": [
                {
                    "name": name,
                    "total": self.totals[name],
                    "total_as_played": self.totals_as_played[name],
                }
                for name in self.players
            ],
            "hands": [hand.to_json() for hand in self.hands],
            "settle_up": settle_up_json(settled) if settled is not None else None,
        }


def read_rescore_rules(data: Mapping[str, object]) -> HouseRules:
    """The other rules of a rescore's body, ``{"rules": profile id or {"profile": id,
    **overrides}}``; Invalid on the field (``rules``, ``rules.<setting>``)."""
    errors = [
        FieldError(str(key), "{key!r} is not part of a rescore; send only rules.", key=str(key))
        for key in data
        if key != "rules"
    ]
    try:
        rules = resolve_rules(data.get("rules"))
    except Invalid as problem:
        errors += problem.errors
    if errors:
        raise Invalid(errors)
    return rules


def stored_inputs(match_ids: Sequence[int]) -> dict[int, list[StoredInput]]:
    """The stored hands of these matches, by match id, each in the order played: one
    query for a whole season (a query per match cost more than its settles)."""
    found: dict[int, list[StoredInput]] = {match_id: [] for match_id in match_ids}
    rows = db.session.execute(
        select(Hand.match_id, Hand.number, Hand.dealer, Hand.input, Hand.record)
        .where(Hand.match_id.in_(match_ids))
        .order_by(Hand.match_id, Hand.number)
    )
    for match_id, number, dealer, data, record in rows:
        found[match_id].append(StoredInput(number, dealer, data, record))
    return found


def rescore_match(
    match: Match, rules: HouseRules, stored: Iterable[StoredInput] | None = None
) -> Rescore:
    """The match's stored hands under ``rules`` beside the match as played; stores nothing.
    A season's rescore calls it per match, with its hands read for the whole season
    (``stored_inputs``), and adds up ``totals`` and ``totals_as_played``."""
    kept = match.scoreboard is not None
    board = fold.scoreboard(match)  # fills in the fold records of a match stored before them
    if stored is None or not kept:  # hands read before that fill lack their records
        stored = stored_inputs([match.id])[match.id]
    return rescore_hands(
        tuple(match.player_names),
        rules,
        stored,
        totals_as_played=board.totals,
        stake=stake_of(match),
    )


def rescore_hands(
    players: Sequence[str],
    rules: HouseRules,
    stored: Iterable[StoredInput],
    *,
    totals_as_played: Mapping[str, int],
    stake: Stake | None = None,
) -> Rescore:
    """The hands ``stored`` (in the order played) under ``rules``, folded by the engine."""
    players = tuple(players)
    records: list[HandRecord] = []
    rescored: list[
        tuple[answers.Rescored, tuple[Reason, ...], Mapping[str, int], Mapping[str, int]]
    ] = []
    for kept in stored:
        played, carried_as_played = record_from_json(kept.number, kept.dealer, kept.record)
        record, how, reasons = _rescore_one(kept, played, rules)
        records.append(record)
        rescored.append((how, reasons, played.nets, carried_as_played.penalties))
    folded: list[tuple[HandRecord, Carry]] = []
    pending: tuple[str, ...] = ()
    for record in records:  # the engine's fold, as a match keeps it (docs/rules.md §3)
        carried = carry(pending, record, rules)
        folded.append((record, carried))
        pending = carried.pending
    board = Scoreboard.rebuild(players, folded)
    carries = [carried.penalties for _, carried in folded]
    hands = tuple(
        RescoredHand(
            number=record.number,
            rescored=how,
            reasons=reasons,
            nets=dict(record.nets),
            nets_as_played=dict(nets),
            carried=dict(penalties),
            carried_as_played=dict(carried),
        )
        for record, penalties, (how, reasons, nets, carried) in zip(
            records, carries, rescored, strict=True
        )
    )
    return Rescore(rules, players, board.totals, dict(totals_as_played), hands, board, stake)


def _rescore_one(
    kept: StoredInput, played: HandRecord, rules: HouseRules
) -> tuple[HandRecord, answers.Rescored, tuple[Reason, ...]]:
    """The hand's record under ``rules`` (as played when they refuse it), how it was
    rescored and why not in full."""
    try:
        hand = parse_hand(dict(kept.input), rules)
    except Invalid as refused:
        return played, NO, refusal(refused, kept.input)
    result = settle(hand, rules)
    record = HandRecord(
        number=kept.number,
        dealer=kept.dealer,
        winner=result.winner,
        nets=result.nets(),
        seen={p.name: p.seen for p in result.players},
        fouls_carried=result.fouls_carried,
        maal={p.name: p.maal for p in result.players},
        payments=tuple(result.payments),
    )
    numbers = Tally((p.name, p.maal) for p in hand.players if p.maal is not None)
    kept_numbers: tuple[Reason, ...] = ()
    if numbers:
        kept_numbers = (
            Reason(
                Msg(
                    "Maal entered as one number ({players}) is kept as entered: these rules "
                    "cannot count it again.",
                    players=numbers,
                )
            ),
        )
    return record, PARTLY if kept_numbers else FULL, kept_numbers


def refusal(refused: Invalid, data: Mapping[str, Any]) -> tuple[Reason, ...]:
    """The engine's reasons for refusing a stored hand's input ``data``, each with the
    player it concerns (``players.2.seen``: the third player of the input)."""
    names = [p.get("name") if isinstance(p, Mapping) else None for p in data.get("players", ())]
    return tuple(Reason(e, _whose(e.field, names)) for e in refused.errors)


def _whose(field: str, names: Sequence[object]) -> str | None:
    """The player a field of the hand's input concerns (``players.2.seen``: the third)."""
    parts = field.split(".")
    if len(parts) >= 2 and parts[0] == "players" and parts[1].isdigit():
        index = int(parts[1])
        name = names[index] if index < len(names) else None
        if isinstance(name, str):
            return name
    return None
