"""Everything a page or the API shows of a match, from what the engine's fold kept.

The match keeps its ``engine.Scoreboard`` (totals, standings, the fouls waiting, the
last dealer) and each hand its fold record (the penalties carried into it, the fouls
waiting after it): ``build_match_view`` puts them together with the hands it is given,
all of them or the newest few, so a page costs the same at the thousandth hand as at
the tenth. Nothing is added up here: the engine's ``running_totals`` gives the totals
after each hand, for the chart.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from datetime import datetime
from typing import Any, NamedTuple, cast

from msgspec import Struct

from ledger.engine import (
    HandRecord,
    HouseRules,
    MatchLength,
    MatchState,
    SettleUp,
    Stake,
    Standing,
    settle_up,
)
from ledger.engine.match import hands_in_length, is_finished, sitting_out_in_turn
from ledger.engine.rules import parse_length
from ledger.engine.scoreboard import Scoreboard, record_from_json
from ledger.matches import answers
from ledger.matches.models import Hand, HandVersion, Match
from ledger.matches.players_kept import seating
from ledger.matches.reading import rules_from_record


class HandRow(NamedTuple):
    """A stored hand as a page reads it: its columns, not an ORM entity (a dozen entities
    with their identity and change tracking cost a match page more than its queries)."""

    number: int
    dealer: str
    version: int
    input: dict[str, Any]
    result: dict[str, Any]
    record: dict[str, Any] | None
    created_at: datetime | None
    updated_at: datetime | None
    moves: str | None


#: The columns of a ``HandRow``, in its order, for a ``select``.
HAND_ROW_COLUMNS = tuple(getattr(Hand, name) for name in HandRow._fields)

#: A hand given to ``build_match_view``: read as a row, or the entity a write holds.
ShownHand = Hand | HandRow


def iso(moment: datetime | None) -> str | None:
    """A stored moment (aware, UTC: ``models.UTCDateTime``) as ISO 8601: ``...Z``."""
    return moment.isoformat().replace("+00:00", "Z") if moment is not None else None


class HandView(Struct, frozen=True):
    """One stored hand: the input as entered, the engine's result, and its place in the match."""

    number: int
    dealer: str
    version: int
    input: dict[str, Any]  # engine Hand.to_json()
    result: dict[str, Any]  # engine Settlement.to_json(), without the rules
    sitting_out: tuple[str, ...]
    #: Foul penalties from an earlier hand settled in this one (name -> points), RULES §3.
    carried_penalties: dict[str, int]
    created_at: datetime | None
    updated_at: datetime | None

    @property
    def finish(self) -> str:
        finish: str = self.result["finish"]
        return finish

    @property
    def winner(self) -> str | None:
        winner: str | None = self.result["winner"]
        return winner

    @property
    def nets(self) -> dict[str, int]:
        """The nets the hand agreed, per player of the hand (the engine's numbers)."""
        return {p["name"]: p["net"] for p in self.result["players"]}

    def players(self) -> list[dict[str, Any]]:
        """Per player of the hand: the fields entered, then the engine's result fields.

        ``maal`` is the player's count as the engine computed it, whichever way it was
        entered; the input exactly as entered is in ``input`` (``"hand"`` in JSON).
        """
        return [
            {**entered, **settled}
            for entered, settled in zip(self.input["players"], self.result["players"], strict=True)
        ]

    def in_seats(self, players: Sequence[str]) -> list[tuple[str, dict[str, Any] | None]]:
        """Each of ``players`` in turn with their row of the result (None: sat it out)."""
        rows = {row["name"]: row for row in self.result["players"]}
        return [(name, rows.get(name)) for name in players]

    def settlement(self, rules: HouseRules) -> dict[str, Any]:
        """The stored hand settled, as ``engine.settlement_json`` gives a fresh one (the
        match's rules go back in: they are stored once, with the match)."""
        return {"hand": self.input, **self.result, "rules": rules.to_json()}

    def to_json(self) -> answers.Hand:
        result = self.result
        return {
            "number": self.number,
            "dealer": self.dealer,
            "version": self.version,
            "finish": result["finish"],
            "winner": result["winner"],
            "tiplu": self.input.get("tiplu"),
            "scoring": result["scoring"],
            "n": result["n"],
            "total_maal": result["total_maal"],
            # The engine's JSON as stored (its ``to_json``): its keys are unseen by mypy.
            "players": cast(list[answers.PlayerResult], self.players()),
            "payments": result["payments"],
            "fouls_carried": result.get("fouls_carried", []),
            "carried_penalties": self.carried_penalties,
            "sitting_out": list(self.sitting_out),
            "hand": cast(answers.HandRead, self.input),
            "created_at": iso(self.created_at),
            "updated_at": iso(self.updated_at),
        }


