"""A match at a real table, in headless Chromium at phone size: create a 4-player match,
enter four hands through the pages (by cards, by counts, a dublee finish, a void hand),
check the totals against the engine, edit a hand, and watch a read-only browser (no
session) pick the change up by itself. The CSP holds throughout (no console errors)."""

import re
from pathlib import Path

import pytest
from browser_support import (
    fresh_page,
    no_sideways_scroll,
    use_maal_mode,
)
from match_pages_support import BY_COUNTS, DUBLEE_FINISH, PLAYERS, VOID, engine_nets, summed

pytestmark = pytest.mark.browser

SHOTS = Path(__file__).resolve().parents[2] / "test-output" / "screenshots"
MATCH_PAGE = re.compile(r"/matches/[A-Za-z0-9_-]{16,}$")
RULES = {"profile": "sparkai", "void_hand": "maal_only"}

# The hands, in the settle format, as the engine gets them (the pages get the same
# input through their form below).
HAND_CARDS = {
    "tiplu": "8H",
    "finish": "sequences",
    "winner": "Chandra",
    "players": [
        {"name": "Asha", "seen": "sequences", "maal_cards": ["8D"]},
        {"name": "Bikash", "seen": "unseen", "maal_cards": ["9H"]},
        {"name": "Chandra", "seen": "sequences", "maal_cards": ["7H", "8H", "9H"]},
        {"name": "Dipa", "seen": "sequences", "maal_cards": ["2C"]},
    ],
}
HAND_COUNTS = BY_COUNTS
HAND_DUBLEES = DUBLEE_FINISH
HAND_VOID = VOID
HAND_DUBLEES_EDITED = {  # Asha had 9, not 3
    **HAND_DUBLEES,
    "players": [{**HAND_DUBLEES["players"][0], "maal": 9}, *HAND_DUBLEES["players"][1:]],
}


def shot(page, name: str) -> None:
    """A full-page screenshot, leaving the page as it was for the next step.

    caret="initial": hiding the caret would leave style="" on every input. The scroll
    position is put back by hand: a full-page capture leaves it moved, and the next
    click would land where the button was during the capture."""
    SHOTS.mkdir(parents=True, exist_ok=True)
    scrolled = page.evaluate("() => window.scrollY")
    page.screenshot(path=str(SHOTS / f"{name}.png"), full_page=True, caret="initial")
    page.evaluate("y => window.scrollTo(0, y)", scrolled)


def tap(page, selector: str) -> None:
    """Tap a big radio button: its label's visible part."""
    page.locator(selector + " + span").click()


def enter_player(page, row: int, player: dict) -> None:
    tap(page, f'#players-{row}-seen input[value="{player["seen"]}"]')
    # The way of entering the maal is under the row's "More" (a total is on the row).
    if "maal_cards" in player:
        use_maal_mode(page, row, "cards")
        page.fill(f"#players-{row}-maal_cards", " ".join(player["maal_cards"]))
    elif "maal" in player:
        use_maal_mode(page, row, "number")
        page.fill(f"#players-{row}-maal", str(player["maal"]))
    else:  # counts, with the steppers' + buttons
        use_maal_mode(page, row, "counts")
        for kind, count in player.get("maal_counts", {}).items():
            plus = page.locator(
                f'#player-{row} [aria-controls="players-{row}-count_{kind}"][data-step="1"]'
            )
            for _ in range(count):
                plus.click()
            assert page.input_value(f"#players-{row}-count_{kind}") == str(count)


def fill_hand(page, hand: dict) -> None:
    if hand.get("tiplu"):
        page.fill("#tiplu", hand["tiplu"])
    for player in hand["players"]:
        enter_player(page, PLAYERS.index(player["name"]), player)
    tap(page, f'#finish input[value="{hand["finish"]}"]')
    if hand["winner"]:
        page.select_option("#winner", str(PLAYERS.index(hand["winner"])))


