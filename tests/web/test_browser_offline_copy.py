"""A match page opened with no connection at all (a reload, the home screen, a recent
tab): the copy the phone kept of it (static/js/offline-worker.js, the service worker),
saying so and since when, on the scorekeeper's phone and a follower's, with "Enter hand"
working from it; never a page that shows a key, nor another match's copy, nor a deleted
match's. Before, the browser's own error page.

Offline is Playwright's ``context.set_offline(True)``: in this Chromium it holds for the
service worker's own requests too (``test_offline_holds_for_the_worker``: a page the
worker has no copy of fails, where the worker's fetch would have been answered), but a
worker already running sees the switch a moment after the page does; so each switch
waits until a request the worker answers (the match's poll) fails or is answered
(``connected``). A page's ``route`` does not see the requests the worker answers: a
context's does."""

from __future__ import annotations

import re
from datetime import date

import nepali_datetime
import pytest
from browser_support import api_match, ask_in, flash
from match_pages_support import BY_COUNTS, PLAYERS, WORKED
from playwright.sync_api import Error as PlaywrightError
from test_browser_hand_once import api, fill_hand, save_button, stored, unsent
from test_browser_person import TABLE  # played for a stake: its players get own links

from ledger.http.pace import POLL_SECONDS
from ledger.i18n.numbers import BS_MONTHS
from ledger.serving.server import serving_in_thread

pytestmark = pytest.mark.browser

#: The page's words this test reads, in each language: the start of the copy's line.
WORDS = {
    "en": {
        "copy": "No connection: this is an earlier copy of the page, kept on this phone on ",
        "adding 2": "Adding hand 2",
        "sent 2": "Hand 2 was sent and saved.",
    },
    "ne": {
        "copy": "कनेक्सन छैन: यो यही फोनमा ",
        "adding 2": "बाजी २ हाल्दै",
        "sent 2": "बाजी २ पठाइयो र सेभ भयो।",
    },
}

DEVANAGARI = str.maketrans("0123456789", "०१२३४५६७८९")

#: Every copy the worker keeps, as {url: text}.
COPIES = """async () => {
  const found = {};
  for (const name of await caches.keys()) {
    const cache = await caches.open(name);
    for (const request of await cache.keys()) {
      // gone between the two reads when the worker lets a copy go meanwhile
      const answer = await cache.match(request);
      if (answer) found[request.url] = await answer.text();
    }
  }
  return found;
}"""


def copies(page) -> dict[str, str]:
    return page.evaluate(COPIES)


def kept(page, url: str) -> str:
    """The copy of ``url`` the worker keeps, once it is there, and those of the scripts
    of the page shown (the copy of a page is no page without them)."""
    scripts = page.eval_on_selector_all("script[src]", "found => found.map(s => s.src)")
    for _ in range(100):
        held = copies(page)
        if url in held and all(script in held for script in scripts):
            return held[url]
        page.wait_for_timeout(100)
    raise AssertionError(f"no copy of {url} kept, or of its scripts")


def connected(page, match_url: str, online: bool) -> None:
    """The phone's connection on or off (Playwright's offline emulation), once the service
    worker's own requests see it too: a worker started before the switch takes it a
    moment later. Asked through the worker: the match's poll, which it answers."""
    page.context.set_offline(not online)
    reaches = """(url) => fetch(url, {cache: "no-store"}).then(() => true, () => false)"""
    for _ in range(100):
        if page.evaluate(reaches, match_url + "/live") == online:
            return
        page.wait_for_timeout(100)
    raise AssertionError(f"the worker is still {'offline' if online else 'online'}")


def opened_offline(page, url: str):
    """``url`` opened with no connection (as from the home screen): the answer."""
    connected(page, url, online=False)
    answer = page.goto(url)
    page.wait_for_function("() => document.documentElement.dataset.connection === 'copy'")
    return answer


def kept_day_bs(page) -> str:
    """The day the copy shown was kept, on the phone's clock, as a Nepali page writes a
    date: ``२१ मंसिर २०८३``. Under Debian's Chromium the browser's own Nepali wrote
    "Dec 7, 2026" (its ICU has no Nepali month names)."""
    local = page.evaluate(
        """() => { const when = new Date(document.documentElement.dataset.offlineCopy);
        return [when.getFullYear(), when.getMonth() + 1, when.getDate()]; }"""
    )
    bs = nepali_datetime.date.from_datetime_date(date(*local))
    return f"{bs.day} {BS_MONTHS[bs.month - 1]} {bs.year}".translate(DEVANAGARI)


