"""a table's night: a match ended by the table, and its guests


A match made in a table with no length is open: the night runs until the table ends
it ("End the night"), whatever its length. ``ended_at`` is when it was ended (NULL
while it runs: every existing match); ``reopened_at`` when such an end was last
taken back.

A guest plays a night of a table without joining its roster: ``match_players.guest``
marks them (false for every existing player: they all joined their table's roster);
adding the name to the roster later clears it in every match of the table.

Revision ID: e7c2b9a4d1f3
Revises: e5b8c2d7f4a1
Create Date: 2026-12-05 22:30:00.000000

"""
from alembic import op
import sqlalchemy as sa


# revision identifiers, used by Alembic.
revision = 'e7c2b9a4d1f3'
down_revision = 'e5b8c2d7f4a1'
branch_labels = None
depends_on = None


def upgrade():
    with op.batch_alter_table('matches') as batch:
        batch.add_column(sa.Column('ended_at', sa.DateTime(timezone=True), nullable=True))
        batch.add_column(sa.Column('reopened_at', sa.DateTime(timezone=True), nullable=True))
    with op.batch_alter_table('match_players') as batch:
        batch.add_column(
            sa.Column('guest', sa.Boolean(), nullable=False, server_default=sa.false())
        )


def downgrade():
    with op.batch_alter_table('match_players') as batch:
        batch.drop_column('guest')
    with op.batch_alter_table('matches') as batch:
        batch.drop_column('reopened_at')
        batch.drop_column('ended_at')
