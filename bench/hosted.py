"""A hosted side: what a table's requests cost on a PostgreSQL database holding
thousands of other tables, as ratios to the same requests on an empty database, both
measured in the same run, taking turns request by request.

Two databases on a PostgreSQL cluster the bench starts (Debian's server binaries, as
the tests start theirs: ``tests/postgres_cluster.py``; under root it runs as an
unprivileged user). In each, the measured table is made the same way through the API:
five players, a stake, two seasons, payments, ``MATCHES`` matches of ``HANDS`` hands,
the newest one open. The full database first holds ``--tables`` other tables shaped
alike: one is made through the API, then copied in bulk by SQLAlchemy Core (``INSERT
... SELECT`` over ``generate_series``: new ids, public ids, club names and dates, each
copy some hours older than the one before), then ``ANALYZE``.

Printed, one line each: ``ratio <what> <x>`` (the full database's median over the
empty one's) for adding a hand, the first match page and the first table page after
a hand, the standings, the players' figures (stats), a follower's poll (the
poll after a write, which asks the database) and the season rescore; then the
EXPLAIN of every query those requests sent to the full database.

``python -m bench.hosted`` fills 200 tables, 2,000 matches and 100,000 hands (a few
minutes); ``--full``: 2,000 tables, 20,000 matches, 1,000,000 hands.
"""

from __future__ import annotations

import argparse
import random
import statistics
import tempfile
import time
from collections import defaultdict
from collections.abc import Iterator
from contextlib import ExitStack, contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from flask import Flask
from sqlalchemy import (
    Integer,
    Interval,
    String,
    cast,
    event,
    func,
    insert,
    literal,
    literal_column,
    select,
    text,
    true,
)
from sqlalchemy.sql.elements import ColumnElement

from bench import copy_bench
from bench.followers import postgresql_cluster
from bench.pdf_bench import PLAYERS, hand_body
from bench.scale_bench import _ok, export_document
from ledger import create_app
from ledger.extensions import db
from ledger.matches.models import Match, UTCDateTime

MATCHES = 10
HANDS = 50
RUNS = 9
RESCORE_RUNS = 3
SMALL_TABLES = 200
FULL_TABLES = 2000
#: The copies' names: the measured table's club name with a place and a number.
CLUB_NAMES = [
    "Friday table",
    "Kathmandu cousins",
    "Tihar club",
    "Dashain nights",
    "Pokhara Marriage club",
    "Sydney diaspora",
    "Queens Nepali association",
    "Hong Kong Gurkha families",
]
#: The tables copied row by row, parents first.
COPIED = [
    "tables",
    "table_players",
    "seasons",
    "table_payments",
    "matches",
    "match_players",
    "hands",
    "hand_versions",
]
#: What each copy's dates are moved back by, one step per copy.
AGE_STEP = "37 minutes"


@dataclass
class Ledger:
    """One database's app, its client and the measured table."""

    label: str
    app: Flask
    client: object = None
    table: str = ""
    auth: dict = field(default_factory=dict)
    match: str = ""
    times: dict[str, list[float]] = field(default_factory=lambda: defaultdict(list))
    #: While ``recording`` names a request: the statements it sent, with their parameters.
    recording: str | None = None
    statements: dict[str, dict[str, object]] = field(default_factory=lambda: defaultdict(dict))


def _app(url: str, folder: str) -> Flask:
    app = create_app(
        {
            "INSTANCE_PATH": folder,
            "SECRET_KEY": "bench",
            "SQLALCHEMY_DATABASE_URI": url,
            "RATELIMIT_ENABLED": False,
        }
    )
    with app.app_context():
        db.create_all()
    return app


