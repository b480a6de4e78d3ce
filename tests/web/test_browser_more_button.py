"""The hand form's "More · foul" button (issue 38) stays above the maal box below it: a tap
on the top of the box never opens More, in English and Nepali, at 100 % and 200 % text."""

from __future__ import annotations

import pytest
from browser_support import api_match, fresh_page, set_text_size

pytestmark = pytest.mark.browser

OVERLAPS = """() => [...document.querySelectorAll('.player')].map(row => {
    const more = row.querySelector('.more > summary').getBoundingClientRect();
    const maal = row.querySelector('.maal-quick input, .maal-quick').getBoundingClientRect();
    const across = more.left < maal.right && maal.left < more.right;
    // How far they overlap: More sits above the box, or below it in a narrow row.
    const down = Math.min(more.bottom, maal.bottom) - Math.max(more.top, maal.top);
    return across ? Math.max(0, down) : 0;
  })"""


def open_foul_form(phone, live_server: str, lang: str) -> None:
    """A new hand's form, in ``lang``, of a match whose rules score fouls: each row's
    "More" says "More · foul"."""
    match_url = api_match(phone, live_server, rules={"profile": "sparkai", "foul": "next_hand"})
    phone.goto(f"{live_server}/lang/{lang}?next=/")
    phone.goto(match_url + "/hands/new")
    phone.locator(".player .more > summary").first.wait_for()
    assert " · " in phone.locator(".player .more > summary").first.inner_text()


@pytest.mark.parametrize("text", [16, 32], ids=["100%", "200%"])
@pytest.mark.parametrize("lang", ["en", "ne"])
def test_more_never_covers_the_maal_box(browser, live_server, lang, text):
    with fresh_page(browser, has_touch=True) as phone:
        set_text_size(phone, text)
        open_foul_form(phone, live_server, lang)
        assert phone.evaluate(OVERLAPS) == [0] * phone.locator(".player").count()


#: The lines the words of each row's "More" button take (a span's text, line by line).
MORE_LINES = """() => [...document.querySelectorAll('.player .more > summary > span:first-child')]
    .map(label => {
      const words = document.createRange();
      words.selectNodeContents(label);
      return new Set([...words.getClientRects()].map(r => Math.round(r.top))).size;
    })"""


@pytest.mark.parametrize("lang", ["en", "ne"])
def test_more_foul_reads_on_one_line_on_a_phone(browser, live_server, lang):
    """ "More · foul" broken after "More ·" read as two buttons: at the phone's own text
    size (390 px wide) it is one line, in English and Nepali."""
    with fresh_page(browser, has_touch=True) as phone:
        open_foul_form(phone, live_server, lang)
        assert phone.evaluate(MORE_LINES) == [1] * phone.locator(".player").count()


#: The boxes of the finish's buttons that overlap another's, by their words.
FINISH_OVERLAPS = """() => {
    const boxes = [...document.querySelectorAll('.finish .choice-label')]
      .map(e => [e.textContent.trim(), e.getBoundingClientRect()]);
    return boxes.flatMap(([a, r], i) => boxes.slice(i + 1)
      .filter(([, s]) => r.left < s.right && s.left < r.right
        && r.top < s.bottom && s.top < r.bottom)
      .map(([b]) => [a, b]));
  }"""


@pytest.mark.parametrize("lang", ["en", "ne"])
def test_the_finish_buttons_never_overlap_on_a_narrow_phone(browser, live_server, lang):
    """The chosen finish is set in bold, which widens its words: "By sequences" once ran
    into "By dublees" by 2 to 3 px at 240 and 345 px."""
    with fresh_page(browser, has_touch=True) as phone:
        phone.goto(f"{live_server}/lang/{lang}?next=/check")
        for width in range(240, 436, 15):
            phone.set_viewport_size({"width": width, "height": 800})
            assert phone.evaluate(FINISH_OVERLAPS) == [], width
