"""A SQLite ledger started on a disk it cannot write (issue 35): it still serves every
read; each write is a 503 saying nothing was changed, and /readyz says not ready."""

from __future__ import annotations

import pytest

from ledger import create_app
from ledger.extensions import db

MATCH = {"name": "Tihar", "players": ["Asha", "Bikash", "Chandra"], "rules": "sparkai"}


def ledger_app(folder, database):
    return create_app(
        {
            "TESTING": True,
            "INSTANCE_PATH": str(folder / "instance"),
            "SQLALCHEMY_DATABASE_URI": f"sqlite:///{database}",
            "SECRET_KEY": "k",
            "RATELIMIT_ENABLED": False,
        }
    )


@pytest.mark.sqlite_only
def test_a_sqlite_ledger_on_a_disk_it_cannot_write_serves_reads(tmp_path, unwritable):
    folder = tmp_path / "disk"
    folder.mkdir()
    database = folder / "ledger.sqlite3"
    app = ledger_app(tmp_path / "first", database)
    assert app.test_cli_runner().invoke(args=["init-db"]).exit_code == 0
    made = app.test_client().post("/api/v1/matches", json=MATCH).get_json()
    with app.app_context():
        db.engine.dispose()  # the WAL is checkpointed and its files go
    assert sorted(p.name for p in folder.iterdir()) == ["ledger.sqlite3"]
    unwritable(database, folder)

    served = ledger_app(tmp_path / "second", database)
    served.config["PROPAGATE_EXCEPTIONS"] = False
    client = served.test_client()
    try:
        api = client.get(f"/api/v1/matches/{made['id']}")
        assert api.status_code == 200, api.get_data(as_text=True)
        assert api.get_json()["name"] == "Tihar"
        page = client.get(f"/matches/{made['id']}")
        assert page.status_code == 200 and "Tihar" in page.get_data(as_text=True)
        assert client.get("/").status_code == 200
        refused = client.post("/api/v1/matches", json=MATCH)
        assert refused.status_code == 503 and refused.headers["Retry-After"]
        assert "nothing was changed" in refused.get_json()["errors"][0]["message"]
        assert client.get("/readyz").status_code == 503
    finally:
        with served.app_context():
            db.engine.dispose()
