"""A scorekeeper's night at a real table, on a phone (390 × 844) in headless Chromium, in
English and Nepali: the language switched while a hand is half typed keeps what was
typed; a night over leads the table's keeper to the next night; offline, "End the night"
waits for the hand kept on the phone; a match of one letter is still a finger's target
to go back to."""

import pytest
from api_hands import won_by
from browser_support import (
    PLAYERS,
    TOUCH,
    api_match,
    ask_in,
    axe_problems,
    choose,
    created,
    fresh_page,
    no_sideways_scroll,
    open_hand_form,
    small_tap_targets,
)
from match_pages_support import BY_COUNTS, WORKED, engine_nets
from test_browser_hand_once import api, fill_hand, join, new_match, save_button, stored
from test_browser_offline_night import hand_one_saved, match_page_with_its_form_kept

pytestmark = pytest.mark.browser

#: The other language of each: the one the switch in the header offers.
OTHER = {"en": "ne", "ne": "en"}

#: The page's words this test reads, in each language.
WORDS = {
    "en": {
        "adding 1": "Adding hand 1",
        "adding 2": "Adding hand 2",
        "end waits 2": "Hand 2 is kept on this phone, not sent yet: "
        "the night can end once it is sent.",
        "ends after 2": "The match ends after hand 2; you can take it back.",
        "next night": "Next night at Friday at Asha's",
    },
    "ne": {
        "adding 1": "बाजी १ हाल्दै",
        "adding 2": "बाजी २ हाल्दै",
        "end waits 2": "बाजी २ यो फोनमै राखिएको छ, अझै पठाइएको छैन: "
        "त्यो पठाइएपछि मात्र रात टुङ्ग्याउन सकिन्छ।",
        "ends after 2": "म्याच बाजी २ पछि सकिन्छ; तपाईं यसलाई फिर्ता लिन सक्नुहुन्छ।",
        "next night": "Friday at Asha's मा अर्को रात",
    },
}

#: What a scorekeeper has put into the form: each box's value, each choice's state.
FORM_STATE = """() => [...document.querySelector("form.hand-form").elements]
    .filter(e => e.name && e.name !== "csrf_token" && e.type !== "hidden" && e.type !== "submit")
    .map(e => e.type === "radio" || e.type === "checkbox" ? [e.name, e.value, e.checked]
                                                         : [e.name, e.value])"""


def switch_language(page, to: str) -> None:
    """Tap the header's switch to ``to``; wait for the page in it."""
    page.locator(f'.lang-switch a[lang="{to}"]').click()
    page.wait_for_function("to => document.documentElement.lang === to", arg=to)
    page.wait_for_load_state()


def preview_shows(page, hand: dict) -> None:
    """The live preview shows the engine's nets of ``hand``."""
    expected = ",".join(str(v) for v in engine_nets(hand).values())
    page.wait_for_function(
        """expected => [...document.querySelectorAll("#hand-preview .nets td.net")]
            .map(e => e.dataset.net).join() === expected""",
        arg=expected,
        timeout=10_000,
    )


@pytest.mark.parametrize("lang", WORDS)
def test_a_hand_half_typed_stays_when_the_language_is_switched(live_server, page, lang):
    """The scorekeeper has typed most of hand 1 (the maal, who saw, the finisher, a row
    changed by hand) and switches the language to read a word: the same form comes back
    in the other language with everything typed still there, the preview following it,
    and saved as typed. Before, the form came back empty."""
    page_url, edit_link = new_match(live_server)
    ask_in(page, live_server, lang)
    join(page, edit_link)
    open_hand_form(page, page_url)
    fill_hand(page, BY_COUNTS)
    choose(page, "players-2-seen", "sequences")  # tapped, and tapped back
    choose(page, "players-2-seen", "unseen")
    preview_shows(page, BY_COUNTS)
    typed = page.evaluate(FORM_STATE)

    other = OTHER[lang]
    switch_language(page, other)
    assert page.locator("h1").inner_text() == WORDS[other]["adding 1"]
    assert page.evaluate(FORM_STATE) == typed
    preview_shows(page, BY_COUNTS)
    assert page.console_errors == []

    save_button(page).click()
    page.wait_for_url(page_url)
    hand = api(page_url.replace("/matches/", "/api/v1/matches/"))["hands"][0]
    assert (hand["finish"], hand["winner"]) == (BY_COUNTS["finish"], BY_COUNTS["winner"])
    assert stored(page_url) == [1]


def test_a_form_for_another_hand_starts_empty_after_the_switch(live_server, page):
    """Hand 1 half typed here is saved meanwhile on another phone: the switch brings
    back the form for hand 2, empty (what was typed was hand 1, saved already), and
    once the switch has put a form back, another visit to it starts empty too."""
    page_url, edit_link = new_match(live_server)
    join(page, edit_link)
    open_hand_form(page, page_url)
    empty = page.evaluate(FORM_STATE)
    fill_hand(page, WORKED)
    hands_url = page_url.replace("/matches/", "/api/v1/matches/") + "/hands"
    api(hands_url, WORKED, edit_link.rsplit("/", 1)[1])  # saved on another phone

    switch_language(page, "ne")
    assert page.locator("h1").inner_text() == WORDS["ne"]["adding 2"]
    state = dict((row[0], row[1:]) for row in page.evaluate(FORM_STATE) if len(row) == 2)
    assert all(value == [""] for name, value in state.items() if name.endswith("-maal"))

    switch_language(page, "en")  # nothing typed: nothing kept, nothing put back
    assert page.locator("h1").inner_text() == WORDS["en"]["adding 2"]
    assert [row for row in page.evaluate(FORM_STATE) if row[0] != "dealer"] == [
        row for row in empty if row[0] != "dealer"
    ]


