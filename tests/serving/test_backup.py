"""``marriage-ledger backup`` and ``restore`` while ``marriage-ledger serve`` runs and
writes (SQLite in WAL mode: the file alone is no backup)."""

from __future__ import annotations

import os
import shutil
import sqlite3
import subprocess
import threading
from collections.abc import Iterator
from contextlib import contextmanager

import flask_migrate
import pytest
from click.testing import CliRunner
from flask import Flask
from served import DEV_SCRIPT, HAND, PLAYERS, REPOSITORY, Browser, clean_environment, run

from ledger import create_app
from ledger.cli import main
from ledger.extensions import db
from ledger.migrating import init_migrations

pytestmark = pytest.mark.slow


def stored_numbers(database) -> list[int]:
    with sqlite3.connect(database) as connection:
        return [n for (n,) in connection.execute("SELECT number FROM hands ORDER BY number")]


@pytest.mark.sqlite_only
def test_a_backup_taken_while_the_server_writes_restores_whole(
    ledger_env, init_db, serve, tmp_path
):
    init_db(ledger_env)
    served = serve(ledger_env, "--host", "127.0.0.1")
    client = Browser(served.base)
    made = client.post(
        "/api/v1/matches",
        json_body={"name": "Backed up", "players": PLAYERS, "rules": "sparkai", "length": None},
    ).json()
    hands = f"/api/v1/matches/{made['id']}/hands"
    auth = {"Authorization": f"Bearer {made['edit_key']}"}
    acknowledged: list[int] = []
    writing = threading.Event()
    stop = threading.Event()

    def scorekeeper() -> None:
        while not stop.is_set():
            answer = client.post(hands, json_body=HAND, headers=auth)
            assert answer.status == 201, answer.text
            acknowledged.append(answer.json()["number"])
            if len(acknowledged) >= 5:
                writing.set()

    thread = threading.Thread(target=scorekeeper)
    thread.start()
    try:
        assert writing.wait(60)
        before = len(acknowledged)
        target = tmp_path / "backup.sqlite3"
        output = run([str(DEV_SCRIPT), "backup", str(target)], ledger_env, tmp_path)
        assert "Backed up the database to" in output
        during = len(acknowledged)
        for _ in range(5):  # the server goes on writing after it
            if len(acknowledged) >= during + 3:
                break
            writing.wait(1)
    finally:
        stop.set()
        thread.join(60)
    assert len(acknowledged) > during
    copied = stored_numbers(target)
    # One instant of the database: every hand acknowledged before it began, in order.
    assert copied == list(range(1, len(copied) + 1))
    assert before <= len(copied) <= len(acknowledged)
    assert not (tmp_path / "backup.sqlite3-wal").exists()
    with sqlite3.connect(target) as connection:
        assert connection.execute("PRAGMA integrity_check").fetchone() == ("ok",)

    other = clean_environment(
        LEDGER_DATABASE_URL=f"sqlite:///{tmp_path / 'restored.sqlite3'}",
        LEDGER_INSTANCE_PATH=str(tmp_path / "restored-instance"),
    )
    output = run([str(DEV_SCRIPT), "restore", "--yes", str(target)], other, tmp_path)
    assert "Restored" in output
    restored = serve(other, "--host", "127.0.0.1")
    match = Browser(restored.base).get(f"/api/v1/matches/{made['id']}").json()
    assert [h["number"] for h in match["hands"]] == copied
    edited = Browser(restored.base).post(hands, json_body=HAND, headers=auth)
    assert edited.status == 201  # the same edit key: the restored match is the same one


@pytest.mark.parametrize("command", ["backup", "restore"])
def test_backup_and_restore_give_the_postgresql_commands(tmp_path, command):
    """An installed ledger has no docs/ folder: the commands themselves, with the
    database's URL as PostgreSQL's tools read it (no driver, no password), and before
    ``restore`` asks anything."""
    env = clean_environment(
        LEDGER_DATABASE_URL="postgresql+psycopg://ledger:s3cret@db.example.org:5433/club",
        LEDGER_INSTANCE_PATH=str(tmp_path / "instance"),
    )
    (tmp_path / "x").write_bytes(b"")
    done = subprocess.run(
        [str(DEV_SCRIPT), command, str(tmp_path / "x")],
        env=env,
        capture_output=True,
        text=True,
        stdin=subprocess.DEVNULL,
    )
    assert done.returncode != 0 and "Replace every match" not in done.stdout
    url = "postgresql://ledger:***@db.example.org:5433/club"
    assert f"pg_dump --format=custom --file=ledger-$(date +%F).dump '{url}'" in done.stderr
    emptied = (
        "psql --quiet --single-transaction --command='DROP SCHEMA public CASCADE'"
        f" --command='CREATE SCHEMA public' '{url}'"
    )
    restore = (
        "pg_restore --no-owner --single-transaction --exit-on-error"
        f" --dbname='{url}' ledger-YYYY-MM-DD.dump"
    )
    assert emptied in done.stderr and restore in done.stderr
    assert "marriage-ledger init-db" in done.stderr and "s3cret" not in done.stderr


