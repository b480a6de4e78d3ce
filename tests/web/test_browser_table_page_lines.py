"""The table page on a phone (issue 38): the seating note under the packs stands apart
from the next fieldset's heading (the guests of earlier nights), and a "·" between the
parts of a line never ends a line alone: it goes to the next line with what follows it
(the matches' lines under their names, the match page's links under its name). From
320 px up neither page scrolls sideways, nor does the settle-up's table at a stake
(four columns, "NPR 15,000.00")."""

from __future__ import annotations

import pytest
from browser_support import created
from screen_support import dealt_hand

pytestmark = pytest.mark.browser

SEVEN = ["Asha", "Bikash", "Chandra Bahadur Shrestha", "Dipa", "सुनिता", "Gopal", "Hari"]

#: The vertical room between the seating note and the heading that follows it, in px.
GAP = """() => {
  const note = document.getElementById('seating-note');
  const next = note.closest('fieldset').nextElementSibling.querySelector('legend');
  const room = next.getBoundingClientRect().top - note.getBoundingClientRect().bottom;
  return [next.textContent.trim(), room];
}"""

#: Each "·" of ``selector``'s elements whose next letter is on a later line: it ends a line.
LONE_DOTS = """(selector) => {
  const lone = [];
  for (const box of document.querySelectorAll(selector)) {
    const letters = [];
    const texts = document.createTreeWalker(box, NodeFilter.SHOW_TEXT);
    for (let t = texts.nextNode(); t; t = texts.nextNode())
      for (let i = 0; i < t.data.length; i++)
        if (t.data[i].trim()) letters.push([t, i]);
    const top = ([t, i]) => {
      const r = document.createRange(); r.setStart(t, i); r.setEnd(t, i + 1);
      return r.getBoundingClientRect().top;
    };
    letters.forEach(([t, i], n) => {
      if (t.data[i] === '·' && n + 1 < letters.length && top(letters[n + 1]) > top([t, i]) + 2)
        lone.push(box.textContent.trim().slice(0, 40));
    });
  }
  return lone;
}"""

#: Phone widths, every 6 px, and 320 px (the narrowest phone) itself.
WIDTHS = sorted({*range(300, 431, 6), 320})

#: What scrolls sideways: the page wider than the screen, or a table of ``selector``
#: wider than its box (its wrapper scrolls it), by how many px.
OVERFLOWING = """(selector) => {
  const over = [];
  const page = document.documentElement.scrollWidth - window.innerWidth;
  if (page > 0) over.push(['page', page]);
  for (const t of document.querySelectorAll(selector)) {
    const wrap = t.closest('.table-wrap');
    const past = wrap ? wrap.scrollWidth - wrap.clientWidth : 0;
    if (past > 0) over.push([selector, past]);
  }
  return over;
}"""


def test_the_seating_note_has_room_and_no_line_ends_in_a_dot(live_server, page):
    table = created(
        page.request,
        f"{live_server}/api/v1/tables",
        {
            "name": "Friday table",
            "players": SEVEN,
            "rules": "sparkai",
            "stake": {"per_point": "1000.00", "currency": "NPR"},
        },
    )
    key = table["edit_key"]
    night = created(
        page.request,
        f"{live_server}/api/v1/tables/{table['id']}/matches",
        {"name": "Tihar night", "players": [*SEVEN, "Ram"], "guests": ["Ram"]},
        key,
    )
    hands = f"{live_server}/api/v1/matches/{night['id']}/hands"
    created(page.request, hands, dealt_hand(night, 1), key)
    ended = page.request.patch(
        f"{live_server}/api/v1/matches/{night['id']}",
        data={"finished": True},
        headers={"Authorization": f"Bearer {key}"},
    )
    assert ended.status == 200, ended.text()  # the night over: tonight's form is open
    page.goto(f"{live_server}/tables/{table['id']}/join/{key}")
    page.goto(f"{live_server}/tables/{table['id']}")
    for box in page.locator("input[name=players]").all():
        box.check()  # all seven, on three packs: the note says who sits out
    page.check("input[name=packs][value='3']")
    assert page.locator("#seating-note").inner_text().strip()
    heading, gap = page.evaluate(GAP)
    assert heading == "Guests of earlier nights" and gap >= 8, gap
    # Phone widths where the lines wrap at one place or another; from 320 px (the
    # narrowest phone) the page and its settle-up, four columns at a stake, fit.
    for width in WIDTHS:
        page.set_viewport_size({"width": width, "height": 844})
        assert page.evaluate(LONE_DOTS, ".match-list .hint") == [], width
        if width >= 320:
            assert page.evaluate(OVERFLOWING, ".settle-table") == [], width
    page.goto(f"{live_server}/matches/{night['id']}")
    assert page.locator(".settle-table").first.locator("thead th").count() == 4  # and Money
    for width in WIDTHS:
        page.set_viewport_size({"width": width, "height": 844})
        assert page.evaluate(LONE_DOTS, ".report-links") == [], width
        if width >= 320:
            assert page.evaluate(OVERFLOWING, ".settle-table") == [], width
    assert page.console_errors == []