def _table(client, rng: random.Random, name: str) -> tuple[str, dict, str]:
    """A table made through the API as a club keeps one: its id, key and open match."""
    table = _ok(
        client.post(
            "/api/v1/tables",
            json={
                "name": name,
                "players": PLAYERS,
                "rules": "amarnepal",
                "stake": {"per_point": "0.50", "currency": "NPR"},
                "season": "Dashain 2082",
            },
        ),
        201,
    ).get_json()
    url = f"/api/v1/tables/{table['id']}"
    auth = {"Authorization": f"Bearer {table['edit_key']}"}
    for i in range(MATCHES):
        if i == MATCHES // 2:
            _ok(client.post(f"{url}/seasons", json={"name": "Tihar 2082"}, headers=auth), 201)
        document = export_document(HANDS, rng)
        document["name"] = f"Night {i + 1}"
        if i < MATCHES - 1:
            document["length"] = {"hands": HANDS}
        match = _ok(client.post("/api/v1/matches/import", json=document), 201).get_json()
        body = {"match": match["id"], "match_edit_key": match["edit_key"]}
        _ok(client.post(f"{url}/matches", json=body, headers=auth))
        payment = {"from": PLAYERS[i % 4], "to": PLAYERS[(i + 1) % 4], "amount": "120.50"}
        _ok(client.post(f"{url}/payments", json=payment, headers=auth), 201)
    return table["id"], auth, match["id"]


def _fill(app: Flask, copies: int) -> None:
    """Copy the database's one table ``copies`` times with Core ``INSERT ... SELECT``."""
    tables = db.metadata.tables
    with app.app_context():
        spans = {
            name: (db.session.scalar(select(func.max(tables[name].c.id))) or 0) + 1
            for name in COPIED
        }
        series = func.generate_series(1, copies, type_=Integer).table_valued("copy")
        series = series.render_derived("series")
        for name in COPIED:
            source = tables[name]
            values = [_copied(column, series.c.copy, spans) for column in source.columns]
            rows = select(*values).select_from(source.join(series, true()))
            db.session.execute(insert(source).from_select([c.name for c in source.columns], rows))
            db.session.execute(
                text(f"SELECT setval(pg_get_serial_sequence('{name}', 'id'), max(id)) FROM {name}")
            )
        db.session.commit()
    with app.app_context(), db.engine.connect() as connection:
        connection.execution_options(isolation_level="AUTOCOMMIT").execute(text("ANALYZE"))


def _copied(column, copy, spans: dict[str, int]) -> ColumnElement:
    """A column's value in copy number ``copy``: ids moved past the template's, public
    ids made new, club names varied, dates moved back, the rest as it is."""
    if column.primary_key:
        return column + copy * spans[column.table.name]
    for key in column.foreign_keys:
        return column + copy * spans[key.column.table.name]
    if column.name == "public_id":
        return func.md5(column + cast(copy, String))
    if column.table.name == "tables" and column.name == "name":
        club = func.split_part("|".join(CLUB_NAMES), "|", copy % len(CLUB_NAMES) + 1)
        return club + literal(" ") + cast(copy, String)
    if isinstance(column.type, UTCDateTime):
        return column - copy * literal_column(f"interval '{AGE_STEP}'", Interval)
    return column


def _measured(side: Ledger, rng: random.Random) -> None:
    side.client = side.app.test_client()
    side.table, side.auth, side.match = _table(side.client, rng, "Friday table")
    engine = _engine(side.app)

    @event.listens_for(engine, "before_cursor_execute")
    def _record(conn, cursor, statement, parameters, context, executemany):
        if side.recording and not executemany:
            side.statements[side.recording].setdefault(statement, parameters)


def _engine(app: Flask):
    with app.app_context():
        return db.engine


def _version(side: Ledger) -> int:
    with side.app.app_context():
        return db.session.scalar(select(Match.version).where(Match.public_id == side.match))


def _timed(side: Ledger, what: str, method: str, path: str, status: int = 200, **kwargs) -> None:
    side.recording = what
    start = time.perf_counter()
    _ok(getattr(side.client, method)(path, **kwargs), status)
    side.times[what].append(time.perf_counter() - start)
    side.recording = None


def _round(side: Ledger, rng: random.Random, rescore: bool) -> None:
    """Each read the first after a hand of its own; a follower's poll after each hand
    (the first poll after a write asks the database; it answers 204 before Flask, so
    the read after it is still the first to render)."""
    table = f"/api/v1/tables/{side.table}"
    reads = [
        ("match page", f"/matches/{side.match}"),
        ("table page", f"/tables/{side.table}"),
        ("standings", f"{table}/standings"),
        ("stats", f"{table}/stats"),
    ]
    hands = f"/api/v1/matches/{side.match}/hands"
    for what, path in reads:
        body = hand_body(rng, PLAYERS[:4])
        _timed(side, "adding a hand", "post", hands, 201, json=body, headers=side.auth)
        live = f"/matches/{side.match}/live?v={_version(side)}"
        _timed(side, "a follower's poll", "get", live, 204)
        _timed(side, what, "get", path)
    if rescore:
        _timed(side, "season rescore", "post", f"{table}/rescore", json={"rules": "everestbuzz"})


