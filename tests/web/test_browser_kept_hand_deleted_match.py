"""Two phones of one table: a hand kept offline on one while the other deletes the match
as started by mistake (no hand was stored in it). Once back, the first phone says the
match was deleted and offers only to drop the hand, where it said the hand "could not
be saved as it was typed" and offered to open a form that is no longer there."""

from __future__ import annotations

import urllib.request

import pytest
from browser_support import ask_in
from match_pages_support import WORKED
from test_browser_hand_once import fill_hand, join, new_match, save_button, unsent

pytestmark = pytest.mark.browser

GONE = {
    "en": "Hand 1 was not saved: this match was deleted on another phone meanwhile",
    "ne": "बाजी १ सेभ भएन: यसबीच अर्को फोनमा यो म्याच मेटाइयो",
}


@pytest.mark.parametrize("lang", GONE)
def test_a_hand_kept_for_a_match_deleted_meanwhile_is_said_so(live_server, page, lang):
    page_url, edit_link = new_match(live_server)
    ask_in(page, live_server, lang)
    join(page, edit_link)
    page.goto(f"{page_url}/hands/new")
    page.context.set_offline(True)
    fill_hand(page, WORKED)
    save_button(page).click()
    page.locator("#hand-queue .unsent").wait_for()

    key = edit_link.rsplit("/", 1)[1]  # the other phone deletes the match
    request = urllib.request.Request(
        page_url.replace("/matches/", "/api/v1/matches/"),
        method="DELETE",
        headers={"Authorization": f"Bearer {key}"},
    )
    with urllib.request.urlopen(request) as answer:
        assert answer.status == 204

    page.context.set_offline(False)
    said = page.locator("#hand-queue .refused")
    said.wait_for()
    assert GONE[lang] in said.inner_text()
    assert said.locator("[data-open-hand]").count() == 0  # no form to open
    assert said.locator("[data-drop-hand]").count() == 1
    said.locator("[data-drop-hand]").click()
    page.wait_for_function("() => !document.querySelector('#hand-queue .refused')")
    assert unsent(page) == []
