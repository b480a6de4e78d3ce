"""The database tables (SQLAlchemy 2 typed models: Mapped, mapped_column).

Every model subclasses ``db.Model`` (whose base is ``ledger.extensions.Base``).
create_app imports this module so that ``flask init-db`` and Flask-Migrate see
every table. Scores are never computed here: a hand stores what the table entered
and the engine's result for it; ``ledger.matches`` does the reading and writing.
"""

from __future__ import annotations

import secrets
from datetime import UTC, datetime
from decimal import Decimal
from typing import TYPE_CHECKING, Any

from sqlalchemy import (
    JSON,
    Boolean,
    DateTime,
    ForeignKey,
    Index,
    Integer,
    String,
    Text,
    TypeDecorator,
    UniqueConstraint,
)
from sqlalchemy.orm import Mapped, Relationship, mapped_column, relationship
from sqlalchemy.sql.expression import false

from ledger.engine.game import MAX_MATCH_NAME, MAX_NAME
from ledger.extensions import db

if TYPE_CHECKING:  # Flask-SQLAlchemy's db.Model is made at run time: mypy sees its base
    from ledger.extensions import Base

    Model = Base
else:
    Model = db.Model

#: Room for the text of a stake per point (``Stake``: at most 10 digits, 2 places).
MAX_DECIMAL_TEXT = 16
#: The longest idempotency key a client may send (docs/api.md).
IDEMPOTENCY_KEY_MAX = 200
#: The largest whole number an integer column holds on both databases: PostgreSQL's
#: ``integer`` (SQLite's goes on to 2**63 - 1). Every whole number read from a request is
#: bounded by it before it reaches a query (``reading.read_whole_number``, URL converters).
INTEGER_MAX = 2**31 - 1


def utcnow() -> datetime:
    return datetime.now(UTC)


class UTCDateTime(TypeDecorator[datetime]):
    """A moment stored with its zone and always read back aware, in UTC (SQLite keeps no
    zone and gives naive datetimes back; they were written in UTC)."""

    impl = DateTime(timezone=True)
    cache_ok = True

    def process_bind_param(self, value: datetime | None, dialect: Any) -> datetime | None:
        return value.astimezone(UTC) if value is not None and value.tzinfo else value

    def process_result_value(self, value: datetime | None, dialect: Any) -> datetime | None:
        if value is None:
            return None
        return value.replace(tzinfo=UTC) if value.tzinfo is None else value.astimezone(UTC)


class DecimalText(TypeDecorator[Decimal]):
    """An exact decimal stored as its text ("0.50"): SQLite keeps NUMERIC as a float, and
    money must never pass through one."""

    impl = String(MAX_DECIMAL_TEXT)
    cache_ok = True

    def process_bind_param(self, value: Decimal | None, dialect: Any) -> str | None:
        return None if value is None else format(value, "f")

    def process_result_value(self, value: str | None, dialect: Any) -> Decimal | None:
        return None if value is None else Decimal(value)


def owned_rows(back_populates: str, order_by: str) -> Relationship[Any]:
    """A parent's rows, in order, that live and die with it: saved with it, and deleted
    with it by the database (``ON DELETE CASCADE``, no load first)."""
    return relationship(
        back_populates=back_populates,
        order_by=order_by,
        cascade="all, delete-orphan",
        passive_deletes=True,
    )


def new_public_id() -> str:
    """An unguessable id: whoever has it may read the match."""
    return secrets.token_urlsafe(16)


