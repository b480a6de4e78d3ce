"""The dispute checker in headless Chromium at phone size: enter the worked example of
RULES.md §3 and watch the live preview settle it; the CSP holds (no console errors)."""

from pathlib import Path

import pytest

pytestmark = pytest.mark.browser

OUT = Path(__file__).resolve().parents[2] / "test-output"

WORKED = [  # name, how they saw, maal
    ("Asha", "sequences", 10),
    ("Bikash", "sequences", 5),
    ("Chandra", "sequences", 0),
    ("Dipa", "unseen", 8),
]


def shot(page, name: str) -> None:
    # caret="initial": Playwright's default caret hiding injects a style that the page's
    # CSP reports (on later htmx swaps), which would look like the app's own violation.
    OUT.mkdir(exist_ok=True)
    page.screenshot(path=str(OUT / f"{name}.png"), full_page=True, caret="initial")


def choose(page, field_id: str, value: str) -> None:
    """Tap the big radio button of ``field_id`` with ``value`` (its label is the button)."""
    page.locator(f'#{field_id} input[value="{value}"] + span').click()


def test_worked_example_in_the_checker(live_server, page):
    page.goto(live_server + "/check")
    page.wait_for_function("() => window.htmx !== undefined")
    shot(page, "checker-empty")
    page.select_option("#rules-profile", "sparkai")
    page.wait_for_selector("#rules-profile option[value=sparkai][selected]", state="attached")
    for i, (name, seen, maal) in enumerate(WORKED):
        page.fill(f"#players-{i}-name", name)
        choose(page, f"players-{i}-seen", seen)
        page.locator(f'#player-{i} .mode-input[value="number"] + span').click()
        page.fill(f"#players-{i}-maal", str(maal))
    choose(page, "finish", "sequences")
    page.select_option("#winner", "0")
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
    page.locator('#player-0 .mode-input[value="cards"] + span').click()
    page.fill("#players-0-maal_cards", "7H 8H 9H 8D")
    page.fill("#players-1-name", "Bikash")
    choose(page, "players-1-seen", "sequences")
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
