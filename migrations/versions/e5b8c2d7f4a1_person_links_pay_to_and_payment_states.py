"""each player's own link and how to pay them; payments that close

A roster player may hold their own link (its key stored hashed, as edit keys are) and
publish how to pay them (handles, the text of a wallet's QR code). A payment now has a
state and says who recorded it: the payments stored before were recorded with the table
key and nobody confirmed them, so they are ``unconfirmed``, recorded by ``table``, and
count as before. A confirmed payment taken back is kept with ``deleted_at``.

Revision ID: e5b8c2d7f4a1
Revises: e5b7c2d9a3f1
Create Date: 2026-12-05 22:30:00.000000

"""

from alembic import op
import sqlalchemy as sa


# revision identifiers, used by Alembic.
revision = "e5b8c2d7f4a1"
down_revision = "e5b7c2d9a3f1"
branch_labels = None
depends_on = None


def upgrade():
    op.add_column(
        "table_players", sa.Column("person_key_hash", sa.String(length=64), nullable=True)
    )
    op.add_column("table_players", sa.Column("handles", sa.JSON(), nullable=True))
    op.add_column("table_players", sa.Column("qr", sa.String(length=512), nullable=True))
    op.add_column(
        "table_players", sa.Column("pay_to_set_at", sa.DateTime(timezone=True), nullable=True)
    )
    op.create_index(
        "ix_table_players_person_key_hash", "table_players", ["person_key_hash"], unique=True
    )
    op.add_column(
        "table_payments",
        sa.Column("state", sa.String(length=12), nullable=False, server_default="unconfirmed"),
    )
    op.add_column(
        "table_payments",
        sa.Column("recorded_by", sa.String(length=8), nullable=False, server_default="table"),
    )
    op.add_column(
        "table_payments", sa.Column("answered_at", sa.DateTime(timezone=True), nullable=True)
    )
    op.add_column(
        "table_payments", sa.Column("deleted_at", sa.DateTime(timezone=True), nullable=True)
    )


def downgrade():
    # Plain DROP COLUMN (SQLite 3.35+), as the kept fold's downgrade. Rejected payments
    # and the records of deleted ones would count again: they go first.
    op.execute("DELETE FROM table_payments WHERE state = 'rejected' OR deleted_at IS NOT NULL")
    op.drop_column("table_payments", "deleted_at")
    op.drop_column("table_payments", "answered_at")
    op.drop_column("table_payments", "recorded_by")
    op.drop_column("table_payments", "state")
    op.drop_index("ix_table_players_person_key_hash", table_name="table_players")
    op.drop_column("table_players", "pay_to_set_at")
    op.drop_column("table_players", "qr")
    op.drop_column("table_players", "handles")
    op.drop_column("table_players", "person_key_hash")
