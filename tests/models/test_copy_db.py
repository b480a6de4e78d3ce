"""``copy-db``: a whole ledger moved from an SQLite file into another database (the
suite's: PostgreSQL in its PostgreSQL pass), and every link, key and figure the same
there."""

from __future__ import annotations

import sqlite3

import pytest
from api_hands import add, table_night, won_by
from sqlalchemy import inspect, text
from sqlalchemy.exc import OperationalError

from ledger import copying, create_app
from ledger.extensions import db

PLAYERS = ["Asha", "Bikash", "Chandra", "Dipa"]
STAKE = {"per_point": "1.50", "currency": "NPR"}


def _app(url: str, folder):
    return create_app(
        {
            "TESTING": True,
            "INSTANCE_PATH": str(folder),
            "SQLALCHEMY_DATABASE_URI": url,
            "SECRET_KEY": "test",
            "WTF_CSRF_ENABLED": False,
            "RATELIMIT_ENABLED": False,
        }
    )


def _init(app) -> None:
    result = app.test_cli_runner().invoke(args=["init-db"])
    assert result.exit_code == 0, result.output


def _reads(client, ids: dict) -> dict:
    """What the table's people see, through the API (answers that hold no secret)."""
    table, match, lone = ids["table"], ids["match"], ids["lone"]
    paths = [
        f"/api/v1/tables/{table}",
        f"/api/v1/tables/{table}/settle-up",
        f"/api/v1/tables/{table}/payments?deleted=1",
        f"/api/v1/tables/{table}/standings",
        f"/api/v1/matches/{match}",
        f"/api/v1/matches/{match}/hands/2",
        f"/api/v1/matches/{lone}",
        f"/api/v1/matches/{lone}/export.json",
    ]
    out = {}
    for path in paths:
        response = client.get(path)
        assert response.status_code == 200, (path, response.get_json())
        out[path] = response.get_json()
    out[f"/api/v1/matches/{lone}/export.json"].pop("exported_at")  # the time of asking
    me = client.get("/api/v1/me", headers={"Authorization": f"Bearer {ids['person']}"})
    assert me.status_code == 200, me.get_json()
    out["me"] = me.get_json()
    earlier = client.get(f"/api/v1/tables/{table}/players/Asha K")  # renamed back to Asha
    assert earlier.status_code == 302
    out["earlier name"] = earlier.headers["Location"]
    page = client.get(f"/matches/{match}")
    assert page.status_code == 200
    out["match page"] = page.get_data(as_text=True).count("Bikash")
    return out


@pytest.fixture
def source(tmp_path):
    """An SQLite ledger a club played in: a staked table, a night with a hand replaced
    and one deleted, a player renamed and back, payments (one taken back), a player's
    own link and handles, and a lone match; its URL, its ids and keys, and what its API
    answers."""
    url = f"sqlite:///{tmp_path / 'source' / 'ledger.sqlite3'}"
    app = _app(url, tmp_path / "source")
    _init(app)
    client = app.test_client()
    table, auth, match = table_night(client, PLAYERS)
    assert (
        client.patch(f"/api/v1/tables/{table}", json={"stake": STAKE}, headers=auth).status_code
        == 200
    )
    for winner in ("Asha", "Bikash", "Chandra"):
        add(client, match, auth, won_by(winner, PLAYERS))
    replaced = client.put(
        f"/api/v1/matches/{match}/hands/2",
        json={**won_by("Dipa", PLAYERS), "version": 1},
        headers=auth,
    )
    assert replaced.status_code == 200, replaced.get_json()
    assert (
        client.delete(
            f"/api/v1/matches/{match}/hands/3", headers={**auth, "If-Match": '"1"'}
        ).status_code
        == 200
    )
    for old, new in (("Asha", "Asha K"), ("Asha K", "Asha")):  # an earlier name kept
        renamed = client.patch(
            f"/api/v1/tables/{table}/players/{old}", json={"name": new}, headers=auth
        )
        assert renamed.status_code == 200, renamed.get_json()
    person = client.post(f"/api/v1/tables/{table}/players/Bikash/link", headers=auth).get_json()
    handles = {"handles": [{"kind": "esewa", "handle": "9800000000", "label": "Bikash"}]}
    key = {"Authorization": f"Bearer {person['person_key']}"}
    assert client.put("/api/v1/me/handles", json=handles, headers=key).status_code == 200
    for amount in ("5.00", "2.00"):
        paid = client.post(
            f"/api/v1/tables/{table}/payments",
            json={"from": "Asha", "to": "Bikash", "amount": amount},
            headers=auth,
        )
        assert paid.status_code == 201, paid.get_json()
    taken = client.delete(f"/api/v1/tables/{table}/payments/{paid.get_json()['id']}", headers=auth)
    assert taken.status_code == 204
    lone = client.post(
        "/api/v1/matches", json={"name": "Lone", "players": PLAYERS, "rules": "amarnepal"}
    ).get_json()
    add(
        client, lone["id"], {"Authorization": f"Bearer {lone['edit_key']}"}, won_by("Dipa", PLAYERS)
    )
    ids = {"table": table, "match": match, "lone": lone["id"], "person": person["person_key"]}
    keys = {"table": auth, "lone": {"Authorization": f"Bearer {lone['edit_key']}"}}
    reads = _reads(client, ids)
    with app.app_context():
        db.engine.dispose()
    return url, ids, keys, reads


