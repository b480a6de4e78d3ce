"""A hand and a payment entered with the keyboard alone on a 390 × 844 phone zoomed to
200 % (the page laid out 195 CSS px wide, as Chrome's page zoom does), in English and
Nepali: every control reachable, its focus ring drawn and in view, nothing scrolled
sideways, no control over another, no name broken inside a word; a form sent back with
a problem opens with the focus on it, its message tied to the field."""

from __future__ import annotations

import pytest
from browser_support import (
    TYPICAL_HAND,
    api_match,
    created,
    fresh_page,
    no_sideways_scroll,
    open_hand_form,
)
from match_pages_support import PLAYERS, WORKED
from test_browser_hand_entry import tab_to
from test_browser_table_phone import BROKEN_NAMES

pytestmark = pytest.mark.browser

#: A table of four at NPR 1 a point.
TABLE = {
    "name": "Friday table",
    "players": PLAYERS,
    "rules": "sparkai",
    "stake": {"per_point": "1.00", "currency": "NPR"},
}
#: A 390 × 844 phone at 200 % zoom: half as many CSS pixels, each drawn twice as large.
ZOOMED = {"viewport": {"width": 195, "height": 422}, "device_scale_factor": 2}

#: The focused control (a radio button or checkbox is drawn by its label): what it is,
#: and what is wrong with it: no ring, out of view, or under something else.
FOCUS_FAULTS = """() => {
  const e = document.activeElement;
  if (!e || e === document.body) return null;
  const drawn = e.matches('[type=radio], [type=checkbox]') ? e.closest('label') : e;
  const ring = getComputedStyle(drawn.matches('label') ? e.nextElementSibling || drawn : drawn);
  const box = drawn.getBoundingClientRect();
  const x = Math.min(Math.max(box.left + box.width / 2, 0), innerWidth - 1);
  const y = Math.min(Math.max(box.top + box.height / 2, 0), innerHeight - 1);
  const top = document.elementFromPoint(x, y);
  const faults = [];
  if (ring.outlineStyle === 'none' || parseFloat(ring.outlineWidth) < 2) faults.push('no ring');
  // Wholly in view; one larger than the screen (a table's region), at least in part.
  const [w, h] = [innerWidth, innerHeight];
  const large = box.height > h || box.width > w;
  if (large ? box.bottom <= 0 || box.top >= h || box.right <= 0 || box.left >= w
            : box.top < -1 || box.bottom > h + 1 || box.left < -1 || box.right > w + 1)
    faults.push('out of view ' + [box.left, box.top, box.right, box.bottom].map(Math.round));
  else if (!top || !(drawn.contains(top) || top.contains(drawn)))
    faults.push('under ' + top.className);
  return [e.id || e.textContent.trim().slice(0, 30), faults];
}"""

#: Pairs of visible controls that lie over each other (not one inside the other; the bar
#: fixed at the foot of the screen passes over the page as it scrolls, and is left out).
OVERLAPS = """(within) => {
  const pinned = e => {
    const bar = e.closest('.form-actions');
    return bar && getComputedStyle(bar).position !== 'static';
  };
  const controls = [...document.querySelectorAll(within + ' :is(button, select, summary, ' +
      'input:not([type=hidden]):not([type=radio]):not([type=checkbox]), .choice-label, ' +
      '.plays-switch)')]
    .filter(e => e.checkVisibility() && !e.closest('[aria-hidden=true]') && !pinned(e));
  const found = [];
  controls.forEach((a, i) => controls.slice(i + 1).forEach(b => {
    if (a.contains(b) || b.contains(a)) return;
    const p = a.getBoundingClientRect(), q = b.getBoundingClientRect();
    const x = Math.min(p.right, q.right) - Math.max(p.left, q.left);
    const y = Math.min(p.bottom, q.bottom) - Math.max(p.top, q.top);
    if (x > 3 && y > 3) found.push([a.textContent.trim().slice(0, 20) || a.id,
                                    b.textContent.trim().slice(0, 20) || b.id]);
  }));
  return found;
}"""

