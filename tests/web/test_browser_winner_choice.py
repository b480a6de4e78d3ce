""" "Who finished?" offers only the players in the hand (headless Chromium, a phone): a
player switched to "Sits out" leaves the list (and a pick of them is undone), and comes
back, in their seat, when switched to play again. Without JavaScript the list keeps
everyone and the server's own sentence refuses a finisher who sat out."""

import pytest
from browser_support import PLAYERS, api_match, fresh_page, open_hand_form
from match_pages_support import THREE_PLAY

pytestmark = pytest.mark.browser


def offered(page) -> list[str]:
    """The names "Who finished?" offers, in order (its "Choose who finished" first)."""
    return page.eval_on_selector_all(
        "#winner option",
        "options => options.filter(o => !o.hidden && !o.disabled).map(o => o.text)",
    )


def switch(page, row: int) -> None:
    """One tap on the row's "Plays" / "Sits out" switch."""
    page.locator(f"#player-{row} .plays-switch > span").click()


def test_who_finished_lists_only_the_players_in_the_hand(live_server, page):
    match_url = api_match(page, live_server, hands=[THREE_PLAY])  # Dipa sat out
    open_hand_form(page, match_url)
    assert not page.locator("#players-3-plays").is_checked()
    assert offered(page) == ["Choose who finished", "Asha", "Bikash", "Chandra"]
    switch(page, 3)  # Dipa plays after all
    assert offered(page) == ["Choose who finished", *PLAYERS]
    page.select_option("#winner", "3")
    switch(page, 3)  # ... and sits out again: she cannot have finished
    assert offered(page) == ["Choose who finished", "Asha", "Bikash", "Chandra"]
    assert page.input_value("#winner") == ""
    switch(page, 1)  # Bikash steps away
    assert offered(page) == ["Choose who finished", "Asha", "Chandra"]
    switch(page, 1)
    switch(page, 3)
    assert offered(page) == ["Choose who finished", *PLAYERS]  # in their seats
    assert page.console_errors == []


def test_without_javascript_the_server_refuses_a_finisher_who_sat_out(live_server, browser):
    with fresh_page(browser) as setup:
        match_url = api_match(setup, live_server, hands=[THREE_PLAY])
        cookies = setup.context.cookies()
    with fresh_page(browser, java_script_enabled=False) as page:
        page.context.add_cookies(cookies)  # the scorekeeper's edit rights
        page.goto(match_url + "/hands/new")
        assert offered(page) == ["Choose who finished", *PLAYERS]
        for row in range(3):
            page.fill(f"#players-{row}-maal", "0")
        page.check('#finish input[value="sequences"]')
        page.select_option("#winner", "3")  # Dipa, who sits out
        page.locator(".hand-form .form-actions button[type=submit]").click()
        problems = page.locator("#hand-form-problems, #winner-errors").all_inner_texts()
        assert any(
            "Dipa is not playing this hand; choose one of its players." in p for p in problems
        )
