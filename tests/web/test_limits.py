"""Rate limits on what costs: creating and importing matches, PDFs, the settle API.

The suite runs with the limiter off (tests/conftest.py); here it is on, with low limits.
"""

from __future__ import annotations

from collections import Counter

import pytest
from limits.storage import MemoryStorage
from match_pages_support import WORKED, add_hand, create_match, new_match_form

from ledger.http.limits import DEFAULT_LIMITS

NE = {"Accept-Language": "ne-NP,ne;q=0.9"}
MATCH = {"name": "Tihar", "players": ["Asha", "Bikash", "Chandra", "Dipa"], "rules": "sparkai"}
TABLE = {"name": "Friday", "players": ["Asha", "Bikash", "Chandra", "Dipa"], "rules": "sparkai"}
SETTLE = {
    "rules": "sparkai",
    "finish": "void",
    "players": [{"name": "Asha", "seen": "unseen"}, {"name": "Bikash", "seen": "unseen"}],
}


class SharedForTests(MemoryStorage):
    """A stand-in for a shared backend (Redis, Memcached): every instance counts in one
    place, as processes counting in one server do."""

    STORAGE_SCHEME = ["ledger-tests-shared"]
    counts: Counter = Counter()
    expirations: dict = {}

    def __init__(self, uri=None, **options):
        super().__init__(uri, **options)
        self.storage = SharedForTests.counts
        self.expirations = SharedForTests.expirations


def assert_limited_json(response, per: str):
    assert response.status_code == 429
    assert int(response.headers["Retry-After"]) >= 1
    (error,) = response.get_json()["errors"]
    assert error["field"] == ""
    assert f"at most {per}" in error["message"]
    assert f"Try again in {response.headers['Retry-After']} seconds." in error["message"]


def test_creating_matches_is_limited_on_the_api_and_the_page_together(limited):
    app = limited(RATELIMIT_MATCH_CREATE="2 per minute")
    client = app.test_client()
    assert client.post("/api/v1/matches", json=MATCH).status_code == 201
    assert client.post("/matches/new", data=new_match_form()).status_code == 303
    assert_limited_json(client.post("/api/v1/matches", json=MATCH), "2 per 1 minute")
    page = client.post("/matches/new", data=new_match_form())
    assert page.status_code == 429
    assert int(page.headers["Retry-After"]) >= 1
    html = page.get_data(as_text=True)
    assert "Too many requests from your address just now." in html
    assert f"wait {page.headers['Retry-After']} seconds" in html
    nepali = client.post("/matches/new", data=new_match_form(), headers=NE)
    assert nepali.status_code == 429
    assert "धेरै पटक" in nepali.get_data(as_text=True)
    # Reading is not limited, nor is the empty form.
    assert client.get("/matches/new").status_code == 200
    # Another address has its own count.
    other = app.test_client()
    elsewhere = {"REMOTE_ADDR": "192.0.2.7"}
    assert other.post("/api/v1/matches", json=MATCH, environ_base=elsewhere).status_code == 201


def test_imports_are_limited(limited):
    app = limited(RATELIMIT_IMPORT="1 per minute")
    client = app.test_client()
    created = client.post("/api/v1/matches", json=MATCH).get_json()
    document = client.get(f"/api/v1/matches/{created['id']}/export.json").get_json()
    assert client.post("/api/v1/matches/import", json=document).status_code == 201
    assert_limited_json(client.post("/api/v1/matches/import", json=document), "1 per 1 minute")


def test_the_settle_api_is_limited(limited):
    client = limited(RATELIMIT_SETTLE="2 per minute").test_client()
    for _ in range(2):
        assert client.post("/api/v1/settle", json=SETTLE).status_code == 200
    assert_limited_json(client.post("/api/v1/settle", json=SETTLE), "2 per 1 minute")
    assert client.get("/api/v1/rules").status_code == 200


def test_the_pdfs_are_limited_together(limited):
    """A match's PDFs share one count (per address and match); the checker's slip, of no
    match, counts per address."""
    app = limited(RATELIMIT_PDF="1 per minute")
    client = app.test_client()
    url = create_match(client)
    add_hand(client, url, WORKED)
    assert client.head(f"{url}/summary.pdf").status_code == 200  # rendered, so counted
    for slip in (f"{url}/hands/1/slip.pdf", f"{url}/settle-up.pdf"):
        refused = client.get(slip)
        assert refused.status_code == 429, slip
        assert "Too many requests" in refused.get_data(as_text=True)
    assert client.get(url).status_code == 200  # the match page itself is not limited
    assert client.get("/check/slip.pdf").status_code != 429
    assert client.get("/check/slip.pdf").status_code == 429


