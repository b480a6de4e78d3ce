"""a player's earlier names

A player renamed (or merged into another) left their old page's address answering 404:
a link bookmarked or shared was dead. Their earlier names are now kept
(``earlier_names``, by ``casefold()``, one player's per table) so that the old address
leads to them. Names changed before this revision are not known: nothing to fill in.

Revision ID: a8c4e2f7b1d9
Revises: f1a6d3c8b2e4
Create Date: 2026-12-07 04:15:00.000000

"""
from alembic import op
import sqlalchemy as sa


# revision identifiers, used by Alembic.
revision = 'a8c4e2f7b1d9'
down_revision = 'f1a6d3c8b2e4'
branch_labels = None
depends_on = None


def upgrade():
    op.create_table('earlier_names',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('table_id', sa.Integer(), nullable=False),
    sa.Column('player_id', sa.Integer(), nullable=False),
    sa.Column('name_key', sa.String(length=160), nullable=False),
    sa.ForeignKeyConstraint(['player_id'], ['table_players.id'], name=op.f('fk_earlier_names_player_id_table_players'), ondelete='CASCADE'),
    sa.ForeignKeyConstraint(['table_id'], ['tables.id'], name=op.f('fk_earlier_names_table_id_tables'), ondelete='CASCADE'),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_earlier_names')),
    sa.UniqueConstraint('table_id', 'name_key', name=op.f('uq_earlier_names_table_id_name_key'))
    )
    with op.batch_alter_table('earlier_names') as batch:
        batch.create_index(batch.f('ix_earlier_names_player_id'), ['player_id'], unique=False)


def downgrade():
    with op.batch_alter_table('earlier_names') as batch:
        batch.drop_index(batch.f('ix_earlier_names_player_id'))
    op.drop_table('earlier_names')
