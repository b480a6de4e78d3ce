"""A player's figures (docs/tables.md, "A player's figures"): counts over their hands,
their best and worst hand and night, their places, winning run and form, and the awards
of a night or a season.

Pure arithmetic over plain data, in two steps so that a caller can keep the first:

- ``tally_hands``: one match's hands (as settled and stored) → each player's ``Tally``;
- ``player_figures``: the nights of a period in play order (each with its tallies, its
  totals and whether it is over) → each player's ``PlayerFigures``; ``awards`` over them.
  ``count_nights`` counts nights on to the figures of earlier ones, which it leaves as
  they are: a caller may keep the figures of the finished nights.

Ties: a best or worst hand or night keeps the earliest in play order; places are
1 + the number of that night's players with a larger total, so a tie shares the better
place.

Which nights count for what (docs/tables.md, "A player's figures"): every night counts
as a night played, and its hands as hands played, won, seen; places, form and the
winning run count the nights that are over; the figures of points won or lost (the
total, the nets of the best and worst hand, what unseen hands cost and in how many
hands, the best and worst night) count only the nights whose points count
(``Night.counts_points``: in a table's season, its zero-sum nights; a points race's
totals are each player's own maal, not won or lost), and the best and worst night only
those that are over.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any, Literal, get_args

#: The places shown as a player's form: their last this many finished nights.
FORM_NIGHTS = 5
#: The awards, in the order they are given: each is the largest value of that figure.
AwardName = Literal["hands_won", "dublee_finishes", "best_hand", "best_night"]
AWARDS: tuple[AwardName, ...] = get_args(AwardName)


def place_among(total: int, totals: Iterable[int]) -> int:
    """1 + how many of ``totals`` are larger: equal totals share the better place.

    >>> place_among(5, [9, 5, 5, 1])
    2
    """
    return 1 + sum(other > total for other in totals)


def percent(part: int, whole: int) -> int:
    """``part`` of ``whole`` as a whole percentage, rounded half up, in integers (7 of 10:
    70; 2 of 3: 67); 0 of nothing is 0.

    >>> percent(7, 10), percent(2, 3), percent(1, 8), percent(0, 0)
    (70, 67, 13, 0)
    """
    return (200 * part + whole) // (2 * whole) if whole else 0


@dataclass(frozen=True)
class HandFacts:
    """What the figures need of one settled hand."""

    number: int
    winner: str | None
    finish: str  # sequences, dublees or void
    nets: Mapping[str, int]  # its players only: the rest sat out
    seen: Mapping[str, str]  # sequences, dublees or unseen, as entered
    fouls: frozenset[str] = frozenset()

    @classmethod
    def from_record(
        cls, number: int, record: Mapping[str, Any], fouls: Iterable[str] | None = None
    ) -> HandFacts:
        """From a stored hand's fold record (``scoreboard.record_json``): it keeps the
        winner, the nets and who saw how; a finisher finishes by the route they saw by
        (a hand is refused otherwise), so the finish follows. Its ``fouls`` are the fouls
        carried to the next hand; ``fouls`` gives them where the rules settle a foul in
        its own hand (the record does not keep those)."""
        winner, seen = record["winner"], record["seen"]
        return cls(
            number=number,
            winner=winner,
            finish=seen[winner] if winner is not None else "void",
            nets=record["nets"],
            seen=seen,
            fouls=frozenset(record["fouls"] if fouls is None else fouls),
        )


@dataclass(frozen=True)
class HandRef:
    """A hand of a match and a player's net in it."""

    match: str
    number: int
    net: int


@dataclass(frozen=True)
class NightRef:
    """A match and a player's total in it."""

    match: str
    total: int


@dataclass
class Tally:
    """One player's counts over some hands (sums, and the extreme hands)."""

    hands: int = 0
    hands_won: int = 0
    seen_hands: int = 0
    dublee_seen_hands: int = 0
    #: Their nets summed over the hands they played unseen whose points count, and how
    #: many such hands: what unseen hands cost is of those alone (a points race's nets
    #: are their own maal), so the count said beside it is too.
    unseen_points: int = 0
    unseen_points_hands: int = 0
    fouls: int = 0
    dublee_finishes: int = 0
    best_hand: HandRef | None = None
    worst_hand: HandRef | None = None

    @property
    def unseen_hands(self) -> int:
        return self.hands - self.seen_hands

    def counts_only(self) -> Tally:
        """The same counts of hands without what the hands' nets say (what unseen hands
        cost, the best and worst hand): a night whose points do not count."""
        return replace(
            self, unseen_points=0, unseen_points_hands=0, best_hand=None, worst_hand=None
        )

    def add_hand(self, match: str, hand: HandFacts, name: str) -> None:
        """Count ``hand`` (later in play order than every hand counted so far)."""
        net, seen = hand.nets[name], hand.seen.get(name, "unseen")
        self.hands += 1
        self.hands_won += hand.winner == name
        self.seen_hands += seen != "unseen"
        self.dublee_seen_hands += seen == "dublees"
        self.unseen_points += net if seen == "unseen" else 0
        self.unseen_points_hands += seen == "unseen"
        self.fouls += name in hand.fouls
        self.dublee_finishes += hand.winner == name and hand.finish == "dublees"
        if self.best_hand is None or net > self.best_hand.net:
            self.best_hand = HandRef(match, hand.number, net)
        if self.worst_hand is None or net < self.worst_hand.net:
            self.worst_hand = HandRef(match, hand.number, net)

    def add(self, later: Tally) -> None:
        """Count ``later``'s hands (all later in play order than this tally's)."""
        self.hands += later.hands
        self.hands_won += later.hands_won
        self.seen_hands += later.seen_hands
        self.dublee_seen_hands += later.dublee_seen_hands
        self.unseen_points += later.unseen_points
        self.unseen_points_hands += later.unseen_points_hands
        self.fouls += later.fouls
        self.dublee_finishes += later.dublee_finishes
        self.best_hand = _better(self.best_hand, later.best_hand, +1)
        self.worst_hand = _better(self.worst_hand, later.worst_hand, -1)


