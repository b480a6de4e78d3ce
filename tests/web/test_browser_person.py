"""A player's own page on a phone (390 px), in English and Nepali: Dipa says she paid
Asha, sets her handle and uploads her wallet's QR; Asha confirms on her own phone; axe
finds no serious problem, and nothing scrolls sideways."""

from __future__ import annotations

import io

import pytest
import segno
from browser_support import (
    axe_problems,
    created,
    fresh_page,
    no_sideways_scroll,
)

pytestmark = pytest.mark.browser

#: A wallet QR as Fonepay and eSewa make them: long, with no space to wrap at.
QR_TEXT = "000201010211" + "26390010fonepay.np0121Dipa9841000000000000" * 3 + "5303524"
#: A table of four played for NPR 1 a point.
TABLE = {
    "name": "Friday table",
    "players": ["Asha", "Bikash", "Chandra", "Dipa"],
    "rules": "sparkai",
    "stake": {"per_point": "1.00", "currency": "NPR"},
}


def _table_with_links(request, base: str) -> tuple[str, str, str]:
    table = created(request, f"{base}/api/v1/tables", TABLE)
    links = []
    for name in ("Dipa", "Asha"):
        link = f"{base}/api/v1/tables/{table['id']}/players/{name}/link"
        links.append(created(request, link, key=table["edit_key"])["url"])
    return table["id"], links[0], links[1]


def _qr_png() -> bytes:
    out = io.BytesIO()
    segno.make(QR_TEXT, error="m").save(out, kind="png", scale=6)
    return out.getvalue()


@pytest.mark.parametrize("lang", ["en", "ne"])
def test_pay_confirm_handle_and_qr_on_a_phone(live_server, browser, axe_source, lang):
    found: dict[str, list[str]] = {}
    with fresh_page(browser) as page, fresh_page(browser) as other:
        page.goto(f"{live_server}/lang/{lang}?next=/")
        table_id, dipa_url, asha_url = _table_with_links(page.request, live_server)
        page.goto(dipa_url.replace("http://localhost", live_server))
        page.wait_for_url(f"{live_server}/me/{table_id}")
        assert page.locator("html").get_attribute("lang") == lang
        found["Dipa's page"] = axe_problems(page, axe_source)
        assert no_sideways_scroll(page)

        page.select_option("#payee", "Asha")
        page.fill("#amount", "150")
        page.locator(".person-pay button[type=submit]").first.click()
        # No night yet: Dipa owes Asha nothing, so the form asks before it records.
        page.locator(".person-pay button[name=confirmed]").click()
        page.locator(".flash").wait_for()
        assert page.locator(".payment.state-pending").count() == 1

        page.fill("#rows-0-handle", "9841000000")
        page.select_option("#rows-0-kind", "esewa")
        page.locator(".person-handles button[type=submit]").click()
        page.locator(".flash").wait_for()
        page.set_input_files(
            "#image", files=[{"name": "qr.png", "mimeType": "image/png", "buffer": _qr_png()}]
        )
        page.locator(".person-qr button[type=submit]").click()
        page.locator(".pay-qr-text").wait_for()
        assert page.locator(".pay-qr-text").inner_text() == QR_TEXT
        assert page.locator(".pay-handle").inner_text() == "9841000000"
        found["Dipa's page, handle and QR set"] = axe_problems(page, axe_source)
        assert no_sideways_scroll(page)

        other.goto(f"{live_server}/lang/{lang}?next=/")
        other.goto(asha_url.replace("http://localhost", live_server))
        other.wait_for_url(f"{live_server}/me/{table_id}")
        found["Asha's page, a payment to confirm"] = axe_problems(other, axe_source)
        other.locator("form[action$='/confirm'] button").click()
        other.locator(".flash").wait_for()
        assert other.locator(".payment.state-confirmed").count() == 1
        assert no_sideways_scroll(other)
        found["Asha's page, confirmed"] = axe_problems(other, axe_source)

        page.goto(f"{live_server}/me")
        found["My tables"] = axe_problems(page, axe_source)
        assert page.locator(".person-tables a").count() == 1
    assert found == {state: [] for state in found}


@pytest.mark.parametrize("lang", ["en", "ne"])
def test_the_scorekeeper_hands_over_a_link_from_the_table_page(
    live_server, browser, axe_source, lang
):
    with fresh_page(browser) as page:
        page.goto(f"{live_server}/lang/{lang}?next=/")
        made = page.request.post(f"{live_server}/api/v1/tables", data=TABLE).json()
        page.goto(f"{live_server}/tables/{made['id']}/join/{made['edit_key']}")
        page.locator("#own-links > summary").click()
        page.select_option("#own-link-player", "Chandra")
        page.locator("#own-links form button[type=submit]").click()
        page.locator("#own-link").wait_for()
        link = page.locator("#own-link").input_value()
        assert "/me/join/" in link
        assert page.locator("svg.pay-qr title").count() == 1
        assert axe_problems(page, axe_source) == []
        assert no_sideways_scroll(page)
        with fresh_page(browser) as phone:
            phone.goto(link)
            phone.wait_for_url(f"{live_server}/me/{made['id']}")
            assert "Chandra" in phone.locator("h1").inner_text()
