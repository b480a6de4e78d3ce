"""A table's page, the big screens and a player's own page opened with no connection
at all: the copy the phone kept of each (static/js/offline-worker.js), saying so and
since when, as the match page's does (tests/web/test_browser_offline_copy.py). Before,
the browser's own error page: a player opening their own link at the table with no
connection could not see what they owe. A copy's forms that write (I paid, Received,
how to pay me, the table's money) are switched off and said to need a connection; no
copy holds a key; an own page whose link was replaced is dropped from the phone."""

from __future__ import annotations

import pytest
from browser_support import api_match, ask_in, created
from match_pages_support import WORKED
from test_browser_offline_copy import copies, kept
from test_browser_person import TABLE  # played for a stake: its players get own links

from ledger.http.pace import POLL_SECONDS

pytestmark = pytest.mark.browser

#: The words of the copy's line on a page whose forms are off, and on a big screen.
WORDS = {
    "en": {
        "copy": "No connection: this is an earlier copy of the page, kept on this phone on ",
        "forms off": "its buttons need a connection",
        "screen": "No connection: this is an earlier copy of the screen, kept on ",
    },
    "ne": {
        "copy": "कनेक्सन छैन: यो यही फोनमा ",
        "forms off": "यसका बटन चलाउन कनेक्सन चाहिन्छ",
        "screen": "कनेक्सन छैन: यो ",
    },
}

#: The buttons of the page's forms that write, and how many of them are switched off.
BUTTONS_OFF = """() => {
  const buttons = [...document.querySelectorAll("form[method=post] button")];
  return [buttons.length, buttons.filter(b => b.disabled).length];
}"""


def offline(page, live_url: str, online: bool = False) -> None:
    """The connection off (or on), once the service worker's own requests see it too:
    asked through a big screen's poll (``live_url``), which the worker answers and which
    drops no copy (test_browser_offline_copy.connected, for any page)."""
    page.context.set_offline(not online)
    reaches = """(url) => fetch(url, {cache: "no-store"}).then(() => true, () => false)"""
    for _ in range(100):
        if page.evaluate(reaches, live_url) == online:
            return
        page.wait_for_timeout(100)
    raise AssertionError(f"the worker is still {'offline' if online else 'online'}")


def copy_opened(page, url: str) -> str:
    """``url`` opened (offline): the worker's copy, once its line says so; the line."""
    answer = page.goto(url)
    assert answer.from_service_worker
    page.wait_for_function("() => document.documentElement.dataset.connection === 'copy'")
    return page.locator("#connection").inner_text()


def qr_shown(page) -> bool:
    """Whether the screen's QR code (its read-only link) is drawn, once it has loaded."""
    page.wait_for_function("() => document.querySelector('img.screen-qr').complete")
    return page.eval_on_selector("img.screen-qr", "img => img.naturalWidth > 0")


def screen_kept(page, url: str) -> None:
    """The big screen at ``url`` kept, and the QR code it shows (a plain GET: …/qr.svg)."""
    kept(page, url)
    qr = page.eval_on_selector("img.screen-qr", "img => img.src")
    for _ in range(50):
        if qr in copies(page):
            return
        page.wait_for_timeout(100)
    raise AssertionError(f"no copy of {qr}")


def own_page(page, base: str, name: str = "Dipa") -> tuple[dict, str, str]:
    """A table played for a stake, and ``name``'s own link opened on this phone: the
    table (its id and edit key), the own link, the own page's URL."""
    table = created(page.request, f"{base}/api/v1/tables", TABLE)
    made = created(
        page.request,
        f"{base}/api/v1/tables/{table['id']}/players/{name}/link",
        key=table["edit_key"],
    )
    link = made["url"].replace("http://localhost", base)
    page.goto(link)
    url = f"{base}/me/{table['id']}"
    page.wait_for_url(url)
    return table, link, url


