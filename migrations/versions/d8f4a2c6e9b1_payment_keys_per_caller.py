"""a payment's Idempotency-Key is its caller's

A payment write's key was unique within the table: the scorekeeper (the table key) and
a player with their own link who happened to send the same key collided, the second
given the first one's answer (nothing recorded) or refused. A key is now unique within
the table and its caller: ``player_id`` (the player whose own link sent it, gone with
them; NULL: the table key), held by two partial unique indexes (SQL tells no NULL from
another, so one constraint over the three would not hold the table key's once).

The keys kept before are given to the caller that sent them as far as the rows say:
a recording whose payment was recorded by its payer (``recorded_by`` 'payer') is the
payer's; every other key (a taking-back's says nothing of who sent it) the table key's.

Revision ID: d8f4a2c6e9b1
Revises: c6d2f8a4e1b3
Create Date: 2026-12-07 17:10:00.000000

"""

from alembic import op
import sqlalchemy as sa


# revision identifiers, used by Alembic.
revision = "d8f4a2c6e9b1"
down_revision = "c6d2f8a4e1b3"
branch_labels = None
depends_on = None

BY_TABLE_KEY = sa.text("player_id IS NULL")
BY_OWN_LINK = sa.text("player_id IS NOT NULL")
#: The payer's roster row of a key's payment recorded by its payer.
PAYERS_OWN = sa.text(
    "UPDATE payment_requests SET player_id = ("
    "SELECT table_players.id FROM table_payments JOIN table_players "
    "ON table_players.table_id = table_payments.table_id "
    "AND table_players.name = table_payments.payer "
    "WHERE table_payments.id = payment_requests.payment_id "
    "AND table_payments.recorded_by = 'payer') "
    "WHERE payment_id IS NOT NULL"
)


def upgrade():
    with op.batch_alter_table("payment_requests") as batch:
        batch.add_column(sa.Column("player_id", sa.Integer(), nullable=True))
        batch.create_foreign_key(
            batch.f("fk_payment_requests_player_id_table_players"),
            "table_players",
            ["player_id"],
            ["id"],
            ondelete="CASCADE",
        )
        batch.drop_constraint("uq_payment_requests_table_id_idempotency_key", type_="unique")
    op.execute(PAYERS_OWN)
    op.create_index(
        "uq_payment_requests_table_key",
        "payment_requests",
        ["table_id", "idempotency_key"],
        unique=True,
        sqlite_where=BY_TABLE_KEY,
        postgresql_where=BY_TABLE_KEY,
    )
    op.create_index(
        "uq_payment_requests_own_key",
        "payment_requests",
        ["player_id", "idempotency_key"],
        unique=True,
        sqlite_where=BY_OWN_LINK,
        postgresql_where=BY_OWN_LINK,
    )


def downgrade():
    # A key several callers used cannot be unique within the table again: the table
    # key's stays, else the first player's; the others' copies go.
    op.execute(
        "DELETE FROM payment_requests WHERE player_id IS NOT NULL AND EXISTS ("
        "SELECT 1 FROM payment_requests AS other WHERE other.table_id = "
        "payment_requests.table_id AND other.idempotency_key = payment_requests.idempotency_key "
        "AND (other.player_id IS NULL OR other.id < payment_requests.id))"
    )
    op.drop_index("uq_payment_requests_own_key", table_name="payment_requests")
    op.drop_index("uq_payment_requests_table_key", table_name="payment_requests")
    with op.batch_alter_table("payment_requests") as batch:
        batch.create_unique_constraint(
            batch.f("uq_payment_requests_table_id_idempotency_key"),
            ["table_id", "idempotency_key"],
        )
        batch.drop_constraint(
            batch.f("fk_payment_requests_player_id_table_players"), type_="foreignkey"
        )
        batch.drop_column("player_id")
