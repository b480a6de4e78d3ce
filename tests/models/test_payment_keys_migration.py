"""The migration that makes a payment's Idempotency-Key its caller's: the keys kept
before go to the caller the rows say sent them (a payment recorded by its payer: the
payer's own link; every other: the table key), two callers may then keep the same key
and one caller not twice; its downgrade keeps one of each key (the table key's)."""

from __future__ import annotations

import pytest
from sqlalchemy import text
from sqlalchemy.exc import IntegrityError

from ledger.extensions import db

BEFORE = "c6d2f8a4e1b3"
AFTER = "d8f4a2c6e9b1"
NOW = "2026-12-07 10:00:00"
DIGEST = "0" * 64


def _sql(app, statement: str, **values) -> list[tuple]:
    with app.app_context():
        try:
            with db.engine.begin() as sql:
                found = sql.execute(text(statement), values)
                return [tuple(r) for r in found] if found.returns_rows else []
        finally:
            db.engine.dispose()


def _key(app, key: str, payment: int | None, player: int | None = None) -> None:
    """A kept key: as before the upgrade without ``player``, after it with."""
    columns = "table_id, idempotency_key, request_digest, payment_id, status, answer, created_at"
    values = f"1, :key, '{DIGEST}', :payment, 201, '{{}}', '{NOW}'"
    if player is not None:
        columns, values = f"{columns}, player_id", f"{values}, :player"
    _sql(
        app,
        f"INSERT INTO payment_requests ({columns}) VALUES ({values})",
        key=key,
        payment=payment,
        player=player,
    )


def test_kept_keys_go_to_their_callers_and_two_callers_may_share_one(unmigrated_app):
    app = unmigrated_app
    runner = app.test_cli_runner()
    assert runner.invoke(args=["db", "upgrade", BEFORE]).exit_code == 0
    for statement in (
        "INSERT INTO tables (id, public_id, name, rules, stake_per_point, stake_currency, "
        "edit_key_hash, version, created_at, updated_at) VALUES (1, 'table1', 'T', "
        f"'{{\"profile\": \"sparkai\"}}', '1.00', 'NPR', '{'0' * 64}', 1, '{NOW}', '{NOW}')",
        f"INSERT INTO seasons (id, public_id, table_id, name, started_at) VALUES (1, 's1', 1, "
        f"'1', '{NOW}')",
        "INSERT INTO table_players (id, table_id, name, name_key) VALUES "
        "(1, 1, 'Asha', 'asha'), (2, 1, 'Dipa', 'dipa')",
        "INSERT INTO table_payments (id, table_id, season_id, payer, payee, amount, at, "
        "recorded_at, currency, state, recorded_by) VALUES "
        f"(1, 1, 1, 'Dipa', 'Asha', '5.50', '{NOW}', '{NOW}', 'NPR', 'pending', 'payer'), "
        f"(2, 1, 1, 'Dipa', 'Asha', '3.00', '{NOW}', '{NOW}', 'NPR', 'unconfirmed', 'table')",
    ):
        _sql(app, statement)
    _key(app, "hers", 1)
    _key(app, "table's", 2)
    _key(app, "taken back", None)

    assert runner.invoke(args=["db", "upgrade", AFTER]).exit_code == 0
    kept = "SELECT idempotency_key, player_id FROM payment_requests ORDER BY id"
    assert _sql(app, kept) == [("hers", 2), ("table's", None), ("taken back", None)]
    _key(app, "table's", None, player=2)  # Dipa's own "table's": another caller's
    _key(app, "hers", None)  # the table key's "hers"
    for player in (None, 2):  # the same caller: refused, whoever it is
        with pytest.raises(IntegrityError):
            _key(app, "table's", None, player=player)
    # Merged, Dipa's keys go with her row (her link is revoked: nobody sends them).
    _sql(app, "DELETE FROM table_payments WHERE id = 1")
    _sql(app, "DELETE FROM table_players WHERE id = 2")
    assert _sql(app, kept) == [("table's", None), ("taken back", None), ("hers", None)]

    _key(app, "both", None, player=1)
    _key(app, "both", None)
    assert runner.invoke(args=["db", "downgrade", BEFORE]).exit_code == 0
    assert _sql(app, "SELECT idempotency_key FROM payment_requests ORDER BY id") == [
        ("table's",),
        ("taken back",),
        ("hers",),
        ("both",),
    ]
    with pytest.raises(IntegrityError):
        _key(app, "both", None)
