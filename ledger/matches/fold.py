"""The engine's fold of a match, kept in the database (``engine.scoreboard``).

The match row keeps its ``Scoreboard``; each hand keeps its fold record (what the fold
needs of it, the foul penalties carried into it and the fouls waiting after it) and its
JSON. A write takes them up where the last write left them:

- a new hand is one step of the fold from the scoreboard;
- an edit or a delete counts the old hand out of the scoreboard and the new one in,
  then folds on through the later hands only while their carry changes (a finisher
  settles the fouls waiting, so that is seldom more than the next hand);
- only when a player's best hand was the one taken out is the scoreboard rebuilt, from
  the small fold records of the hands (never a recount).

A match stored before any of this was kept has none of it: the first read fills it in
(``scoreboard``), folding every hand once. Writes call these inside their transaction,
after taking the match's row (``service._touch``), so no other write can interleave.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import replace
from datetime import datetime

from msgspec import structs
from sqlalchemy import func, inspect, select, update

from ledger.engine import HandRecord
from ledger.engine.scoreboard import (
    Carry,
    Scoreboard,
    carry,
    moves_text,
    record_from_json,
    record_json,
    refold,
    running_totals,
)
from ledger.extensions import db
from ledger.matches import isolation
from ledger.matches.models import Hand, Match
from ledger.matches.players_kept import seating
from ledger.matches.reading import rules_from_record
from ledger.matches.running_kept import Kept, added_since, running_kept
from ledger.matches.view import (
    HAND_ROW_COLUMNS,
    HandRow,
    ShownHand,
    hand_fragment,
    hand_record,
    hand_view,
)

#: The later hands' fold records an edit reads at first (more only if the carries go on
#: changing: the next hand with a finisher settles them, so two is most often enough).
FIRST_LATER = 2


def scoreboard(match: Match) -> Scoreboard:
    """The match's scoreboard as kept (filled in and committed first for a match stored
    before scoreboards were kept: holding the match's row, as a write does, so that a
    write at the same moment is not undone by a fill from what it changed)."""
    if match.scoreboard is None:
        with isolation.writing():
            db.session.execute(  # takes the row; changes nothing
                update(Match).where(Match.id == match.id).values(updated_at=Match.updated_at),
                execution_options={"synchronize_session": False},
            )
            db.session.expire(match, ["players"])  # as stored, now that the row is held
            board = held_scoreboard(match)
            db.session.commit()
        return board
    return Scoreboard.from_json(seating(match).names, match.scoreboard)


def held_scoreboard(match: Match) -> Scoreboard:
    """Inside a write that holds the match's row: the scoreboard as stored now (another
    write may have changed it since ``match`` was loaded)."""
    if "scoreboard" not in inspect(match).expired_attributes:  # else read at its first use
        db.session.refresh(match, ["scoreboard"])
    if match.scoreboard is None:
        return fill(match)
    return Scoreboard.from_json(match.player_names, match.scoreboard)


def fill(match: Match, at: datetime | None = None) -> Scoreboard:
    """Fold every hand of the match from the first and keep the result (not committed).
    ``at``: the moment of the write that changed every hand (its rules); None: no change
    of the match, so its ``updated_at`` stays."""
    players, rules = tuple(match.player_names), rules_from_record(match.rules)
    folded: list[tuple[HandRecord, Carry]] = []
    pending: tuple[str, ...] = ()
    for row in db.session.scalars(
        select(Hand).where(Hand.match_id == match.id).order_by(Hand.number)
    ):
        record = hand_record(row.number, row.dealer, row.result)
        carried = carry(pending, record, rules)
        settle_row(row, record, carried, players)
        folded.append((record, carried))
        pending = carried.pending
    board = Scoreboard.rebuild(players, folded)
    keep(match, board, at or match.updated_at)
    return board


def settle_row(row: Hand, record: HandRecord, carried: Carry, players: tuple[str, ...]) -> None:
    """Keep the hand's fold record and its JSON (which shows the penalties carried in)."""
    row.record = record_json(record, carried)
    row.moves = moves_text(players, record, carried)
    row.fragment = hand_fragment(hand_view(row, players))


def keep(match: Match, board: Scoreboard, at: datetime) -> None:
    """Store the scoreboard in the row the write already counted (``updated_at`` stays the
    write's moment: the answer shows it)."""
    db.session.execute(
        update(Match).where(Match.id == match.id).values(scoreboard=board.to_json(), updated_at=at),
        execution_options={"synchronize_session": False},
    )


