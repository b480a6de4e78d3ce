"""A table's figures over a season: standings, head-to-head, rating, money.

Everything here is a sum over the figures each match keeps with it (its scoreboard:
per player the total, hands played, won and seen, maal, and the points paid between
each pair, kept by the same write that folds a hand): a season of 50 matches of 100
hands is 50 small rows, never 5,000 hands. The engine reads the kept scoreboards
(``Scoreboard.from_json``, its standings and places) and settles the money
(``settle_up``); the rating is OpenSkill's Plackett-Luce over the finished matches in
the order they were played, cached by what it is computed from.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Sequence
from datetime import datetime
from decimal import Context, Decimal, Inexact, localcontext
from functools import cached_property, lru_cache
from typing import TYPE_CHECKING, Any

from msgspec import Struct, field
from msgspec.structs import replace

from ledger.engine import HouseRules, Stake, amount_text, settle_up
from ledger.engine.match import is_finished, next_seat
from ledger.engine.player_figures import place_among
from ledger.engine.rules import parse_length
from ledger.engine.scoreboard import Line, Scoreboard
from ledger.engine.settle_up import CENT, MAX_PLAYERS
from ledger.matches.forgettable import holds_names
from ledger.matches.reading import rules_from_record
from ledger.matches.view import iso
from ledger.tables import answers
from ledger.tables.answers import PayTo
from ledger.tables.guests import is_guest, roster_keys

if TYPE_CHECKING:
    from openskill.models import PlackettLuce

#: How many nights two players must have together that are over (a night still going
#: puts nobody above anyone) before one is called the other's rival or nemesis
#: (board-game trackers use 3).
RIVAL_MATCHES = 3
#: Money: points × per point, exact (a stake has at most 2 places; no total has 40 digits).
_MONEY_DIGITS = 60


class MatchFigures(Struct, frozen=True, dict=True):  # dict: its cached properties
    """One match of the table as its kept scoreboard tells it."""

    id: int
    public_id: str
    version: int
    name: str
    created_at: datetime
    season_id: int | None
    board: Scoreboard
    finished: bool
    zero_sum: bool
    stake: Stake | None
    deal_passes: str
    #: The rules' foul setting (off, same_hand, next_hand): where a hand's fouls are kept.
    foul_rule: str = "off"
    #: The match's house rules (the season's PDF prints each set its nights were played under).
    rules: HouseRules | None = None

    @cached_property
    def totals(self) -> dict[str, int]:
        return self.board.totals

    @cached_property
    def played(self) -> tuple[str, ...]:
        """The players who played at least one hand, in seat order."""
        return tuple(name for name in self.board.players if self.board.lines[name].played)

    @cached_property
    def places(self) -> dict[str, int]:
        """Each player who played: their place among those who played (equal totals,
        equal place)."""
        mine = [self.totals[name] for name in self.played]
        return {name: place_among(self.totals[name], mine) for name in self.played}

    @cached_property
    def leaders(self) -> list[str]:
        """The players at the top of the match's standings (place 1: equal totals share
        it), as the match's own JSON gives them."""
        if not self.board.hands:
            return []
        best = max(self.totals.values())
        return [name for name in self.board.players if self.totals[name] == best]

    def to_json(
        self, season_public_id: str | None, on_roster: frozenset[str]
    ) -> answers.TableMatch:
        """The match in its table's list; ``on_roster``: the roster's ``roster_keys``."""
        return {
            "id": self.public_id,
            "name": self.name,
            "season": season_public_id,
            "created_at": iso(self.created_at),
            "finished": self.finished,
            "hands_played": self.board.hands,
            "players": [
                {"name": n, "total": self.totals[n], "guest": is_guest(n, on_roster)}
                for n in self.board.players
            ],
            "leaders": self.leaders,
        }


@lru_cache(maxsize=256)
def _rules_of(record: str) -> HouseRules:
    """Stored rules (their JSON text) resolved: a season's matches mostly share one set of
    rules, resolved once."""
    return rules_from_record(json.loads(record))


