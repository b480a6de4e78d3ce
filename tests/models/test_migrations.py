"""The Alembic migrations build the schema the models describe, on an empty database."""

import json
from contextlib import contextmanager

from alembic.autogenerate import compare_metadata
from alembic.migration import MigrationContext
from sqlalchemy import inspect, text

from ledger.extensions import db

MATCH_TABLES = {"matches", "match_players", "hands", "hand_versions"}
TABLE_TABLES = {"tables", "table_players", "seasons", "table_payments"}
TABLES = MATCH_TABLES | TABLE_TABLES


@contextmanager
def _rows_as_kept_then(app):
    """A connection (one transaction) for writing rows as an older revision kept them."""
    with app.app_context():
        try:
            with db.engine.begin() as sql:
                yield sql
        finally:
            db.engine.dispose()


def _insert_players(sql, players) -> None:
    """Match 1's players, in their seats."""
    for seat, name in enumerate(players):
        sql.execute(
            text(
                "INSERT INTO match_players (match_id, seat, name, name_key) "
                "VALUES (1, :seat, :name, :key)"
            ),
            {"seat": seat, "name": name, "key": name.casefold()},
        )


def _insert_hand(sql, number: int, dealer: str, data: dict, players, rules) -> dict:
    """Match 1's hand ``number``, read and settled as the ledger stores it; its result."""
    from ledger.engine import settle
    from ledger.matches.reading import read_hand

    hand = read_hand(data, players, rules)
    result = settle(hand, rules).to_json()
    del result["rules"]
    sql.execute(
        text(
            "INSERT INTO hands (match_id, number, dealer, input, result, version, "
            "created_at, updated_at) VALUES (1, :number, :dealer, :input, :result, "
            "1, :now, :now)"
        ),
        {
            "number": number,
            "dealer": dealer,
            "input": json.dumps(hand.to_json()),
            "result": json.dumps(result),
            "now": "2026-11-01 10:00:00",
        },
    )
    return result


def test_db_upgrade_creates_the_tables_and_matches_the_models(unmigrated_app):
    app = unmigrated_app
    result = app.test_cli_runner().invoke(args=["db", "upgrade"])
    assert result.exit_code == 0, result.output
    with app.app_context():
        try:
            assert TABLES <= set(inspect(db.engine).get_table_names())
            with db.engine.connect() as connection:
                context = MigrationContext.configure(connection, opts={"compare_type": True})
                assert compare_metadata(context, db.metadata) == []
        finally:
            db.engine.dispose()


def test_foreign_keys_cascade_from_the_match(unmigrated_app):
    app = unmigrated_app
    assert app.test_cli_runner().invoke(args=["db", "upgrade"]).exit_code == 0
    with app.app_context():
        try:
            foreign_keys = [
                fk
                for table in MATCH_TABLES - {"matches"}
                for fk in inspect(db.engine).get_foreign_keys(table)
            ]
            assert len(foreign_keys) == 3
            for fk in foreign_keys:
                assert fk["referred_table"] == "matches"
                assert fk["options"].get("ondelete") == "CASCADE"
            # A table's rows go with it; its matches stay, as lone matches.
            table_keys = [
                (table, fk["referred_table"], fk["options"].get("ondelete"))
                for table in TABLE_TABLES | {"matches"}
                for fk in inspect(db.engine).get_foreign_keys(table)
            ]
            assert sorted(table_keys) == [
                ("matches", "seasons", "SET NULL"),
                ("matches", "tables", "SET NULL"),
                ("seasons", "tables", "CASCADE"),
                ("table_payments", "seasons", "CASCADE"),
                ("table_payments", "tables", "CASCADE"),
                ("table_players", "matches", "SET NULL"),  # the match that added them
                ("table_players", "tables", "CASCADE"),
            ]
        finally:
            db.engine.dispose()


def test_db_downgrade_removes_the_tables(unmigrated_app):
    app = unmigrated_app
    runner = app.test_cli_runner()
    assert runner.invoke(args=["db", "upgrade"]).exit_code == 0
    assert runner.invoke(args=["db", "downgrade", "base"]).exit_code == 0
    with app.app_context():
        try:
            assert not TABLES & set(inspect(db.engine).get_table_names())
        finally:
            db.engine.dispose()


