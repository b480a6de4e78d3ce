"""a payment's id is never given again (SQLite)

Taking back a payment not yet confirmed deletes it. SQLite gives a new row the largest
id there plus one, so the next payment recorded took the id of the one taken back: a
page opened before ("Received", "Not received", "Take back" name a payment by its id)
or a client's retry then acted on another payment. ``AUTOINCREMENT`` never gives an id
again; SQLite takes it only in ``CREATE TABLE``, so the table is made again with its
rows (foreign keys off: ``payment_requests`` refers to it). PostgreSQL's sequence never
reused an id: nothing changes there.

Revision ID: c6d2f8a4e1b3
Revises: b9e3f5a7c1d2
Create Date: 2026-12-07 10:40:00.000000

"""
from contextlib import contextmanager

from alembic import context, op


# revision identifiers, used by Alembic.
revision = 'c6d2f8a4e1b3'
down_revision = 'b9e3f5a7c1d2'
branch_labels = None
depends_on = None


@contextmanager
def _foreign_keys_off():
    """Foreign keys off for the block (PRAGMA foreign_keys does nothing inside a
    transaction, hence the autocommit blocks): dropping the old table would otherwise
    delete the payment requests that refer to it."""
    with context.get_context().autocommit_block():
        op.execute('PRAGMA foreign_keys=OFF')
    try:
        yield
    finally:
        with context.get_context().autocommit_block():
            op.execute('PRAGMA foreign_keys=ON')


def _made_again(autoincrement):
    if op.get_bind().dialect.name != 'sqlite':
        return
    with _foreign_keys_off():
        with op.batch_alter_table(
            'table_payments',
            recreate='always',
            table_kwargs={'sqlite_autoincrement': autoincrement},
        ):
            pass


def upgrade():
    _made_again(True)


def downgrade():
    _made_again(False)