def test_a_backup_into_a_folder_that_does_not_exist_says_so(tmp_path):
    """The docs' ``marriage-ledger backup /backups/ledger-$(date +%F).sqlite3`` on a
    machine with no /backups yet: a sentence naming the folder, where it was SQLite's
    traceback ("unable to open database file")."""
    database = tmp_path / "ledger.sqlite3"
    sqlite3.connect(database).close()
    missing = tmp_path / "backups"
    app_settings = {
        "LEDGER_DATABASE_URL": f"sqlite:///{database}",
        "LEDGER_INSTANCE_PATH": str(tmp_path / "instance"),
    }
    done = CliRunner().invoke(main, ["backup", str(missing / "ledger.sqlite3")], env=app_settings)
    assert done.exit_code == 1, done.output
    assert f"There is no folder {missing} to back up into: make it first" in done.output
    assert not missing.exists()


def _documented_postgresql_restore() -> list[str]:
    """The restore lines of docs/deployment.md's PostgreSQL block, as the host types them
    (the dump's own line and the comments left out)."""
    doc = (REPOSITORY / "docs" / "deployment.md").read_text(encoding="utf-8")
    block = doc.split("\nPostgreSQL: `backup` and `restore`", 1)[1].split("```sh\n", 1)[1]
    lines = block.split("```", 1)[0].splitlines()
    return [line for line in lines if line and not line.startswith(("#", "pg_dump "))]


def test_the_documented_postgresql_restore_brings_back_a_dump_of_an_older_version(
    empty_database_url, tmp_path, monkeypatch
):
    """A dump taken before an upgrade, put back as the docs say after it: ``pg_restore
    --clean`` could not drop the tables the dump holds while the upgrade's newer tables
    referred to them, and left a mix of both that init-db could not bring up to date."""
    if not empty_database_url.startswith("postgresql"):
        pytest.skip("PostgreSQL's tools: run with --db=postgresql")
    if not all(shutil.which(tool) for tool in ("pg_dump", "pg_restore", "psql")):
        pytest.skip("needs PostgreSQL's client tools (Debian's postgresql-client)")
    for name in list(os.environ):
        if name.startswith("LEDGER_"):
            monkeypatch.delenv(name)
    monkeypatch.setenv("LEDGER_DATABASE_URL", empty_database_url)
    monkeypatch.setenv("LEDGER_INSTANCE_PATH", str(tmp_path / "instance"))
    database = empty_database_url.replace("postgresql+psycopg://", "postgresql://")

    def command(*words: str) -> str:
        done = CliRunner().invoke(main, list(words))
        assert done.exit_code == 0, done.output
        return done.output

    command("init-db")
    with _app() as app:
        made = app.test_client().post(
            "/api/v1/tables", json={"name": "Before", "players": PLAYERS, "stake": None}
        )
    assert made.status_code == 201, made.text
    with _app() as app:
        # The ledger as an older version left it: before a later table that refers to the
        # tables the dump holds (earlier_names, a8c4e2f7b1d9).
        init_migrations(app)
        flask_migrate.downgrade(revision="f1a6d3c8b2e4")
    dump = tmp_path / "ledger-2026-12-01.dump"
    subprocess.run(["pg_dump", "--format=custom", f"--file={dump}", database], check=True)
    command("init-db")  # the upgrade

    lines = _documented_postgresql_restore()
    assert lines[-1].startswith("marriage-ledger init-db"), lines
    for line in lines[:-1]:
        done = subprocess.run(
            line.replace("ledger-2026-12-01.dump", str(dump)),
            shell=True,
            env={**os.environ, "DATABASE": database},
            capture_output=True,
            text=True,
        )
        assert done.returncode == 0, (line, done.stderr)
    assert "Running upgrade" in command("init-db")

    with _app() as app:
        client = app.test_client()
        assert client.get("/readyz").text == "ready\n"
        table = client.get(f"/api/v1/tables/{made.json['id']}")
    assert table.status_code == 200 and table.json["name"] == "Before"


@contextmanager
def _app() -> Iterator[Flask]:
    """The app of the environment's settings, in its context; its connections closed."""
    app = create_app()
    with app.app_context():
        try:
            yield app
        finally:
            db.session.remove()
            db.engine.dispose()