class MatchView(Struct, frozen=True):
    """A match with every figure a page or the API needs (see ``build_match_view``)."""

    public_id: str
    name: str
    rules: HouseRules
    length: MatchLength | None
    first_dealer: str
    players: tuple[str, ...]
    hands: tuple[HandView, ...]
    state: MatchState
    version: int
    #: The number the next hand will get (numbers of deleted hands are not reused).
    next_hand_number: int
    created_at: datetime | None
    updated_at: datetime | None
    #: Money per point and its currency; None: played for points only.
    stake: Stake | None = None
    #: (number, the players' totals after it, in seat order) for every hand of the match,
    #: shown or not; empty when the view was built without them (a write's answer).
    running: tuple[tuple[int, tuple[int, ...]], ...] = ()
    #: When the first and the last hand were played (None, None: no hand yet).
    played: tuple[datetime | None, datetime | None] = (None, None)
    #: The table the match is played in (its row id), or None for a lone match.
    table_id: int | None = None
    #: When the table ended the match after its last hand ("End the night"; None: it was
    #: not ended so) and when such an end was last taken back.
    ended_at: datetime | None = None
    reopened_at: datetime | None = None
    #: The players who play the match as guests of its table (``ledger.tables.guests``).
    guests: frozenset[str] = frozenset()

    @property
    def totals(self) -> dict[str, int]:
        return self.state.totals

    @property
    def next_dealer(self) -> str:
        return self.state.next_dealer

    @property
    def finished(self) -> bool:
        return self.state.finished

    @property
    def leaders(self) -> list[str]:
        return self.state.leaders

    @property
    def standings(self) -> tuple[Standing, ...]:
        return self.state.standings

    @property
    def next_sitting_out(self) -> list[str]:
        """Who sits out the next hand in turn (its dealer, then the seats after, as many
        as must: ``engine.match.sitting_out_in_turn``); nobody once the match is over."""
        if self.finished:
            return []
        return sitting_out_in_turn(
            self.players, self.next_dealer, self.rules.max_players, self.rules.deal_passes
        )

    @property
    def length_reached(self) -> bool:
        """Whether the hands of its length are played (an ended match may be reopened
        only when not: a length reached is changed to play on)."""
        return is_finished(self.length, self.state.hands_played, len(self.players))

    @property
    def hands_in_length(self) -> int | None:
        """How many hands the length asks for (None: an open match)."""
        return hands_in_length(self.length, len(self.players))

    @property
    def has_settle_up(self) -> bool:
        """Whether the players pay each other: only in a zero-sum match; in a points race
        each keeps their own points."""
        return self.rules.zero_sum

    def settle_up(self) -> SettleUp | None:
        """Each player's balance (points, money at the stake) and the fewest payments that
        settle the table as the totals stand now (the engine's); None in a points race."""
        if not self.has_settle_up:
            return None
        return settle_up({name: self.totals[name] for name in self.players}, self.stake)

    def hand(self, number: int) -> HandView | None:
        return next((h for h in self.hands if h.number == number), None)

    @property
    def older_hands(self) -> int:
        """How many hands are played but not in ``hands`` (a view of the newest few)."""
        return self.state.hands_played - len(self.hands)

    def cumulative(self) -> list[answers.MatchCumulative]:
        """Each player's total after each hand, in hand order (for the chart)."""
        assert len(self.running) == self.state.hands_played, "a view built without them"
        players = self.players
        return [
            {"hand": number, "totals": dict(zip(players, totals, strict=True))}
            for number, totals in self.running
        ]

    def settle_up_json(self) -> answers.SettleUp | None:
        """``settle_up`` as the API gives it: each balance marked ``guest``."""
        result = self.settle_up()
        if result is None:
            return None
        body = settle_up_json(result)
        balances = body["balances"]
        return {
            **body,
            "balances": [{**row, "guest": row["name"] in self.guests} for row in balances],
        }

    def standing_json(self, standing: Standing) -> answers.Standing:
        """A player's standing as the API gives it, marked ``guest`` as every player row."""
        return {
            "place": standing.place,
            "name": standing.name,
            "total": standing.total,
            "hands_played": standing.hands_played,
            "hands_finished": standing.hands_finished,
            "times_seen": standing.times_seen,
            "best_hand": standing.best_hand,
            "guest": standing.name in self.guests,
        }

    def rules_json(self) -> dict[str, Any]:
        return {**self.rules.to_json(), "overrides": self.rules.overrides()}

    def summary_json(self) -> answers.MatchSummary:
        """The match without its hands: totals, dealer, standings."""
        return {
            "id": self.public_id,
            "name": self.name,
            "rules": self.rules_json(),
            "length": self.length.to_json() if self.length else None,
            "hands_in_length": self.hands_in_length,
            "first_dealer": self.first_dealer,
            "stake": self.stake.to_json() if self.stake else None,
            "players": [
                {"name": name, "total": self.totals[name], "guest": name in self.guests}
                for name in self.players
            ],
            "hands_played": self.state.hands_played,
            "next_dealer": self.next_dealer,
            "next_sitting_out": self.next_sitting_out,
            "finished": self.finished,
            "ended_at": iso(self.ended_at),
            "reopened_at": iso(self.reopened_at),
            "leaders": self.leaders,
            "standings": [self.standing_json(s) for s in self.standings],
            "fouls_pending": list(self.state.fouls_pending),
            "version": self.version,
            "next_hand_number": self.next_hand_number,
            "created_at": iso(self.created_at),
            "updated_at": iso(self.updated_at),
        }

    def hand_answer(self, number: int) -> answers.HandAnswer:
        """What the API answers a write of hand ``number``: the hand and its result, the
        match totals and the match without its hands."""
        hand = self.hand(number)
        assert hand is not None
        return {**hand.to_json(), "totals": self.totals, "match": self.summary_json()}

    def head_json(self, place: answers.MatchPlace) -> answers.MatchHead:
        """The match's JSON but its hands, in the table ``place`` says (``{}``: none)."""
        return {**self.summary_json(), **place, "cumulative": self.cumulative()}

    def to_json(self) -> answers.Match:
        """A lone match's JSON, decoding its hands (``match_json`` writes them from the
        JSON each hand keeps)."""
        return {**self.head_json({}), "hands": [hand.to_json() for hand in self.hands]}


