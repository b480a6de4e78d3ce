""" "What if…?" in a phone-sized Chromium, in English and Nepali: reached from the match
page by a reader, a profile picked (the comparison follows at once, with JavaScript or by
the form's button without it), no sideways scrolling, and axe-core finds nothing serious;
the rules page of an editor too."""

import pytest
from browser_support import PHONE, api_match, axe_problems, fresh_page, no_sideways_scroll
from rescore_support import HANDS, PLAYERS

pytestmark = pytest.mark.browser

WORDS = {
    "en": {"title": "What if…?", "under": "Under Game rules (points race)", "link": "What if…?"},
    "ne": {"title": "के भए…?", "under": "गेमरुल्स (अङ्कको होड) नियममा", "link": "के भए…?"},
}


def open_what_if(page, match_url: str, lang: str) -> None:
    """From the match page, as a reader would."""
    page.goto(match_url)
    page.locator(".report-links a", has_text=WORDS[lang]["link"]).first.click()
    page.wait_for_url("**/what-if")
    page.locator("h1", has_text=WORDS[lang]["title"]).wait_for()


@pytest.mark.parametrize("lang", ["en", "ne"])
def test_a_reader_picks_other_rules_on_a_phone(live_server, browser, axe_source, lang):
    with fresh_page(browser) as editor:
        match_url = api_match(
            editor,
            live_server,
            hands=HANDS,
            players=PLAYERS,
            rules={"profile": "sparkai", "foul": "next_hand"},
            length=None,
        )
    context = browser.new_context(viewport=PHONE)  # no edit key: the read-only link
    page = context.new_page()
    errors: list[str] = []
    page.on("console", lambda msg: errors.append(msg.text) if msg.type == "error" else None)
    try:
        page.goto(f"{live_server}/lang/{lang}?next=/")
        open_what_if(page, match_url, lang)
        assert axe_problems(page, axe_source) == []
        page.select_option("#rules-profile", "gamerules")  # htmx redraws at once
        page.locator("#what-if-title", has_text=WORDS[lang]["under"]).wait_for()
        assert "rules-profile=gamerules" in page.url  # a link to this very comparison
        # The match's own override (fouls to the next hand) stays: the dublee finish alone
        # is refused.
        refused = page.locator('#what-if-notes li[data-rescored="no"]')
        assert refused.count() == 1
        assert refused.get_attribute("data-hand") == "3"
        assert no_sideways_scroll(page)
        assert axe_problems(page, axe_source) == []
        assert errors == []
    finally:
        context.close()


def test_without_javascript_the_form_button_compares(live_server, browser):
    with fresh_page(browser) as editor:
        match_url = api_match(editor, live_server, hands=HANDS[:3], players=PLAYERS)
    with fresh_page(browser, java_script_enabled=False) as page:
        page.goto(match_url + "/what-if")
        page.select_option("#rules-profile", "everestbuzz")
        page.locator(".what-if-form button[type=submit]").click()
        page.locator("#what-if-title", has_text="Under Everest Buzz").wait_for()
        assert no_sideways_scroll(page)


def test_an_editor_changes_the_rules_from_what_if(live_server, browser, axe_source):
    with fresh_page(browser) as page:
        match_url = api_match(page, live_server, hands=HANDS[:3], players=PLAYERS)
        page.goto(match_url + "/what-if?rules-profile=everestbuzz")
        page.locator("a", has_text="Make these the match's rules…").click()
        page.locator("h1", has_text="Change the house rules").wait_for()
        assert axe_problems(page, axe_source) == []
        assert no_sideways_scroll(page)
        page.locator(".match-rules-form button[type=submit]").click()
        page.locator(".flash", has_text="The match now plays by Everest Buzz").wait_for()