def add(match: Match, board: Scoreboard, row: Hand) -> Scoreboard:
    """The scoreboard after new hand ``row`` (the newest), whose record this keeps."""
    record = hand_record(row.number, row.dealer, row.result)
    carried = carry(board.pending, record, rules_from_record(match.rules))
    settle_row(row, record, carried, tuple(match.player_names))
    return board.with_hand(record, carried)


def rewrite(
    match: Match, number: int, old: tuple[HandRecord, Carry] | None, row: Hand | None
) -> Scoreboard:
    """The scoreboard after hand ``number`` (``old`` as it was folded; None: a deleted
    hand put back) became ``row`` (None: deleted); keeps the records of the hands whose
    carry changed."""
    players, rules = tuple(match.player_names), rules_from_record(match.rules)
    before = _previous(match, number)
    pending = before[1].pending if before else ()
    new = None
    if row is not None:
        record = hand_record(row.number, row.dealer, row.result)
        new = (record, carry(pending, record, rules))
        settle_row(row, *new, players)
        pending = new[1].pending
    board = held_scoreboard(match).replaced(old, new)
    later = _Later(match, number)
    for hand, was, now in refold(pending, later.folded(), rules):
        settle_row(later.row(hand.number), hand, now, players)
        board = board.with_penalties(was, now) if board is not None else None
        pending = now.pending
    if board is None:  # a best hand was counted out: fold the kept records again
        db.session.flush()
        return Scoreboard.rebuild(players, _folded(match))
    if not later.exhausted:
        return board  # a later hand's carry came out as stored: the rest stands
    if later.seen:
        return replace(board, pending=pending)
    # The hand was the newest: the deal follows it, or the hand before it.
    newest = row.dealer if row is not None else before[0].dealer if before else None
    return replace(board, pending=pending, last_dealer=newest)


def totals_after_each_hand(
    match: Match, newest: Sequence[ShownHand] = ()
) -> list[tuple[int, tuple[int, ...]]]:
    """(number, the totals after it in seat order) for every hand: the chart's points.
    Taken up from the ones kept for an earlier version when only hands were added since
    (``running_kept``: the added ones' moves from ``newest``, the hands read with their
    moves, when they are among them), else read from an index alone, through the
    connection (no ORM rows: there are many)."""
    return list(_running(match, newest).running)


def played(match: Match) -> tuple[datetime | None, datetime | None]:
    """When the match's first and last hand were played (None, None: no hand yet)."""
    kept = _running(match)
    if kept.played is not None:
        return kept.played
    first, last = db.session.execute(
        select(func.min(Hand.created_at), func.max(Hand.created_at)).where(
            Hand.match_id == match.id
        )
    ).one()
    running_kept().put(match.public_id, structs.replace(kept, played=(first, last)))
    return first, last


def _running(match: Match, newest: Sequence[ShownHand] = ()) -> Kept:
    """The match's totals after every hand as of its version, kept for the next one."""
    store = running_kept()
    kept = store.get(match.public_id)
    if kept is None or kept.version != match.version:
        added = _added_to(match, kept, newest) if kept is not None else None
        kept = added or _read_running(match)
        store.put(match.public_id, kept)
    return kept


def _read_running(match: Match) -> Kept:
    kept = (
        db.session.connection()
        .execute(
            select(Hand.number, Hand.moves).where(Hand.match_id == match.id).order_by(Hand.number)
        )
        .all()
    )
    seats = len(seating(match).names)
    totals = running_totals(seats, [moves for _, moves in kept])  # type: ignore[misc]
    running = tuple((number, after) for (number, _), after in zip(kept, totals, strict=True))
    return Kept(match.version, match.last_hand_number, seats, running, None)


def _added_to(match: Match, kept: Kept, newest: Sequence[ShownHand]) -> Kept | None:
    """``kept`` with the hands added since, when only hands were added since (each write
    counts one version, and only an added hand takes a new number); else None."""
    added = added_since(match, kept.version, kept.last_hand_number)
    if not added or len(seating(match).names) != kept.seats or match.scoreboard is None:
        return None
    new: Sequence[tuple[int, str | None, datetime | None]] = sorted(
        (h.number, h.moves, h.created_at) for h in newest if h.number > kept.last_hand_number
    )
    if len(new) != added:  # not all of them among those read: read them
        new = (
            db.session.connection()
            .execute(
                select(Hand.number, Hand.moves, Hand.created_at)
                .where(Hand.match_id == match.id, Hand.number > kept.last_hand_number)
                .order_by(Hand.number)
            )
            .all()
        )
    start = kept.running[-1][1] if kept.running else None
    totals = running_totals(kept.seats, [moves for _, moves, _ in new], start)  # type: ignore[misc]
    running = kept.running + tuple(
        (number, after) for (number, _, _), after in zip(new, totals, strict=True)
    )
    board = Scoreboard.from_json(seating(match).names, match.scoreboard)
    if len(running) != board.hands or (
        running and running[-1][1] != tuple(board.totals[name] for name in board.players)
    ):
        return None  # not as the scoreboard counts them: read them all
    played = None
    if kept.played is not None and new:
        moments = [moment for _, _, moment in new if moment is not None]
        first = kept.played[0] or min(moments, default=None)
        last = max([m for m in (kept.played[1], *moments) if m is not None], default=None)
        played = (first, last)
    return Kept(match.version, match.last_hand_number, kept.seats, running, played)