def match_figures(row: Any, players: Sequence[str]) -> MatchFigures:
    """A match's figures from its row (scoreboard kept) and its players in seat order."""
    rules = _rules_of(json.dumps(row.rules, sort_keys=True))
    board = Scoreboard.from_json(players, row.scoreboard)
    length = parse_length(row.length, "length")
    stake = (
        Stake(Decimal(row.stake_per_point), row.stake_currency)
        if row.stake_per_point is not None
        else None
    )
    return MatchFigures(
        id=row.id,
        public_id=row.public_id,
        version=row.version,
        name=row.name,
        created_at=row.created_at,
        season_id=row.season_id,
        board=board,
        finished=row.ended_at is not None or is_finished(length, board.hands, len(players)),
        zero_sum=rules.zero_sum,
        stake=stake,
        deal_passes=rules.deal_passes,
        foul_rule=rules.foul,
        rules=rules,
    )


def money(points: int, per_point: Decimal) -> Decimal:
    """points × per_point, exactly."""
    with localcontext(Context(prec=_MONEY_DIGITS, traps=[Inexact])):
        return points * per_point


class PlayerLine(Struct):
    """One player's line of the standings: sums over the season's matches."""

    name: str
    #: Not on the roster: a guest of the table (``ledger.tables.guests``).
    guest: bool = False
    matches: int = 0
    matches_won: int = 0
    hands: int = 0
    hands_won: int = 0
    seen_hands: int = 0
    maal: int = 0
    total: int = 0
    amount: Decimal | None = None
    rating: Rating | None = None

    def add(self, line: Line, won: bool, per_point: Decimal | None, points: bool = True) -> None:
        """Count a match the player played; ``points``: whether its total counts (and its
        money, at ``per_point``), else it counts as a match played and won alone."""
        self.matches += 1
        self.matches_won += won
        self.hands += line.played
        self.hands_won += line.finished
        self.seen_hands += line.seen
        self.maal += line.maal
        if not points:
            return
        self.total += line.total
        if per_point is not None:
            self.amount = (self.amount or Decimal("0.00")) + money(line.total, per_point)

    def to_json(self) -> answers.StandingsLine:
        """Every field: the amount as text, the rating with its ordinal."""
        return {
            "name": self.name,
            "guest": self.guest,
            "matches": self.matches,
            "matches_won": self.matches_won,
            "hands": self.hands,
            "hands_won": self.hands_won,
            "seen_hands": self.seen_hands,
            "maal": self.maal,
            "total": self.total,
            "amount": amount_text(self.amount),
            "rating": (self.rating or Rating.start()).to_json(),
        }


class Rating(Struct, frozen=True):
    mu: float
    sigma: float

    @property
    def ordinal(self) -> float:
        """mu − 3 sigma: a rating the player is very likely above."""
        return self.mu - 3 * self.sigma

    @classmethod
    def start(cls) -> Rating:
        model = _model()
        return cls(model.mu, model.sigma)

    def to_json(self) -> answers.StandingsRating:
        return {"mu": self.mu, "sigma": self.sigma, "ordinal": self.ordinal}


class Pair(Struct):
    """Two players who played a match together (``a`` before ``b`` on the roster)."""

    a: str
    b: str
    a_guest: bool = False
    b_guest: bool = False
    matches: int = 0
    a_above: int = 0
    b_above: int = 0
    a_paid_b: int = 0
    b_paid_a: int = 0

    def to_json(self) -> answers.StandingsPair:
        return {
            "a": self.a,
            "b": self.b,
            "a_guest": self.a_guest,
            "b_guest": self.b_guest,
            "matches": self.matches,
            "a_above": self.a_above,
            "b_above": self.b_above,
            "a_paid_b": self.a_paid_b,
            "b_paid_a": self.b_paid_a,
        }


