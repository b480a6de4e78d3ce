"""Every page of a table on a phone (issue 38): 390 × 844, English and Nepali, at 100 %
and 200 % text (the browser's default font at 32 px, as a phone's largest text setting),
on a table of 8 players (one called "Chandra Bahadur Shrestha", one in Devanagari) over
three nights. On each page: no page-level sideways scroll, no name broken inside a word
(a one-word name on one line), every table either within the screen or inside a labelled,
focusable region that scrolls sideways, and axe-core finds nothing serious."""

from __future__ import annotations

import pytest
from browser_support import (
    PHONE,
    axe_problems,
    no_sideways_scroll,
    set_text_size,
    small_tap_targets,
)

pytestmark = pytest.mark.browser

LONG = "Chandra Bahadur Shrestha"
DEVANAGARI = "सुनिता"
EIGHT = ["Asha", "Bikash", LONG, "Dipa", DEVANAGARI, "Gopal", "Hari", "Indra"]
#: Two nights of five on three packs, then all eight on four packs.
NIGHTS = [(EIGHT[:5], 3), (EIGHT[2:7], 3), (EIGHT, 4)]


def _hand(players: list[str], winner: int) -> dict:
    return {
        "finish": "sequences",
        "winner": players[winner],
        "players": [
            {"name": n, "seen": "sequences" if i != 3 else "unseen", "maal": 3 * i + winner}
            for i, n in enumerate(players)
        ],
    }


def _table(page, base: str) -> tuple[str, str, str, str]:
    """The table (8 players, a stake) with three nights of three hands, each ended, and a
    payment; its id, its first and last match's ids and its key."""
    made = page.request.post(
        f"{base}/api/v1/tables",
        data={
            "name": "Friday table",
            "players": EIGHT,
            "rules": "sparkai",
            "stake": {"per_point": "12.50", "currency": "NPR"},
        },
    )
    assert made.status == 201, made.text()
    table = made.json()
    auth = {"Authorization": f"Bearer {table['edit_key']}"}
    first = last = None
    for night, packs in NIGHTS:
        match = page.request.post(
            f"{base}/api/v1/tables/{table['id']}/matches",
            data={
                "name": "Night",
                "players": night,
                "rules": {"profile": "sparkai", "packs": packs},
            },
            headers=auth,
        ).json()
        first, last = first or match["id"], match["id"]
        for winner in range(3):
            stored = page.request.post(
                f"{base}/api/v1/matches/{match['id']}/hands",
                data=_hand(night, winner),
                headers=auth,
            )
            assert stored.status == 201, stored.text()
        ended = page.request.patch(
            f"{base}/api/v1/matches/{match['id']}", data={"finished": True}, headers=auth
        )
        assert ended.status == 200, ended.text()
    paid = page.request.post(
        f"{base}/api/v1/tables/{table['id']}/payments",
        data={"from": LONG, "to": "Asha", "amount": "10.00"},
        headers=auth,
    )
    assert paid.status == 201, paid.text()
    assert first is not None and last is not None
    return table["id"], first, last, table["edit_key"]


#: The names a page shows in its tables, headings and lists of people.
NAME_CELLS = (
    "table th[scope=row], .player-name-cell, .person-name, h1, "
    ".transfer, .balances-table th[scope=row]"
)

#: The lines are the text's own (a link's box, 44 px high around its name, is no line).
BROKEN_NAMES = """(selector) => [...document.querySelectorAll(selector)].filter(cell => {
    const words = cell.textContent.trim().split(/\\s+/).filter(Boolean);
    const texts = document.createTreeWalker(cell, NodeFilter.SHOW_TEXT);
    const lines = new Set();
    for (let text = texts.nextNode(); text; text = texts.nextNode()) {
      const range = document.createRange();
      range.selectNodeContents(text);
      [...range.getClientRects()].filter(r => r.width > 0)
        .forEach(r => lines.add(Math.round(r.top)));
    }
    return lines.size > words.length;
  }).map(cell => cell.textContent.trim().slice(0, 40))"""

#: Each table that reaches past the screen and is not inside a labelled, focusable region
#: that scrolls sideways.
UNREACHABLE = """() => [...document.querySelectorAll('table')].filter(table => {
    const box = table.getBoundingClientRect();
    if (box.right <= window.innerWidth + 1 && box.left >= -1) return false;
    const region = table.closest('[role=region][tabindex="0"]');
    const named = region && document.getElementById(region.getAttribute('aria-labelledby'));
    const label = region && (region.getAttribute('aria-label') || (named || {}).textContent);
    if (!region || !(label || '').trim()) return true;
    const style = getComputedStyle(region);
    const scrolls = ['auto', 'scroll'].includes(style.overflowX);
    return !scrolls || region.getBoundingClientRect().right > window.innerWidth + 1;
  }).map(table => table.className || 'table')"""


#: What reaches past the screen outside a region that scrolls (to say what to fix).
TOO_WIDE = """() => [...document.querySelectorAll('body *')].filter(e => {
    if (e.closest('[role=region][tabindex="0"]')) return false;
    return e.getBoundingClientRect().right > window.innerWidth + 1;
  }).map(e => e.tagName + '.' + e.className).slice(-5)"""


def _pages(base: str, table_id: str, match_id: str, last_id: str) -> list[str]:
    return [
        f"{base}/tables/{table_id}",
        f"{base}/tables/{table_id}/players/{LONG}",
        f"{base}/tables/{table_id}/players/{DEVANAGARI}",
        f"{base}/tables/{table_id}/what-if?rules-profile=everestbuzz",
        f"{base}/matches/{match_id}/what-if?rules-profile=everestbuzz",
        f"{base}/matches/{match_id}",
        f"{base}/matches/{last_id}",
    ]


@pytest.mark.parametrize("text", [16, 32], ids=["100%", "200%"])
@pytest.mark.parametrize("lang", ["en", "ne"])
def test_every_table_page_reads_on_a_phone(browser, live_server, axe_source, lang, text):
    context = browser.new_context(viewport=PHONE, has_touch=True)
    phone = context.new_page()
    errors: list[str] = []
    phone.on("pageerror", lambda exc: errors.append(str(exc)))
    set_text_size(phone, text)
    table_id, match_id, last_id, key = _table(phone, live_server)
    phone.goto(f"{live_server}/tables/{table_id}/join/{key}")  # the editor's page too
    phone.goto(f"{live_server}/lang/{lang}?next=/tables/{table_id}")
    for url in _pages(live_server, table_id, match_id, last_id):
        phone.goto(url)
        phone.evaluate("() => document.fonts.ready.then(() => true)")
        assert phone.evaluate("() => getComputedStyle(document.documentElement).fontSize") == (
            f"{text}px"
        )
        assert no_sideways_scroll(phone), (url, phone.evaluate(TOO_WIDE))
        assert phone.evaluate(BROKEN_NAMES, NAME_CELLS) == [], url
        assert phone.evaluate(UNREACHABLE) == [], url
        assert axe_problems(phone, axe_source) == [], url
        # A name in a table is a link a finger hits, however short the name (हरि, Asha).
        assert small_tap_targets(phone, "table") == [], url
    assert errors == []
    context.close()