def back_online_hand_2_is_sent(page, page_url: str, words: dict = WORDS["en"]) -> None:
    """The connection back: the hand kept on the copy is sent (by the page's "online",
    or, when the worker saw the connection a moment after the page, by "Send now"),
    stored once, and said to be."""
    connected(page, page_url, online=True)
    for _ in range(10):
        try:
            page.locator(".flash").first.wait_for(timeout=2000)
            break
        except PlaywrightError:  # not sent yet: "Send now", as a scorekeeper would
            pass
        try:
            page.locator("[data-send-hands]").click(timeout=1000)
        except PlaywrightError:  # gone: the page went on meanwhile
            pass
    assert words["sent 2"] in flash(page)
    assert stored(page_url) == [1, 2]


def standings(page) -> list[str]:
    """The match's totals as the page shows them, a player at a time."""
    return page.eval_on_selector_all(
        "#match-live [data-total]", "cells => cells.map(cell => cell.dataset.total)"
    )


@pytest.mark.parametrize("lang", WORDS)
def test_the_scorekeepers_match_page_opened_offline_is_its_copy_and_enter_hand_works(
    live_server, page, lang
):
    """The scorekeeper's match page, opened online after hand 1, is opened again with no
    connection: its copy, saying so and since when, with the standings of then. "Enter
    hand 2" opens the form (the worker's copy of it, with a key of its own); the hand is
    kept, and stored once when the connection is back."""
    words = WORDS[lang]
    ask_in(page, live_server, lang)
    page_url = api_match(page, live_server, hands=[WORKED])
    online = standings(page)
    assert online
    kept(page, page_url)
    kept(page, page_url + "/hands/new")  # offline-entry.js's copy of the form

    answer = opened_offline(page, page_url)
    assert answer.from_service_worker
    assert "script-src 'self'" in answer.headers["content-security-policy"]
    line = page.locator("#connection").inner_text()
    assert line.startswith(words["copy"])
    assert re.search(r"[0-9०-९]", line)  # since when
    if lang == "ne":  # by the page's own Bikram Sambat months, not the browser's Nepali
        assert kept_day_bs(page) in line
    assert standings(page) == online
    assert page.locator("#edit-link").count() == 0  # the edit link is not kept

    page.locator("a[data-offline-entry]").click()
    assert page.locator("h1").inner_text() == words["adding 2"]
    fill_hand(page, BY_COUNTS)
    save_button(page).click()
    page.locator("#hand-queue .unsent").wait_for()
    assert stored(page_url) == [1]

    back_online_hand_2_is_sent(page, page_url, words)
    assert unsent(page) == []


def test_a_followers_page_opened_offline_is_its_copy_and_no_other_match_is(live_server, page):
    """A follower's phone opened the read-only link; with no connection, a new tab of it
    is the copy (saying so), and connected again its poll brings the hand saved since.
    Another match's address is no copy of it: the browser's own error page, as before."""
    made = api(
        f"{live_server}/api/v1/matches",
        {"name": "Tihar", "players": PLAYERS, "rules": "sparkai", "length": None},
    )
    hands = f"{live_server}/api/v1/matches/{made['id']}/hands"
    api(hands, WORKED, made["edit_key"])
    page_url = f"{live_server}/matches/{made['id']}"
    other = api(
        f"{live_server}/api/v1/matches",
        {"name": "Other", "players": PLAYERS, "rules": "sparkai", "length": None},
    )
    page.goto(page_url)
    online = standings(page)
    assert online
    kept(page, page_url)

    opened_offline(page, page_url)
    assert standings(page) == online
    assert page.locator("#connection").inner_text().startswith(WORDS["en"]["copy"])
    elsewhere = page.context.new_page()  # another tab
    with pytest.raises(Exception, match="net::ERR_"):
        elsewhere.goto(f"{live_server}/matches/{other['id']}")

    page = page.context.new_page()  # a new tab of it
    opened_offline(page, page_url)
    api(hands, BY_COUNTS, made["edit_key"])  # saved meanwhile on the scorekeeper's phone
    page.context.set_offline(False)
    page.wait_for_function(
        "() => document.documentElement.dataset.connection === 'back'",
        timeout=(2 * POLL_SECONDS + 5) * 1000,
    )
    assert page.locator("#connection").inner_text() == "Connected again: the scores are up to date."
    assert standings(page) != online


