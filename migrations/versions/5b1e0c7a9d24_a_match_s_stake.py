"""a match's stake: money per point and its currency

A match may be played for a stake: the money per point, an exact decimal kept as
its text ("0.50"; SQLite would keep a NUMERIC as a float) and an ISO 4217 currency
code. Both are NULL for a match played for points only (every existing match).

Revision ID: 5b1e0c7a9d24
Revises: 99f56c62c3ff
Create Date: 2026-12-01 20:00:00.000000

"""
from alembic import op
import sqlalchemy as sa


# revision identifiers, used by Alembic.
revision = '5b1e0c7a9d24'
down_revision = '99f56c62c3ff'
branch_labels = None
depends_on = None


def upgrade():
    with op.batch_alter_table('matches') as batch:
        batch.add_column(sa.Column('stake_per_point', sa.String(length=16), nullable=True))
        batch.add_column(sa.Column('stake_currency', sa.String(length=3), nullable=True))


def downgrade():
    with op.batch_alter_table('matches') as batch:
        batch.drop_column('stake_currency')
        batch.drop_column('stake_per_point')
