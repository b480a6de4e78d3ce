"""The database tables of a table of players: its roster, seasons and payments.

A table holds matches (``matches.table_id``, ``matches.season_id``); what its standings
need of each match is kept with the match (its scoreboard), so nothing here repeats a
score. Money is kept exactly, as text (``DecimalText``), never as a float.
"""

from __future__ import annotations

from datetime import datetime
from decimal import Decimal
from typing import Any

from sqlalchemy import JSON, ForeignKey, Index, Integer, String, UniqueConstraint, text
from sqlalchemy.orm import Mapped, mapped_column, relationship

from ledger.engine.game import MAX_MATCH_NAME, MAX_NAME
from ledger.matches.models import (
    IDEMPOTENCY_KEY_MAX,
    DecimalText,
    Model,
    UTCDateTime,
    new_public_id,
    owned_rows,
    utcnow,
)

#: A payment's states (docs/api.md, "Payments that close"): recorded with the table
#: key it is ``unconfirmed`` and counts; recorded by the payer it is ``pending`` and
#: counts only once the payee confirms it; ``rejected`` ones never count.
UNCONFIRMED, PENDING, CONFIRMED, REJECTED = "unconfirmed", "pending", "confirmed", "rejected"
COUNTED_STATES = (UNCONFIRMED, CONFIRMED)
#: Who recorded a payment: the table key's holder, or the payer with their own link.
BY_TABLE, BY_PAYER = "table", "payer"
#: The longest text a player's QR code may carry.
MAX_QR_TEXT = 512


class Table(Model):
    """A group that plays together again and again: its name, the rules and stake of its
    new matches, and the hashed edit key that may write to it and to all its matches."""

    __tablename__ = "tables"

    id: Mapped[int] = mapped_column(primary_key=True)
    public_id: Mapped[str] = mapped_column(String(32), unique=True, default=new_public_id)
    name: Mapped[str] = mapped_column(String(MAX_MATCH_NAME))
    #: ``{"profile": id, "overrides": {...}}`` as a match keeps its rules.
    rules: Mapped[dict[str, Any]] = mapped_column(JSON)
    #: The stake of its new matches; the currency is the table's one currency.
    stake_per_point: Mapped[Decimal | None] = mapped_column(DecimalText)
    stake_currency: Mapped[str | None] = mapped_column(String(3))
    #: SHA-256 (hex) of the edit key, as a match keeps its own.
    edit_key_hash: Mapped[str] = mapped_column(String(64))
    #: Goes up on every write to the table itself (roster, seasons, payments, moves).
    version: Mapped[int] = mapped_column(Integer, default=1)
    created_at: Mapped[datetime] = mapped_column(UTCDateTime, default=utcnow)
    updated_at: Mapped[datetime] = mapped_column(UTCDateTime, default=utcnow, onupdate=utcnow)

    players: Mapped[list[TablePlayer]] = owned_rows("table", "TablePlayer.id")
    seasons: Mapped[list[Season]] = owned_rows("table", "Season.id")

    @property
    def current_season(self) -> Season:
        """The newest season: the one new matches join (a table always has one)."""
        return self.seasons[-1]

    def __repr__(self) -> str:
        return f"<Table {self.public_id} {self.name!r}>"


