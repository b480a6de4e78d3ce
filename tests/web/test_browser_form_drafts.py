"""What was typed stays when the language is switched, on every form (static/js/
form-draft.js), on a phone in headless Chromium: the new-match form (its rules redrawn
for the profile chosen), a table's payment form (in its fold), the dispute checker (the
whole form redrawn for other house rules), What if…? (its page redrawn), a player's "How
to pay me" (a spare row shown) and a roster's rename. The page comes back in the other
language with what was typed; the hand form's own tests are in
test_browser_scorekeeper_night.py."""

import pytest
from browser_support import PLAYERS, api_match, ask_in, created, fill_checker
from test_browser_scorekeeper_night import OTHER, switch_language
from test_browser_what_if import WORDS as WHAT_IF
from test_browser_zoomed_keyboard import a_night_at_a_table

pytestmark = pytest.mark.browser

#: The words each test reads, in each language.
WORDS = {
    "en": {
        "new match": "New match",
        "payment": "Record another payment",
        "checker": "Dispute checker",
        "pay me": "How to pay me",
        "roster": "Roster",
    },
    "ne": {
        "new match": "नयाँ म्याच",
        "payment": "अर्को भुक्तानी लेख्नुहोस्",
        "checker": "हिसाब जाँच",
        "pay me": "मलाई कसरी तिर्ने",
        "roster": "नामावली",
    },
}

#: What a person has put into a form: each box's value, each choice's state.
FORM_STATE = """form => [...form.elements]
    .filter(e => e.name && !["hidden", "submit", "button", "file"].includes(e.type))
    .map(e => e.type === "radio" || e.type === "checkbox" ? [e.name, e.value, e.checked]
                                                         : [e.name, e.value])"""


#: A number in either digits, as the server reads it (a part redrawn on a Nepali page
#: writes the number typed as १२).
WESTERN = str.maketrans("०१२३४५६७८९", "0123456789")


def form_state(page, form: str) -> list:
    return [
        [str(v).translate(WESTERN) if isinstance(v, str) else v for v in row]
        for row in page.eval_on_selector(form, FORM_STATE)
    ]


def comes_back(page, form: str, typed: list) -> None:
    """The form ``form`` holds ``typed`` again (waited for: a part of it may be redrawn
    on its way back), and is in view, not folded away."""
    for _ in range(100):
        if form_state(page, form) == typed:
            break
        page.wait_for_timeout(100)
    assert form_state(page, form) == typed
    assert page.locator(form).is_visible()


def new_match_under_other_rules(page, live_server) -> None:
    """The new-match form, other house rules chosen (its rules redrawn for them)."""
    page.goto(f"{live_server}/matches/new")
    page.wait_for_function("() => window.htmx !== undefined")
    with page.expect_response("**/matches/new/rules"):
        page.select_option("#rules-profile", "everestbuzz")
    page.locator("#match-rules.htmx-settling, #match-rules.htmx-swapping").wait_for(
        state="detached"
    )


@pytest.mark.parametrize("lang", OTHER)
def test_a_new_match_half_typed_stays_when_the_language_is_switched(live_server, page, lang):
    """The players named, another dealer first, other house rules with a setting
    changed, a length and a stake: all there after the switch, and the rules shown are
    the chosen profile's (redrawn for it). Before, the form came back empty."""
    ask_in(page, live_server, lang)
    new_match_under_other_rules(page, live_server)
    page.fill("#name", "Tihar")
    for seat, name in enumerate(PLAYERS):
        page.fill(f"#players-{seat}", name)
    page.locator("#first_dealer-2 + span").click()
    page.locator("details.overrides > summary").click()
    page.fill("#rules-fee_unseen", "12")
    page.locator("#length_kind-1 + span").click()
    page.fill("#length_count", "6")
    page.fill("#stake-per_point", "0.50")
    form = "form[action$='/matches/new']"
    typed = form_state(page, form)

    other = OTHER[lang]
    with page.expect_response("**/matches/new/rules"):
        switch_language(page, other)
    assert page.locator("h1").inner_text() == WORDS[other]["new match"]
    comes_back(page, form, typed)
    assert page.locator("#rules-fee_unseen").is_visible()
    assert page.console_errors == []