def test_a_ledger_copied_reads_the_same_and_its_keys_still_write(
    source, unmigrated_app, monkeypatch
):
    url, ids, keys, reads = source
    monkeypatch.setattr(copying, "BATCH", 2)  # every table in several batches
    result = unmigrated_app.test_cli_runner().invoke(args=["copy-db", url])
    assert result.exit_code == 0, result.output
    assert "Copied the ledger into" in result.output and "hands 3" in result.output
    client = unmigrated_app.test_client()
    assert _reads(client, ids) == reads
    # The keys handed out write in the new database, and new rows get new ids.
    add(client, ids["match"], keys["table"], won_by("Asha", PLAYERS))
    add(client, ids["lone"], keys["lone"], won_by("Asha", PLAYERS))
    paid = client.post(
        f"/api/v1/tables/{ids['table']}/payments",
        json={"from": "Chandra", "to": "Bikash", "amount": "1.00"},
        headers=keys["table"],
    )
    assert paid.status_code == 201, paid.get_json()
    assert paid.get_json()["id"] > max(
        p["id"] for p in reads[f"/api/v1/tables/{ids['table']}/payments?deleted=1"]["payments"]
    )
    made = client.post(
        "/api/v1/tables", json={"name": "New", "players": PLAYERS, "rules": "sparkai"}
    )
    assert made.status_code == 201, made.get_json()
    with unmigrated_app.app_context():
        db.engine.dispose()


def test_a_copy_goes_into_an_empty_ledger_only(source, unmigrated_app):
    url, ids, _, reads = source
    runner = unmigrated_app.test_cli_runner()
    assert runner.invoke(args=["copy-db", url]).exit_code == 0
    again = runner.invoke(args=["copy-db", url])
    assert again.exit_code == 1
    assert "not empty" in again.output and "matches (2)" in again.output
    assert _reads(unmigrated_app.test_client(), ids) == reads  # nothing copied twice
    with unmigrated_app.app_context():
        db.engine.dispose()


def test_what_cannot_be_copied_is_said_in_a_sentence(tmp_path, unmigrated_app):
    runner = unmigrated_app.test_cli_runner()
    stranger = tmp_path / "other.sqlite3"
    with sqlite3.connect(stranger) as connection:
        connection.execute("CREATE TABLE notes (id INTEGER)")
    cases = {
        f"sqlite:///{stranger}": "is not a Marriage ledger's database",
        "nonsense": "is no database URL",
        # a password's @, : and / written as they are: the cure, and no piece of it
        "postgresql+psycopg://ledger:p@ss:w/rd@127.0.0.1:1/none": "as %40, %3A, %2F or %25",
        str(stranger): f"is a file's path, not a database URL: give sqlite:///{stranger}.",
        f"sqlite:///{tmp_path / 'mistyped.sqlite3'}": "There is no SQLite database at",
        "postgresql+psycopg://nobody:secret@127.0.0.1:1/none": "Cannot read the database at",
    }
    for url, sentence in cases.items():
        result = runner.invoke(args=["copy-db", url])
        assert result.exit_code == 1 and sentence in result.output, result.output
        assert "Traceback" not in result.output and "secret" not in result.output
        assert "w/rd" not in result.output
        assert "this ledger's database was not touched" in result.output
    assert not (tmp_path / "mistyped.sqlite3").exists()
    assert _tables_in(unmigrated_app) == set()  # not even brought up to this version


def test_an_older_ledger_is_brought_up_to_date_first(source, unmigrated_app):
    url, *_ = source
    database = url.removeprefix("sqlite:///")
    with sqlite3.connect(database) as connection:
        connection.execute("UPDATE alembic_version SET version_num = 'e7c2b9a4d1f3'")
    result = unmigrated_app.test_cli_runner().invoke(args=["copy-db", url])
    assert result.exit_code == 1
    assert "earlier version of the ledger" in result.output
    assert f"LEDGER_DATABASE_URL='{url}' marriage-ledger init-db" in result.output
    with sqlite3.connect(database) as connection:
        connection.execute("UPDATE alembic_version SET version_num = 'ffffffffffff'")
    assert "newer version" in unmigrated_app.test_cli_runner().invoke(args=["copy-db", url]).output