class TablePlayer(Model):
    """One person on the roster, in the order they joined; names unique ignoring case."""

    __tablename__ = "table_players"
    __table_args__ = (UniqueConstraint("table_id", "name_key"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    table_id: Mapped[int] = mapped_column(ForeignKey("tables.id", ondelete="CASCADE"))
    name: Mapped[str] = mapped_column(String(MAX_NAME))
    #: ``name.casefold()``, as a match keeps its players' names.
    name_key: Mapped[str] = mapped_column(String(4 * MAX_NAME))

    #: SHA-256 (hex) of the player's own link (their person key), as edit keys are
    #: kept; None: no link given, or revoked. Unique: a key names one player.
    person_key_hash: Mapped[str | None] = mapped_column(String(64), unique=True, index=True)
    #: How to pay them, set by the player alone (``ledger.tables.people``): their
    #: handles ``[{"kind", "handle", "label"}]``, the text of their wallet's QR code and
    #: when they last set either; all None until they do.
    handles: Mapped[list[dict[str, str]] | None] = mapped_column(JSON)
    qr: Mapped[str | None] = mapped_column(String(MAX_QR_TEXT))
    pay_to_set_at: Mapped[datetime | None] = mapped_column(UTCDateTime)
    #: The match whose start added them to the roster (a name new to the table typed
    #: for tonight's match); None: on the roster by any other way (the table's own
    #: list, a rename, a match moved in, an import), or that match is gone. A match
    #: deleted as started by mistake takes them off the roster again when nothing else
    #: at the table is theirs (``ledger.tables.service.delete_match``).
    joined_with_match_id: Mapped[int | None] = mapped_column(
        ForeignKey("matches.id", ondelete="SET NULL")
    )

    table: Mapped[Table] = relationship(back_populates="players")


class EarlierName(Model):
    """A name a roster player had before a rename (or a merge into them): the address of
    their page under it, bookmarked or shared, still leads to them. A name is one
    player's within a table (``name_key``, ignoring case, as the roster's); it goes when
    a player on the roster takes it, and all of a player's go when they are forgotten
    (``ledger.tables.earlier_names``)."""

    __tablename__ = "earlier_names"
    __table_args__ = (UniqueConstraint("table_id", "name_key"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    table_id: Mapped[int] = mapped_column(ForeignKey("tables.id", ondelete="CASCADE"))
    player_id: Mapped[int] = mapped_column(
        ForeignKey("table_players.id", ondelete="CASCADE"), index=True
    )
    #: The earlier name's ``casefold()``: only to be found by, never shown.
    name_key: Mapped[str] = mapped_column(String(4 * MAX_NAME))


class Season(Model):
    """A stretch of nights ("Tihar 2083"); the newest of a table is its current one, the
    older ones are closed (kept, and looked back on)."""

    __tablename__ = "seasons"
    __table_args__ = (UniqueConstraint("public_id"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    public_id: Mapped[str] = mapped_column(String(32), default=new_public_id)
    table_id: Mapped[int] = mapped_column(ForeignKey("tables.id", ondelete="CASCADE"), index=True)
    name: Mapped[str] = mapped_column(String(MAX_MATCH_NAME))
    started_at: Mapped[datetime] = mapped_column(UTCDateTime, default=utcnow)

    table: Mapped[Table] = relationship(back_populates="seasons")


class TablePayment(Model):
    """Money handed over between two players of the table, counted in a season's
    balances while ``state`` is one of ``COUNTED_STATES``. Taking one back deletes it,
    but a confirmed one is kept as a record (``deleted_at``) and no longer counts."""

    __tablename__ = "table_payments"
    # A season's payments in the order they were handed over (its balances). On SQLite
    # an id is never given again (AUTOINCREMENT): a payment taken back is deleted, and
    # the next one took its id, so a page opened before (Received, Take back) or a
    # client's retry acted on another payment (PostgreSQL's sequence never reuses one).
    __table_args__ = (
        Index("ix_table_payments_season_id_at", "season_id", "at", "id"),
        {"sqlite_autoincrement": True},
    )

    id: Mapped[int] = mapped_column(primary_key=True)
    table_id: Mapped[int] = mapped_column(ForeignKey("tables.id", ondelete="CASCADE"), index=True)
    season_id: Mapped[int] = mapped_column(ForeignKey("seasons.id", ondelete="CASCADE"))
    payer: Mapped[str] = mapped_column(String(MAX_NAME))
    payee: Mapped[str] = mapped_column(String(MAX_NAME))
    #: Exact (2 decimal places at most), > 0, in ``currency``.
    amount: Mapped[Decimal] = mapped_column(DecimalText)
    #: The currency the money was handed over in: the table's stake's when it was
    #: recorded, kept as it was when the table drops its stake or changes its currency
    #: (docs/tables.md). None only for a payment recorded before payments kept theirs in
    #: a table that had no stake by then.
    currency: Mapped[str | None] = mapped_column(String(3))
    #: When the money was handed over; ``recorded_at``: when it was entered.
    at: Mapped[datetime] = mapped_column(UTCDateTime, default=utcnow)
    recorded_at: Mapped[datetime] = mapped_column(UTCDateTime, default=utcnow)
    state: Mapped[str] = mapped_column(String(12), default=UNCONFIRMED)
    recorded_by: Mapped[str] = mapped_column(String(8), default=BY_TABLE)
    #: When it was confirmed or rejected (None while neither).
    answered_at: Mapped[datetime | None] = mapped_column(UTCDateTime)
    #: A confirmed payment taken back with the table key: kept, counted no more.
    deleted_at: Mapped[datetime | None] = mapped_column(UTCDateTime)

    @property
    def counts(self) -> bool:
        return self.deleted_at is None and self.state in COUNTED_STATES


#: Whose a kept payment key is, in SQL: the table key's (no player) or a player's own.
_BY_TABLE_KEY = text("player_id IS NULL")
_BY_OWN_LINK = text("player_id IS NOT NULL")


class PaymentRequest(Model):
    """A write of a payment sent with an ``Idempotency-Key``: the key (unique within the
    table and its caller, in the database, so that two requests at the same instant in
    any process cannot both be carried out), a digest of the request and the first
    answer, given again to the same request instead of recording the payment twice.

    A key is the caller's: the table key's (``player_id`` None) or a player's own link
    (``player_id``, gone with the player: merged, their link is revoked), so that two
    callers who happen to send the same key are two requests, each replayed to itself.
    A recording's key lives as long as the payment it recorded (``payment_id``, deleted
    with it); a deletion's (``payment_id`` None) is the record of that deletion, kept
    with the table."""

    __tablename__ = "payment_requests"
    # Two partial indexes, not one constraint: SQL tells no NULL from another, so a
    # unique (table, player, key) would not hold the table key's (player NULL) once.
    __table_args__ = (
        Index(
            "uq_payment_requests_table_key",
            "table_id",
            "idempotency_key",
            unique=True,
            sqlite_where=_BY_TABLE_KEY,
            postgresql_where=_BY_TABLE_KEY,
        ),
        Index(
            "uq_payment_requests_own_key",
            "player_id",
            "idempotency_key",
            unique=True,
            sqlite_where=_BY_OWN_LINK,
            postgresql_where=_BY_OWN_LINK,
        ),
    )

    id: Mapped[int] = mapped_column(primary_key=True)
    table_id: Mapped[int] = mapped_column(ForeignKey("tables.id", ondelete="CASCADE"))
    player_id: Mapped[int | None] = mapped_column(
        ForeignKey("table_players.id", ondelete="CASCADE")
    )
    idempotency_key: Mapped[str] = mapped_column(String(IDEMPOTENCY_KEY_MAX))
    #: SHA-256 (hex) of the request, to tell a replay from a reuse of the key.
    request_digest: Mapped[str] = mapped_column(String(64))
    payment_id: Mapped[int | None] = mapped_column(
        ForeignKey("table_payments.id", ondelete="CASCADE"), index=True
    )
    #: The first answer: its status and JSON body.
    status: Mapped[int] = mapped_column(Integer)
    answer: Mapped[dict[str, Any]] = mapped_column(JSON)
    created_at: Mapped[datetime] = mapped_column(UTCDateTime, default=utcnow)