@pytest.mark.parametrize("lang", WORDS)
def test_a_players_own_page_opened_offline_is_its_copy_with_its_forms_off(live_server, page, lang):
    """Dipa opened her own link at the table; with no connection her page is the copy on
    her phone, saying so and since when, with what she owes as it was. Its forms (I
    paid, how to pay me, a new link, forget me) are off, and the line says they need a
    connection; no copy holds her key. Opened again with a connection, they work."""
    words = WORDS[lang]
    ask_in(page, live_server, lang)
    table, link, url = own_page(page, live_server)
    balance = page.locator(".person-balance").first.inner_text()
    assert page.evaluate(BUTTONS_OFF)[1] == 0
    kept(page, url)
    key = link.rsplit("/", 1)[1]
    assert [copy for copy, text in copies(page).items() if key in text or key in copy] == []

    offline(page, f"{live_server}/tables/{table['id']}/screen/live")
    line = copy_opened(page, url)
    assert line.startswith(words["copy"]) and words["forms off"] in line
    assert page.locator(".person-balance").first.inner_text() == balance
    buttons, off = page.evaluate(BUTTONS_OFF)
    assert buttons >= 4 and off == buttons  # I paid, save my handles, read my QR, new link…
    assert page.locator("#payee").is_disabled()
    described = page.locator(".person-pay button[type=submit]").get_attribute("aria-describedby")
    assert described == "connection"

    offline(page, f"{live_server}/tables/{table['id']}/screen/live", online=True)
    page.goto(url)
    assert page.evaluate(BUTTONS_OFF)[1] == 0


def test_an_own_page_whose_link_was_replaced_is_dropped_from_the_phone(live_server, page):
    """The scorekeeper gave Dipa a new link (hers may have been seen): her phone's old
    key opens nothing, and the copy of her page goes as soon as the phone opens it with
    a connection (403), where it stayed, showing her money, with no connection; and
    the copy of "All my tables" with it, which listed that table and her money."""
    table, _, url = own_page(page, live_server)
    mine = f"{live_server}/me"  # "All my tables", which names her table and her money
    page.goto(mine)
    kept(page, mine)
    page.goto(url)
    kept(page, url)
    created(
        page.request,
        f"{live_server}/api/v1/tables/{table['id']}/players/Dipa/link",
        key=table["edit_key"],
    )
    assert page.goto(url).status == 403
    for _ in range(50):
        if url not in copies(page) and mine not in copies(page):
            break
        page.wait_for_timeout(100)
    assert url not in copies(page) and mine not in copies(page)
    offline(page, f"{live_server}/tables/{table['id']}/screen/live")
    with pytest.raises(Exception, match="net::ERR_"):
        page.goto(url)


def test_the_tables_page_opened_offline_is_its_copy_without_its_edit_link(live_server, page):
    """The scorekeeper's table page (the edit link under Share, the money's forms): with
    no connection, its copy, saying so, its forms off, the edit link left out; and a
    player's record opened from it."""
    table = created(page.request, f"{live_server}/api/v1/tables", TABLE)
    url = f"{live_server}/tables/{table['id']}"
    page.goto(f"{url}/join/{table['edit_key']}")
    page.wait_for_url(url)
    assert page.locator("#edit-link").count() == 1
    kept(page, url)
    assert [copy for copy, text in copies(page).items() if table["edit_key"] in text] == []

    offline(page, f"{url}/screen/live")
    line = copy_opened(page, url)
    assert line.startswith(WORDS["en"]["copy"])
    assert page.locator("h1").inner_text() == TABLE["name"]
    assert page.locator("#edit-link").count() == 0
    buttons, off = page.evaluate(BUTTONS_OFF)
    assert buttons > 0 and off == buttons

    offline(page, f"{url}/screen/live", online=True)  # a player's record, from the page
    page.locator(f"a[href$='/players/{TABLE['players'][0]}']").first.click()
    record = page.url
    kept(page, record)
    offline(page, f"{url}/screen/live")
    assert copy_opened(page, record).startswith(WORDS["en"]["copy"])
    assert page.locator("h1").inner_text() == TABLE["players"][0]


