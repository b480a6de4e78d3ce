"""matches, players, hands and hand history

The first schema: a match (public id, rules, length, hashed edit key, a write
counter and the last hand number given), its players in seat order (names unique
ignoring case), its hands (input and result as JSON, a version for optimistic
locking) and the hands' history. Every child row goes when its match goes
(ON DELETE CASCADE); the unique constraints that start with match_id are the
indexes for lookups by match.

Revision ID: 99f56c62c3ff
Revises:
Create Date: 2026-11-29 22:59:54.292820

"""
from alembic import op
import sqlalchemy as sa


# revision identifiers, used by Alembic.
revision = '99f56c62c3ff'
down_revision = None
branch_labels = None
depends_on = None


def upgrade():
    op.create_table('matches',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('public_id', sa.String(length=32), nullable=False),
    sa.Column('name', sa.String(length=80), nullable=False),
    sa.Column('rules', sa.JSON(), nullable=False),
    sa.Column('length', sa.JSON(), nullable=True),
    sa.Column('first_dealer', sa.String(length=40), nullable=False),
    sa.Column('edit_key_hash', sa.String(length=64), nullable=False),
    sa.Column('version', sa.Integer(), nullable=False),
    sa.Column('last_hand_number', sa.Integer(), nullable=False),
    sa.Column('created_at', sa.DateTime(timezone=True), nullable=False),
    sa.Column('updated_at', sa.DateTime(timezone=True), nullable=False),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_matches')),
    sa.UniqueConstraint('public_id', name=op.f('uq_matches_public_id'))
    )
    op.create_table('hand_versions',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('match_id', sa.Integer(), nullable=False),
    sa.Column('hand_number', sa.Integer(), nullable=False),
    sa.Column('version', sa.Integer(), nullable=False),
    sa.Column('action', sa.String(length=10), nullable=False),
    sa.Column('dealer', sa.String(length=40), nullable=False),
    sa.Column('input', sa.JSON(), nullable=False),
    sa.Column('result', sa.JSON(), nullable=False),
    sa.Column('saved_at', sa.DateTime(timezone=True), nullable=False),
    sa.Column('replaced_at', sa.DateTime(timezone=True), nullable=False),
    sa.ForeignKeyConstraint(['match_id'], ['matches.id'], name=op.f('fk_hand_versions_match_id_matches'), ondelete='CASCADE'),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_hand_versions')),
    sa.UniqueConstraint('match_id', 'hand_number', 'version', name=op.f('uq_hand_versions_match_id_hand_number_version'))
    )
    op.create_table('hands',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('match_id', sa.Integer(), nullable=False),
    sa.Column('number', sa.Integer(), nullable=False),
    sa.Column('dealer', sa.String(length=40), nullable=False),
    sa.Column('input', sa.JSON(), nullable=False),
    sa.Column('result', sa.JSON(), nullable=False),
    sa.Column('version', sa.Integer(), nullable=False),
    sa.Column('created_at', sa.DateTime(timezone=True), nullable=False),
    sa.Column('updated_at', sa.DateTime(timezone=True), nullable=False),
    sa.ForeignKeyConstraint(['match_id'], ['matches.id'], name=op.f('fk_hands_match_id_matches'), ondelete='CASCADE'),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_hands')),
    sa.UniqueConstraint('match_id', 'number', name=op.f('uq_hands_match_id_number'))
    )
    op.create_table('match_players',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('match_id', sa.Integer(), nullable=False),
    sa.Column('seat', sa.Integer(), nullable=False),
    sa.Column('name', sa.String(length=40), nullable=False),
    sa.Column('name_key', sa.String(length=160), nullable=False),
    sa.ForeignKeyConstraint(['match_id'], ['matches.id'], name=op.f('fk_match_players_match_id_matches'), ondelete='CASCADE'),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_match_players')),
    sa.UniqueConstraint('match_id', 'name_key', name=op.f('uq_match_players_match_id_name_key')),
    sa.UniqueConstraint('match_id', 'seat', name=op.f('uq_match_players_match_id_seat'))
    )


def downgrade():
    op.drop_table('match_players')
    op.drop_table('hands')
    op.drop_table('hand_versions')
    op.drop_table('matches')