class Standings(Struct, frozen=True):
    """The standings of a season (or all time): a line per player who played, highest
    total first, and the head-to-head of every pair that played together."""

    players: tuple[PlayerLine, ...]
    head_to_head: tuple[Pair, ...]
    matches: tuple[MatchFigures, ...] = ()

    def line(self, name: str) -> PlayerLine | None:
        return next((p for p in self.players if p.name == name), None)

    def pairs_of(self, name: str) -> list[Pair]:
        return [p for p in self.head_to_head if name in (p.a, p.b)]


class Sums(Struct):
    """The lines and pairs summed over some matches, in play order (each pair ``a``
    before ``b`` on the roster, in the order they first played together)."""

    lines: dict[str, PlayerLine] = field(default_factory=dict)
    pairs: dict[tuple[str, str], Pair] = field(default_factory=dict)

    def copy(self) -> Sums:
        """The same sums, to count on without changing these."""
        return Sums(
            {name: replace(line) for name, line in self.lines.items()},
            {key: replace(pair) for key, pair in self.pairs.items()},
        )


def sum_matches(
    roster: Sequence[str],
    figures: Sequence[MatchFigures],
    before: Sums | None = None,
    zero_sum: bool = True,
) -> Sums:
    """``before`` (the sums over earlier matches, left as they are: a caller may keep
    them) and then ``figures``' lines and pairs summed. Points (the totals, the points
    paid between a pair) are summed over the matches of one kind alone, ``zero_sum`` or
    (False) points races: a points race's totals are each player's own maal, a zero-sum
    match's what they won or lost, and a sum of both means nothing. Money is summed over
    the zero-sum matches alone (a points race has no settle-up). Every match counts as
    played; a finished one, points race or not, for who won it and who ended above whom
    (docs/tables.md, "The figures")."""
    order = {name: i for i, name in enumerate(roster)}
    on_roster = roster_keys(roster)
    sums = before.copy() if before is not None else Sums()
    lines, pairs = sums.lines, sums.pairs
    for match in figures:
        board = match.board
        points = match.zero_sum == zero_sum
        leaders = set(match.leaders) if match.finished else set()
        staked = match.stake if match.zero_sum else None
        per_point = staked.per_point if staked is not None else None
        played = sorted(match.played, key=lambda n: order.get(n, len(order)))
        for name in played:
            line = lines.setdefault(name, PlayerLine(name, guest=is_guest(name, on_roster)))
            line.add(board.lines[name], name in leaders, per_point, points)
        totals = match.totals
        for i, a in enumerate(played):
            for b in played[i + 1 :]:
                pair = pairs.get((a, b)) or pairs.setdefault(
                    (a, b),
                    Pair(a, b, a_guest=is_guest(a, on_roster), b_guest=is_guest(b, on_roster)),
                )
                pair.matches += 1
                if match.finished:  # a night still going has no places yet
                    pair.a_above += totals[a] > totals[b]
                    pair.b_above += totals[b] > totals[a]
                if points:
                    pair.a_paid_b += board.paid.get(a, {}).get(b, 0)
                    pair.b_paid_a += board.paid.get(b, {}).get(a, 0)
    return sums


def standings(
    roster: Sequence[str],
    figures: Sequence[MatchFigures],
    earlier: Sums | None = None,
    zero_sum: bool = True,
) -> Standings:
    """Lines and pairs summed over ``figures`` (the season's matches, in play order):
    players by total, highest first (equal totals in roster order); pairs in the order
    they first played together, ``a`` before ``b`` on the roster. ``earlier``: the sums
    over all of ``figures`` but the last, kept by the caller: the last is counted on.
    ``zero_sum``: the kind of match whose points are summed (``sum_matches``): a season's
    zero-sum matches; all of them under a What if…? of points-race rules."""
    if earlier is not None:
        sums = sum_matches(roster, figures[-1:], earlier, zero_sum)
    else:
        sums = sum_matches(roster, figures, zero_sum=zero_sum)
    lines = sums.lines
    for name, rating in ratings(games(figures)).items():
        if name in lines:
            lines[name].rating = rating
    order = {name: i for i, name in enumerate(roster)}
    ranked = sorted(lines.values(), key=lambda line: (-line.total, order.get(line.name, 0)))
    return Standings(tuple(ranked), tuple(sums.pairs.values()), tuple(figures))


