"""A hand saved on a narrow phone (360 × 740, touch): the match page it comes back to
shows "Enter hand N" whole on the first screen, with the message and the Undo above it,
in English and Nepali. It was cut off at the foot of the screen under five lines of
report links (the summary PDF and its papers, What if…?, the big screen), which now
follow the night's figures."""

from __future__ import annotations

import pytest
from browser_support import (
    api_match,
    ask_in,
    fill_typical_hand,
    fresh_page,
    open_hand_form,
    save_hand,
)

pytestmark = pytest.mark.browser

NARROW = {"width": 360, "height": 740}


@pytest.mark.parametrize("lang", ["en", "ne"])
def test_enter_the_next_hand_is_in_sight_after_a_save(browser, live_server, lang):
    with fresh_page(browser, viewport=NARROW, has_touch=True, is_mobile=True) as phone:
        ask_in(phone, live_server, lang)
        match_url = api_match(phone, live_server)
        open_hand_form(phone, match_url)
        fill_typical_hand(phone)
        save_hand(phone)
        phone.wait_for_url(match_url)
        phone.locator(".undo-offer").first.wait_for()
        button = phone.locator(".enter-hand a.button-primary")
        box = button.bounding_box()
        assert phone.evaluate("() => window.scrollY") == 0
        assert box["y"] >= 0 and box["y"] + box["height"] <= NARROW["height"], box
        assert phone.locator(".report-links a").first.is_visible()
        assert phone.console_errors == []
