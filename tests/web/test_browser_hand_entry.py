"""The hand form on a phone (390 × 844, issue 10), in headless Chromium: a typical hand
of four with the maal as totals fits 1.5 screens and takes at most eight taps once the
numbers are typed; every tap target is 44 px or more; a sit-out carried from the last
hand is shown on its row and undone with one tap; Enter starts a new match (named for
its day when left unnamed); a hand can be entered with the keyboard alone."""

from datetime import date
from pathlib import Path

import pytest
from browser_support import (
    MOST_HEIGHT,
    MOST_TAPS,
    PLAYERS,
    TYPICAL_HAND,
    api_match,
    fill_typical_hand,
    no_sideways_scroll,
    open_hand_form,
    page_height,
    save_hand,
    small_tap_targets,
)
from match_pages_support import BY_CARDS, BY_COUNTS, THREE_PLAY, engine_nets, summed

pytestmark = pytest.mark.browser

SHOTS = Path(__file__).resolve().parents[2] / "test-output" / "screenshots"


def screens(page, name: str) -> None:
    """What the phone shows: the first screen, then the last (the bar at the foot stays
    in view in both), and the whole page."""
    SHOTS.mkdir(parents=True, exist_ok=True)
    scrolled = page.evaluate("() => window.scrollY")
    page.evaluate("() => window.scrollTo(0, 0)")
    page.screenshot(path=str(SHOTS / f"{name}-top.png"), caret="initial")
    page.evaluate("() => window.scrollTo(0, document.documentElement.scrollHeight)")
    page.screenshot(path=str(SHOTS / f"{name}-bottom.png"), caret="initial")
    page.evaluate("y => window.scrollTo(0, y)", scrolled)


def totals(page, match_url: str) -> dict[str, int]:
    """The match's totals as the API gives them."""
    api = match_url.replace("/matches/", "/api/v1/matches/")
    return {p["name"]: p["total"] for p in page.request.get(api).json()["players"]}


@pytest.mark.parametrize(
    "earlier", [(), (BY_CARDS,), (BY_COUNTS, BY_CARDS)], ids=["first", "after-cards", "after-both"]
)
def test_a_typical_hand_fits_a_phone_and_takes_few_taps(live_server, page, earlier):
    """Also after hands entered by cards and by counts: every row opens compact again,
    its total box in view (issue 28)."""
    match_url = api_match(page, live_server, hands=earlier)
    for number in (1, 2):  # the first hand, then one with the last hand's defaults
        open_hand_form(page, match_url)
        assert page_height(page) <= MOST_HEIGHT, page_height(page)
        for row in range(len(PLAYERS)):
            assert page.locator(f"#players-{row}-maal").is_visible()
            assert not page.locator(f"#player-{row} details.more").evaluate("d => d.open")
        assert no_sideways_scroll(page)
        assert small_tap_targets(page) == []
        if number == 1 and not earlier:
            screens(page, "10-compact-hand-form")
        taps = fill_typical_hand(page)
        # Filled in, the form is no taller: the settlement step by step is a tap away.
        assert page_height(page) <= MOST_HEIGHT
        assert small_tap_targets(page) == []
        # The result and the button are in view together, wherever the page is scrolled.
        for y in (0, 400, 10_000):
            page.evaluate("y => window.scrollTo(0, y)", y)
            for part in ("#hand-status", ".hand-form .form-actions button"):
                box = page.locator(part).bounding_box()
                assert 0 <= box["y"] and box["y"] + box["height"] <= 844, (y, part)
        if number == 1 and not earlier:
            screens(page, "11-compact-hand-form-filled")
        taps += save_hand(page)
        assert taps <= MOST_TAPS, taps
        page.locator(".flash").wait_for()
        assert f"Hand {len(earlier) + number} saved." in page.locator(".flash").inner_text()
        nets = engine_nets(TYPICAL_HAND)
        before = [engine_nets(hand) for hand in earlier]
        assert totals(page, match_url) == summed(*before, *[nets] * number)
    assert page.console_errors == []


def test_the_detailed_entry_is_a_tap_away(live_server, page):
    match_url = api_match(page, live_server)
    open_hand_form(page, match_url)
    more = page.locator("#player-1 details.more")
    assert not more.evaluate("d => d.open")
    assert page.locator("#players-1-count_tiplu").is_hidden()
    more.locator("summary").click()  # one tap shows the ways to enter the maal
    page.locator('#player-1 .mode-input[value="counts"] + span').click()
    page.locator('#player-1 [aria-controls="players-1-count_tiplu"][data-step="1"]').click()
    assert page.input_value("#players-1-count_tiplu") == "1"
    assert page.locator("#players-1-maal").is_hidden()  # the row points to "More" instead
    assert page.locator("#player-1 .maal-by-counts").is_visible()
    assert small_tap_targets(page) == []
    screens(page, "12-compact-hand-form-more")
    assert page.console_errors == []


