"""The database lost just after a commit, as on a PostgreSQL restart between a write's
commit and what the request does after it."""

from contextlib import contextmanager

from sqlalchemy import event
from sqlalchemy.exc import OperationalError

from ledger.extensions import db


@contextmanager
def lost_after_commit(app):
    """From the first commit that stored something, every statement fails as when the
    server closed the connection; yields the state (``lost``: the failure has begun)."""
    state = {"wrote": False, "lost": False}

    def flushed(session, context):
        state["wrote"] = True

    def committed(session):
        state["lost"] = state["lost"] or state["wrote"]

    def execute(conn, cursor, statement, parameters, context, executemany):
        if state["lost"]:
            raise OperationalError(statement, parameters, Exception("server closed the connection"))

    with app.app_context():
        engine = db.engine
    event.listen(db.session, "after_flush", flushed)
    event.listen(db.session, "after_commit", committed)
    event.listen(engine, "before_cursor_execute", execute)
    try:
        yield state
    finally:
        event.remove(engine, "before_cursor_execute", execute)
        event.remove(db.session, "after_commit", committed)
        event.remove(db.session, "after_flush", flushed)
