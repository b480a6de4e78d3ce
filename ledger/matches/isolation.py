"""How the session sees the database: reads in one snapshot, writes under their locks.

A page or an answer is put together from several queries (a match's row and its
scoreboard, then its players, its hands; a table's roster, then its matches and
payments). Each query in a moment of its own, a write landing between two of them (a
rename) mixes old names with new ones: a scoreboard keyed by "Bikas" read with the
players "Bikash". So:

- Outside a write, each transaction of the session is one snapshot of the database:
  PostgreSQL's REPEATABLE READ, and on SQLite a deferred ``BEGIN`` (pysqlite itself
  begins a transaction only before a write, so each SELECT would see its own moment).
- A write (``writing``, which ``service.transaction`` opens) first ends the reads'
  snapshot (committed, the objects read kept as read: a write checks what it read,
  a hand's version, against the database) and runs in a transaction of its own:
  READ COMMITTED on PostgreSQL, where it takes the row of what it changes first (the
  match's, the table's) and reads what it depends on after, so that it sees every
  write that went before it; ``BEGIN IMMEDIATE`` on SQLite, which takes the
  database's one write lock at once.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

from sqlalchemy import event
from sqlalchemy.engine import Connection
from sqlalchemy.orm import Session, SessionTransaction

from ledger.extensions import db

#: ``session.info`` key: the session's next transaction is a write's.
WRITING = "writing"


@contextmanager
def writing() -> Iterator[None]:
    """The block is a write: its statements run in a transaction that is not the reads'
    snapshot (the caller commits or rolls back at its end)."""
    session = db.session()
    if session.info.get(WRITING):  # inside a write already
        yield
        return
    if session.in_transaction():
        _end_snapshot(session)
    session.info[WRITING] = True
    try:
        yield
    finally:
        session.info.pop(WRITING, None)


def _end_snapshot(session: Session) -> None:
    """Commit the reads' transaction without expiring what they loaded."""
    session.expire_on_commit = False
    try:
        session.commit()
    finally:
        session.expire_on_commit = True


@event.listens_for(db.session, "after_begin")
def _begin(session: Session, transaction: SessionTransaction, connection: Connection) -> None:
    sqlite = connection.dialect.name == "sqlite"
    if session.info.get(WRITING):
        if sqlite:
            connection.exec_driver_sql("BEGIN IMMEDIATE")
    elif sqlite:
        connection.exec_driver_sql("BEGIN")
    else:
        connection.exec_driver_sql("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ")
