"""a match ended by the table: when it was ended, and when an end was taken back

A match made in a table with no length is open: the night runs until the table ends
it ("End the night"), whatever its length. ``ended_at`` is when it was ended (NULL
while it runs: every existing match); ``reopened_at`` when such an end was last
taken back.

Revision ID: e7c2b9a4d1f3
Revises: d4a9e6f1b2c8
Create Date: 2026-12-05 22:30:00.000000

"""
from alembic import op
import sqlalchemy as sa


# revision identifiers, used by Alembic.
revision = 'e7c2b9a4d1f3'
down_revision = 'd4a9e6f1b2c8'
branch_labels = None
depends_on = None


def upgrade():
    with op.batch_alter_table('matches') as batch:
        batch.add_column(sa.Column('ended_at', sa.DateTime(timezone=True), nullable=True))
        batch.add_column(sa.Column('reopened_at', sa.DateTime(timezone=True), nullable=True))


def downgrade():
    with op.batch_alter_table('matches') as batch:
        batch.drop_column('reopened_at')
        batch.drop_column('ended_at')