def _explain(side: Ledger) -> None:
    """The plan of every query the measured requests sent to the full database."""
    engine = _engine(side.app)
    with engine.connect() as connection:
        for what, statements in side.statements.items():
            for statement, parameters in statements.items():
                if not statement.lstrip().upper().startswith(("SELECT", "UPDATE", "DELETE")):
                    continue
                plan = connection.exec_driver_sql(f"EXPLAIN {statement}", parameters).scalars()
                print(f"explain [{what}] {' '.join(statement.split())[:160]}")
                for line in plan:
                    print(f"    {line}")
            connection.rollback()


@contextmanager
def _ledgers(tables: int) -> Iterator[tuple[Ledger, Ledger, Any]]:
    with ExitStack() as stack:
        cluster = postgresql_cluster()
        stack.callback(cluster.stop)
        folder = stack.enter_context(tempfile.TemporaryDirectory())
        empty = Ledger("empty", _app(cluster.url(cluster.create_database()), f"{folder}/e"))
        full = Ledger("full", _app(cluster.url(cluster.create_database()), f"{folder}/f"))
        start = time.perf_counter()
        with full.app.app_context():
            _table(full.app.test_client(), random.Random(5), "Friday table")
        _fill(full.app, tables - 1)
        print(
            f"filled: {tables:,} tables, {tables * MATCHES:,} matches, "
            f"{tables * MATCHES * HANDS:,} hands in {time.perf_counter() - start:.0f} s",
            flush=True,
        )
        for side in (empty, full):  # the same measured table in each
            _measured(side, random.Random(11))
        yield empty, full, cluster
        for side in (empty, full):
            with side.app.app_context():
                db.engine.dispose()


def run(tables: int = SMALL_TABLES, runs: int = RUNS) -> dict[str, float]:
    with _ledgers(tables) as (empty, full, cluster):
        rngs = {id(empty): random.Random(3), id(full): random.Random(3)}
        for side in (empty, full):  # warm up: the first requests compile and connect
            _round(side, rngs[id(side)], rescore=True)
            side.times.clear()
            side.statements.clear()
        for n in range(runs):
            for side in (empty, full) if n % 2 == 0 else (full, empty):
                _round(side, rngs[id(side)], rescore=n < RESCORE_RUNS)
        ratios = {
            what: statistics.median(full.times[what]) / statistics.median(empty.times[what])
            for what in empty.times
        }
        for what, ratio in ratios.items():
            print(f"ratio {what} {ratio:.2f}", flush=True)
        _explain(full)
        _copied_out(full, cluster)
    return ratios


def _copied_out(full: Ledger, cluster: Any) -> None:
    """``copy-db`` of the full database into SQLite, and that back into PostgreSQL."""
    copy_bench.stamp(full.app)
    with full.app.app_context():
        db.engine.dispose()  # the copy reads it from another process
    source = full.app.config["SQLALCHEMY_DATABASE_URI"]
    with tempfile.TemporaryDirectory() as folder:
        sqlite = f"sqlite:///{folder}/copy.sqlite3"
        there = copy_bench.copy(source, sqlite, Path(folder, "a"))
        back = copy_bench.copy(sqlite, cluster.url(cluster.create_database()), Path(folder, "b"))
    for label, figures in (("into SQLite", there), ("back into PostgreSQL", back)):
        shown = ", ".join(
            f"{k} {v:,.0f}" if k != "seconds" else f"{k} {v:.1f}" for k, v in figures.items()
        )
        print(f"copy-db {label}: {shown}", flush=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--full", action="store_true", help="2,000 tables, 1,000,000 hands")
    parser.add_argument("--tables", type=int, help="how many tables the full database holds")
    given = parser.parse_args()
    run(given.tables or (FULL_TABLES if given.full else SMALL_TABLES))


if __name__ == "__main__":  # python -m bench.hosted
    main()
