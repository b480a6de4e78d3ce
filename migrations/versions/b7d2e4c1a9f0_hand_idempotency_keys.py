"""hand idempotency keys

A hand keeps the Idempotency-Key it was stored with (unique within its match), a
digest of that request and the first answer, so that a repeated request is answered
again instead of storing the hand twice.

Revision ID: b7d2e4c1a9f0
Revises: 5b1e0c7a9d24
Create Date: 2026-11-30 15:20:00.000000

"""
from alembic import op
import sqlalchemy as sa


# revision identifiers, used by Alembic.
revision = 'b7d2e4c1a9f0'
down_revision = '5b1e0c7a9d24'
branch_labels = None
depends_on = None


def upgrade():
    with op.batch_alter_table('hands', schema=None) as batch_op:
        batch_op.add_column(sa.Column('idempotency_key', sa.String(length=200), nullable=True))
        batch_op.add_column(sa.Column('request_digest', sa.String(length=64), nullable=True))
        batch_op.add_column(sa.Column('first_answer', sa.JSON(), nullable=True))
        batch_op.create_unique_constraint(
            batch_op.f('uq_hands_match_id_idempotency_key'), ['match_id', 'idempotency_key']
        )


def downgrade():
    with op.batch_alter_table('hands', schema=None) as batch_op:
        batch_op.drop_constraint(batch_op.f('uq_hands_match_id_idempotency_key'), type_='unique')
        batch_op.drop_column('first_answer')
        batch_op.drop_column('request_digest')
        batch_op.drop_column('idempotency_key')
