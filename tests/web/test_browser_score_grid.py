"""The hand-by-hand grid on a phone, as a night of twelve hands leaves it: it opens at
the newest hands with the names and totals held beside them. There, a hand's column
was cut in two by the totals: Gopal's "+52 ★" read "2 ★", a figure of its own; and a
sliver of an older hand showed between the names and the totals (the totals' offset
was in their own, larger, letters). A follower's page, brought up to date by its poll,
opens the same way."""

from __future__ import annotations

import pytest
from api_hands import won_by
from browser_support import api_match, ask_in, created, fresh_page

pytestmark = pytest.mark.browser

PLAYERS = ["Asha", "Bikash", "Chandra", "Dipa", "Gopal"]  # "Chandra": the wider names

#: Each row of the grid (its head too): where the names end, where the totals begin and
#: end, and each hand's cell as [left, right], in px on the screen.
GRID = """() => [...document.querySelectorAll('.scores-table tr')].map(row => {
    const box = e => e.getBoundingClientRect();
    const name = box(row.querySelector('.player-col'));
    const total = box(row.querySelector('.total-col'));
    return {name: name.right, from: total.left, to: total.right,
            hands: [...row.children].slice(2).map(c => [box(c).left, box(c).right])};
})"""


#: The follower's grid shows ``n`` hands, and the poll's swap is over.
SETTLED = """n => document.querySelectorAll('.scores-table thead .hand-col').length === n
    && !document.querySelector('.htmx-settling, .htmx-swapping, .htmx-added')"""


def misread(page) -> list[str]:
    """What a glance at the grid misreads: a gap between the names and the totals, and a
    hand's cell half under the totals (half its figure in sight)."""
    found = []
    for i, row in enumerate(page.evaluate(GRID)):
        if abs(row["from"] - row["name"]) > 0.5:
            found.append(f"row {i}: {row['from'] - row['name']:.1f} px between names and totals")
        for left, right in row["hands"]:
            if left < row["to"] - 1 and right > row["to"] + 1:
                found.append(f"row {i}: a hand's cell {row['to'] - left:.0f} px under the totals")
    return found


@pytest.mark.parametrize("lang", ["en", "ne"])
def test_the_grid_opens_on_whole_hands(browser, live_server, lang):
    hands = [won_by(PLAYERS[n % 5], PLAYERS) for n in range(12)]
    for width in (320, 360, 375, 390, 412):
        with fresh_page(browser, {"width": width, "height": 844}, has_touch=True) as page:
            ask_in(page, live_server, lang)
            page.goto(api_match(page, live_server, hands, PLAYERS, length={"hands": 20}))
            page.evaluate("() => document.fonts.ready.then(() => true)")
            wrap = page.locator(".scores-wrap")
            assert wrap.evaluate("w => w.scrollWidth > w.clientWidth")  # the hands scroll
            assert misread(page) == [], width
            newest = page.locator(".scores-table thead .hand-col").last.bounding_box()
            box = wrap.bounding_box()
            assert newest["x"] + newest["width"] <= box["x"] + box["width"] + 1  # in sight
            assert page.console_errors == []


def test_a_followers_grid_opens_on_whole_hands_after_each_hand(browser, live_server):
    with fresh_page(browser, {"width": 390, "height": 844}, has_touch=True) as follower:
        api = f"{live_server}/api/v1/matches"
        match = created(
            follower.request,
            api,
            {"name": "Tihar", "players": PLAYERS, "rules": "sparkai", "length": {"hands": 20}},
        )
        for n in range(9):
            created(
                follower.request,
                f"{api}/{match['id']}/hands",
                won_by(PLAYERS[n % 5], PLAYERS),
                match["edit_key"],
            )
        follower.goto(f"{live_server}/matches/{match['id']}")  # no edit rights: read-only
        for n in (10, 11, 12):
            hand = won_by(PLAYERS[n % 5], PLAYERS)
            created(follower.request, f"{api}/{match['id']}/hands", hand, match["edit_key"])
            follower.wait_for_function(SETTLED, arg=n)  # the poll brought the hand
            follower.evaluate("() => document.fonts.ready.then(() => true)")
            assert misread(follower) == [], n
        assert follower.console_errors == []