def _better(kept: HandRef | None, new: HandRef | None, sign: int) -> HandRef | None:
    """The larger (sign +1) or smaller (−1) net; on a tie the one kept (the earlier)."""
    if kept is None:
        return new
    if new is None:
        return kept
    return new if sign * new.net > sign * kept.net else kept


def tally_hands(match: str, hands: Iterable[HandFacts]) -> dict[str, Tally]:
    """Each player's tally over ``hands`` (in number order) of match ``match``; a player
    with no hand (sitting out each) has none.

    >>> t = tally_hands("m", [HandFacts(1, "A", "dublees", {"A": 9, "B": -9}, {"A": "dublees"})])
    >>> t["A"].dublee_finishes, t["B"].unseen_points, t["B"].unseen_hands
    (1, -9, 1)
    """
    out: dict[str, Tally] = {}
    for hand in hands:
        for name in hand.nets:
            out.setdefault(name, Tally()).add_hand(match, hand, name)
    return out


@dataclass(frozen=True)
class Night:
    """One match of the period: its players' tallies and totals (those with at least one
    hand), whether it is over, and whether its points count in the period's figures of
    points (False: a points race among a table's zero-sum nights, counted as a night
    played and for its places alone)."""

    match: str
    finished: bool
    tallies: Mapping[str, Tally]
    totals: Mapping[str, int]
    counts_points: bool = True

    def place(self, name: str) -> int:
        """The player's place among the night's players."""
        return place_among(self.totals[name], [self.totals[other] for other in self.tallies])


@dataclass
class PlayerFigures:
    """One player's figures over a period."""

    name: str
    tally: Tally = field(default_factory=Tally)
    matches: int = 0
    total: int = 0
    best_night: NightRef | None = None
    worst_night: NightRef | None = None
    places: dict[int, int] = field(default_factory=dict)
    longest_winning_run: int = 0
    #: Their places in their finished nights, in play order (``form`` is the last few).
    finishes: list[int] = field(default_factory=list)

    @property
    def form(self) -> list[int]:
        return self.finishes[-FORM_NIGHTS:]

    def copy(self) -> PlayerFigures:
        """The same figures, to count on without changing these."""
        return replace(
            self, tally=replace(self.tally), places=dict(self.places), finishes=list(self.finishes)
        )

    def value(self, award: str) -> int:
        """The figure an award is for (0 without a hand or night)."""
        if award == "best_hand":
            return self.tally.best_hand.net if self.tally.best_hand else 0
        if award == "best_night":
            return self.best_night.total if self.best_night else 0
        return int(getattr(self.tally, award))

    def add_night(self, night: Night) -> None:
        """Count ``night`` (later in play order than every night counted so far)."""
        total, tally = night.totals[self.name], night.tallies[self.name]
        self.tally.add(tally if night.counts_points else tally.counts_only())
        self.matches += 1
        if night.counts_points:
            self.total += total
        if night.counts_points and night.finished:  # a night still going has no result yet
            ref = NightRef(night.match, total)
            if self.best_night is None or total > self.best_night.total:
                self.best_night = ref
            if self.worst_night is None or total < self.worst_night.total:
                self.worst_night = ref
        if night.finished:
            place = night.place(self.name)
            self.places[place] = self.places.get(place, 0) + 1
            self.finishes.append(place)
            run = 0
            for earlier in reversed(self.finishes):
                if earlier != 1:
                    break
                run += 1
            self.longest_winning_run = max(self.longest_winning_run, run)


def player_figures(nights: Sequence[Night]) -> list[PlayerFigures]:
    """Each player's figures over ``nights`` (in play order), highest total first (equal
    totals in the order they first played)."""
    return ranked(count_nights(nights))


def count_nights(
    nights: Sequence[Night], before: Mapping[str, PlayerFigures] | None = None
) -> dict[str, PlayerFigures]:
    """Each player's figures over ``before`` (the figures over earlier nights, left as
    they are: a caller may keep them) and then ``nights``, in the order first played."""
    out = {name: figures.copy() for name, figures in (before or {}).items()}
    for night in nights:
        for name in night.tallies:
            out.setdefault(name, PlayerFigures(name)).add_night(night)
    return out


def ranked(figures: Mapping[str, PlayerFigures]) -> list[PlayerFigures]:
    """``figures`` (in the order first played) highest total first."""
    return sorted(figures.values(), key=lambda row: -row.total)


@dataclass(frozen=True)
class Award:
    award: AwardName
    players: tuple[str, ...]
    value: int


def awards(rows: Sequence[PlayerFigures]) -> list[Award]:
    """Each award to every player holding its largest value (in ``rows``' order); an
    award whose largest value is 0 or less is not given.

    >>> a, b = PlayerFigures("A"), PlayerFigures("B")
    >>> a.tally.hands_won = b.tally.hands_won = 2
    >>> awards([a, b])
    [Award(award='hands_won', players=('A', 'B'), value=2)]
    """
    out = []
    for award in AWARDS:
        best = max((row.value(award) for row in rows), default=0)
        if best > 0:
            holders = tuple(row.name for row in rows if row.value(award) == best)
            out.append(Award(award, holders, best))
    return out