class Match(Model):
    """A table of registered players, its house rules, length and first dealer."""

    __tablename__ = "matches"
    __table_args__ = (
        # A table's and a season's matches, newest first (the table's pages, its figures,
        # its rescore), and the matches made in a span (the creation limit), read from
        # indexes: a hosted ledger holds thousands of tables (docs/performance.md).
        Index("ix_matches_table_id_created_at", "table_id", "created_at", "id"),
        Index("ix_matches_season_id_created_at", "season_id", "created_at", "id"),
        Index("ix_matches_created_at", "created_at"),
    )

    id: Mapped[int] = mapped_column(primary_key=True)
    public_id: Mapped[str] = mapped_column(String(32), unique=True, default=new_public_id)
    name: Mapped[str] = mapped_column(String(MAX_MATCH_NAME))
    #: ``{"profile": id, "overrides": {setting: JSON value}}``; resolve with the engine.
    rules: Mapped[dict[str, Any]] = mapped_column(JSON)
    #: ``{"hands": N}``, ``{"rotations": N}`` or None for an open match.
    length: Mapped[dict[str, int] | None] = mapped_column(JSON)
    first_dealer: Mapped[str] = mapped_column(String(MAX_NAME))
    #: The stake: money per point (exact, 2 decimal places) and its ISO 4217 currency;
    #: both None when the match is played for points only.
    stake_per_point: Mapped[Decimal | None] = mapped_column(DecimalText)
    stake_currency: Mapped[str | None] = mapped_column(String(3))
    #: SHA-256 (hex) of the edit key; the key itself is shown once, on creation.
    edit_key_hash: Mapped[str] = mapped_column(String(64))
    #: Goes up on every write to the match or its hands (pages poll it to follow changes).
    version: Mapped[int] = mapped_column(Integer, default=1)
    #: The highest hand number ever given: numbers are not reused after a delete.
    last_hand_number: Mapped[int] = mapped_column(Integer, default=0)
    #: ``engine.Scoreboard.to_json()`` after the match's hands, kept so that a write takes
    #: up the match where the last one left it; None until first filled (older matches).
    scoreboard: Mapped[dict[str, Any] | None] = mapped_column(JSON)
    #: The table and season the match is played in (``ledger.tables``); None for a lone
    #: match. A match leaves its table only when the table is deleted.
    table_id: Mapped[int | None] = mapped_column(ForeignKey("tables.id", ondelete="SET NULL"))
    season_id: Mapped[int | None] = mapped_column(ForeignKey("seasons.id", ondelete="SET NULL"))
    #: When the table ended the match after its last hand ("End the night", whatever its
    #: length); None while it runs. ``reopened_at``: when such an end was last taken back.
    ended_at: Mapped[datetime | None] = mapped_column(UTCDateTime)
    reopened_at: Mapped[datetime | None] = mapped_column(UTCDateTime)
    created_at: Mapped[datetime] = mapped_column(UTCDateTime, default=utcnow)
    updated_at: Mapped[datetime] = mapped_column(UTCDateTime, default=utcnow, onupdate=utcnow)

    players: Mapped[list[MatchPlayer]] = owned_rows("match", "MatchPlayer.seat")
    hands: Mapped[list[Hand]] = owned_rows("match", "Hand.number")

    @property
    def player_names(self) -> list[str]:
        return [p.name for p in self.players]

    def __repr__(self) -> str:
        return f"<Match {self.public_id} {self.name!r}>"


class MatchPlayer(Model):
    """A registered player in seat order (the deal passes along the seats)."""

    __tablename__ = "match_players"
    __table_args__ = (
        UniqueConstraint("match_id", "seat"),
        UniqueConstraint("match_id", "name_key"),  # names are unique ignoring case
    )

    id: Mapped[int] = mapped_column(primary_key=True)
    match_id: Mapped[int] = mapped_column(ForeignKey("matches.id", ondelete="CASCADE"))
    seat: Mapped[int] = mapped_column(Integer)
    name: Mapped[str] = mapped_column(String(MAX_NAME))
    #: ``name.casefold()`` (which can be longer than the name, hence the width).
    name_key: Mapped[str] = mapped_column(String(4 * MAX_NAME))
    #: A guest of the match's table: plays this night without being on its roster
    #: (``ledger.tables.guests``); cleared when the name joins the roster.
    guest: Mapped[bool] = mapped_column(Boolean, default=False, server_default=false())

    match: Mapped[Match] = relationship(back_populates="players")