@pytest.mark.parametrize("lang", WORDS)
def test_a_big_screen_opened_offline_is_its_copy_and_follows_again(live_server, page, lang):
    """The match's big screen (a TV's browser reloaded while the Wi-Fi is down) and the
    table's: each is its copy, with the standings of then and the QR code of its
    read-only link, saying so; connected again, the match's screen says so once its
    poll answers."""
    words = WORDS[lang]
    ask_in(page, live_server, lang)
    match_url = api_match(page, live_server, hands=[WORKED])
    screen = f"{match_url}/screen"
    page.goto(screen)
    totals = page.eval_on_selector_all("[data-total]", "cells => cells.map(c => c.dataset.total)")
    assert totals
    screen_kept(page, screen)
    table = created(page.request, f"{live_server}/api/v1/tables", TABLE)
    table_screen = f"{live_server}/tables/{table['id']}/screen"
    page.goto(table_screen)
    screen_kept(page, table_screen)

    # The browser's own cache emptied, as it is an hour on (the QR's max-age): the
    # QR code drawn on the copy is the worker's.
    page.context.new_cdp_session(page).send("Network.clearBrowserCache")
    offline(page, f"{screen}/live")
    assert copy_opened(page, table_screen).startswith(words["screen"])
    assert qr_shown(page)
    assert copy_opened(page, screen).startswith(words["screen"])
    assert qr_shown(page)
    assert (
        page.eval_on_selector_all("[data-total]", "cells => cells.map(c => c.dataset.total)")
        == totals
    )
    page.context.set_offline(False)
    page.wait_for_function(
        "() => document.documentElement.dataset.connection === 'back'",
        timeout=(2 * POLL_SECONDS + 5) * 1000,
    )


def test_forget_me_takes_the_copy_of_the_own_page_with_it(live_server, page):
    """Dipa taps "Forget me" on her phone: her page's copy goes with her name."""
    _, _, url = own_page(page, live_server)
    kept(page, url)
    page.locator(".person-forget > summary").click()
    page.locator(".person-forget button[type=submit]").click()
    page.wait_for_load_state()
    for _ in range(50):
        if url not in copies(page):
            break
        page.wait_for_timeout(100)
    assert url not in copies(page)


def test_all_my_tables_opens_offline_from_an_own_pages_copy(live_server, page):
    """Dipa's own page links to "All my tables" (/me): with no connection, the link on
    the page's copy opens the list's copy, saying so, where it was the browser's error
    page. "Forget me" takes the list's copy with the page's; the next visit keeps the
    list as it is then, without that table."""
    table, _, url = own_page(page, live_server)
    kept(page, url)
    mine = f"{live_server}/me"
    page.locator(".back a[href$='/me']").click()
    page.wait_for_url(mine)
    row = page.locator(".person-tables li").first.inner_text()
    assert TABLE["name"] in row
    kept(page, mine)

    offline(page, f"{live_server}/tables/{table['id']}/screen/live")
    copy_opened(page, url)
    page.locator(".back a[href$='/me']").click()
    page.wait_for_url(mine)
    page.wait_for_function("() => document.documentElement.dataset.connection === 'copy'")
    assert page.locator("#connection").inner_text().startswith(WORDS["en"]["copy"])
    assert page.locator(".person-tables li").first.inner_text() == row

    offline(page, f"{live_server}/tables/{table['id']}/screen/live", online=True)
    page.goto(url)
    page.locator(".person-forget > summary").click()
    page.locator(".person-forget button[type=submit]").click()
    page.wait_for_url(mine)
    for _ in range(50):
        listed = copies(page).get(mine, "")
        if listed and TABLE["name"] not in listed:
            break
        page.wait_for_timeout(100)
    assert url not in copies(page) and TABLE["name"] not in copies(page)[mine]


def test_a_payment_or_qr_taken_back_keeps_the_phones_copies(live_server, page):
    """A payment taken back and a QR code taken down post to addresses that
    end in /delete: the worker took them for the page deleted, and dropped the list of
    this phone's own pages ("All my tables") with them. Only a match or table deleted,
    or "Forget me", takes copies away."""
    _, _, url = own_page(page, live_server)
    mine = f"{live_server}/me"
    page.goto(mine)
    kept(page, mine)
    page.goto(url)
    kept(page, url)
    sent = "(address) => fetch(address, {method: 'POST'}).then(answer => answer.status)"
    for address in (f"{url}/payments/1/delete", f"{url}/qr/delete"):
        assert page.evaluate(sent, address) == 400  # no form token: nothing is done
    page.wait_for_timeout(500)  # the worker forgets as the request goes, not after it
    assert mine in copies(page) and url in copies(page)
