"""The migration that makes SQLite never give a payment's id again (AUTOINCREMENT)
makes ``table_payments`` again with every payment, and the payment requests that refer
to them (foreign keys off: dropping the old table deleted them), and its downgrade
makes it as before."""

from __future__ import annotations

import pytest
from sqlalchemy import text

from ledger.extensions import db

pytestmark = pytest.mark.sqlite_only

BEFORE = "b9e3f5a7c1d2"
NOW = "2026-12-07 10:00:00"


def _sql(app, statement: str) -> list[tuple]:
    with app.app_context():
        try:
            with db.engine.begin() as sql:
                found = sql.execute(text(statement))
                return [tuple(r) for r in found] if found.returns_rows else []
        finally:
            db.engine.dispose()


def _schema(app) -> str:
    [(schema,)] = _sql(app, "SELECT sql FROM sqlite_master WHERE name = 'table_payments'")
    return schema


def test_payment_ids_are_never_given_again_after_the_upgrade(unmigrated_app):
    app = unmigrated_app
    runner = app.test_cli_runner()
    assert runner.invoke(args=["db", "upgrade", BEFORE]).exit_code == 0
    assert "AUTOINCREMENT" not in _schema(app)
    for statement in (
        "INSERT INTO tables (id, public_id, name, rules, stake_per_point, stake_currency, "
        "edit_key_hash, version, created_at, updated_at) VALUES (1, 'table1', 'T', "
        f"'{{\"profile\": \"sparkai\"}}', '1.00', 'NPR', '{'0' * 64}', 1, '{NOW}', '{NOW}')",
        f"INSERT INTO seasons (id, public_id, table_id, name, started_at) VALUES (1, 's1', 1, "
        f"'1', '{NOW}')",
        "INSERT INTO table_payments (id, table_id, season_id, payer, payee, amount, at, "
        f"recorded_at, currency) VALUES (1, 1, 1, 'Bikash', 'Asha', '5.50', '{NOW}', '{NOW}', "
        "'NPR'), (2, 1, 1, 'Dipa', 'Asha', '3.00', '{NOW}', '{NOW}', 'NPR')",
        "INSERT INTO payment_requests (id, table_id, idempotency_key, request_digest, "
        f"payment_id, status, answer, created_at) VALUES (1, 1, 'k', '{'0' * 64}', 1, 201, "
        f"'{{}}', '{NOW}')",
    ):
        _sql(app, statement)

    assert runner.invoke(args=["db", "upgrade"]).exit_code == 0
    assert "AUTOINCREMENT" in _schema(app)
    assert _sql(app, "SELECT id, payer, amount FROM table_payments ORDER BY id") == [
        (1, "Bikash", "5.50"),
        (2, "Dipa", "3.00"),
    ]
    assert _sql(app, "SELECT payment_id FROM payment_requests") == [(1,)]
    # The newest payment taken back: the next one has an id of its own.
    _sql(app, "DELETE FROM table_payments WHERE id = 2")
    _sql(
        app,
        "INSERT INTO table_payments (table_id, season_id, payer, payee, amount, at, "
        f"recorded_at) VALUES (1, 1, 'Chandra', 'Asha', '1.00', '{NOW}', '{NOW}')",
    )
    assert _sql(app, "SELECT id FROM table_payments WHERE payer = 'Chandra'") == [(3,)]

    assert runner.invoke(args=["db", "downgrade", BEFORE]).exit_code == 0
    assert "AUTOINCREMENT" not in _schema(app)
    assert _sql(app, "SELECT id FROM table_payments ORDER BY id") == [(1,), (3,)]
    assert _sql(app, "SELECT payment_id FROM payment_requests") == [(1,)]
