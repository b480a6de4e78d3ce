"""The migration that gives each payment its own currency fills the payments stored
before with their table's stake currency as it is then (NULL in a table without a
stake), and its downgrade takes the column away again."""

from __future__ import annotations

from sqlalchemy import inspect, text

from ledger.extensions import db

BEFORE = "e7c2b9a4d1f3"
NOW = "2026-12-01 20:00:00"


def _table(sql, number: int, currency: str | None) -> None:
    """Table ``number`` (staked in ``currency``, or not), its season and one payment."""
    sql.execute(
        text(
            "INSERT INTO tables (id, public_id, name, rules, stake_per_point, stake_currency, "
            "edit_key_hash, version, created_at, updated_at) VALUES (:id, :public, 'T', "
            '\'{"profile": "sparkai"}\', :per_point, :currency, :key, 1, :now, :now)'
        ),
        {
            "id": number,
            "public": f"table{number}",
            "per_point": "1.00" if currency else None,
            "currency": currency,
            "key": "0" * 64,
            "now": NOW,
        },
    )
    sql.execute(
        text(
            "INSERT INTO seasons (id, public_id, table_id, name, started_at) "
            "VALUES (:id, :public, :id, '1', :now)"
        ),
        {"id": number, "public": f"season{number}", "now": NOW},
    )
    sql.execute(
        text(
            "INSERT INTO table_payments (id, table_id, season_id, payer, payee, amount, at, "
            "recorded_at) VALUES (:id, :id, :id, 'Bikash', 'Asha', '5.50', :now, :now)"
        ),
        {"id": number, "now": NOW},
    )


def test_the_payments_stored_before_take_their_tables_currency(unmigrated_app):
    app = unmigrated_app
    runner = app.test_cli_runner()
    assert runner.invoke(args=["db", "upgrade", BEFORE]).exit_code == 0
    with app.app_context():
        try:
            with db.engine.begin() as sql:
                _table(sql, 1, "NPR")
                _table(sql, 2, None)  # its stake dropped before the upgrade
                _table(sql, 3, "INR")
        finally:
            db.engine.dispose()
    assert runner.invoke(args=["db", "upgrade"]).exit_code == 0
    with app.app_context():
        try:
            with db.engine.connect() as sql:
                rows = sql.execute(text("SELECT id, currency FROM table_payments ORDER BY id"))
                assert rows.all() == [(1, "NPR"), (2, None), (3, "INR")]
        finally:
            db.engine.dispose()
    assert runner.invoke(args=["db", "downgrade", BEFORE]).exit_code == 0
    with app.app_context():
        try:
            columns = {c["name"] for c in inspect(db.engine).get_columns("table_payments")}
            assert "currency" not in columns and "amount" in columns
            with db.engine.connect() as sql:
                assert sql.execute(text("SELECT count(*) FROM table_payments")).scalar() == 3
        finally:
            db.engine.dispose()