def hand_record(number: int, dealer: str, result: dict[str, Any]) -> HandRecord:
    """What the match's fold needs of a settled hand: its agreed nets, not a recount."""
    players = result["players"]
    return HandRecord(
        number=number,
        dealer=dealer,
        winner=result["winner"],
        nets={p["name"]: p["net"] for p in players},
        seen={p["name"]: p["seen"] for p in players},
        fouls_carried=tuple(result.get("fouls_carried", ())),
        maal={p["name"]: p["maal"] for p in players},
        payments=tuple((p["from"], p["to"], p["points"]) for p in result["payments"]),
    )


def hand_view(hand: ShownHand, players: tuple[str, ...]) -> HandView:
    """A stored hand (its fold record kept) as the pages and the API show it."""
    assert hand.record is not None  # every write keeps it; fold fills an older match first
    _, carried = record_from_json(hand.number, hand.dealer, hand.record)
    return HandView(
        number=hand.number,
        dealer=hand.dealer,
        version=hand.version,
        input=hand.input,
        result=hand.result,
        sitting_out=tuple(p for p in players if p not in record_names(hand)),
        carried_penalties=dict(carried.penalties),
        created_at=hand.created_at,
        updated_at=hand.updated_at,
    )


def json_text(value: object) -> str:
    """JSON text, compact, keys sorted: as the match's JSON and its kept hands are written."""
    return json.dumps(value, sort_keys=True, separators=(",", ":"))