def preview_settles_to(page, nets: dict[str, int]) -> None:
    """Wait until the live preview shows these nets (in seat order), as htmx swaps it in."""
    page.wait_for_function(
        """expected => {
            const cells = [...document.querySelectorAll("#hand-preview .nets td.net")];
            return cells.map(e => e.dataset.net).join() === expected;
        }""",
        arg=",".join(str(v) for v in nets.values()),
        timeout=10_000,
    )


def page_totals(page) -> dict[str, int]:
    names = page.locator(".scores-table tbody th.player-col").evaluate_all(
        "els => els.map(e => e.firstChild.textContent.trim())"
    )
    totals = page.locator(".scores-table td.total-col").evaluate_all(
        "els => els.map(e => +e.dataset.total)"
    )
    return dict(zip(names, totals, strict=True))


def small_touch_targets(page) -> list:
    found = page.eval_on_selector_all(
        "main a, main button, main select, main summary, .choice-label, "
        "main input:not([type=hidden]):not([type=radio]):not([type=checkbox])",
        "els => els.filter(e => e.offsetParent !== null && !e.closest('.settlement, .hint, p'))"
        ".map(e => [e.textContent.trim().slice(0, 30) || e.id, e.getBoundingClientRect().height])",
    )
    return [(name, h) for name, h in found if h < 44]


def create_match(page, live_server: str) -> str:
    page.goto(live_server + "/matches/new")
    page.wait_for_function("() => window.htmx !== undefined")
    page.fill("#name", "Tihar at Asha's")
    for row, name in enumerate(PLAYERS):
        page.fill(f"#players-{row}", name)
    page.select_option("#rules-profile", "sparkai")  # htmx redraws the rules part
    page.wait_for_selector("#rules-profile option[value=sparkai][selected]", state="attached")
    page.locator("details.overrides > summary").click()
    page.select_option("#rules-void_hand", "maal_only")
    tap(page, '#length_kind input[value="hands"]')
    page.fill("#length_count", "4")
    assert no_sideways_scroll(page)
    assert small_touch_targets(page) == []
    shot(page, "01-new-match")
    page.get_by_role("button", name="Start the match").click()
    page.wait_for_url(MATCH_PAGE)
    return page.url


def enter_hand(page, hand: dict, screenshot: str | None = None) -> None:
    page.get_by_role("link", name="Enter hand").click()
    page.wait_for_url("**/hands/new")
    page.wait_for_function("() => window.htmx !== undefined")
    fill_hand(page, hand)
    preview_settles_to(page, engine_nets(hand, RULES))
    if screenshot:
        assert no_sideways_scroll(page)
        shot(page, screenshot)
    page.get_by_role("button", name="Save hand").click()
    page.locator(".flash").wait_for()
    assert "saved" in page.locator(".flash").inner_text()


