"""How many rows a model's table holds, read through an app: for the tests that check
what a request stored, or that it stored nothing."""

from __future__ import annotations

from sqlalchemy import func, select

from ledger.extensions import db


def rows(app, model) -> int:
    """The rows of ``model``'s table in ``app``'s database, now."""
    with app.app_context():
        return db.session.scalar(select(func.count()).select_from(model))