def test_a_match_stored_before_the_kept_fold_reads_the_same_after_the_upgrade(unmigrated_app):
    """Hands stored under the revision before the kept fold (no scoreboard, no fold
    records): after ``db upgrade`` the match reads as the engine folds it, and takes a
    new hand as one step from there."""
    from ledger import matches
    from ledger.engine import resolve_rules, run_match
    from ledger.matches.view import hand_record

    app = unmigrated_app
    runner = app.test_cli_runner()
    assert runner.invoke(args=["db", "upgrade", "b7d2e4c1a9f0"]).exit_code == 0
    rules_record = {"profile": "sparkai", "overrides": {"foul": "next_hand"}}
    players = ("Asha", "Bikash", "Chandra")
    rules = resolve_rules({"profile": "sparkai", "foul": "next_hand"})
    hands = [
        {
            "finish": "sequences",
            "winner": "Asha",
            "players": [
                {"name": "Asha", "seen": "sequences", "maal": 6},
                {"name": "Bikash", "seen": "sequences", "maal": 2, "foul": True},
                {"name": "Chandra", "seen": "unseen", "maal": 0},
            ],
        },
        {
            "finish": "sequences",
            "winner": "Chandra",
            "players": [
                {"name": "Asha", "seen": "sequences", "maal": 1},
                {"name": "Bikash", "seen": "unseen", "maal": 0},
                {"name": "Chandra", "seen": "sequences", "maal": 9},
            ],
        },
    ]
    with _rows_as_kept_then(app) as sql:
        sql.execute(
            text(
                "INSERT INTO matches (id, public_id, name, rules, length, first_dealer, "
                "edit_key_hash, version, last_hand_number, created_at, updated_at) VALUES "
                "(1, 'oldmatch', 'Old', :rules, NULL, 'Asha', :key, 3, 2, :now, :now)"
            ),
            {
                "rules": json.dumps(rules_record),
                "key": "0" * 64,
                "now": "2026-11-01 10:00:00",
            },
        )
        _insert_players(sql, players)
        for number, data in enumerate(hands, start=1):
            _insert_hand(sql, number, players[number - 1], data, players, rules)
    assert runner.invoke(args=["db", "upgrade"]).exit_code == 0
    with app.app_context():
        try:
            match = matches.get_match("oldmatch")
            view = matches.match_view(match)
            records = [hand_record(h.number, h.dealer, h.result) for h in view.hands]
            state = run_match(players, "Asha", rules, None, records)
            assert view.totals == state.totals and view.state.standings == state.standings
            assert view.hands[1].carried_penalties == state.carried_penalties[2] != {}
            body = json.loads(matches.match_json(match))
            carried = [h["carried_penalties"] for h in body["hands"]]
            assert carried == [{}, state.carried_penalties[2]]
            assert body["version"] == 3  # reading filled the fold in: no change of the match
            matches.add_hand(match, hands[1])
            assert matches.match_view(match).state.hands_played == 3
        finally:
            db.session.remove()
            db.engine.dispose()


def test_the_tables_upgrade_empties_the_kept_scoreboards_and_keeps_every_hand(unmigrated_app):
    """A match kept under the revision before the tables (a scoreboard without each
    player's maal and the points paid between them): after ``db upgrade`` its hands are
    all there (SQLite copied ``matches`` with foreign keys off), its scoreboard is filled
    again on the first read, and a table's figures read the new sums from it."""
    from ledger import matches
    from ledger.engine import resolve_rules

    app = unmigrated_app
    runner = app.test_cli_runner()
    assert runner.invoke(args=["db", "upgrade", "c3f8a1d2e5b7"]).exit_code == 0
    players = ("Asha", "Bikash", "Chandra")
    rules = resolve_rules("sparkai")
    data = {
        "finish": "sequences",
        "winner": "Asha",
        "players": [
            {"name": "Asha", "seen": "sequences", "maal": 6},
            {"name": "Bikash", "seen": "sequences", "maal": 2},
            {"name": "Chandra", "seen": "unseen", "maal": 0},
        ],
    }
    old_board = {
        "lines": {name: [0, 0, 0, 0, None] for name in players},  # as that revision kept it
        "pending": [],
        "last_dealer": None,
        "hands": 0,
    }
    with _rows_as_kept_then(app) as sql:
        sql.execute(
            text(
                "INSERT INTO matches (id, public_id, name, rules, length, first_dealer, "
                "edit_key_hash, version, last_hand_number, scoreboard, created_at, "
                "updated_at) VALUES (1, 'keptmatch', 'Kept', :rules, NULL, 'Asha', "
                ":key, 2, 1, :board, :now, :now)"
            ),
            {
                "rules": json.dumps({"profile": "sparkai", "overrides": {}}),
                "key": "0" * 64,
                "board": json.dumps(old_board),
                "now": "2026-11-01 10:00:00",
            },
        )
        _insert_players(sql, players)
        result = _insert_hand(sql, 1, "Asha", data, players, rules)
    assert runner.invoke(args=["db", "upgrade"]).exit_code == 0
    with app.app_context():
        try:
            with db.engine.connect() as sql:
                assert sql.execute(text("SELECT count(*) FROM hands")).scalar() == 1
                assert sql.execute(text("SELECT scoreboard FROM matches")).scalar() is None
            match = matches.get_match("keptmatch")
            view = matches.match_view(match)
            assert view.totals == {p["name"]: p["net"] for p in result["players"]}
            kept = json.loads(json.dumps(db.session.get(type(match), 1).scoreboard))
            assert kept["lines"]["Asha"][5] == 6  # her maal, summed
            paid = {(p["from"], p["to"]): p["points"] for p in result["payments"]}
            assert {
                (payer, payee): points
                for payer, payees in kept["paid"].items()
                for payee, points in payees.items()
            } == paid
        finally:
            db.session.remove()
            db.engine.dispose()
