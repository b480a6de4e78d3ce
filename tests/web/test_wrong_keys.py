"""A lockout nobody can cause (issue 35): wrong edit keys count per address and per
match or table they were tried on, the 21st a minute is a 429, and a right key is never
refused for them; a key holder's writes count on a budget of their own, not their
address's (one home router is one address for every phone)."""

from __future__ import annotations

import io

from match_pages_support import create_match
from table_pages_support import create_table, edit_key, start_match

from ledger.http.limits import DEFAULT_LIMITS

MATCH = {"name": "Tihar", "players": ["Asha", "Bikash", "Chandra", "Dipa"], "rules": "sparkai"}
HAND = {
    "finish": "sequences",
    "winner": "Asha",
    "players": [
        {"name": "Asha", "seen": "sequences", "maal": 10},
        {"name": "Bikash", "seen": "sequences", "maal": 5},
        {"name": "Chandra", "seen": "unseen", "maal": 0},
        {"name": "Dipa", "seen": "unseen", "maal": 0},
    ],
}
WRONG = {"Authorization": "Bearer not-the-key"}
HOME = {"REMOTE_ADDR": "192.0.2.10"}  # one home router: every phone behind it


def bearer(key: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {key}"}


def made_match(client) -> tuple[str, str]:
    made = client.post("/api/v1/matches", json=MATCH, environ_base=HOME).get_json()
    return made["id"], made["edit_key"]


def guess(client, public_id: str, times: int) -> list[int]:
    """``times`` hand saves with a wrong key on the match, from the home address."""
    url = f"/api/v1/matches/{public_id}/hands"
    return [
        client.post(url, json=HAND, headers=WRONG, environ_base=HOME).status_code
        for _ in range(times)
    ]


def test_twenty_wrong_keys_then_the_right_key_from_the_same_address_saves(limited):
    app = limited()
    assert app.config["RATELIMIT_EDIT_KEY"] == DEFAULT_LIMITS["RATELIMIT_EDIT_KEY"]
    client = app.test_client()
    public_id, key = made_match(client)
    assert guess(client, public_id, 20) == [403] * 20
    saved = client.post(
        f"/api/v1/matches/{public_id}/hands", json=HAND, headers=bearer(key), environ_base=HOME
    )
    assert saved.status_code == 201, saved.get_json()
    joined = app.test_client().get(f"/matches/{public_id}/join/{key}", environ_base=HOME)
    assert joined.status_code == 303


def test_the_twenty_first_wrong_key_is_a_429_and_the_right_key_still_works(limited):
    app = limited()
    client = app.test_client()
    public_id, key = made_match(client)
    assert guess(client, public_id, 20) == [403] * 20
    refused = client.patch(
        f"/api/v1/matches/{public_id}", json={}, headers=WRONG, environ_base=HOME
    )
    assert refused.status_code == 429
    seconds = int(refused.headers["Retry-After"])
    assert 1 <= seconds <= 60
    (error,) = refused.get_json()["errors"]
    assert "at most 20 per 1 minute" in error["message"]
    assert f"Try again in {seconds} seconds." in error["message"]
    link = client.get(f"/matches/{public_id}/join/another-guess", environ_base=HOME)
    assert link.status_code == 429 and int(link.headers["Retry-After"]) >= 1
    assert "Too many requests" in link.get_data(as_text=True)
    ok = client.patch(
        f"/api/v1/matches/{public_id}", json={}, headers=bearer(key), environ_base=HOME
    )
    assert ok.status_code == 200
    joined = app.test_client().get(f"/matches/{public_id}/join/{key}", environ_base=HOME)
    assert joined.status_code == 303


def test_wrong_keys_on_one_match_do_not_limit_another_match_nor_another_address(limited):
    app = limited(RATELIMIT_EDIT_KEY="3 per minute")
    client = app.test_client()
    first, _ = made_match(client)
    second, _ = made_match(client)
    assert guess(client, first, 4) == [403, 403, 403, 429]
    assert guess(client, second, 1) == [403]
    elsewhere = client.post(
        f"/api/v1/matches/{first}/hands",
        json=HAND,
        headers=WRONG,
        environ_base={"REMOTE_ADDR": "198.51.100.4"},
    )
    assert elsewhere.status_code == 403


def test_wrong_table_keys_are_limited_per_table(limited):
    app = limited(RATELIMIT_EDIT_KEY="2 per minute")
    scorekeeper = app.test_client()
    url = create_table(scorekeeper)
    key = edit_key(scorekeeper, url)
    public_id = url.rsplit("/", 1)[1]
    guesser = app.test_client()
    api = f"/api/v1/tables/{public_id}"
    codes = [guesser.patch(api, json={}, headers=WRONG).status_code for _ in range(2)]
    assert codes == [403, 403]
    assert guesser.get(f"{url}/join/a-guess").status_code == 429
    assert guesser.patch(api, json={}, headers=WRONG).status_code == 429
    assert guesser.patch(api, json={}, headers=bearer(key)).status_code == 200
    assert guesser.get(f"{url}/join/{key}").status_code == 303


def test_a_right_keys_writes_are_not_refused_by_its_addresss_other_traffic(limited):
    """Everyone behind the home router has used up the address's new matches and PDFs:
    the table's scorekeeper (its key) still starts tonight's match and prints."""
    app = limited(RATELIMIT_MATCH_CREATE="2 per minute", RATELIMIT_PDF="1 per minute")
    scorekeeper = app.test_client()
    scorekeeper.environ_base.update(HOME)
    table = create_table(scorekeeper)  # one of the address's two new matches or tables
    table_id = table.rsplit("/", 1)[1]
    key = edit_key(scorekeeper, table)
    others = app.test_client()
    others.environ_base.update(HOME)
    assert others.post("/api/v1/matches", json=MATCH).status_code == 201
    assert others.post("/api/v1/matches", json=MATCH).status_code == 429
    match_id = start_match(scorekeeper, table, ["Asha", "Bikash", "Chandra", "Dipa"])
    api = scorekeeper.post(
        f"/api/v1/tables/{table_id}/matches",
        json={"name": "Late", "players": ["Asha", "Bikash", "Chandra"]},
        headers=bearer(key),
    )
    assert api.status_code == 201, api.get_json()
    add = scorekeeper.post(f"/api/v1/matches/{match_id}/hands", json=HAND, headers=bearer(key))
    assert add.status_code == 201, add.get_json()
    assert others.head(f"/matches/{match_id}/summary.pdf").status_code == 200
    assert others.head(f"/matches/{match_id}/summary.pdf").status_code == 429
    assert scorekeeper.head(f"/matches/{match_id}/summary.pdf").status_code == 200
    assert others.head(f"{table}/what-if.pdf").status_code == 200
    assert others.head(f"{table}/what-if.pdf").status_code == 429
    assert scorekeeper.head(f"{table}/what-if.pdf").status_code == 200


def test_the_table_pages_import_counts_against_the_imports_budget(limited):
    """The new-table page's "Load a saved table" is an import like the API's: it does
    the same work (a table of up to 500 seasons), so it shares the address's budget."""
    client = limited(RATELIMIT_IMPORT="2 per minute").test_client()
    for _ in range(2):
        page = client.post(
            "/tables/import",
            data={"file": (io.BytesIO(b"{}"), "export.json")},
            content_type="multipart/form-data",
        )
        assert page.status_code == 422  # counted, though refused
    assert client.post("/api/v1/tables/import", json={}).status_code == 429
    again = client.post(
        "/tables/import",
        data={"file": (io.BytesIO(b"{}"), "export.json")},
        content_type="multipart/form-data",
    )
    assert again.status_code == 429


def test_the_tables_what_if_pdf_is_limited(limited):
    app = limited(RATELIMIT_PDF="1 per minute")
    client = app.test_client()
    table = create_table(client)
    follower = app.test_client()
    assert follower.head(f"{table}/what-if.pdf").status_code == 200
    refused = follower.get(f"{table}/what-if.pdf")
    assert refused.status_code == 429 and int(refused.headers["Retry-After"]) >= 1


def test_imports_have_their_own_budget_from_the_page_and_the_api(limited):
    app = limited(RATELIMIT_IMPORT="2 per minute", RATELIMIT_MATCH_CREATE="1 per minute")
    client = app.test_client()
    url = create_match(client)  # the address's one new match
    public_id = url.rsplit("/", 1)[1]
    document = client.get(f"/api/v1/matches/{public_id}/export.json").get_json()
    assert client.post("/api/v1/matches/import", json=document).status_code == 201
    page = client.post(
        "/matches/import",
        data={"file": (io.BytesIO(b"{}"), "export.json")},
        content_type="multipart/form-data",
    )
    assert page.status_code == 422  # counted, though refused
    again = client.post("/api/v1/matches/import", json=document)
    assert again.status_code == 429
    assert client.post("/api/v1/tables/import", json={}).status_code == 429
    assert client.post("/api/v1/matches", json=MATCH).status_code == 429  # its own, used
    other = app.test_client()
    elsewhere = {"REMOTE_ADDR": "198.51.100.9"}
    assert (
        other.post("/api/v1/matches/import", json=document, environ_base=elsewhere).status_code
        == 201
    )
