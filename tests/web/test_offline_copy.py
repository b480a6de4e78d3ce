"""What the service worker may keep of a page for a visit with no connection
(static/js/offline-worker.js; the browser's side is tests/web/test_browser_offline_copy.py):
the worker served from the ledger's root with its headers; the server's word on each
answer (X-Ledger-Offline-Copy), given only to the match page and to the new-hand form
fetched in the background, a table's pages, the big screens and a player's own page
(and the list of them);
and what a page shows once (a message, the undo offer, the edit link, an own page's new
link: a key) marked, so that the copy cut as the worker cuts it holds none of it."""

from __future__ import annotations

import re
from pathlib import Path

from match_pages_support import WORKED, add_hand, create_match
from table_pages_support import ROSTER, create_table, edit_key, start_match

from ledger.http.no_store import OFFLINE_COPY
from ledger.http.security import BACKGROUND_HEADER, CONTENT_SECURITY_POLICY

WORKER_SOURCE = Path(__file__).resolve().parents[2] / "static" / "js" / "offline-worker.js"
#: The worker's cut (its NOT_KEPT), as it writes it.
NOT_KEPT = re.compile(r"<!--offline:not-kept-->.*?<!--/offline:not-kept-->", re.S)


def copy_of(html: str) -> str:
    """``html`` as the worker keeps it: the marked parts cut out."""
    return NOT_KEPT.sub("", html)


def test_the_worker_is_served_from_the_root_with_its_version_and_headers(client):
    answer = client.get("/offline-worker.js")
    assert answer.status_code == 200
    assert answer.mimetype == "text/javascript"
    assert answer.headers["Cache-Control"] == "no-cache"  # a new worker is found at once
    assert answer.headers["Content-Security-Policy"] == CONTENT_SECURITY_POLICY
    source = answer.get_data(as_text=True)
    version = re.search(r'var VERSION = "([0-9a-f]{12})";', source)
    assert version is not None and "__VERSION__" not in source
    again = client.get("/offline-worker.js", headers={"If-None-Match": f'"{version.group(1)}"'})
    assert again.status_code == 304


def test_the_worker_cuts_what_the_pages_mark():
    assert r"/<!--offline:not-kept-->[\s\S]*?<!--\/offline:not-kept-->/g" in (
        WORKER_SOURCE.read_text(encoding="utf-8")
    )


def test_only_the_pages_and_the_background_form_may_be_kept(client):
    url = create_match(client)
    assert client.get(url).headers[OFFLINE_COPY] == "page"  # the scorekeeper's
    assert client.get("/").headers[OFFLINE_COPY] == "page"  # where the home screen opens
    assert client.get(f"{url}/screen").headers[OFFLINE_COPY] == "page"  # the big screen
    background = {BACKGROUND_HEADER: "1"}
    assert client.get(f"{url}/hands/new", headers=background).headers[OFFLINE_COPY] == "form"
    assert OFFLINE_COPY not in client.get(f"{url}/hands/new").headers  # the form as a page
    add_hand(client, url, WORKED)
    for other in (f"{url}/hands/1", f"{url}/hands", "/check", f"{url}/delete"):
        assert OFFLINE_COPY not in client.get(other).headers, other
    refused = client.post(f"{url}/stake", data={"stake-per_point": "x", "stake-currency": "NPR"})
    assert refused.status_code == 422
    assert OFFLINE_COPY not in refused.headers


def test_a_followers_page_may_be_kept(app, client):
    url = create_match(client)
    follower = app.test_client()
    assert follower.get(url).headers[OFFLINE_COPY] == "page"
    assert follower.get(url).headers[OFFLINE_COPY] == "page"  # the page kept whole, too


def test_the_copy_of_the_scorekeepers_page_holds_no_key_and_nothing_said_once(client):
    """Right after a save the page shows the message, the undo offer and (under Share)
    the edit link with its key: the copy holds none of them, and the rest is there."""
    url = create_match(client)
    add_hand(client, url, WORKED)
    html = client.get(url).get_data(as_text=True)
    assert "/join/" in html and 'class="flash' in html and "data-undo-seconds" in html
    copy = copy_of(html)
    assert "offline:not-kept" not in copy  # every mark closed
    assert "/join/" not in copy
    assert 'class="flash' not in copy and "data-undo-seconds" not in copy
    assert 'id="match-live"' in copy and 'id="read-link"' in copy
    assert "data-offline-entry" in copy  # "Enter hand", offline-entry.js's link


def test_a_tables_pages_may_be_kept_and_its_copy_holds_no_key(client):
    """The table's page (its scorekeeper's, with the edit link under Share), its big
    screen and a player's record may be kept: the copy leaves the edit link out, and its
    forms are switched off on it (the line says so: data-copy-forms-off). A form sent
    back with its problems is no page to keep."""
    url = create_table(client)
    key = edit_key(client, url)
    start_match(client, url, ROSTER)
    answer = client.get(url)
    assert answer.headers[OFFLINE_COPY] == "page"
    html = answer.get_data(as_text=True)
    assert key in html and "/join/" in html
    copy = copy_of(html)
    assert "offline:not-kept" not in copy and key not in copy and "/join/" not in copy
    assert "data-copy-forms-off" in copy and 'id="read-link"' in copy
    assert client.get(f"{url}/screen").headers[OFFLINE_COPY] == "page"
    assert client.get(f"{url}/players/Asha").headers[OFFLINE_COPY] == "page"  # a player's record
    paid = {"payer": "Asha", "payee": "Bikash", "amount": "x"}
    refused = client.post(f"{url}/payments", data=paid)
    assert refused.status_code == 422
    assert OFFLINE_COPY not in refused.headers


def test_a_players_own_page_may_be_kept_and_its_new_link_is_not(client):
    """The player's own page may be kept (on their phone: it is their session's); the
    page that shows their new link (a key) answers a write, and is no copy; its new link
    is marked besides, and with it cut the page holds no key."""
    url = create_table(client)
    table_id = url.rsplit("/", 1)[1]
    auth = {"Authorization": f"Bearer {edit_key(client, url)}"}
    made = client.post(f"/api/v1/tables/{table_id}/players/Dipa/link", headers=auth)
    client.get(made.get_json()["url"].split("localhost", 1)[1])
    own = client.get(f"/me/{table_id}")
    assert own.headers[OFFLINE_COPY] == "page"
    assert "data-copy-forms-off" in copy_of(own.get_data(as_text=True))
    renewed = client.post(f"/me/{table_id}/link")
    html = renewed.get_data(as_text=True)
    assert renewed.status_code == 200 and "/me/join/" in html
    assert OFFLINE_COPY not in renewed.headers  # an answer to a write
    assert "/join/" not in copy_of(html)
    assert OFFLINE_COPY not in client.get("/me/join/not-a-key").headers  # a 403
    # "All my tables", which the own page links to, may be kept too: it holds no key.
    mine = client.get("/me")
    assert mine.headers[OFFLINE_COPY] == "page"
    assert f"/me/{table_id}" in (listed := copy_of(mine.get_data(as_text=True)))
    assert "/join/" not in listed
    assert "data-worker=" in listed  # it registers the worker, as the own page does