@pytest.mark.slow  # seconds: lays out PDFs or runs many requests
def test_followers_behind_one_address_cannot_lock_the_scorekeeper_out(limited):
    """A club's NAT: 40 followers' hand slips from the scorekeeper's own address use up
    the followers' count of that match, not the scorekeeper's (their edit key's own)."""
    app = limited(RATELIMIT_PDF="30 per minute")
    scorekeeper = app.test_client()
    url = create_match(scorekeeper)
    add_hand(scorekeeper, url, WORKED)
    followers = app.test_client()  # the same address, no edit key
    answers = Counter(followers.get(f"{url}/hands/1/slip.pdf").status_code for _ in range(40))
    assert answers == {200: 30, 429: 10}
    assert scorekeeper.get(f"{url}/summary.pdf").status_code == 200
    other = create_match(scorekeeper)  # another match's followers count apart
    assert followers.get(f"{other}/settle-up.pdf").status_code != 429


def test_edit_key_guesses_are_limited(limited):
    """Wrong edit keys (an API write, an edit link) count per address and match; right
    ones do not."""
    app = limited(RATELIMIT_EDIT_KEY="3 per minute")
    client = app.test_client()
    made = client.post("/api/v1/matches", json=MATCH).get_json()
    url, key = f"/api/v1/matches/{made['id']}", made["edit_key"]
    for _ in range(5):  # a right key is no guess
        assert (
            client.patch(url, json={}, headers={"Authorization": f"Bearer {key}"}).status_code
            == 200
        )
    wrong = {"Authorization": "Bearer not-the-key"}
    assert client.patch(url, json={}, headers=wrong).status_code == 403
    assert client.get(f"/matches/{made['id']}/join/not-the-key").status_code == 403
    assert client.post(f"{url}/hands", json=SETTLE, headers=wrong).status_code == 403
    assert_limited_json(client.patch(url, json={}, headers=wrong), "3 per 1 minute")
    page = client.get(f"/matches/{made['id']}/join/another-guess")
    assert page.status_code == 429 and "Too many requests" in page.get_data(as_text=True)


def test_a_shared_backend_counts_for_every_process(limited):
    shared = {"RATELIMIT_SETTLE": "2 per minute", "RATELIMIT_STORAGE_URI": "ledger-tests-shared://"}
    first, second = limited(**shared).test_client(), limited(**shared).test_client()
    assert first.post("/api/v1/settle", json=SETTLE).status_code == 200
    assert second.post("/api/v1/settle", json=SETTLE).status_code == 200
    assert first.post("/api/v1/settle", json=SETTLE).status_code == 429
    assert second.post("/api/v1/settle", json=SETTLE).status_code == 429


def test_in_memory_each_process_counts_alone(limited):
    alone = {"RATELIMIT_SETTLE": "1 per minute"}
    first, second = limited(**alone).test_client(), limited(**alone).test_client()
    assert first.application.config["RATELIMIT_STORAGE_URI"] == "memory://"
    assert first.post("/api/v1/settle", json=SETTLE).status_code == 200
    assert second.post("/api/v1/settle", json=SETTLE).status_code == 200
    assert first.post("/api/v1/settle", json=SETTLE).status_code == 429


@pytest.mark.slow  # seconds: lays out PDFs or runs many requests
def test_the_default_limits_are_generous(limited):
    """A table creating a match, entering hands and printing every slip never meets them."""
    app = limited()
    for key, value in DEFAULT_LIMITS.items():
        assert app.config[key] == value
    client = app.test_client()
    url = create_match(client)
    for _ in range(8):
        add_hand(client, url, WORKED)
    for number in range(1, 9):
        assert client.get(f"{url}/hands/{number}/slip.pdf").status_code == 200
    assert client.get(f"{url}/summary.pdf").status_code == 200


def test_person_key_guesses_are_limited_as_edit_keys(limited):
    """A wrong or revoked own link (401 on /me, 403 on a table's payments and on the join
    link) counts as a wrong key; the right one does not, and a 401 without a key is no
    guess."""
    app = limited(RATELIMIT_EDIT_KEY="3 per minute")
    client = app.test_client()
    body = {**TABLE, "stake": {"per_point": "1.00", "currency": "NPR"}}
    table = client.post("/api/v1/tables", json=body).get_json()
    auth = {"Authorization": f"Bearer {table['edit_key']}"}
    link = client.post(f"/api/v1/tables/{table['id']}/players/Asha/link", headers=auth)
    mine = {"Authorization": f"Bearer {link.get_json()['person_key']}"}
    for _ in range(5):
        assert client.get("/api/v1/me", headers=mine).status_code == 200
        assert client.get("/api/v1/me").status_code == 401  # no key: no guess
    wrong = {"Authorization": "Bearer not-a-person-key"}
    assert client.get("/api/v1/me", headers=wrong).status_code == 401
    assert client.put("/api/v1/me/handles", json={"handles": []}, headers=wrong).status_code == 401
    assert client.get("/me/join/not-a-person-key").status_code == 403
    assert_limited_json(client.get("/api/v1/me", headers=wrong), "3 per 1 minute")
    payment = {"from": "Asha", "to": "Bikash", "amount": "1.00"}
    payments = f"/api/v1/tables/{table['id']}/payments"
    # A table's payments count the wrong keys tried on that table, on their own.
    for _ in range(3):
        assert client.post(payments, json=payment, headers=wrong).status_code == 403
    refused = client.post(payments, json=payment, headers=wrong)
    assert refused.status_code == 429
