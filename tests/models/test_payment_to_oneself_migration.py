"""A database made before merges were refused between players with a payment between
them may hold a payment from a player to themselves (Dipa -> Dipa, once "Dipa2 paid
Dipa"): the upgrade takes it back (kept as a record that no longer counts), so that
the table's export has it no more, every other payment and every balance as they were;
an export made before the upgrade loads too, its import taking it back alike."""

from __future__ import annotations

from sqlalchemy import text

from ledger.extensions import db
from ledger.tables import service
from ledger.tables.export import export_table, import_table

BEFORE = "d8f4a2c6e9b1"
NOW = "2026-12-07 10:00:00"


def _sql(app, *statements: str) -> None:
    with app.app_context():
        try:
            with db.engine.begin() as sql:
                for statement in statements:
                    sql.execute(text(statement))
        finally:
            db.engine.dispose()


def test_a_payment_to_oneself_is_taken_back_and_the_table_round_trips(unmigrated_app):
    app = unmigrated_app
    runner = app.test_cli_runner()
    assert runner.invoke(args=["db", "upgrade", BEFORE]).exit_code == 0
    _sql(
        app,
        # Ids of their own: PostgreSQL's sequences, not moved by these, give the import's.
        "INSERT INTO tables (id, public_id, name, rules, stake_per_point, stake_currency, "
        "edit_key_hash, version, created_at, updated_at) VALUES (101, 'table1', 'T', "
        f"'{{\"profile\": \"sparkai\"}}', '1.00', 'NPR', '{'0' * 64}', 1, '{NOW}', '{NOW}')",
        "INSERT INTO seasons (id, public_id, table_id, name, started_at) VALUES "
        f"(101, 's1', 101, '1', '{NOW}')",
        "INSERT INTO table_players (id, table_id, name, name_key) VALUES "
        "(101, 101, 'Asha', 'asha'), (102, 101, 'Dipa', 'dipa')",
        "INSERT INTO table_payments (id, table_id, season_id, payer, payee, amount, at, "
        "recorded_at, currency, state, recorded_by) VALUES "
        f"(101, 101, 101, 'Dipa', 'Dipa', '150.00', '{NOW}', '{NOW}', 'NPR', 'confirmed', "
        "'table'), "
        f"(102, 101, 101, 'Dipa', 'Asha', '5.50', '{NOW}', '{NOW}', 'NPR', 'unconfirmed', "
        "'table'), "
        f"(103, 101, 101, 'Asha', 'Asha', '7.00', '{NOW}', '{NOW}', 'NPR', 'pending', 'payer')",
    )
    with app.app_context():
        try:
            table = service.get_table("table1")
            exported = export_table(table)
            assert [(p["from"], p["to"]) for p in exported["payments"]] == [
                ("Dipa", "Dipa"),
                ("Dipa", "Asha"),
                ("Asha", "Asha"),
            ]
            # Such an export loads, before the upgrade too: its import takes them back.
            loaded, _ = import_table(exported)
            kept = service.payments(loaded, None, deleted=True)
            assert [(p.payer, p.payee, p.deleted_at is not None) for p in kept] == [
                ("Dipa", "Dipa", True),
                ("Dipa", "Asha", False),
                ("Asha", "Asha", True),
            ]
        finally:
            db.session.remove()
            db.engine.dispose()

    assert runner.invoke(args=["db", "upgrade"]).exit_code == 0
    with app.app_context():
        try:
            table = service.get_table("table1")
            kept = service.payments(table, None, deleted=True)
            assert [(p.payer, p.payee, p.deleted_at is not None) for p in kept] == [
                ("Dipa", "Dipa", True),
                ("Dipa", "Asha", False),
                ("Asha", "Asha", True),
            ]
            exported = export_table(table)
            assert [(p["from"], p["to"]) for p in exported["payments"]] == [("Dipa", "Asha")]
            again, _ = import_table(exported)
            assert export_table(again)["payments"] == exported["payments"]
        finally:
            db.session.remove()
            db.engine.dispose()