def page_of_hands(match: Match, first: int, count: int) -> list[HandRow]:
    """``count`` hands in number order from the ``first``-th (0: the first played)."""
    rows = db.session.execute(
        select(*HAND_ROW_COLUMNS)
        .where(Hand.match_id == match.id)
        .order_by(Hand.number)
        .offset(first)
        .limit(count)
    )
    return [HandRow._make(r) for r in rows]


def hands(
    match: Match, newest: int | None = None, also: int | None = None, after: int = 0
) -> list[HandRow]:
    """The match's hands in number order, as rows: all of them, or the ``newest`` few
    (with their moves: the chart's totals take up the newest hands', ``_added_to``) and
    hand ``also`` (when there is one); only those numbered above ``after``."""
    query = select(*HAND_ROW_COLUMNS).where(Hand.match_id == match.id)
    if after:
        query = query.where(Hand.number > after)
    if newest is None:
        return [HandRow._make(r) for r in db.session.execute(query.order_by(Hand.number))]
    found = []
    if newest:
        newest_first = query.order_by(Hand.number.desc()).limit(newest)
        found = [HandRow._make(r) for r in db.session.execute(newest_first)]
    if also is not None and all(h.number != also for h in found):
        found += [HandRow._make(r) for r in db.session.execute(query.where(Hand.number == also))]
    return sorted(found, key=lambda h: h.number)


def newest_fragments(match: Match, newest: int) -> list[tuple[int, str | None]]:
    """(number, the JSON it keeps of its view) of the ``newest`` hands, newest first: text
    to compare, nothing decoded."""
    rows = db.session.execute(
        select(Hand.number, Hand.fragment)
        .where(Hand.match_id == match.id)
        .order_by(Hand.number.desc())
        .limit(newest)
    )
    return [(number, fragment) for number, fragment in rows]


def hands_numbered(match: Match, numbers: Sequence[int]) -> list[HandRow]:
    """The match's hands ``numbers``, as rows, in number order."""
    rows = db.session.execute(
        select(*HAND_ROW_COLUMNS)
        .where(Hand.match_id == match.id, Hand.number.in_(list(numbers)))
        .order_by(Hand.number)
    )
    return [HandRow._make(r) for r in rows]


def _folded(match: Match) -> Iterator[tuple[HandRecord, Carry]]:
    rows = db.session.execute(
        select(Hand.number, Hand.dealer, Hand.record)
        .where(Hand.match_id == match.id)
        .order_by(Hand.number)
    )
    for number, dealer, record in rows:
        yield record_from_json(number, dealer, record)


def _previous(match: Match, number: int) -> tuple[HandRecord, Carry] | None:
    """The fold record of the hand before hand ``number`` (None: it is the first)."""
    found = db.session.execute(
        select(Hand.number, Hand.dealer, Hand.record)
        .where(Hand.match_id == match.id, Hand.number < number)
        .order_by(Hand.number.desc())
        .limit(1)
    ).one_or_none()
    return record_from_json(*found) if found is not None else None


class _Later:
    """The hands after hand ``number``, their fold records read a few at a time, as far
    as the fold asks; a whole hand is read only when its carry changed."""

    def __init__(self, match: Match, number: int):
        self.match, self.number = match, number
        self.seen = 0  # later hands read
        self.exhausted = False  # every later hand was read and folded

    def folded(self) -> Iterator[tuple[HandRecord, Carry]]:
        after, size = self.number, FIRST_LATER
        while True:
            batch = db.session.execute(
                select(Hand.number, Hand.dealer, Hand.record)
                .where(Hand.match_id == self.match.id, Hand.number > after)
                .order_by(Hand.number)
                .limit(size)
            ).all()
            for number, dealer, record in batch:
                self.seen += 1
                yield record_from_json(number, dealer, record)
            if len(batch) < size:
                self.exhausted = True
                return
            after, size = batch[-1].number, size * 4

    def row(self, number: int) -> Hand:
        return db.session.scalars(
            select(Hand).where(Hand.match_id == self.match.id, Hand.number == number)
        ).one()
