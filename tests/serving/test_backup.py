"""``marriage-ledger backup`` and ``restore`` while ``marriage-ledger serve`` runs and
writes (SQLite in WAL mode: the file alone is no backup)."""

from __future__ import annotations

import sqlite3
import subprocess
import threading

import pytest
from served import DEV_SCRIPT, HAND, PLAYERS, Browser, clean_environment, run

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


def test_backup_says_what_to_do_for_postgresql(tmp_path):
    env = clean_environment(
        LEDGER_DATABASE_URL="postgresql+psycopg://nobody@127.0.0.1:1/none",
        LEDGER_INSTANCE_PATH=str(tmp_path / "instance"),
    )
    done = subprocess.run(
        [str(DEV_SCRIPT), "backup", str(tmp_path / "x")], env=env, capture_output=True, text=True
    )
    assert done.returncode != 0
    assert "pg_dump" in done.stderr and "docs/deployment.md" in done.stderr