# --- the rating ----------------------------------------------------------------------

Game = tuple[tuple[str, int], ...]  # (player, place) of one finished match


def games(figures: Iterable[MatchFigures]) -> tuple[Game, ...]:
    """Each finished match with two or more players as one game, in play order."""
    out = []
    for match in figures:
        if match.finished and len(match.played) >= 2:
            places = match.places
            out.append(tuple((name, places[name]) for name in match.played))
    return tuple(out)


@lru_cache(maxsize=1)
def _model() -> PlackettLuce:
    from openskill.models import PlackettLuce  # loaded by the first rating, not at start

    return PlackettLuce()


@holds_names
@lru_cache(maxsize=256)
def rating_steps(played: tuple[Game, ...]) -> tuple[dict[str, Rating], ...]:
    """The ratings after each game (Plackett-Luce; equal places, equal rank). Cached by
    the games themselves: the same season's figures are rated once, and a new hand in a
    finished match (an edit) is a new key."""
    model = _model()
    current: dict[str, Any] = {}
    steps = []
    for game in played:
        names = [name for name, _ in game]
        teams = [[current.get(name) or model.rating(name=name)] for name in names]
        rated = model.rate(teams, ranks=[place for _, place in game])
        for name, (after,) in zip(names, rated, strict=True):
            current[name] = after
        steps.append({name: Rating(r.mu, r.sigma) for name, r in current.items()})
    return tuple(steps)


def ratings(played: tuple[Game, ...]) -> dict[str, Rating]:
    """Each rated player's rating after every game."""
    steps = rating_steps(played)
    return dict(steps[-1]) if steps else {}


# --- money ---------------------------------------------------------------------------


class MoneyBalance(Struct, frozen=True):
    name: str
    total: int  # points over the season's matches counted for money
    won: Decimal | None  # their money from those matches (None: points only)
    paid: Decimal
    received: Decimal
    guest: bool = False

    @property
    def amount(self) -> Decimal | None:
        """What is still owed to them (+) or by them (−): their money from the matches,
        with what they handed over counted off their debt and what they were handed
        counted off what they are owed."""
        return None if self.won is None else self.won + self.paid - self.received

    def to_json(self, pay_to: PayTo | None) -> answers.TableSettleUpBalance:
        """The balance's row, with how to pay the player (``pay_to``, as they set it)."""
        return {
            "name": self.name,
            "guest": self.guest,
            "total": self.total,
            "amount": amount_text(self.amount),
            "won": amount_text(self.won),
            "paid": format(self.paid, "f"),
            "received": format(self.received, "f"),
            "pay_to": pay_to,
        }


def money_balances(
    roster: Sequence[str],
    figures: Sequence[MatchFigures],
    stake: Stake | None,
    payments: Iterable[tuple[str, str, Decimal]],
) -> list[MoneyBalance]:
    """Each roster player's balance over the zero-sum matches: with a table stake, the
    money of the matches staked in its currency, squared by the payments between them
    (``MoneyBalance.amount``); without, points only."""
    totals = dict.fromkeys(roster, 0)
    won: dict[str, Decimal] = dict.fromkeys(roster, Decimal("0.00"))
    for match in figures:
        if not match.zero_sum:
            continue
        counted = stake is None or (
            match.stake is not None and match.stake.currency == stake.currency
        )
        if not counted:
            continue
        for name, total in match.board.totals.items():
            totals[name] = totals.get(name, 0) + total
            if stake is not None:
                assert match.stake is not None
                won[name] = won.get(name, Decimal("0.00")) + money(total, match.stake.per_point)
    paid = dict.fromkeys(totals, Decimal("0.00"))
    received = dict.fromkeys(totals, Decimal("0.00"))
    for payer, payee, amount in payments:
        paid[payer] = paid.get(payer, Decimal("0.00")) + amount
        received[payee] = received.get(payee, Decimal("0.00")) + amount
    names = list(dict.fromkeys([*totals, *paid, *received]))
    on_roster = roster_keys(roster)
    return [
        MoneyBalance(
            name,
            totals.get(name, 0),
            won.get(name, Decimal("0.00")) if stake is not None else None,
            paid.get(name, Decimal("0.00")),
            received.get(name, Decimal("0.00")),
            guest=is_guest(name, on_roster),
        )
        for name in names
    ]


