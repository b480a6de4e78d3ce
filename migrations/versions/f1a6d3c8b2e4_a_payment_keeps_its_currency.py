"""a payment keeps the currency it was handed over in

A payment took its table's current currency, so one recorded at a stake showed no
currency once the table dropped its stake, and another once the table changed it. It
now keeps its own (``table_payments.currency``), set when it is recorded. The payments
stored before are given their table's stake currency as it is now (all that is known
of them), or NULL in a table that has no stake now.

Revision ID: f1a6d3c8b2e4
Revises: e7c2b9a4d1f3
Create Date: 2026-12-06 18:00:00.000000

"""
from alembic import op
import sqlalchemy as sa


# revision identifiers, used by Alembic.
revision = 'f1a6d3c8b2e4'
down_revision = 'e7c2b9a4d1f3'
branch_labels = None
depends_on = None


def upgrade():
    op.add_column('table_payments', sa.Column('currency', sa.String(length=3), nullable=True))
    op.execute(
        "UPDATE table_payments SET currency = ("
        "SELECT tables.stake_currency FROM tables WHERE tables.id = table_payments.table_id)"
    )


def downgrade():
    # Plain DROP COLUMN (SQLite 3.35+), as the earlier payment columns' downgrade.
    op.drop_column('table_payments', 'currency')