def test_no_page_that_shows_a_key_is_kept(live_server, page):
    """The scorekeeper's match page shows the edit link (its key): its copy leaves it
    out, and no copy holds a key. The table's page is kept without its edit link. A
    player's own link, shown once (the answer to "Make their link"), is in no copy, and
    neither it nor the page that showed it is opened again with no connection."""
    page_url = api_match(page, live_server)
    match_id = page_url.rsplit("/", 1)[1]
    edit_link = page.locator("#edit-link").input_value()
    kept(page, page_url)

    table = page.request.post(f"{live_server}/api/v1/tables", data=TABLE).json()
    table_url = f"{live_server}/tables/{table['id']}"
    page.goto(f"{table_url}/join/{table['edit_key']}")
    kept(page, table_url)
    page.locator("#own-links > summary").click()
    page.select_option("#own-link-player", "Chandra")
    page.locator("#own-links form button[type=submit]").click()
    own_link = page.locator("#own-link").input_value()
    own_page = page.url

    held = copies(page)
    assert page_url in held
    keys = [edit_link.rsplit("/", 1)[1], table["edit_key"], own_link.rsplit("/", 1)[1]]
    assert [key for key in keys for text in held.values() if key in text] == []
    pages = [url for url in held if "/static/" not in url]
    table_copies = (table_url, f"{table_url}/qr.svg")  # its page, its read-only link's QR
    assert [url for url in pages if match_id not in url and url not in table_copies] == []

    page.context.set_offline(True)
    for url in (own_page, own_link, edit_link):
        with pytest.raises(Exception, match="net::ERR_"):
            page.goto(url)


def test_a_match_deleted_on_this_phone_leaves_no_copy(live_server, page):
    """A match started by mistake, opened (kept), then deleted: its copy goes with it."""
    page_url = api_match(page, live_server)
    kept(page, page_url)
    page.goto(page_url + "/delete")
    page.locator("main form button[type=submit]").click()
    page.wait_for_url(live_server + "/")
    assert [url for url in copies(page) if url.startswith(page_url)] == []


def test_offline_holds_for_the_worker(live_server, page):
    """Playwright's offline emulation reaches the service worker's own fetches in this
    Chromium (were it the page's alone, the worker's fetch would be answered): its answer
    to the match's poll fails (``connected`` waits for that), and so does a page it has
    no copy of, with no connection (net::ERR_FAILED: the worker found none)."""
    page_url = api_match(page, live_server)
    kept(page, page_url)
    connected(page, page_url, online=False)
    with pytest.raises(Exception, match="net::ERR_FAILED"):
        page.goto(f"{live_server}/healthz")


#: How long a CSRF token lasts on the server of the test below (Flask-WTF's default: an hour).
TOKEN_SECONDS = 3


@pytest.fixture
def short_token_server(make_app):
    """The app served with CSRF tokens that expire after ``TOKEN_SECONDS``."""
    app = make_app(WTF_CSRF_ENABLED=True, TESTING=False, WTF_CSRF_TIME_LIMIT=TOKEN_SECONDS)
    with serving_in_thread(app) as port:
        yield f"http://127.0.0.1:{port}"


def test_a_hand_entered_on_a_copy_goes_with_a_token_of_today(short_token_server, page):
    """The copy's CSRF token is of the day it was kept, expired since: the hand entered
    on it is sent, once the connection is back, with a token the page asks for afresh.
    Before, the send was refused ("This form has expired") and the hand said to be one
    that "could not be saved as it was typed"."""
    page_url = api_match(page, short_token_server, hands=[WORKED])
    kept(page, page_url)
    kept(page, page_url + "/hands/new")
    opened_offline(page, page_url)
    page.locator("a[data-offline-entry]").click()
    fill_hand(page, BY_COUNTS)
    save_button(page).click()
    page.locator("#hand-queue .unsent").wait_for()
    page.wait_for_timeout((TOKEN_SECONDS + 1) * 1000)  # every token of the copy expired

    back_online_hand_2_is_sent(page, page_url)
    assert stored(page_url) == [1, 2]


def test_the_landing_page_opened_offline_is_its_copy_and_leads_to_the_match(live_server, page):
    """The ledger kept on the home screen opens on the landing page: with no connection
    it is the phone's copy, saying so, and its match leads to the match's copy."""
    page_url = api_match(page, live_server, hands=[WORKED])
    kept(page, page_url)
    home = f"{live_server}/"
    page.goto(home)
    kept(page, home)

    connected(page, page_url, online=False)
    answer = page.goto(home)
    assert answer.from_service_worker
    page.wait_for_function("() => document.documentElement.dataset.connection === 'copy'")
    line = page.locator("#connection").inner_text()
    assert line.startswith(WORDS["en"]["copy"]) and "scores" not in line
    page.locator(".match-list a").first.click()
    page.wait_for_function("() => document.documentElement.dataset.connection === 'copy'")
    assert page.url == page_url