#: The focused field's problem: is it marked invalid, and the words tied to it.
PROBLEM_SAID = """() => {
  const e = document.activeElement;
  const said = (e.getAttribute('aria-describedby') || '').split(' ')
    .map(id => document.getElementById(id)).filter(Boolean).map(d => d.textContent.trim());
  return [e.id, e.getAttribute('aria-invalid'), said.join(' ')];
}"""


def a_night_at_a_table(page, base: str) -> tuple[str, str, str]:
    """TABLE with tonight's match of one hand, made through the API: the table's page,
    its edit key, and the match's page."""
    made = created(page.request, f"{base}/api/v1/tables", TABLE)
    night = {"name": "Night", "players": PLAYERS, "rules": "sparkai"}
    matches = f"{base}/api/v1/tables/{made['id']}/matches"
    match = created(page.request, matches, night, made["edit_key"])
    hands = f"{base}/api/v1/matches/{match['id']}/hands"
    created(page.request, hands, WORKED, made["edit_key"])
    return f"{base}/tables/{made['id']}", made["edit_key"], f"{base}/matches/{match['id']}"


def tab_through(page, selector: str) -> list:
    """Tab to ``selector``; the focus faults met on the way (and on it)."""
    faults = []
    for _ in range(150):
        page.keyboard.press("Tab")
        where = page.evaluate(FOCUS_FAULTS)
        if where and where[1]:
            faults.append(where)
        if page.evaluate("s => document.activeElement.matches(s)", selector):
            return faults
    raise AssertionError(f"Tab never reached {selector}")


@pytest.mark.parametrize("lang", ["en", "ne"])
def test_a_hand_with_the_keyboard_alone_at_200_percent_zoom(live_server, browser, lang):
    with fresh_page(browser, **ZOOMED) as page:
        page.goto(f"{live_server}/lang/{lang}?next=/")
        match_url = api_match(page, live_server, hands=[WORKED])
        open_hand_form(page, match_url)
        assert no_sideways_scroll(page)
        assert page.evaluate(OVERLAPS, ".hand-form") == []
        assert page.evaluate(BROKEN_NAMES, ".player-title") == []

        faults = []
        for row, player in enumerate(TYPICAL_HAND["players"]):
            faults += tab_through(page, f"#players-{row}-maal")
            page.keyboard.type(str(player["maal"]))
        page.keyboard.press("Shift+Tab")
        tab_to(page, "#players-2-seen input:checked")
        page.keyboard.press("ArrowRight")
        page.keyboard.press("ArrowRight")  # Chandra did not see
        assert page.locator('#players-2-seen input[value="unseen"]').is_checked()
        faults += tab_through(page, ".hand-form .form-actions button")
        page.keyboard.press("Enter")  # with no winner: sent back
        page.locator("#winner-errors").wait_for()
        page.wait_for_function("() => document.activeElement.id === 'winner'")
        winner, invalid, said = page.evaluate(PROBLEM_SAID)
        assert invalid == "true" and said == page.locator("#winner-errors").inner_text()
        assert page.evaluate(FOCUS_FAULTS) == ["winner", []]
        page.keyboard.press("ArrowDown")  # Asha
        faults += tab_through(page, ".hand-form .form-actions button")
        page.keyboard.press("Enter")
        page.wait_for_url(match_url)
        page.locator(".flash").wait_for()
        assert faults == [], faults
        assert page.console_errors == [] or all("422" in e for e in page.console_errors)


