"""Nepali in headless Chromium: the switch, the live preview and the words hand-form.js
writes itself (a row without a name, a copied link), under the CSP."""

import pytest
from browser_support import fill_checker

pytestmark = pytest.mark.browser

WORKED = [("Asha", "sequences", 10), ("Bikash", "sequences", 5), ("Dipa", "unseen", 8)]


def test_the_checker_in_nepali_in_a_browser(live_server, page):
    page.context.grant_permissions(["clipboard-read", "clipboard-write"])
    page.goto(live_server + "/check")
    page.get_by_role("link", name="नेपाली").click()
    page.wait_for_url(live_server + "/check")
    page.wait_for_function("() => window.htmx !== undefined")
    assert page.locator("html").get_attribute("lang") == "ne"
    assert page.locator("h1").inner_text() == "हिसाब जाँच"

    # A name typed and taken out again: the finisher's choice falls back to the row's title.
    page.fill("#players-1-name", "Bikash")
    assert page.locator('#winner option[value="1"]').inner_text() == "Bikash"
    page.fill("#players-1-name", "")
    assert page.locator('#winner option[value="1"]').inner_text() == "खेलाडी २"

    fill_checker(page, WORKED)
    preview = page.locator("#hand-preview")
    preview.locator(".nets").wait_for()
    assert "कसले कसलाई तिर्ने" in preview.inner_text()
    assert preview.locator(".nets td.net").first.inner_text().startswith("+")
    assert any(d in preview.locator(".nets").inner_text() for d in "०१२३४५६७८९")

    page.locator("[data-copy=share-link]").click()
    page.wait_for_function(
        "() => document.querySelector('[data-copy=share-link]').textContent === 'कपी भयो'"
    )
    assert page.console_errors == []
