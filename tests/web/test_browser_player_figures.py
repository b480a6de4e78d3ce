"""A player's figures and the awards (issue 39) in a phone-sized Chromium (390 × 844), in
English and Nepali: the player's page leads with place, total and money on the first
screen, then form and the best hand, which opens the hand; the table page shows the
season's awards and the finished match page and its big screen tonight's; no sideways
scrolling, no console error, and axe-core finds nothing serious."""

from __future__ import annotations

import pytest
from browser_support import (
    axe_problems,
    created,
    no_sideways_scroll,
)
from match_pages_support import BY_COUNTS, DUBLEE_FINISH, VOID, WORKED

pytestmark = pytest.mark.browser

ROSTER = ["Asha", "Bikash", "Chandra", "Dipa"]
#: The page's width and the screen's, and what overflows its box (to say what scrolls
#: sideways).
WIDE = """[document.documentElement.scrollWidth, window.innerWidth,
    ...[...document.querySelectorAll('body *')].filter(e => e.scrollWidth > e.clientWidth + 1
    && getComputedStyle(e).overflowX === 'visible').map(e => e.tagName + '.' + e.className)]"""
FOUR = [WORKED, BY_COUNTS, DUBLEE_FINISH, VOID]
WORDS = {
    "en": {"place": "Place", "awards": "Tonight's awards", "seen": "Seen in"},
    "ne": {"place": "स्थान", "awards": "आजको रातका पुरस्कार", "seen": "मध्ये"},
}


def fit_and_accessible(page, axe_source: str) -> None:
    assert no_sideways_scroll(page), str(page.evaluate(WIDE))[:3000]
    assert axe_problems(page, axe_source) == []


def a_table(page, base: str) -> tuple[str, list[str]]:
    """A table (through the API) with two nights of four hands, both over."""
    table = created(
        page.request,
        f"{base}/api/v1/tables",
        {
            "name": "Friday table",
            "players": ROSTER,
            "rules": "sparkai",
            "stake": {"per_point": "1.00", "currency": "NPR"},
        },
    )
    key = table["edit_key"]
    night = {"name": "Night", "players": ROSTER, "length": {"hands": len(FOUR)}}
    nights = []
    for _ in range(2):
        match = created(page.request, f"{base}/api/v1/tables/{table['id']}/matches", night, key)
        nights.append(match["id"])
        for hand in FOUR:
            created(page.request, f"{base}/api/v1/matches/{nights[-1]}/hands", hand, key)
    return table["id"], nights


@pytest.mark.parametrize("lang", ["en", "ne"])
def test_the_players_figures_and_the_awards_on_a_phone(live_server, page, axe_source, lang):
    table_id, nights = a_table(page, live_server)
    page.goto(f"{live_server}/lang/{lang}?next=/")
    stats = page.request.get(f"{live_server}/api/v1/tables/{table_id}/stats").json()
    top = stats["players"][0]

    page.goto(f"{live_server}/tables/{table_id}/players/{top['name']}")
    lead = page.locator(".lead-figures")
    assert lead.locator("dt").first.inner_text() == WORDS[lang]["place"]
    box = lead.bounding_box()
    assert box["y"] + box["height"] <= 844  # place, total and money on the first screen
    assert page.locator(".form-place").count() == len(top["form"])
    assert WORDS[lang]["seen"] in page.locator(".player-rates").inner_text()
    fit_and_accessible(page, axe_source)
    best = top["best_hand"]
    page.locator(".lead-best a").first.click()
    page.wait_for_url(f"**/matches/{best['match']}/hands/{best['number']}")

    page.goto(f"{live_server}/tables/{table_id}")
    awards = page.locator(".awards .award")
    assert awards.count() == len(stats["awards"])
    fit_and_accessible(page, axe_source)

    for path in (f"/matches/{nights[-1]}", f"/matches/{nights[-1]}/screen"):
        page.goto(f"{live_server}{path}")
        title = "#screen-awards-title" if path.endswith("/screen") else "#awards-title"
        assert page.locator(title).inner_text() == WORDS[lang]["awards"]
        if path.endswith("/screen"):
            assert axe_problems(page, axe_source, ["color-contrast"]) == []
        else:
            fit_and_accessible(page, axe_source)
    assert page.console_errors == []
