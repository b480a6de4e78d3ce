"""A table's night on a phone (390 × 844, touch), as a scorekeeper and the players play
it: what tripped them, held here. A wallet number the payee published reads whole
wherever it is shown (a number broken over two lines is misread, or paid to the wrong
account), in English and Nepali; axe finds nothing serious on those pages."""

from __future__ import annotations

import pytest
from api_hands import won_by
from browser_support import PHONE, axe_problems, created, no_sideways_scroll

pytestmark = pytest.mark.browser

PLAYERS = ["Asha", "Bikash", "Chandra", "Dipa", "Gopal"]
WALLET = "9801234567"


def _night(request, base: str) -> tuple[dict, str]:
    """A table played for NPR 10 a point, with a night of two hands that Bikash won,
    ended (its settle-up then leads its page), and Bikash's own link; the table (with
    its key) and the link."""
    table = created(
        request,
        f"{base}/api/v1/tables",
        {
            "name": "Friday at Asha's",
            "players": PLAYERS,
            "rules": "amarnepal",
            "stake": {"per_point": "10", "currency": "NPR"},
        },
    )
    key = table["edit_key"]
    match = created(
        request,
        f"{base}/api/v1/tables/{table['id']}/matches",
        {"name": "Friday", "players": PLAYERS},
        key,
    )
    for winner in ("Bikash", "Bikash"):
        created(request, f"{base}/api/v1/matches/{match['id']}/hands", won_by(winner, PLAYERS), key)
    ended = request.patch(
        f"{base}/api/v1/matches/{match['id']}",
        data={"finished": True},
        headers={"Authorization": f"Bearer {key}"},
    )
    assert ended.status == 200, ended.text()
    link = created(request, f"{base}/api/v1/tables/{table['id']}/players/Bikash/link", key=key)
    return {**table, "match": match["id"]}, link["url"].replace("http://localhost", base)


#: Each wallet number shown, and the lines it takes.
WALLET_LINES = """() => [...document.querySelectorAll('.pay-handle')]
    .filter(e => e.checkVisibility())
    .map(e => [e.textContent, new Set([...e.getClientRects()].map(r => Math.round(r.top))).size])"""


@pytest.mark.parametrize("lang", ["en", "ne"])
def test_a_wallet_number_reads_whole_on_a_phone(browser, live_server, axe_source, lang):
    context = browser.new_context(viewport=PHONE, has_touch=True, is_mobile=True)
    try:
        phone = context.new_page()
        phone.goto(f"{live_server}/lang/{lang}?next=/")
        table, bikash = _night(phone.request, live_server)
        phone.goto(bikash)  # Bikash's phone: he says how to pay him
        phone.wait_for_url(f"{live_server}/me/{table['id']}")
        phone.select_option("#rows-0-kind", "esewa")
        phone.fill("#rows-0-handle", WALLET)
        phone.fill("#rows-0-label", "Bikash eSewa")
        with phone.expect_navigation():
            phone.locator(".person-handles button[type=submit]").tap()
        for url in (
            f"{live_server}/matches/{table['match']}",
            f"{live_server}/tables/{table['id']}",
            f"{live_server}/me/{table['id']}",
        ):
            phone.goto(url)
            phone.evaluate("() => document.fonts.ready.then(() => true)")
            shown = phone.evaluate(WALLET_LINES)
            assert shown and all(lines == 1 for _, lines in shown), (url, shown)
            assert no_sideways_scroll(phone), url
            assert axe_problems(phone, axe_source) == [], url
    finally:
        context.close()


#: The handle blocks of "How to pay me" a person sees.
BLOCKS_SHOWN = (
    "() => [...document.querySelectorAll('.handle-row')].filter(e => e.checkVisibility()).length"
)


def _on_bikashs_own_page(context, live_server: str):
    """A phone of ``context`` on Bikash's own page in the night of ``_night``: the page
    and the table (its ids)."""
    phone = context.new_page()
    table, bikash = _night(phone.request, live_server)
    phone.goto(bikash)
    phone.wait_for_url(f"{live_server}/me/{table['id']}")
    return phone, table


def test_how_to_pay_me_grows_a_block_at_a_time(browser, live_server):
    """Five empty handle blocks made Bikash's own page long on his phone: he sees the
    blocks he filled and one empty one, and "Add another handle" shows the next, its
    first field ready; a block shown so is saved like any other."""
    context = browser.new_context(viewport=PHONE, has_touch=True, is_mobile=True)
    try:
        phone, table = _on_bikashs_own_page(context, live_server)
        add = phone.get_by_role("button", name="Add another handle")
        assert phone.evaluate(BLOCKS_SHOWN) == 1 and add.is_visible()
        add.tap()
        assert phone.evaluate(BLOCKS_SHOWN) == 2
        assert phone.evaluate("() => document.activeElement.id") == "rows-1-kind"
        phone.select_option("#rows-1-kind", "khalti")
        phone.fill("#rows-1-handle", WALLET)
        with phone.expect_navigation():
            phone.locator(".person-handles button[type=submit]").tap()
        assert phone.input_value("#rows-0-handle") == WALLET  # saved, and first now
        assert phone.evaluate(BLOCKS_SHOWN) == 2
        for _ in range(3):
            add.tap()
        assert phone.evaluate(BLOCKS_SHOWN) == 5 and add.is_hidden()
    finally:
        context.close()


def test_without_a_script_every_handle_block_shows(browser, live_server):
    context = browser.new_context(viewport=PHONE, java_script_enabled=False)
    try:
        phone, table = _on_bikashs_own_page(context, live_server)
        assert phone.locator(".handle-row:visible").count() == 5
        assert phone.get_by_role("button", name="Add another handle").is_hidden()
    finally:
        context.close()


#: The payments' table: how far it reaches past its box (0: its Money column in sight).
SETTLE_TABLE_HIDDEN = """() => {
    const wrap = document.querySelector('.settle-table').closest('.table-wrap');
    return wrap.scrollWidth - wrap.clientWidth;
}"""


def test_a_long_upi_id_leaves_the_money_in_sight(browser, live_server):
    """Beside the payee, a UPI id of 20 letters widened their column: the payments'
    Money went out of the box on a phone (to be scrolled to, unseen); the payee's way
    to pay now has the row's whole width, below the payment."""
    context = browser.new_context(viewport=PHONE, has_touch=True, is_mobile=True)
    try:
        phone, table = _on_bikashs_own_page(context, live_server)
        phone.select_option("#rows-0-kind", "upi")
        phone.fill("#rows-0-handle", "bikash.sharma@okaxis")
        with phone.expect_navigation():
            phone.locator(".person-handles button[type=submit]").tap()
        phone.goto(f"{live_server}/matches/{table['match']}")
        phone.evaluate("() => document.fonts.ready.then(() => true)")
        assert phone.evaluate(SETTLE_TABLE_HIDDEN) <= 0
        shown = phone.evaluate(WALLET_LINES)
        assert shown and all(lines == 1 for _, lines in shown), shown
    finally:
        context.close()