def test_a_carried_sit_out_is_shown_and_undone_with_one_tap(live_server, page):
    match_url = api_match(page, live_server, hands=[THREE_PLAY])  # Dipa sat out
    open_hand_form(page, match_url)
    note = page.locator("#player-3 .carried-note")
    assert note.is_visible()
    assert "Sat out the last hand" in note.inner_text()
    # The note takes the whole row: the row that sits out has no "More" beside it.
    row = page.locator("#player-3 .player-head").evaluate("h => h.clientWidth")
    padding = page.locator("#player-3 .player-head").evaluate(
        "h => parseFloat(getComputedStyle(h).paddingLeft)"
    )
    assert note.bounding_box()["width"] >= row - padding - 1
    assert page.locator("#player-3 .plays-switch").inner_text().strip() == "Sits out"
    assert page_height(page) <= MOST_HEIGHT
    screens(page, "13-carried-sit-out")
    page.locator("#player-3 .plays-switch > span").click()  # one tap: Dipa plays
    assert page.locator("#players-3-plays").is_checked()
    assert note.is_hidden()
    assert page.locator("#players-3-maal").is_visible()
    taps = fill_typical_hand(page) + save_hand(page)  # nothing more to undo
    assert taps <= MOST_TAPS
    page.locator(".flash").wait_for()
    expected = summed(engine_nets(THREE_PLAY), engine_nets(TYPICAL_HAND))
    assert totals(page, match_url) == expected  # four players in hand 2
    assert page.console_errors == []


def test_enter_starts_an_unnamed_match(live_server, page):
    page.goto(live_server + "/matches/new")
    for row, name in enumerate(PLAYERS):
        page.fill(f"#players-{row}", name)
    page.locator("#players-3").press("Enter")
    page.wait_for_url("**/matches/*")
    assert "/matches/new" not in page.url
    today = date.today()
    heading = page.locator(".match-head h1").inner_text()
    assert heading == f"Match of {today.day} {today.strftime('%b')} {today.year}"  # the first
    assert "edit link is under “Share”" in page.locator(".flash").inner_text()
    assert page.console_errors == []


def tab_to(page, selector: str, limit: int = 120) -> list[str]:
    """Press Tab until the focus is on ``selector``; what was focused on the way."""
    passed = []
    for _ in range(limit):
        page.keyboard.press("Tab")
        if page.evaluate("s => document.activeElement.matches(s)", selector):
            return passed
        passed.append(page.evaluate("() => document.activeElement.outerHTML.slice(0, 60)"))
    raise AssertionError(f"Tab never reached {selector}: {passed}")


def test_a_hand_entered_with_the_keyboard_alone(live_server, page):
    match_url = api_match(page, live_server)
    open_hand_form(page, match_url)
    # The skip link comes first, shows when focused and leads to the content.
    page.keyboard.press("Tab")
    assert page.evaluate("() => document.activeElement.matches('.skip-link')")
    box = page.locator(".skip-link").bounding_box()
    assert box["y"] >= 0 and box["height"] >= 44
    page.keyboard.press("Enter")
    assert page.evaluate("() => document.activeElement.id") == "content"

    hand = TYPICAL_HAND
    for row, player in enumerate(hand["players"]):
        tab_to(page, f"#players-{row}-maal")
        page.keyboard.type(str(player["maal"]))
    # Chandra is unseen: back to the row's choices, then the arrow keys.
    page.keyboard.press("Shift+Tab")
    tab_to(page, "#players-2-seen input:checked")
    page.keyboard.press("ArrowRight")
    page.keyboard.press("ArrowRight")
    assert page.locator('#players-2-seen input[value="unseen"]').is_checked()
    tab_to(page, "#winner")
    page.keyboard.press("ArrowDown")  # the first player: Asha
    assert page.input_value("#winner") == "0"
    page.wait_for_selector("#hand-status .status-net")
    tab_to(page, ".hand-form .form-actions button")
    page.keyboard.press("Enter")
    page.locator(".flash").wait_for()
    assert totals(page, match_url) == engine_nets(hand)
    assert page.console_errors == []
