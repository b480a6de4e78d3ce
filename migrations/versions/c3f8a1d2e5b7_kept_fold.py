"""the match's scoreboard and each hand's fold record, moves and JSON, kept

A write then takes up the match where the last one left it instead of folding every
hand again, and the match's JSON is assembled from its hands' kept JSON. All three are
empty for the matches stored before: the ledger fills them from the stored hands the
first time such a match is read.

Revision ID: c3f8a1d2e5b7
Revises: b7d2e4c1a9f0
Create Date: 2026-11-30 23:30:00.000000

"""
from alembic import op
import sqlalchemy as sa


# revision identifiers, used by Alembic.
revision = 'c3f8a1d2e5b7'
down_revision = 'b7d2e4c1a9f0'
branch_labels = None
depends_on = None


def upgrade():
    op.add_column('matches', sa.Column('scoreboard', sa.JSON(), nullable=True))
    op.add_column('hands', sa.Column('record', sa.JSON(), nullable=True))
    op.add_column('hands', sa.Column('fragment', sa.Text(), nullable=True))
    op.add_column('hands', sa.Column('moves', sa.Text(), nullable=True))
    op.create_index(
        'ix_hands_match_id_number_moves', 'hands', ['match_id', 'number', 'moves'], unique=False
    )
    op.create_index(
        'ix_hands_match_id_created_at', 'hands', ['match_id', 'created_at'], unique=False
    )


def downgrade():
    # Plain DROP COLUMN (SQLite 3.35+): a batch copy of ``matches`` would cascade-delete
    # every hand on SQLite with foreign keys on.
    op.drop_index('ix_hands_match_id_created_at', table_name='hands')
    op.drop_index('ix_hands_match_id_number_moves', table_name='hands')
    op.drop_column('hands', 'moves')
    op.drop_column('hands', 'fragment')
    op.drop_column('hands', 'record')
    op.drop_column('matches', 'scoreboard')