def money_transfers(
    balances: Sequence[MoneyBalance],
    stake: Stake | None,
    paid: Sequence[tuple[str, str]] = (),
    counted: Iterable[tuple[str, str, Decimal]] = (),
) -> list[answers.TableSettleUpTransfer]:
    """The fewest transfers that settle the balances exactly (the engine's ``settle_up``,
    over cents when there is money, with its points at ``stake`` when whole; else over
    points). Only the players with something to settle take part in the search.
    Among the fewest, first what is left of the plan made before any payment stands
    (``counted``: the payments the balances count, ``(payer, payee, amount)``): whoever
    pays exactly what they were told finds everyone's rest of the plan unchanged. Then
    ``paid``: who paid whom already, in the order paid: those go on between the same
    two (a debt paid in part is paid off to the same person, and an overpayment comes
    back from whoever got it), rather than be sent elsewhere."""
    prefer = [*paid, *((payee, payer) for payer, payee in paid)]
    if stake is None:
        owed = {b.name: b.total for b in balances if b.total}
        result = settle_up(owed, prefer=prefer)
    else:
        owed = {b.name: int(b.amount / CENT) for b in balances if b.amount}
        keep = _plan_left(balances, counted)
        result = settle_up(owed, Stake(CENT, stake.currency), prefer, keep)
    return [
        {
            "from": t.payer,
            "to": t.payee,
            "points": t.points if stake is None else _points(t.amount, stake.per_point),
            "amount": amount_text(t.amount),
        }
        for t in result.transfers
    ]


def _plan_left(
    balances: Sequence[MoneyBalance], counted: Iterable[tuple[str, str, Decimal]]
) -> list[tuple[str, str, int]]:
    """What is left of the plan made on the money won before any payment, in cents:
    each of its transfers less what its payer paid its payee, those paid off left out.
    Empty when more players had money then than the engine settles at once (some have
    paid since): nothing to keep then."""
    before = {b.name: int(b.won / CENT) for b in balances if b.won}
    if len(before) > MAX_PLAYERS:
        return []
    paid: dict[tuple[str, str], int] = {}
    for payer, payee, amount in counted:
        paid[payer, payee] = paid.get((payer, payee), 0) + int(amount / CENT)
    plan = settle_up(before).transfers
    left = [(t.payer, t.payee, t.points - paid.get((t.payer, t.payee), 0)) for t in plan]
    return [(payer, payee, cents) for payer, payee, cents in left if cents > 0]


def _points(amount: Decimal | None, per_point: Decimal) -> int | None:
    """The money as points at the table's stake, when it is a whole number of them."""
    if amount is None:
        return None
    points = amount / per_point
    return int(points) if points == points.to_integral_value() else None


# --- where the table left off --------------------------------------------------------


def next_dealer(last: MatchFigures | None, players: Sequence[str]) -> str | None:
    """Who deals first in a new match of ``players``: when the same people played the
    table's last match, the seat after that match's last dealer (the deal passing as
    its rules say); else None (the new match's own first dealer)."""
    if last is None or last.board.last_dealer is None:
        return None
    if {n.casefold() for n in last.board.players} != {n.casefold() for n in players}:
        return None
    by_key = {n.casefold(): n for n in players}
    dealer = by_key[last.board.last_dealer.casefold()]
    return next_seat(tuple(players), dealer, last.deal_passes)