def a_payment_half_typed(page, live_server) -> tuple[str, list]:
    """A table's payment form (in its fold) with who paid, to whom and how much typed:
    the form's selector and what it holds."""
    table, key, _ = a_night_at_a_table(page, live_server)
    page.goto(f"{table}/join/{key}")
    page.locator("details.payment-other > summary").click()
    page.select_option("#payer", "Bikash")
    page.select_option("#payee", "Chandra")
    page.fill("#amount", "3.50")
    form = "details.payment-other form"
    return form, form_state(page, form)


@pytest.mark.parametrize("lang", OTHER)
def test_a_payment_half_typed_stays_when_the_language_is_switched(live_server, page, lang):
    """Who paid, to whom and how much, typed into the table's payment form (in its fold):
    the fold is open after the switch, the form as it was typed."""
    ask_in(page, live_server, lang)
    form, typed = a_payment_half_typed(page, live_server)

    other = OTHER[lang]
    switch_language(page, other)
    assert page.locator("details.payment-other > summary").inner_text() == WORDS[other]["payment"]
    comes_back(page, form, typed)
    assert page.console_errors == []


@pytest.mark.parametrize("lang", OTHER)
def test_a_hand_half_typed_in_the_checker_stays(live_server, page, lang):
    """Other house rules (the whole form redrawn for them), the names, who saw, the maal
    and the finish typed into the dispute checker: the same after the switch, and its
    preview settles them."""
    ask_in(page, live_server, lang)
    page.goto(f"{live_server}/check")
    page.wait_for_function("() => window.htmx !== undefined")
    rows = [("Asha", "sequences", 12), ("Bikash", "unseen", 0), ("Chandra", "sequences", 4)]
    fill_checker(page, rows, profile="everestbuzz")
    page.locator("#hand-preview .nets").wait_for()
    nets = page.locator("#hand-preview .nets td.net").evaluate_all(
        "cells => cells.map(c => c.dataset.net)"
    )
    form = "form.hand-form"
    typed = form_state(page, form)

    other = OTHER[lang]
    switch_language(page, other)
    assert page.locator("h1").inner_text() == WORDS[other]["checker"]
    comes_back(page, form, typed)
    page.wait_for_function(
        """nets => [...document.querySelectorAll("#hand-preview .nets td.net")]
            .map(c => c.dataset.net).join() === nets.join()""",
        arg=nets,
        timeout=10_000,
    )
    assert page.console_errors == []


def test_other_rules_picked_in_what_if_stay(live_server, page):
    """Other house rules picked in a match's What if…? (the page redrawn for them, the
    language switch still leading to the page as it was first shown): after the switch
    the same rules are picked and the comparison is theirs, in the other language."""
    match_url = api_match(page, live_server)
    page.goto(match_url + "/what-if")
    page.wait_for_function("() => window.htmx !== undefined")
    page.select_option("#rules-profile", "gamerules")
    page.locator("#what-if-title", has_text=WHAT_IF["en"]["under"]).wait_for()
    switch_language(page, "ne")
    page.locator("#what-if-title", has_text=WHAT_IF["ne"]["under"]).wait_for()
    assert page.input_value("#rules-profile") == "gamerules"
    assert page.console_errors == []