@pytest.mark.parametrize("lang", WORDS)
def test_offline_end_the_night_waits_for_the_hand_kept_on_the_phone(live_server, page, lang):
    """Offline, hand 2 of an open night is kept on the phone; back on the match page,
    "End the night" is put away and a line says hand 2 goes first (before, it offered to
    end the night "after hand 1": tapped once the connection came back, the night ended
    before hand 2, which was then refused). Back online, hand 2 is stored and the page
    offers to end the night after it."""
    words = WORDS[lang]
    page_url, edit_link = new_match(live_server)
    ask_in(page, live_server, lang)
    join(page, edit_link)
    hand_one_saved(page, page_url)
    match_page_with_its_form_kept(page, page_url)
    assert page.locator("form.end-night").is_visible()

    page.context.set_offline(True)
    page.locator("a[data-offline-entry]").click()
    assert page.locator("h1").inner_text() == words["adding 2"]
    fill_hand(page, BY_COUNTS)
    save_button(page).click()
    page.locator("#hand-queue .unsent").wait_for()
    page.locator(".breadcrumb a").click()
    page.locator("a[data-offline-entry]").wait_for()
    assert page.locator("form.end-night").is_hidden()
    assert page.locator("#end-waits").inner_text() == words["end waits 2"]
    assert small_tap_targets(page, "main") == []

    page.context.set_offline(False)
    page.wait_for_url(page_url)
    page.locator("form.end-night").wait_for()
    assert stored(page_url) == [1, 2]
    assert page.locator("form.end-night .hint").inner_text() == words["ends after 2"]
    assert page.locator("#end-waits").count() == 0


def kept_table_night(request, base: str) -> dict:
    """A table with a night of two hands, still open; the table (with its key) and the
    night's match id."""
    table = created(
        request,
        f"{base}/api/v1/tables",
        {"name": "Friday at Asha's", "players": PLAYERS, "rules": "sparkai", "stake": None},
    )
    key = table["edit_key"]
    match = created(
        request,
        f"{base}/api/v1/tables/{table['id']}/matches",
        {"name": "Friday", "players": PLAYERS, "length": None},
        key,
    )
    for winner in ("Asha", "Bikash"):
        created(request, f"{base}/api/v1/matches/{match['id']}/hands", won_by(winner, PLAYERS), key)
    return {**table, "match": match["id"]}


@pytest.mark.parametrize("lang", WORDS)
def test_the_night_over_leads_the_tables_keeper_to_the_next_night(
    live_server, browser, axe_source, lang
):
    """The table's keeper ends the night on the match page: it offers "Next night at
    <table>", which opens the table's form for a new match with last night's players
    ticked. A player following on the read-only link is offered nothing of the kind."""
    with fresh_page(browser) as phone, fresh_page(browser) as follower:
        night = kept_table_night(phone.request, live_server)
        match_url = f"{live_server}/matches/{night['match']}"
        table_url = f"{live_server}/tables/{night['id']}"
        ask_in(phone, live_server, lang)
        ask_in(follower, live_server, lang)
        phone.goto(f"{table_url}/join/{night['edit_key']}")
        phone.goto(match_url)
        follower.goto(match_url)
        phone.locator("form.end-night button").click()
        next_night = phone.get_by_role("link", name=WORDS[lang]["next night"])
        next_night.wait_for()
        assert small_tap_targets(phone, "main") == []
        assert no_sideways_scroll(phone)
        assert axe_problems(phone, axe_source) == []

        follower.reload()
        follower.locator(".match-status.is-finished").wait_for()
        assert follower.get_by_role("link", name=WORDS[lang]["next night"]).count() == 0

        next_night.click()
        phone.wait_for_url(f"{table_url}#new-match-title")
        ticked = phone.eval_on_selector_all(
            ".tonight-list input[name=players]:checked", "boxes => boxes.map(b => b.value)"
        )
        assert ticked == PLAYERS
        assert phone.locator("#new-match-title").is_visible()


def test_a_match_of_one_letter_is_a_fingers_target_to_go_back_to(live_server, page):
    """A match named "A": the link back to it above its hand form ("← A") is 44 px wide
    as every tap target is (it was 27 px: the width of its words)."""
    open_hand_form(page, api_match(page, live_server, name="A"))
    back = page.locator(".breadcrumb a").bounding_box()
    assert back["width"] >= TOUCH and back["height"] >= TOUCH
    assert small_tap_targets(page) == []


@pytest.mark.parametrize("lang", WORDS)
def test_a_table_of_one_letter_is_a_fingers_target_to_go_back_to(live_server, page, lang):
    """A table named "A": the link back to it ("← A") on its night's match page, a
    player's page and the own link's page is 44 × 44 px, as every tap target is (it sat
    in its line of text, 27 px wide and under 44 px high), and no page is wider than
    the phone."""
    ask_in(page, live_server, lang)
    table = created(page.request, f"{live_server}/api/v1/tables", {"name": "A", "players": PLAYERS})
    key = table["edit_key"]
    night = created(
        page.request,
        f"{live_server}/api/v1/tables/{table['id']}/matches",
        {"name": "Friday", "players": PLAYERS},
        key,
    )
    link = f"{live_server}/api/v1/tables/{table['id']}/players/Dipa/link"
    own = created(page.request, link, key=key)["url"].replace("http://localhost", live_server)
    page.goto(f"{live_server}/tables/{table['id']}/join/{key}")
    page.goto(own)
    for url in (
        f"{live_server}/matches/{night['id']}",
        f"{live_server}/tables/{table['id']}/players/Asha",
        own,
    ):
        page.goto(url)
        assert page.locator(".back a").first.inner_text() == "← A", url
        assert small_tap_targets(page, "main") == [], url
        assert no_sideways_scroll(page), url
    assert page.console_errors == []
