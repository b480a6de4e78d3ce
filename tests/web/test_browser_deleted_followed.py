"""A match followed while it is deleted (started by mistake), in headless Chromium: the
follower's page on the read-only link and the big screen say the match was deleted and
stop asking, where they said the connection was lost and polled the 404 for ever."""

from __future__ import annotations

import urllib.request

import pytest
from browser_support import ask_in, fresh_page
from test_browser_hand_once import api

from ledger.http.pace import POLL_SECONDS

pytestmark = pytest.mark.browser

PLAYERS = ["Asha", "Bikash", "Chandra", "Dipa"]

GONE = {
    "en": "This match was deleted (started by mistake): there is nothing more to follow here.",
    "ne": "यो म्याच मेटाइयो (गल्तीले सुरु भएको थियो): यहाँ अब हेर्ने केही छैन।",
}


def deleted(live_server: str, made: dict, kind: str = "matches") -> None:
    """The match (or, with ``kind`` "tables", the table) deleted through the API with its
    edit key."""
    request = urllib.request.Request(
        f"{live_server}/api/v1/{kind}/{made['id']}",
        method="DELETE",
        headers={"Authorization": f"Bearer {made['edit_key']}"},
    )
    with urllib.request.urlopen(request) as answer:
        assert answer.status == 204


@pytest.mark.parametrize(("lang", "where"), [("en", ""), ("ne", ""), ("en", "/screen")])
def test_a_deleted_match_is_said_deleted_and_no_longer_polled(live_server, browser, lang, where):
    made = api(
        live_server + "/api/v1/matches",
        {"name": "Oops", "players": PLAYERS, "rules": "sparkai"},
    )
    with fresh_page(browser) as follower:
        ask_in(follower, live_server, lang)
        follower.goto(f"{live_server}/matches/{made['id']}{where}")
        follower.wait_for_function("() => window.htmx !== undefined")
        polls: list[str] = []
        follower.on("request", lambda r: polls.append(r.url) if "/live" in r.url else None)
        deleted(live_server, made)
        wait = (2 * POLL_SECONDS + 2) * 1000
        follower.wait_for_function(
            "() => document.documentElement.dataset.connection === 'gone'", timeout=wait
        )
        assert follower.locator("#connection").inner_text() == GONE[lang]
        asked = len(polls)
        follower.wait_for_timeout((POLL_SECONDS + 1) * 1000)
        assert len(polls) == asked  # nothing more to ask for


def test_a_deleted_tables_big_screen_says_so_and_stops(live_server, browser):
    made = api(live_server + "/api/v1/tables", {"name": "Oops", "players": PLAYERS})
    with fresh_page(browser) as screen:
        screen.goto(f"{live_server}/tables/{made['id']}/screen")
        screen.wait_for_function("() => window.htmx !== undefined")
        deleted(live_server, made, "tables")
        screen.wait_for_function(
            "() => document.documentElement.dataset.connection === 'gone'",
            timeout=(2 * POLL_SECONDS + 2) * 1000,
        )
        said = screen.locator("#connection").inner_text()
        assert (
            said
            == "This table was deleted (made by mistake): there is nothing more to follow here."
        )
