"""Counting the SQL statements a piece of code runs (to show no query per hand)."""

from contextlib import contextmanager

from sqlalchemy import event

from ledger.extensions import db

#: What opens a transaction as one snapshot (ledger.matches.isolation): no query.
TRANSACTION_CONTROL = ("BEGIN", "SET TRANSACTION")


@contextmanager
def counting_queries(app):
    statements: list[str] = []

    def count(conn, cursor, statement, parameters, context, executemany):
        if not statement.startswith(TRANSACTION_CONTROL):
            statements.append(statement)

    with app.app_context():
        engine = db.engine
    event.listen(engine, "before_cursor_execute", count)
    try:
        yield statements
    finally:
        event.remove(engine, "before_cursor_execute", count)
