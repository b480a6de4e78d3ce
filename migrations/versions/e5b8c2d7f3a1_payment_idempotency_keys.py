"""payment idempotency keys

A write of a table's payment (recording one, taking one back) may carry an
Idempotency-Key: the key (unique within the table), a digest of the request and the
first answer are kept, so that the same request again is answered again instead of
recording the payment twice. A recording's key is deleted with its payment.

Revision ID: e5b8c2d7f3a1
Revises: d4a9e6f1b2c8
Create Date: 2026-12-05 22:30:00.000000

"""
from alembic import op
import sqlalchemy as sa


# revision identifiers, used by Alembic.
revision = 'e5b8c2d7f3a1'
down_revision = 'd4a9e6f1b2c8'
branch_labels = None
depends_on = None


def upgrade():
    op.create_table('payment_requests',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('table_id', sa.Integer(), nullable=False),
    sa.Column('idempotency_key', sa.String(length=200), nullable=False),
    sa.Column('request_digest', sa.String(length=64), nullable=False),
    sa.Column('payment_id', sa.Integer(), nullable=True),
    sa.Column('status', sa.Integer(), nullable=False),
    sa.Column('answer', sa.JSON(), nullable=False),
    sa.Column('created_at', sa.DateTime(timezone=True), nullable=False),
    sa.ForeignKeyConstraint(['payment_id'], ['table_payments.id'], name=op.f('fk_payment_requests_payment_id_table_payments'), ondelete='CASCADE'),
    sa.ForeignKeyConstraint(['table_id'], ['tables.id'], name=op.f('fk_payment_requests_table_id_tables'), ondelete='CASCADE'),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_payment_requests')),
    sa.UniqueConstraint('table_id', 'idempotency_key', name=op.f('uq_payment_requests_table_id_idempotency_key'))
    )
    op.create_index(op.f('ix_payment_requests_payment_id'), 'payment_requests', ['payment_id'], unique=False)


def downgrade():
    op.drop_index(op.f('ix_payment_requests_payment_id'), table_name='payment_requests')
    op.drop_table('payment_requests')
