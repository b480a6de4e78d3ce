"""Failures answer as failures (issue 25 §4): a database that cannot be reached or a
full disk is a 503 with ``Retry-After`` and a sentence (the page's language on pages, the
error shape on the API), ``/readyz`` says so, nothing is stored, and once the fault is
gone the same requests store everything once."""

from __future__ import annotations

import errno
import gc
import threading
import time

import pytest
from postgres_cluster import Cluster, server_binaries
from sqlalchemy import event, text
from sqlalchemy.exc import OperationalError

from ledger import create_app, matches
from ledger.api import matches as api_matches
from ledger.extensions import db
from ledger.http import readiness
from ledger.http.errors import RETRY_AFTER

HAND = {
    "finish": "sequences",
    "winner": "Asha",
    "players": [
        {"name": "Asha", "seen": "sequences", "maal": 10},
        {"name": "Bikash", "seen": "sequences", "maal": 5},
        {"name": "Chandra", "seen": "unseen", "maal": 0},
    ],
}
NEW_MATCH_PAGE = {
    "name": "Tihar",
    "first_dealer": "0",
    "rules-profile": "sparkai",
    "length_kind": "open",
    "players-0": "Asha",
    "players-1": "Bikash",
    "players-2": "Chandra",
}
FULL_API = "The server's disk is full, so nothing was changed. Try again once space is freed."
FULL_NE = "सर्भरको डिस्क भरिएको छ"
DOWN_API = (
    "The ledger cannot reach its database just now, so nothing was changed. "
    "Try again in a few seconds."
)


def ledger_app(tmp_path, url: str):
    app = create_app(
        {
            "TESTING": True,
            "INSTANCE_PATH": str(tmp_path / "instance"),
            "SQLALCHEMY_DATABASE_URI": url,
            "SECRET_KEY": "k",
            "WTF_CSRF_ENABLED": False,
            "RATELIMIT_ENABLED": False,
        }
    )
    result = app.test_cli_runner().invoke(args=["init-db"])
    assert result.exit_code == 0, result.output
    return app


def new_match(client) -> tuple[str, dict[str, str]]:
    body = {"name": "Tihar", "players": ["Asha", "Bikash", "Chandra"], "rules": "sparkai"}
    made = client.post("/api/v1/matches", json=body)
    assert made.status_code == 201
    return f"/api/v1/matches/{made.get_json()['id']}", {
        "Authorization": f"Bearer {made.get_json()['edit_key']}"
    }


def assert_unavailable(response, message: str) -> None:
    assert response.status_code == 503, response.get_data(as_text=True)
    assert response.headers["Retry-After"] == str(RETRY_AFTER)
    assert response.get_json() == {"errors": [{"field": "", "message": message}]}


def hand_numbers(app) -> list[int]:
    with app.app_context():
        return list(db.session.scalars(text("SELECT number FROM hands ORDER BY number")))


@pytest.mark.sqlite_only
def test_a_full_sqlite_database_is_a_503_and_readyz_says_so(tmp_path, monkeypatch):
    """SQLite's own "database or disk is full" (its page limit reached, as a full disk
    does), on the API and on a page in Nepali."""
    app = ledger_app(tmp_path, f"sqlite:///{tmp_path / 'full.sqlite3'}")
    client = app.test_client()
    url, key = new_match(client)
    assert client.post(f"{url}/hands", json=HAND, headers=key).status_code == 201
    assert client.get("/readyz").status_code == 200
    with app.app_context():
        pages = db.session.scalar(text("PRAGMA page_count"))

        @event.listens_for(db.engine, "connect")
        def no_more_pages(connection, record):
            connection.execute(f"PRAGMA max_page_count = {pages}")

        db.engine.dispose()
    many = [dict(HAND, winner="Bikash") for _ in range(40)]
    refused = None
    for body in many:  # until a page is needed
        refused = client.post(f"{url}/hands", json=body, headers=key)
        if refused.status_code != 201:
            break
    assert_unavailable(refused, FULL_API)
    stored = hand_numbers(app)
    for _ in range(40):  # the free pages a rollback left may hold a match or two
        page = client.post("/matches/new", data=NEW_MATCH_PAGE, headers={"Accept-Language": "ne"})
        if page.status_code != 303:
            break
    assert page.status_code == 503 and page.headers["Retry-After"] == str(RETRY_AFTER)
    assert FULL_NE in page.get_data(as_text=True)
    ready = client.get("/readyz")
    assert ready.status_code == 503
    assert "the disk is full" in ready.get_data(as_text=True)
    assert hand_numbers(app) == stored  # nothing half stored
    with app.app_context():
        event.remove(db.engine, "connect", no_more_pages)
        db.engine.dispose()
    assert client.post(f"{url}/hands", json=HAND, headers=key).status_code == 201
    assert hand_numbers(app) == [*stored, stored[-1] + 1]
    monkeypatch.setattr(readiness, "RECENT_FAILURE_SECONDS", 0)
    assert client.get("/readyz").status_code == 200


