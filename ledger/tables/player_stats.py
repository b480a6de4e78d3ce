"""A player's figures and the awards, of a table's season or of one match
(``GET /api/v1/tables/<id>/stats``, ``GET /api/v1/matches/<id>/stats``).

Computed from the stored hands (each hand's fold record, written from its settlement as
agreed, and the hand as entered for fouls settled in their own hand), so a rename, a
merge or a change of rules carries through; the arithmetic is the engine's
(``ledger.engine.player_figures``). Each match's tallies are kept in memory by its id
and version, as its standings' figures are: after a new hand only that match's hands
are read again.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Sequence
from dataclasses import replace

from msgspec import Struct
from sqlalchemy import case, select

from ledger.engine.player_figures import (
    Award,
    HandFacts,
    HandRef,
    Night,
    NightRef,
    PlayerFigures,
    Tally,
    awards,
    count_nights,
    ranked,
    tally_hands,
)
from ledger.extensions import db
from ledger.matches import fold
from ledger.matches.models import Hand, Match
from ledger.tables import answers, figures, guests, people_answers, service
from ledger.tables.figures import MatchFigures
from ledger.tables.models import Season, Table


class Stats(Struct, frozen=True):
    """The figures of a period: a row per player with a hand in it, highest total first
    (``guests``: the names of those not on the table's roster), and its awards."""

    players: tuple[PlayerFigures, ...]
    awards: tuple[Award, ...]
    guests: frozenset[str] = frozenset()

    def row(self, name: str) -> PlayerFigures | None:
        return next((row for row in self.players if row.name == name), None)

    def to_json(self, season: answers.Season | None) -> people_answers.Stats:
        return {
            "season": season,
            "players": [figures_json(row, row.name in self.guests) for row in self.players],
            "awards": [
                {"award": a.award, "players": list(a.players), "value": a.value}
                for a in self.awards
            ],
        }


def figures_json(row: PlayerFigures, guest: bool) -> people_answers.PlayerFigures:
    """A player's figures as the API gives them (the engine counts them; their JSON is
    the answer's, declared beside the other answers, so mypy holds it to it)."""
    t = row.tally
    return {
        "name": row.name,
        "matches": row.matches,
        "total": row.total,
        "hands": t.hands,
        "hands_won": t.hands_won,
        "seen_hands": t.seen_hands,
        "dublee_seen_hands": t.dublee_seen_hands,
        "unseen_hands": t.unseen_hands,
        "unseen_points": t.unseen_points,
        "unseen_points_hands": t.unseen_points_hands,
        "fouls": t.fouls,
        "dublee_finishes": t.dublee_finishes,
        "best_hand": _hand_json(t.best_hand),
        "worst_hand": _hand_json(t.worst_hand),
        "best_night": _night_json(row.best_night),
        "worst_night": _night_json(row.worst_night),
        "places": {str(place): n for place, n in sorted(row.places.items())},
        "longest_winning_run": row.longest_winning_run,
        "form": row.form,
        "guest": guest,
    }


def _hand_json(hand: HandRef | None) -> people_answers.PlayerFiguresHand | None:
    return None if hand is None else {"match": hand.match, "number": hand.number, "net": hand.net}


def _night_json(night: NightRef | None) -> people_answers.PlayerFiguresNight | None:
    return None if night is None else {"match": night.match, "total": night.total}


def is_guest(table: Table | None, name: str) -> bool:
    """Whether ``name`` played as a guest: not on the table's roster (ignoring case). A
    match outside a table has no guests."""
    if table is None:
        return False
    return guests.is_guest(name, guests.roster_keys([p.name for p in table.players]))


def stats(
    table: Table | None, matches: Sequence[MatchFigures], zero_sum_only: bool = True
) -> Stats:
    """The figures over ``matches`` (in play order) of ``table`` (None: a lone match).
    ``zero_sum_only``: the points (totals, best and worst hand and night, what unseen
    hands cost) of the zero-sum matches alone, as a season's standings count them; a
    points race counts as a night played, for its hands and its places. False: one
    match's own figures, whatever its kind."""
    nights = []
    for match, tallies in zip(matches, _tallies(matches), strict=True):
        counts = match.zero_sum or not zero_sum_only
        nights.append(Night(match.public_id, match.finished, tallies, match.totals, counts))
    earlier = (zero_sum_only, tuple((m.public_id, m.version) for m in matches[:-1]))
    with _KEPT_LOCK:
        before = _EARLIER.get(earlier)
        if before is not None:
            _EARLIER.move_to_end(earlier)
    if before is None:
        before = count_nights(nights[:-1])
        with _KEPT_LOCK:
            _EARLIER[earlier] = before
            while len(_EARLIER) > _EARLIER_MOST:
                _EARLIER.popitem(last=False)
    rows = ranked(count_nights(nights[-1:], before))
    guests = frozenset(row.name for row in rows if is_guest(table, row.name))
    return Stats(tuple(rows), tuple(awards(rows)), guests)


def table_stats(table: Table, season: Season | None) -> Stats:
    """The season's figures (None: all time)."""
    return stats(table, service.season_matches(table, season))


def table_stats_json(table: Table, season: Season | None) -> people_answers.Stats:
    """The body of ``GET /api/v1/tables/<id>/stats``."""
    shown = service.season_json(table, season) if season is not None else None
    return table_stats(table, season).to_json(shown)


def match_stats(match: Match) -> Stats:
    """Tonight's figures: the match's alone."""
    fold.scoreboard(match)  # an older match's scoreboard is filled in first
    table = service.table_of(match)
    return stats(table, [figures.match_figures(match, match.player_names)], zero_sum_only=False)


def match_stats_json(match: Match) -> people_answers.Stats:
    """The body of ``GET /api/v1/matches/<id>/stats``: ``season`` is the match's, or
    null outside a table."""
    table = service.table_of(match)
    season = None
    if table is not None:
        found = next((s for s in table.seasons if s.id == match.season_id), None)
        season = service.season_json(table, found) if found is not None else None
    return match_stats(match).to_json(season)


# --- inside --------------------------------------------------------------------------

#: Each match's tallies by (public id, version): a write changes the version.
_KEPT: OrderedDict[tuple[str, int], dict[str, Tally]] = OrderedDict()


class _Read(Struct, frozen=True):
    """A match's hands as last counted ((number, version), in number order) and the
    tallies over them."""

    hands: tuple[tuple[int, int], ...]
    tallies: dict[str, Tally]


#: Each match's hands as last counted, by the match's public id. A write that changes
#: what a hand says (an edit, a rename, new rules) changes the hand's version, and a
#: match never gives a hand's number again: when the hands counted are still the first
#: ones, at the same versions, only the hands after them are read, and counted on.
_HANDS: OrderedDict[str, _Read] = OrderedDict()
_KEPT_MOST = 4096
_KEPT_LOCK = threading.Lock()

#: The figures over all but the newest of a period's matches, by ``zero_sum_only`` (the
#: same nights counted with a points race's points are other figures) and those
#: matches' (public id, version) in play order: a hand in tonight's match counts
#: tonight's night alone on to them (``count_nights`` leaves them as they are).
_EARLIER: OrderedDict[tuple[bool, tuple[tuple[str, int], ...]], dict[str, PlayerFigures]] = (
    OrderedDict()
)
_EARLIER_MOST = 64


def _tallies(matches: Sequence[MatchFigures]) -> list[dict[str, Tally]]:
    """Each match's tallies: kept at its version, else from its hands (``_read_tallies``)."""
    keys = [(m.public_id, m.version) for m in matches]
    with _KEPT_LOCK:
        found = {key: _KEPT.get(key) for key in keys}
    missing = [m for m, key in zip(matches, keys, strict=True) if found[key] is None]
    if missing:
        for m, tallies in zip(missing, _read_tallies(missing), strict=True):
            found[(m.public_id, m.version)] = tallies
    with _KEPT_LOCK:
        for key in keys:
            _KEPT[key] = found[key]  # type: ignore[assignment]
            _KEPT.move_to_end(key)
        while len(_KEPT) > _KEPT_MOST:
            _KEPT.popitem(last=False)
    return [found[key] for key in keys]  # type: ignore[misc]


def _read_tallies(matches: Sequence[MatchFigures]) -> list[dict[str, Tally]]:
    """Each match's tallies from its hands: their numbers and versions in one query;
    then either the hands after those counted last (counted on to those tallies) or, for
    a match read afresh or whose counted hands changed, every hand (one query for all
    such matches)."""
    by_id = {m.id: m for m in matches}
    listed: dict[int, list[tuple[int, int]]] = {m.id: [] for m in matches}
    for match_id, number, version in db.session.connection().execute(
        select(Hand.match_id, Hand.number, Hand.version)
        .where(Hand.match_id.in_(list(by_id)))
        .order_by(Hand.match_id, Hand.number)
    ):
        listed[match_id].append((number, version))
    with _KEPT_LOCK:
        before = {m.id: _HANDS.get(m.public_id) for m in matches}
    on = {  # match id -> how many of its hands are counted already
        i: len(read.hands)
        for i, read in before.items()
        if read is not None and tuple(listed[i][: len(read.hands)]) == read.hands
    }
    fresh = _read_facts([m for m in matches if m.id not in on], None)
    for match_id, counted in on.items():
        if counted < len(listed[match_id]):
            numbers = [n for n, _ in listed[match_id][counted:]]
            fresh.update(_read_facts([by_id[match_id]], numbers))
    out = []
    for m in matches:
        read = before[m.id]
        if m.id in on and read is not None:
            tallies = {name: replace(tally) for name, tally in read.tallies.items()}
            for n, _ in listed[m.id][on[m.id] :]:
                facts = fresh[(m.id, n)]
                for name in facts.nets:
                    tallies.setdefault(name, Tally()).add_hand(m.public_id, facts, name)
        else:
            tallies = tally_hands(m.public_id, [fresh[(m.id, n)] for n, _ in listed[m.id]])
        out.append(tallies)
        with _KEPT_LOCK:
            _HANDS[m.public_id] = _Read(tuple(listed[m.id]), tallies)
            _HANDS.move_to_end(m.public_id)
    with _KEPT_LOCK:
        while len(_HANDS) > _KEPT_MOST:
            _HANDS.popitem(last=False)
    return out


def _read_facts(
    matches: Sequence[MatchFigures], numbers: list[int] | None
) -> dict[tuple[int, int], HandFacts]:
    """(match id, number) -> the facts of the matches' hands (only ``numbers``,
    if given), from their small fold records; in a match whose rules settle a foul in its
    own hand, its fouls from the hand as entered (the record keeps only fouls carried on)."""
    if not matches:
        return {}
    same_hand = [m.id for m in matches if m.foul_rule == "same_hand"]
    query = select(
        Hand.match_id,
        Hand.number,
        Hand.record,
        # Only where needed: the hand as entered is larger than its record.
        case((Hand.match_id.in_(same_hand), Hand.input), else_=None),
    ).where(Hand.match_id.in_([m.id for m in matches]))
    if numbers is not None:
        query = query.where(Hand.number.in_(numbers))
    out: dict[tuple[int, int], HandFacts] = {}
    for match_id, number, record, entered in db.session.connection().execute(query):
        fouls = None
        if entered is not None:
            fouls = [p["name"] for p in entered["players"] if p.get("foul")]
        out[(match_id, number)] = HandFacts.from_record(number, record, fouls)
    return out
