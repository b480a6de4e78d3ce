"""``marriage-ledger backup`` and ``restore`` while ``marriage-ledger serve`` runs and
writes (SQLite in WAL mode: the file alone is no backup)."""

from __future__ import annotations

import sqlite3
import subprocess
import threading

import pytest
from click.testing import CliRunner
from served import DEV_SCRIPT, HAND, PLAYERS, Browser, clean_environment, run

from ledger.cli import main

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
    restore = f"pg_restore --clean --if-exists --no-owner --dbname='{url}' ledger-YYYY-MM-DD.dump"
    assert restore in done.stderr
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