def hand_fragment(view: HandView) -> str:
    """The hand's JSON as the match's JSON carries it (kept with the hand)."""
    return json_text(view.to_json())


def build_match_view(
    match: Match,
    board: Scoreboard,
    hands: Sequence[ShownHand | HandView],
    running: Sequence[tuple[int, tuple[int, ...]]] = (),
    played: tuple[datetime | None, datetime | None] | None = None,
) -> MatchView:
    """The match from its kept scoreboard, showing ``hands`` (all of them, or some; each
    with its fold record, or its view as kept: ``hands_kept``) and, when given, the
    totals after every hand and when the first and last hand were played (else: as far
    as ``hands`` tell)."""
    seated = seating(match)
    players = seated.names
    rules = rules_from_record(match.rules)
    length = parse_length(match.length, "length")
    views = tuple(
        h if isinstance(h, HandView) else hand_view(h, players)
        for h in sorted(hands, key=lambda h: h.number)
    )
    after = dict(running)
    state = board.state(
        match.first_dealer,
        rules,
        length,
        carried_penalties={v.number: v.carried_penalties for v in views if v.carried_penalties},
        cumulative=[dict(zip(players, after[v.number], strict=True)) for v in views]
        if after
        else [],
        ended=match.ended_at is not None,
    )
    return MatchView(
        public_id=match.public_id,
        name=match.name,
        rules=rules,
        length=length,
        first_dealer=match.first_dealer,
        players=players,
        hands=views,
        state=state,
        version=match.version,
        next_hand_number=match.last_hand_number + 1,
        created_at=match.created_at,
        updated_at=match.updated_at,
        stake=stake_of(match),
        table_id=match.table_id,
        running=tuple(running),
        played=played or _played(hands),
        ended_at=match.ended_at,
        reopened_at=match.reopened_at,
        guests=seated.guests,
    )


def _played(hands: Sequence[ShownHand | HandView]) -> tuple[datetime | None, datetime | None]:
    moments = [h.created_at for h in hands if h.created_at is not None]
    return (min(moments), max(moments)) if moments else (None, None)


def stake_of(match: Match) -> Stake | None:
    """The stored stake as the engine's ``Stake`` (None: points only)."""
    if match.stake_per_point is None or match.stake_currency is None:
        return None
    return Stake(match.stake_per_point, match.stake_currency)


def record_names(hand: ShownHand) -> set[str]:
    return {p["name"] for p in hand.result["players"]}


def history_json(old: HandVersion) -> answers.HandWithHistoryEntry:
    """An earlier version of a hand: what was entered, the nets it had, when."""
    return {
        "version": old.version,
        "action": old.action,
        "dealer": old.dealer,
        "hand": cast(answers.HandRead, old.input),  # the engine's ``Hand.to_json``, stored
        "nets": {p["name"]: p["net"] for p in old.result["players"]},
        "saved_at": iso(old.saved_at),
        "replaced_at": iso(old.replaced_at),
    }


def settle_up_json(result: SettleUp) -> answers.SettleUp:
    """The engine's settle-up as the API gives it (a match's, a rescore's)."""
    # The engine is pure Python, without the answers' declarations: its ``to_json`` is a
    # ``dict[str, object]`` that mypy cannot hold to ``answers.SettleUp``.
    return cast(answers.SettleUp, result.to_json())