def test_a_ledger_copied_goes_back_the_other_way(source, unmigrated_app, tmp_path):
    url, ids, _, reads = source
    assert unmigrated_app.test_cli_runner().invoke(args=["copy-db", url]).exit_code == 0
    back = _app(f"sqlite:///{tmp_path / 'back' / 'ledger.sqlite3'}", tmp_path / "back")
    moved = unmigrated_app.config["SQLALCHEMY_DATABASE_URI"]
    result = back.test_cli_runner().invoke(args=["copy-db", moved])
    assert result.exit_code == 0, result.output
    assert _reads(back.test_client(), ids) == reads
    for app in (unmigrated_app, back):
        with app.app_context():
            db.engine.dispose()


def test_a_copy_reads_its_source_at_one_moment(source, unmigrated_app, tmp_path, monkeypatch):
    """A row written to the source while the copy runs (a server still serving it) is
    not copied: the copy is the source as it was when it began."""
    url, ids, _, reads = source
    assert unmigrated_app.test_cli_runner().invoke(args=["copy-db", url]).exit_code == 0
    moved = unmigrated_app.config["SQLALCHEMY_DATABASE_URI"]  # PostgreSQL in its pass
    copy_table = copying._copy_table

    def and_meanwhile(reading, writing, table):
        copied = copy_table(reading, writing, table)
        if table.name == "tables":  # a season started in the source once its tables are copied
            with unmigrated_app.app_context(), db.engine.begin() as other:
                other.execute(
                    text(
                        "INSERT INTO seasons (public_id, table_id, name, started_at) "
                        "SELECT 'late', id, 'Late', started_at FROM seasons LIMIT 1"
                    )
                )
        return copied

    monkeypatch.setattr(copying, "_copy_table", and_meanwhile)
    back = _app(f"sqlite:///{tmp_path / 'back' / 'ledger.sqlite3'}", tmp_path / "back")
    result = back.test_cli_runner().invoke(args=["copy-db", moved])
    assert result.exit_code == 0, result.output
    assert _reads(back.test_client(), ids) == reads
    with unmigrated_app.app_context():
        assert db.session.scalar(text("SELECT count(*) FROM seasons")) == 2  # it was written
    for app in (unmigrated_app, back):
        with app.app_context():
            db.engine.dispose()


def _tables_in(app) -> set[str]:
    with app.app_context():
        try:
            return set(inspect(db.engine).get_table_names())
        finally:
            db.engine.dispose()


def test_a_refused_source_leaves_the_target_as_it_was(tmp_path, unmigrated_app):
    """The source is checked before the target is touched: a mistyped URL or a source
    of another version leaves the target without even the ledger's tables."""
    result = unmigrated_app.test_cli_runner().invoke(
        args=["copy-db", f"sqlite:///{tmp_path / 'mistyped.sqlite3'}"]
    )
    assert result.exit_code == 1 and "There is no SQLite database at" in result.output
    assert "Nothing was copied, and this ledger's database was not touched." in result.output
    assert _tables_in(unmigrated_app) == set()


def test_a_copy_that_stops_midway_can_be_run_again(source, unmigrated_app, monkeypatch):
    """A copy that fails partway (the server gone, a row refused) keeps nothing, says so
    and what to do; run again, it copies the whole ledger."""
    url, ids, _, reads = source
    copy_table = copying._copy_table

    def and_the_server_goes(reading, writing, table):
        if table.name == "hands":
            raise OperationalError("INSERT INTO hands", {}, Exception("server closed"))
        return copy_table(reading, writing, table)

    monkeypatch.setattr(copying, "_copy_table", and_the_server_goes)
    runner = unmigrated_app.test_cli_runner()
    failed = runner.invoke(args=["copy-db", url])
    assert failed.exit_code == 1, failed.output
    said = " ".join(failed.output.split())
    assert "The copy stopped and nothing was copied: server closed" in said
    assert "holds no row of it" in said and "run marriage-ledger copy-db again" in said
    with unmigrated_app.app_context():
        assert db.session.scalar(text("SELECT count(*) FROM tables")) == 0
    monkeypatch.setattr(copying, "_copy_table", copy_table)
    again = runner.invoke(args=["copy-db", url])
    assert again.exit_code == 0, again.output
    assert _reads(unmigrated_app.test_client(), ids) == reads
    with unmigrated_app.app_context():
        db.engine.dispose()