def test_a_players_handles_and_a_roster_change_stay(live_server, page):
    """On a player's own page, two handles typed into "How to pay me" (the second in a
    spare row, shown by "Add another handle"): both shown again after the switch. On the
    table's page, a player's new spelling typed in their folded "Change": back in their
    fold, opened, and in nobody else's."""
    table, key, _ = a_night_at_a_table(page, live_server)
    table_id = table.rsplit("/", 1)[1]
    link = f"{live_server}/api/v1/tables/{table_id}/players/Dipa/link"
    dipa = created(page.request, link, key=key)["url"].replace("http://localhost", live_server)
    page.goto(dipa)
    form = "form.person-handles"
    rows = page.locator(f"{form} fieldset.handle-row")
    rows.nth(0).locator("input").first.fill("dipa-esewa")
    page.locator(f"{form} [data-add-row]").click()
    rows.nth(1).locator("input").first.fill("9800000000")
    typed = form_state(page, form)
    switch_language(page, "ne")
    assert page.locator("#pay-to-title").inner_text() == WORDS["ne"]["pay me"]
    comes_back(page, form, typed)
    assert rows.nth(1).locator("input").first.is_visible()

    page.goto(f"{table}/join/{key}")
    bikash = page.locator(".roster-list > li").filter(has=page.locator("input[value=Bikash]"))
    bikash.locator("details.roster-edit > summary").click()
    spelling = bikash.locator("details.roster-edit input[type=text]")
    spelling.fill("Bikas")
    switch_language(page, "en")
    assert page.locator("#roster-title").inner_text() == WORDS["en"]["roster"]
    assert spelling.input_value() == "Bikas"
    assert spelling.is_visible()
    renamed = page.locator(".roster-list input[type=text]").evaluate_all(
        "boxes => boxes.filter(b => b.value === 'Bikas').length"
    )
    assert renamed == 1
    assert page.console_errors == []


def test_a_payment_half_typed_stays_when_the_digits_are_switched(live_server, page):
    """The footer's digits switch (०१२ / 012) reloads the page as the language switch
    does: the amount typed comes back, and the page is in the other digits."""
    form, typed = a_payment_half_typed(page, live_server)
    other = "latn" if "digits-deva" in page.get_attribute("body", "class") else "deva"

    page.locator(".digits-switch a").click()
    page.wait_for_function("to => document.body.classList.contains('digits-' + to)", arg=other)
    page.wait_for_load_state()
    comes_back(page, form, typed)
    assert page.console_errors == []


@pytest.mark.parametrize("lang", OTHER)
def test_a_payment_sent_back_stays_whole_when_the_language_is_switched(live_server, page, lang):
    """A payment refused (an amount that is no amount) comes back on the page its form
    was sent to; the switch tapped there leads to the table's page, where the form shows
    empty. What the refusal showed, and what was changed after it, come back there.
    Before, only what was changed after the refusal did."""
    ask_in(page, live_server, lang)
    form, _ = a_payment_half_typed(page, live_server)
    page.fill("#amount", "three")
    with page.expect_navigation():
        page.locator(f"{form} button[type=submit]").click()
    assert page.locator("#amount[aria-invalid=true]").is_visible()
    page.console_errors.clear()  # the refusal's 422, as the browser logs it
    page.select_option("#payee", "Dipa")
    typed = form_state(page, form)

    other = OTHER[lang]
    switch_language(page, other)
    assert page.locator("details.payment-other > summary").inner_text() == WORDS[other]["payment"]
    comes_back(page, form, typed)
    assert page.console_errors == []


def test_a_new_match_sent_back_stays_whole_when_the_language_is_switched(live_server, page):
    """A new match refused (one player named) under other house rules: after the switch
    the form holds what the refusal showed, its rules redrawn for the profile chosen."""
    new_match_under_other_rules(page, live_server)
    page.fill("#name", "Tihar")
    page.fill("#players-0", PLAYERS[0])
    with page.expect_navigation():
        page.locator("form[action$='/matches/new'] button[type=submit]").last.click()
    assert page.locator(".field-errors, .form-problems").first.is_visible()
    page.console_errors.clear()  # the refusal's 422, as the browser logs it
    form = "form[action$='/matches/new']"
    typed = form_state(page, form)

    switch_language(page, "ne")
    assert page.locator("h1").inner_text() == WORDS["ne"]["new match"]
    comes_back(page, form, typed)  # waited for: the rules are redrawn on the way
    assert page.console_errors == []
