"""a payment from a player to themselves is taken back

Before merges were refused between two players with a payment between them, merging
Dipa2 into Dipa turned "Dipa2 paid Dipa" into Dipa -> Dipa. Such a payment moves no
money (the payer's balance gains what the payee's loses: the same player's), but the
table's export carried it and its import refused it ("A payment goes from one player
to another"), so the table no longer round-tripped. The upgrade takes every such
payment still counted or shown back, as a confirmed payment is taken back: kept as a
record that no longer counts (``deleted_at``, shown with ``?deleted=1`` and on the
player's page), left out of the export. No balance changes.

The downgrade leaves them taken back: nothing tells them from a payment the table took
back itself, and taken back they count for the nothing they counted for before.

Revision ID: f2b7d1e8c4a6
Revises: d8f4a2c6e9b1
Create Date: 2026-12-07 17:20:00.000000

"""
from datetime import datetime, timezone

from alembic import op
import sqlalchemy as sa


# revision identifiers, used by Alembic.
revision = 'f2b7d1e8c4a6'
down_revision = 'd8f4a2c6e9b1'
branch_labels = None
depends_on = None

payments = sa.table(
    'table_payments',
    sa.column('payer', sa.String()),
    sa.column('payee', sa.String()),
    sa.column('deleted_at', sa.DateTime(timezone=True)),
)


def upgrade():
    # Stored in UTC, as the ledger writes every moment (naive on SQLite).
    now = datetime.now(timezone.utc)
    if op.get_bind().dialect.name == 'sqlite':
        now = now.replace(tzinfo=None)
    op.execute(
        payments.update()
        .where(payments.c.payer == payments.c.payee, payments.c.deleted_at.is_(None))
        .values(deleted_at=now)
    )


def downgrade():
    pass