@pytest.mark.parametrize("lang", ["en", "ne"])
def test_a_payment_with_the_keyboard_alone_at_200_percent_zoom(live_server, browser, lang):
    with fresh_page(browser, **ZOOMED) as page:
        page.goto(f"{live_server}/lang/{lang}?next=/")
        table, key, _ = a_night_at_a_table(page, live_server)
        page.goto(f"{table}/join/{key}")
        assert no_sideways_scroll(page)

        faults = tab_through(page, "details.payment-other > summary")
        page.keyboard.press("Enter")
        faults += tab_through(page, "#payer")
        page.keyboard.press("ArrowDown")  # Bikash paid
        faults += tab_through(page, "#payee")  # Asha
        faults += tab_through(page, "#amount")
        page.keyboard.type("3,5")
        with page.expect_navigation():
            page.keyboard.press("Enter")  # sent back: the amount
        page.wait_for_function("() => document.activeElement.id === 'amount'")
        field, invalid, said = page.evaluate(PROBLEM_SAID)
        assert invalid == "true" and said == page.locator("#amount-errors").inner_text()
        assert page.evaluate(FOCUS_FAULTS) == ["amount", []]
        assert page.evaluate(OVERLAPS, ".payment-other") == []
        page.keyboard.press("Control+A")
        page.keyboard.type("3.50")  # more than Bikash owes: asked first, at the field
        with page.expect_navigation():
            page.keyboard.press("Enter")
        page.wait_for_function("() => document.activeElement.id === 'amount'")
        assert page.evaluate(PROBLEM_SAID)[1:] == [
            "true",
            page.locator("#amount-errors").inner_text(),
        ]
        faults += tab_through(page, "button[name=confirmed]")
        page.keyboard.press("Enter")  # it is right
        page.locator(".flash").wait_for()
        assert "Bikash" in page.locator(".flash").inner_text()
        assert faults == [], faults


@pytest.mark.parametrize("lang", ["en", "ne"])
def test_the_house_rules_settings_fit_a_zoomed_phone(live_server, browser, lang):
    """Each setting's box was 13 rem at the least: wider than the zoomed screen, the
    new-match page and the checker scrolled sideways once the settings were open."""
    with fresh_page(browser, **ZOOMED) as page:
        page.goto(f"{live_server}/lang/{lang}?next=/")
        for path in ("/matches/new", "/check"):
            page.goto(live_server + path)
            page.locator("details.overrides > summary").click()
            page.locator("details.overrides-more > summary").click()
            assert page.locator(".override input").last.is_visible()
            assert no_sideways_scroll(page), path


@pytest.mark.parametrize("lang", ["en", "ne"])
def test_the_rules_page_fits_a_zoomed_phone(live_server, browser, lang):
    """The English page explains a setting's values with their code names, one of them
    a single word wider than the zoomed screen (keep_not_between_unseen): it scrolled."""
    with fresh_page(browser, **ZOOMED) as page:
        page.goto(f"{live_server}/lang/{lang}?next=/rules")
        if lang == "en":
            assert "keep_not_between_unseen" in page.locator("main").inner_text()
        assert no_sideways_scroll(page)


@pytest.mark.parametrize("lang", ["en", "ne"])
def test_the_pages_of_a_night_fit_a_zoomed_phone(live_server, browser, lang):
    """Tonight's match (its "End the night" button held its Nepali words on one line,
    33 px wider than the screen), the table, its people and money, a player's own page,
    the checker and the forms: none scrolls sideways."""
    with fresh_page(browser, **ZOOMED) as page:
        base = live_server
        page.goto(f"{base}/lang/{lang}?next=/")
        table, key, tonight = a_night_at_a_table(page, base)
        link = table.replace("/tables/", "/api/v1/tables/") + "/players/Dipa/link"
        dipa = created(page.request, link, key=key)["url"].replace("http://localhost", base)
        page.goto(f"{table}/join/{key}")
        wide = []
        for url in (
            table,
            tonight,
            tonight + "/hands/1",
            tonight + "/what-if",
            f"{table}/players/Asha",
            f"{table}/what-if",
            dipa,
            f"{base}/me",
            f"{base}/",
            f"{base}/check",
            f"{base}/tables/new",
            f"{base}/matches/new",
            f"{base}/glossary",
        ):
            page.goto(url)
            if not no_sideways_scroll(page):
                wide.append(url.replace(base, ""))
        assert wide == []
