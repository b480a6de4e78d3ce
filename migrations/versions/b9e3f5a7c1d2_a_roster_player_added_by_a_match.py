"""a roster player keeps the match whose start added them

A name new to the table typed for tonight's match joins the roster. When that match
is deleted as started by mistake, the player stayed on the roster with nothing of
theirs at the table. ``table_players.joined_with_match_id`` names the match that
added them (NULL for everyone already on the roster: how they joined is not known).

Revision ID: b9e3f5a7c1d2
Revises: a8c4e2f7b1d9
Create Date: 2026-12-07 08:00:00.000000

"""
from alembic import op
import sqlalchemy as sa


# revision identifiers, used by Alembic.
revision = 'b9e3f5a7c1d2'
down_revision = 'a8c4e2f7b1d9'
branch_labels = None
depends_on = None


def upgrade():
    with op.batch_alter_table('table_players') as batch:
        batch.add_column(sa.Column('joined_with_match_id', sa.Integer(), nullable=True))
        batch.create_foreign_key(
            batch.f('fk_table_players_joined_with_match_id_matches'),
            'matches',
            ['joined_with_match_id'],
            ['id'],
            ondelete='SET NULL',
        )


def downgrade():
    with op.batch_alter_table('table_players') as batch:
        batch.drop_constraint(
            batch.f('fk_table_players_joined_with_match_id_matches'), type_='foreignkey'
        )
        batch.drop_column('joined_with_match_id')