class Hand(Model):
    """One hand: the input as entered (``engine.Hand.to_json()``) and the result agreed.

    ``version`` is SQLAlchemy's optimistic lock: an UPDATE or DELETE of a row that
    someone else changed since it was read fails instead of overwriting their edit.
    The app sets each new version itself (``version_id_generator=False``) so that an
    imported hand keeps the version its history refers to.

    A hand sent with an idempotency key keeps the key, a digest of the request and the
    first answer, for as long as the hand exists: the same request again (a retry, a
    double tap, an offline phone's resend) is answered from them and stores nothing.
    The key is unique within the match, in the database, so that two requests at the
    same instant, in any of the app's processes, cannot both store a hand.
    """

    __tablename__ = "hands"
    __table_args__ = (
        UniqueConstraint("match_id", "number"),
        UniqueConstraint("match_id", "idempotency_key"),
        # The chart's totals and the dates of play are read from these indexes alone:
        # the rows themselves are large (the hand as entered, its result, its JSON).
        Index("ix_hands_match_id_number_moves", "match_id", "number", "moves"),
        Index("ix_hands_match_id_created_at", "match_id", "created_at"),
    )

    id: Mapped[int] = mapped_column(primary_key=True)
    match_id: Mapped[int] = mapped_column(ForeignKey("matches.id", ondelete="CASCADE"))
    number: Mapped[int] = mapped_column(Integer)
    dealer: Mapped[str] = mapped_column(String(MAX_NAME))
    input: Mapped[dict[str, Any]] = mapped_column(JSON)
    #: ``Settlement.to_json()`` without its ``rules`` (the match holds them).
    result: Mapped[dict[str, Any]] = mapped_column(JSON)
    version: Mapped[int] = mapped_column(Integer, default=1)
    created_at: Mapped[datetime] = mapped_column(UTCDateTime, default=utcnow)
    #: When the hand was last entered or edited: set by the write (a change of the fold
    #: record kept with it, when an earlier hand changes, is no edit of this hand).
    updated_at: Mapped[datetime] = mapped_column(UTCDateTime, default=utcnow)
    #: The ``Idempotency-Key`` the hand was stored with (None: sent without one).
    idempotency_key: Mapped[str | None] = mapped_column(String(IDEMPOTENCY_KEY_MAX))
    #: SHA-256 (hex) of the request that stored the hand, to tell a replay from a reuse.
    request_digest: Mapped[str | None] = mapped_column(String(64))
    #: The API's first answer to that request, given again to a replay (read only then:
    #: pages that show a hand never need it).
    first_answer: Mapped[dict[str, Any] | None] = mapped_column(JSON, deferred=True)
    #: What the match's fold needs of the hand (``engine.scoreboard.record_json``): small,
    #: so that the totals after every hand (the chart) cost little to read.
    record: Mapped[dict[str, Any] | None] = mapped_column(JSON)
    #: The hand as the match's JSON shows it, as JSON text: the match's JSON is put
    #: together from these rather than built again hand by hand.
    fragment: Mapped[str | None] = mapped_column(Text, deferred=True)
    #: What the hand adds to each total, in seat order, as text ("12 -4 -8 0"): the
    #: totals after every hand (the chart) are summed from these, cheaper to read than
    #: any JSON.
    moves: Mapped[str | None] = mapped_column(Text, deferred=True)

    match: Mapped[Match] = relationship(back_populates="hands")

    __mapper_args__ = {"version_id_col": version, "version_id_generator": False}

    def __repr__(self) -> str:
        return f"<Hand {self.number} v{self.version}>"


class HandVersion(Model):
    """A hand as it was before an edit or a delete: its history.

    It hangs off the match and the hand's number, not the hand's row, so that the
    record of a deleted hand survives the delete.
    """

    __tablename__ = "hand_versions"
    __table_args__ = (UniqueConstraint("match_id", "hand_number", "version"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    match_id: Mapped[int] = mapped_column(ForeignKey("matches.id", ondelete="CASCADE"))
    hand_number: Mapped[int] = mapped_column(Integer)
    version: Mapped[int] = mapped_column(Integer)  # the hand's version that this was
    action: Mapped[str] = mapped_column(String(10))  # "edit", "delete" or "rename"
    dealer: Mapped[str] = mapped_column(String(MAX_NAME))
    input: Mapped[dict[str, Any]] = mapped_column(JSON)
    #: As ``Hand.result``; with ``rules`` (``reading.SETTLED_UNDER``) when it was settled
    #: under other rules than the match's now (they were changed for good since).
    result: Mapped[dict[str, Any]] = mapped_column(JSON)
    #: When this version had been saved; ``replaced_at``: when the edit or delete came.
    saved_at: Mapped[datetime] = mapped_column(UTCDateTime)
    replaced_at: Mapped[datetime] = mapped_column(UTCDateTime, default=utcnow)
