"""The hand form says what an unseen player's maal counts under the match's rules
(murder: 0) as soon as the row is tapped unseen, on a phone, at no cost in height (the
form of a typical hand fits 1.5 screens), and takes the maal all the same."""

from __future__ import annotations

import pytest
from browser_support import api_match, ask_in, choose, fresh_page, open_hand_form

pytestmark = pytest.mark.browser

NOTE = "#player-1-unseen-maal"
ROW_HEIGHT = "() => document.getElementById('player-1').getBoundingClientRect().height"


@pytest.mark.parametrize(("lang", "words"), [("en", "counts 0"), ("ne", "गनिन्छ")])
def test_tapping_unseen_shows_that_the_maal_counts_0(browser, live_server, lang, words):
    with fresh_page(browser, has_touch=True) as phone:
        ask_in(phone, live_server, lang)
        open_hand_form(phone, api_match(phone, live_server, rules="sparkai"))
        assert phone.locator(NOTE).is_hidden()
        height = phone.evaluate(ROW_HEIGHT)
        choose(phone, "players-1-seen", "unseen")
        assert phone.locator(NOTE).is_visible()
        assert words in phone.locator(NOTE).inner_text()
        assert phone.evaluate(ROW_HEIGHT) == height  # within the name line
        assert phone.locator("#player-0-unseen-maal").is_hidden()  # another row's own
        phone.fill("#players-1-maal", "12")  # still taken
        assert phone.input_value("#players-1-maal") == "12"
        choose(phone, "players-1-seen", "sequences")
        assert phone.locator(NOTE).is_hidden()
        assert phone.console_errors == []
