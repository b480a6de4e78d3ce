"""After a restore, no kept PDF prints hands the database no longer holds. A PDF is kept
by its match's version; a restored database takes the versions back, and the next hand
gets a number a kept PDF was already made under (a summary still printing the hand the
restore took back, its money and its archive). ``init-db`` (which the docs run after
``pg_restore``) and ``restore`` empty the kept PDFs."""

from __future__ import annotations

from pathlib import Path

import pytest
from browser_support import TYPICAL_HAND
from click.testing import CliRunner

from ledger.backup import backup
from ledger.cli import main

PLAYERS = ["Asha", "Bikash", "Chandra", "Dipa"]
#: A hand of the backup's time, and another one that a restore takes back.
KEPT, TAKEN_BACK = TYPICAL_HAND, {**TYPICAL_HAND, "winner": "Bikash"}


def bearer(key: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {key}"}


def _kept(app) -> list[Path]:
    return sorted((Path(app.instance_path) / "pdf-cache").glob("*.pdf"))


def _played(app) -> tuple[str, str]:
    client = app.test_client()
    made = client.post(
        "/api/v1/matches", json={"name": "Night", "players": PLAYERS, "rules": "sparkai"}
    )
    body = made.get_json()
    assert made.status_code == 201, body
    stored = client.post(
        f"/api/v1/matches/{body['id']}/hands", json=KEPT, headers=bearer(body["edit_key"])
    )
    assert stored.status_code == 201, stored.get_json()
    assert client.get(f"/matches/{body['id']}/summary.pdf").status_code == 200
    return body["id"], body["edit_key"]


def test_init_db_empties_the_kept_pdfs(unmigrated_app):
    runner = unmigrated_app.test_cli_runner()
    assert runner.invoke(args=["init-db"]).exit_code == 0
    _played(unmigrated_app)
    assert _kept(unmigrated_app)
    again = runner.invoke(args=["init-db"])
    assert again.exit_code == 0, again.output
    assert _kept(unmigrated_app) == []


@pytest.mark.sqlite_only
def test_restore_empties_the_kept_pdfs_that_would_print_a_hand_taken_back(
    unmigrated_app, tmp_path, monkeypatch
):
    app = unmigrated_app
    assert app.test_cli_runner().invoke(args=["init-db"]).exit_code == 0
    url = app.config["SQLALCHEMY_DATABASE_URI"]
    public_id, key = _played(app)
    backup(url, tmp_path / "before.sqlite3")
    client = app.test_client()
    assert (
        client.post(
            f"/api/v1/matches/{public_id}/hands", json=TAKEN_BACK, headers=bearer(key)
        ).status_code
        == 201
    )
    assert client.get(f"/matches/{public_id}/summary.pdf").status_code == 200
    kept = _kept(app)
    assert kept
    monkeypatch.setenv("LEDGER_DATABASE_URL", url)
    monkeypatch.setenv("LEDGER_INSTANCE_PATH", app.instance_path)
    monkeypatch.setenv("LEDGER_SECRET_KEY", "test")
    done = CliRunner().invoke(main, ["restore", "--yes", str(tmp_path / "before.sqlite3")])
    assert done.exit_code == 0, done.output
    assert _kept(app) == []