def test_a_match_at_the_table(live_server, page, browser):
    match_url = create_match(page, live_server)
    assert page_totals(page) == dict.fromkeys(PLAYERS, 0)

    hands = [HAND_CARDS, HAND_COUNTS, HAND_DUBLEES, HAND_VOID]
    enter_hand(page, HAND_CARDS, "02-hand-entry-preview")
    for hand in hands[1:]:
        enter_hand(page, hand)
    expected = summed(*(engine_nets(h, RULES) for h in hands))
    assert page_totals(page) == expected
    assert "The match is over." in page.locator(".match-status").inner_text()
    assert page.locator(".match-chart svg.chart polyline").count() == 4
    assert no_sideways_scroll(page)  # the score table scrolls in its own box
    assert small_touch_targets(page) == []
    shot(page, "03-match-page")

    # A second browser, with no session: the read-only link.
    visitor_context = browser.new_context(viewport={"width": 390, "height": 844})
    visitor = visitor_context.new_page()
    visitor_errors: list[str] = []
    visitor.on("console", lambda m: visitor_errors.append(m.text) if m.type == "error" else None)
    visitor.on("pageerror", lambda e: visitor_errors.append(str(e)))
    try:
        visitor.goto(match_url)
        assert page_totals(visitor) == expected
        assert visitor.get_by_role("link", name="Enter hand").count() == 0
        shot(visitor, "05-read-only-page")

        # Edit hand 3 in the scorekeeper's browser, from the hand's page.
        page.get_by_role("link", name="Hand 3", exact=True).click()
        page.wait_for_url("**/hands/3")
        shot(page, "04-hand-page")
        page.get_by_role("link", name="Edit", exact=True).click()
        page.wait_for_url("**/hands/3/edit")
        page.wait_for_function("() => window.htmx !== undefined")
        assert page.input_value("#players-0-maal") == "3"  # prefilled as entered
        page.fill("#players-0-maal", "9")
        preview_settles_to(page, engine_nets(HAND_DUBLEES_EDITED, RULES))
        page.get_by_role("button", name="Save the change").click()
        page.locator(".flash").wait_for()
        edited = summed(
            *(engine_nets(h, RULES) for h in [*hands[:2], HAND_DUBLEES_EDITED, HAND_VOID])
        )
        assert edited != expected
        assert page_totals(page) == edited

        # The read-only page follows by itself (it polls every 3 s).
        visitor.wait_for_function(
            "total => document.querySelector('.scores-table td.total-col').dataset.total == total",
            arg=str(edited["Asha"]),
            timeout=10_000,
        )
        assert page_totals(visitor) == edited
        shot(visitor, "06-read-only-after-edit")

        page.goto(match_url + "/hands/3")
        assert "Version 1" in page.locator(".history").inner_text()
        shot(page, "07-hand-page-with-history")
        assert visitor_errors == []
    finally:
        visitor_context.close()
    assert page.console_errors == []


def test_two_scorekeepers_and_a_delete(live_server, page, browser):
    """A co-scorekeeper joins by the edit link; both edit hand 1; the second save is
    refused with their data kept; then a hand is deleted after confirming."""
    match_url = create_match(page, live_server)
    enter_hand(page, HAND_COUNTS)
    edit_link = page.input_value("#edit-link")
    assert "/join/" in edit_link and page.locator("img.qr").evaluate("i => i.naturalWidth") > 0

    with fresh_page(browser) as friend:
        friend.goto(edit_link)
        friend.wait_for_url(MATCH_PAGE)  # the key is gone from the address bar
        assert friend.url == match_url
        page.goto(match_url + "/hands/1/edit")
        friend.goto(match_url + "/hands/1/edit")
        friend.fill("#players-1-count_tiplu", "1")
        friend.get_by_role("button", name="Save the change").click()
        friend.locator(".flash").wait_for()

    page.wait_for_function("() => window.htmx !== undefined")
    page.fill("#players-0-count_poplu", "2")
    page.get_by_role("button", name="Save the change").click()
    page.locator("#conflict").wait_for()
    assert "changed by someone else" in page.locator("#conflict").inner_text()
    assert page.input_value("#players-0-count_poplu") == "2"  # nothing lost
    assert page.locator(".their-version .nets").count() == 1
    shot(page, "08-edit-conflict")
    page.get_by_role("button", name="Save my version").click()
    page.locator(".flash").wait_for()

    page.goto(match_url + "/hands/1")
    assert page.locator(".history-item").count() == 2
    page.get_by_role("link", name="Delete…").click()
    page.wait_for_url("**/hands/1/delete")
    assert "Delete hand 1?" in page.locator("h1").inner_text()
    shot(page, "09-delete-confirmation")
    page.get_by_role("button", name="Delete hand 1").click()
    page.locator(".flash").wait_for()
    assert page_totals(page) == dict.fromkeys(PLAYERS, 0)
    # The 409 of the refused save is logged by the browser as a failed load.
    assert [e for e in page.console_errors if "409" not in e] == []