def test_a_simulated_enospc_is_a_503_and_any_other_oserror_a_500(app, client, monkeypatch):
    url, key = new_match(client)

    def failing(number):
        def fail(*args, **kwargs):
            raise OSError(number, "simulated")

        return fail

    monkeypatch.setattr(api_matches.matches, "submit_hand", failing(errno.ENOSPC))
    assert_unavailable(client.post(f"{url}/hands", json=HAND, headers=key), FULL_API)
    monkeypatch.setattr(api_matches.matches, "submit_hand", failing(errno.EACCES))
    app.config["PROPAGATE_EXCEPTIONS"] = False
    assert client.post(f"{url}/hands", json=HAND, headers=key).status_code == 500


def test_readyz_is_ready_as_soon_as_the_database_answers_again(
    tmp_path, empty_database_url, monkeypatch
):
    """A request that could not reach the database (PostgreSQL restarting) is a 503; once
    the database answers, /readyz says ready at once, not for a while "not ready"."""
    app = ledger_app(tmp_path, empty_database_url)
    client = app.test_client()
    url, key = new_match(client)

    def down(*args, **kwargs):
        raise OperationalError("INSERT INTO hands", {}, ConnectionError("server closed"))

    with monkeypatch.context() as patched:
        patched.setattr(api_matches.matches, "submit_hand", down)
        assert_unavailable(client.post(f"{url}/hands", json=HAND, headers=key), DOWN_API)
    ready = client.get("/readyz")
    assert (ready.status_code, ready.get_data(as_text=True)) == (200, "ready\n")
    with app.app_context():
        db.engine.dispose()


@pytest.fixture
def own_cluster():
    """A PostgreSQL cluster of this test's own, which it may stop under the app."""
    bindir = server_binaries()
    if bindir is None:
        pytest.skip("needs PostgreSQL's server binaries (scripts/install-system-deps.sh)")
    cluster = Cluster(bindir).start()
    yield cluster
    cluster.stop()


@pytest.mark.slow  # seconds: lays out PDFs or runs many requests
def test_postgresql_stopped_under_a_writing_app_gives_503s_then_nothing_lost(tmp_path, own_cluster):
    """A scorekeeper saving a hand a moment while the server goes away and comes back:
    every answer is a save or a 503 saying to retry; retried with its Idempotency-Key (as
    the phone's queue does), every hand is stored, once."""
    app = ledger_app(tmp_path, own_cluster.url(own_cluster.create_database()))
    client = app.test_client()
    url, key = new_match(client)
    answers: list[tuple[int, int, str]] = []
    wanted = 12
    stored_some = threading.Event()

    def scorekeeper() -> None:
        writer = app.test_client()
        for n in range(1, wanted + 1):
            while True:
                headers = {**key, "Idempotency-Key": f"hand-{n}"}
                response = writer.post(f"{url}/hands", json=HAND, headers=headers)
                answers.append((n, response.status_code, response.headers.get("Retry-After")))
                body = response.get_json()
                response.close()  # ends the request: its session gives the connection back
                if response.status_code == 503:
                    assert body["errors"][0]["message"] == DOWN_API
                    time.sleep(0.1)  # Retry-After, shortened
                    continue
                break
            if n == 3:
                stored_some.set()
            time.sleep(0.05)

    thread = threading.Thread(target=scorekeeper)
    thread.start()
    try:
        assert stored_some.wait(30)
        own_cluster.halt()
        time.sleep(1)
        assert_unavailable(client.get(url), DOWN_API)
        ready = client.get("/readyz")
        assert ready.status_code == 503 and "the database cannot be used" in ready.get_data(
            as_text=True
        )
        page = client.get(url.replace("/api/v1", ""), headers={"Accept-Language": "ne"})
        assert page.status_code == 503 and "डाटाबेस" in page.get_data(as_text=True)
    finally:
        own_cluster.resume()
        thread.join(60)
    assert not thread.is_alive()
    codes = {code for _, code, _ in answers}
    assert codes <= {200, 201, 503}, answers
    assert 503 in codes
    assert all(after == str(RETRY_AFTER) for _, code, after in answers if code == 503)
    assert hand_numbers(app) == list(range(1, wanted + 1))
    assert client.get("/readyz").status_code == 200  # ready again at once
    with app.app_context():
        assert matches.get_match(url.rsplit("/", 1)[1]).last_hand_number == wanted
    gc.collect()  # the responses not read to the end give their connections back...
    with app.app_context():
        db.engine.dispose()  # ...and all are closed before the cluster goes
