"""The dispute checker in headless Chromium at phone size: enter the worked example of
docs/rules.md §3 and watch the live preview settle it; the CSP holds (no console errors)."""

from pathlib import Path

import pytest
from browser_support import (
    PHONE,
    PLAYERS,
    choose,
    fill_checker,
    fill_typical_hand,
    no_sideways_scroll,
    page_height,
    use_maal_mode,
)
from worked_example import WORKED_ROWS

pytestmark = pytest.mark.browser

MINUS = "\u2212"
OUT = Path(__file__).resolve().parents[2] / "test-output"


def shot(page, name: str) -> None:
    OUT.mkdir(exist_ok=True)
    page.screenshot(path=str(OUT / f"{name}.png"), full_page=True)


def test_worked_example_in_the_checker(live_server, page):
    page.goto(live_server + "/check")
    page.wait_for_function("() => window.htmx !== undefined")
    shot(page, "checker-empty")
    fill_checker(page, WORKED_ROWS)
    preview = page.locator("#hand-preview")
    preview.locator(".nets").wait_for()
    nets = dict(
        zip(
            preview.locator(".nets tbody th").all_inner_texts(),
            preview.locator(".nets td.net").all_inner_texts(),
            strict=True,
        )
    )
    assert nets == {
        "Asha finished": "+41",
        "Bikash": "+2",
        "Chandra": "\u221218",
        "Dipa": "\u221225",
    }
    shot(page, "checker-worked-example")
    assert page.console_errors == []


def test_steppers_and_cards(live_server, page):
    page.goto(live_server + "/check")
    page.wait_for_function("() => window.htmx !== undefined")
    # Cards need a tiplu: the choice is off until one is typed.
    assert page.locator('#player-0 .mode-input[value="cards"]').is_disabled()
    page.fill("#tiplu", "8H")
    assert page.locator('#player-0 .mode-input[value="cards"]').is_enabled()
    page.fill("#players-0-name", "Asha")
    choose(page, "players-0-seen", "sequences")
    use_maal_mode(page, 0, "cards")
    page.fill("#players-0-maal_cards", "7H 8H 9H 8D")
    page.fill("#players-1-name", "Bikash")
    choose(page, "players-1-seen", "sequences")
    use_maal_mode(page, 1, "counts")
    plus = page.locator('#player-1 [data-step="1"]').first  # tiplu +
    plus.click()
    assert page.input_value("#players-1-count_tiplu") == "1"
    page.locator('#player-1 [data-step="-1"]').first.click()
    page.locator('#player-1 [data-step="-1"]').first.click()
    assert page.input_value("#players-1-count_tiplu") == "0"
    choose(page, "finish", "sequences")
    page.select_option("#winner", "0")
    preview = page.locator("#hand-preview")
    preview.locator(".nets").wait_for()
    assert "Marriage" in preview.inner_text()
    shot(page, "checker-cards")
    assert page.console_errors == []


def test_touch_targets_and_width(live_server, page):
    page.goto(live_server + "/check")
    page.wait_for_function("() => window.htmx !== undefined")
    assert no_sideways_scroll(page)
    heights = page.eval_on_selector_all(
        ".choice-label, .mode span, .step, .hand-form button, .hand-form select, "
        ".hand-form input:not([type=hidden]):not([type=radio]):not([type=checkbox]), "
        "details > summary",
        "els => els.filter(e => e.offsetParent !== null)"
        ".map(e => [e.className || e.tagName, e.getBoundingClientRect().height])",
    )
    assert heights
    small = [(name, h) for name, h in heights if h < 44]
    assert small == []


def test_rules_page_on_a_phone(live_server, page):
    page.goto(live_server + "/rules")
    assert no_sideways_scroll(page)
    wrap = page.locator(".rules-table-wrap").first  # read setting by setting: no scrolling
    assert wrap.evaluate("e => e.scrollWidth <= e.clientWidth")
    shot(page, "rules")
    assert page.console_errors == []


