"""The landing page in headless Chromium: CSP holds, htmx and the fonts load."""

import pytest

pytestmark = pytest.mark.browser


def test_index_in_chromium(live_server, page):
    page.goto(live_server + "/")
    assert page.title() == "Marriage ledger"
    page.wait_for_function("() => window.htmx !== undefined")
    page.evaluate("() => document.fonts.ready")
    loaded = page.evaluate(
        "() => [...document.fonts].filter(f => f.status === 'loaded').map(f => f.family)"
    )
    assert any("Noto Sans Devanagari" in family for family in loaded)
    assert any(family.strip('"') == "Noto Sans" for family in loaded)
    # Touch targets: the landing page's buttons are at least 44px high.
    heights = page.eval_on_selector_all(
        ".actions .button", "els => els.map(e => e.getBoundingClientRect().height)"
    )
    assert heights and min(heights) >= 44
    assert page.console_errors == []
