"""The hand form's bar at the foot of the screen (the result and the button) never
hides the field being filled in: moving to the next field (Tab, or a phone keyboard's
"Next") scrolled it just into view, behind the bar, so a player's maal was typed into a
box nobody could see (WCAG 2.4.11, focus not obscured)."""

from __future__ import annotations

import pytest
from browser_support import PHONE, api_match, fresh_page, open_hand_form, set_text_size

pytestmark = pytest.mark.browser

SEVEN = ["Asha", "Bikash", "Chandra", "Dipa", "Ekta", "Fulmaya", "Gita"]

#: The focused element and how much of it (px) the bar covers, when it covers any.
UNDER_THE_BAR = """() => {
    const active = document.activeElement;
    // A radio button or a checkbox is drawn by its label.
    const box = active.matches('[type=radio], [type=checkbox]');
    const drawn = box ? active.closest('label') : active;
    const focused = drawn.getBoundingClientRect();
    const bar = document.querySelector('.hand-form > .form-actions').getBoundingClientRect();
    const covered = Math.min(focused.bottom, bar.bottom) - Math.max(focused.top, bar.top);
    const inside = document.querySelector('.hand-form > .form-actions')
        .contains(document.activeElement);
    return covered > 0 && !inside && focused.height > 0
        ? [document.activeElement.id || document.activeElement.textContent.trim(), covered]
        : null;
  }"""


def _tab_through(page, start: str) -> list:
    page.focus(start)
    hidden = []
    for _ in range(60):
        page.keyboard.press("Tab")
        if page.evaluate("() => document.activeElement.closest('.hand-form') === null"):
            break
        found = page.evaluate(UNDER_THE_BAR)
        if found:
            hidden.append(found)
    return hidden


@pytest.mark.parametrize("text", [16, 32], ids=["100%", "200%"])
def test_tabbing_through_the_hand_form_keeps_each_field_above_the_bar(browser, live_server, text):
    with fresh_page(browser, PHONE, has_touch=True) as phone:
        set_text_size(phone, text)
        match_url = api_match(phone, live_server, players=SEVEN, rules="sparkai")
        open_hand_form(phone, match_url)
        assert _tab_through(phone, "#tiplu") == []
        phone.goto(f"{live_server}/check")
        phone.wait_for_function("() => window.htmx !== undefined")
        assert _tab_through(phone, "#tiplu") == []