def test_shared_links_and_problems(live_server, page):
    from ledger.matches.share_link import encode_hand_link

    kidnap_dublees = {
        "rules": {"profile": "everestbuzz", "unseen_maal": "kidnap"},
        "tiplu": "KS",
        "finish": "dublees",
        "winner": "Bikash",
        "players": [
            {"name": "Asha", "seen": "sequences", "maal_cards": ["AS", "KC", "KC", "7S"]},
            {"name": "Bikash", "seen": "dublees", "maal_counts": {"tiplu": 2, "poplu": 1}},
            {"name": "Chandra", "seen": "unseen", "maal": 12},
            {"name": "Dipa", "seen": "sequences", "dealt_tunnelas": ["5D", "jhiplu"]},
        ],
    }
    page.goto(live_server + "/check?h=" + encode_hand_link(kidnap_dublees))
    page.locator("#hand-preview .nets").wait_for()
    text = page.locator("#hand-preview").inner_text()
    assert "kidnapped maal of Chandra (12)" in text
    assert "dublee-finish bonus 5" in text
    shot(page, "checker-shared-kidnap-dublees")

    points_race = {
        "rules": "gamerules",
        "finish": "sequences",
        "winner": "A",
        "players": [
            {
                "name": "A",
                "seen": "sequences",
                "maal_counts": {"tiplu": 1, "poplu": 1, "jhiplu": 1},
                "marriages_shown": 1,
            },
            {"name": "B", "seen": "unseen", "maal": 4},
        ],
    }
    page.goto(live_server + "/check?h=" + encode_hand_link(points_race))
    page.locator("#hand-preview .nets").wait_for()
    assert "Points this hand" in page.locator("#hand-preview").inner_text()
    shot(page, "checker-points-race")

    assert page.console_errors == []
    page.goto(live_server + "/check?h=broken!")
    assert "damaged" in page.locator(".notice").inner_text()

    # A posted hand with problems: each beside its field; the preview lists them too.
    page.goto(live_server + "/check")
    page.fill("#players-0-name", "<b>Asha</b>")
    page.fill("#players-1-name", "Bikash")
    page.fill("#tiplu", "8H")
    use_maal_mode(page, 0, "cards")
    page.fill("#players-0-maal_cards", "8H 1X")
    page.locator("#players-0-maal_cards").press("Tab")
    page.locator("#hand-preview .preview-problems").wait_for()
    page.locator(".form-actions button").click()
    page.locator(".field-errors").first.wait_for()
    assert "'1X' is not a card" in page.locator("#players-0-maal_cards-errors").inner_text()
    assert page.locator("#players-0-name").input_value() == "<b>Asha</b>"
    shot(page, "checker-problems")
    # The bad link (400) and the hand with problems (422) are logged as failed loads.
    assert [e for e in page.console_errors if "status of 400" not in e and "422" not in e] == []
    page.console_errors.clear()
    # Fixing a field drops its stale message.
    page.fill("#players-0-maal_cards", "8H")
    assert page.locator("#players-0-maal_cards-errors").count() == 0
    page.locator("details.overrides > summary").click()
    shot(page, "checker-overrides")
    assert page.console_errors == []


def test_a_plain_hand_in_few_taps_on_a_phone(live_server, page):
    """Each row opens compact (a total box), seen by sequences, the hand finished by
    sequences: a plain 4-player hand is its names and totals, one unseen player and the
    finisher (issue 28: it took 15 taps and 6.7 screens)."""
    page.goto(live_server + "/check")
    page.wait_for_function("() => window.htmx !== undefined")
    screens = page_height(page) / PHONE["height"]
    assert screens <= 2.5, screens
    assert page.locator("details.more[open]").count() == 0
    for row, name in enumerate(PLAYERS):
        page.fill(f"#players-{row}-name", name)  # typed, as the totals are: no taps counted
    taps = len(PLAYERS) + fill_typical_hand(page)  # a tap into each name
    assert taps <= 12, taps
    preview = page.locator("#hand-preview")
    preview.locator(".nets").wait_for()
    # Amar Nepal (the default): murder, fees 3 / 10
    assert preview.locator(".nets td.net").all_inner_texts() == [
        "+38",
        MINUS + "9",
        MINUS + "28",
        MINUS + "1",
    ]
    shot(page, "checker-plain-hand")
    assert page.console_errors == []


def test_why_words_on_a_phone(live_server, page):
    """Why the finisher pays, on its own line under the payment; why a cards maal formed
    no marriage, under its maal."""
    from ledger.matches.share_link import encode_hand_link

    hand = {
        "rules": "classic",
        "tiplu": "8H",
        "finish": "sequences",
        "winner": "Dipa",
        "players": [
            {
                "name": "Asha",
                "seen": "sequences",
                "maal_cards": ["8H", "9H", "9H", "9H"] + ["7H", "7H", "7H"],
            },
            {"name": "Bikash", "seen": "sequences", "maal": 6},
            {"name": "Dipa", "seen": "sequences", "maal": 0},
        ],
    }
    page.goto(live_server + "/check?h=" + encode_hand_link(hand))
    preview = page.locator("#hand-preview")
    preview.locator(".nets").wait_for()
    why = preview.locator(".payments .pay-why").first
    assert why.inner_text().startswith("Why Dipa pays: Asha's maal points")
    amount = why.locator("xpath=..").locator(".amount").bounding_box()
    assert why.bounding_box()["y"] >= amount["y"] + amount["height"] - 1  # a line of its own
    assert "no marriage: 23 (chosen)" in preview.locator(".groupings").inner_text()
    assert no_sideways_scroll(page)
    shot(page, "checker-why")
    assert page.console_errors == []
