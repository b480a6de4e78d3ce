"""A night on a bad connection, in headless Chromium at a phone's size: hands entered
while the phone is offline are kept, each as its own hand, and stored once, in order,
when it is back; a follower's page says when its scores may be stale."""

import pytest
from browser_support import ask_in, choose, flash, fresh_page, open_hand_form
from match_pages_support import (
    BY_COUNTS,
    DUBLEE_FINISH,
    PLAYERS,
    VOID,
    WORKED,
    engine_nets,
    summed,
)
from test_browser_hand_once import (
    api,
    fill_hand,
    join,
    new_match,
    save_button,
    stored,
    type_hand,
    unsent,
)

from ledger.http.pace import POLL_SECONDS

pytestmark = pytest.mark.browser


def kept(page) -> list[tuple[int, str]]:
    """The kept hands' numbers and dealers, in the order they wait."""
    return [(item["number"], dict(item["fields"])["dealer"]) for item in unsent(page) or []]


#: The page's words this test reads, in each language.
WORDS = {
    "en": {
        "adding 2": "Adding hand 2",
        "adding 3": "Adding hand 3",
        "adding 4": "Adding hand 4",
        "save 3": "Save hand 3",
        "unsent 2": "Hand 2: not sent yet.",
        "unsent 3": "Hand 3: not sent yet.",
        "sent 2": "Hand 2 was sent and saved.",
        "sent 3": "Hand 3 was sent and saved.",
        "enter 3": "Enter hand 3",
    },
    "ne": {
        "adding 2": "बाजी २ हाल्दै",
        "adding 3": "बाजी ३ हाल्दै",
        "adding 4": "बाजी ४ हाल्दै",
        "save 3": "बाजी ३ सेभ गर्नुहोस्",
        "unsent 2": "बाजी २: अझै पठाइएको छैन।",
        "unsent 3": "बाजी ३: अझै पठाइएको छैन।",
        "sent 2": "बाजी २ पठाइयो र सेभ भयो।",
        "sent 3": "बाजी ३ पठाइयो र सेभ भयो।",
        "enter 3": "बाजी ३ हाल्नुहोस्",
    },
}


def says(page, where: str, *texts: str) -> None:
    """The element ``where`` (a CSS selector) says each of ``texts``, once it does: the
    queue of kept hands tries the hands before a hand just kept (or as the page opens)
    again at once ("sending…"), and says they are kept once that try fails (through the
    service worker, a moment later); each hand sent has its message as it is answered."""
    page.wait_for_function(
        "([where, texts]) => texts.every(t => "
        "(document.querySelector(where)?.innerText || '').includes(t))",
        arg=[where, list(texts)],
    )


def hands_2_and_3_sent(page, page_url: str, words: dict) -> dict:
    """Back online: the page says hands 2 and 3 were sent, and the match (its JSON,
    returned) holds hands 1 to 3, each dealt in turn (hand 3 a void)."""
    says(page, ".flashes", words["sent 2"], words["sent 3"])
    match = api(page_url.replace("/matches/", "/api/v1/matches/"))
    assert [(h["number"], h["dealer"], h["finish"]) for h in match["hands"]] == [
        (1, "Asha", "sequences"),
        (2, "Bikash", "sequences"),
        (3, "Chandra", "void"),
    ]
    return match


def hand_one_saved(page, page_url: str) -> None:
    """Hand 1 saved online from the form, and the form opened again for hand 2."""
    open_hand_form(page, page_url)
    type_hand(page, WORKED)
    save_button(page).click()
    page.wait_for_url(page_url)
    open_hand_form(page, page_url)


@pytest.mark.parametrize("lang", WORDS)
def test_hands_typed_one_after_the_other_offline_are_each_kept_and_stored_in_order(
    live_server, page, lang
):
    """The connection drops after hand 1: hands 2 and 3 are typed one after the other
    (the form takes the next hand once one is kept, the deal passed on), and both are
    stored, in order, with their own numbers, once the phone is back. Before, hand 3
    typed into the same form had hand 2's key and replaced it: hand 2 was lost, unsaid."""
    words = WORDS[lang]
    page_url, edit_link = new_match(live_server)
    ask_in(page, live_server, lang)
    join(page, edit_link)
    hand_one_saved(page, page_url)
    assert page.input_value("#dealer") == "Bikash"

    page.context.set_offline(True)
    fill_hand(page, BY_COUNTS)
    save_button(page).click()
    page.locator("#hand-queue .unsent").wait_for()
    assert page.locator("h1").inner_text() == words["adding 3"]
    assert save_button(page).inner_text() == words["save 3"]
    assert page.input_value("#dealer") == "Chandra"  # the deal passed on
    assert page.input_value("#players-1-maal") == ""  # a fresh form
    fill_hand(page, VOID)
    save_button(page).click()
    page.locator("#hand-queue .unsent").nth(1).wait_for()
    says(page, "#hand-queue", words["unsent 2"], words["unsent 3"])
    assert kept(page) == [(2, "Bikash"), (3, "Chandra")]
    assert page.locator("h1").inner_text() == words["adding 4"]
    assert stored(page_url) == [1]

    page.context.set_offline(False)
    page.wait_for_url(page_url)
    match = hands_2_and_3_sent(page, page_url, words)
    assert match["next_dealer"] == "Dipa"
    assert unsent(page) == []


def match_page_with_its_form_kept(page, page_url: str) -> None:
    """The editor's match page, once it has fetched the new-hand form its link opens."""
    with page.expect_response(lambda answer: answer.url.endswith("/hands/new")):
        page.goto(page_url)


@pytest.mark.parametrize("lang", WORDS)
def test_enter_hand_tapped_offline_on_the_match_page_opens_the_form_and_both_hands_are_stored(
    live_server, page, lang
):
    """The phone is offline on the match page after hand 1: "Enter hand 2" opens the
    form for hand 2 (before, the browser's own error page, and the night stopped). Hand
    2 is typed and saved, the form takes hand 3 (Chandra deals); "← match" puts the match
    page back, saying hand 2 is kept; "Enter hand" again opens hand 3, not 2, dealt by
    Chandra (the link says so: it said "Enter hand 2"). Hand 3 saved, back online: both
    stored once, in order."""
    words = WORDS[lang]
    page_url, edit_link = new_match(live_server)
    ask_in(page, live_server, lang)
    join(page, edit_link)
    hand_one_saved(page, page_url)
    match_page_with_its_form_kept(page, page_url)

    page.context.set_offline(True)
    page.locator("a[data-offline-entry]").click()
    assert page.locator("h1").inner_text() == words["adding 2"]
    assert page.input_value("#dealer") == "Bikash"
    fill_hand(page, BY_COUNTS)
    save_button(page).click()
    page.locator("#hand-queue .unsent").wait_for()
    assert page.locator("h1").inner_text() == words["adding 3"]
    assert page.input_value("#dealer") == "Chandra"

    page.locator(".breadcrumb a").click()
    page.locator("a[data-offline-entry]").wait_for()
    says(page, "#hand-queue", words["unsent 2"])
    # the link names the hand it opens (it said "Enter hand 2", hand 2 kept), and the
    # lines on who deals hand 2 and sits it out, typed already, are put away
    assert page.locator("a[data-offline-entry]").inner_text() == words["enter 3"]
    assert page.locator("[data-next-hand]").count() == 1  # Bikash deals; nobody sits out
    assert page.locator("[data-next-hand]").is_hidden()
    page.locator("a[data-offline-entry]").click()
    assert page.locator("h1").inner_text() == words["adding 3"]
    assert save_button(page).inner_text() == words["save 3"]
    assert page.input_value("#dealer") == "Chandra"
    assert page.input_value("#players-1-maal") == ""
    fill_hand(page, VOID)
    save_button(page).click()
    page.locator("#hand-queue .unsent").nth(1).wait_for()
    assert kept(page) == [(2, "Bikash"), (3, "Chandra")]
    assert len({item["key"] for item in unsent(page)}) == 2
    assert stored(page_url) == [1]

    page.context.set_offline(False)
    hands_2_and_3_sent(page, page_url, words)
    assert unsent(page) == []
    # Offline, the page's requests fail (the browser and htmx say so in the console);
    # nothing else goes wrong: no script error, nothing the CSP blocks in the form put
    # in the page's place.
    failed = "Failed to load resource: net::ERR_INTERNET_DISCONNECTED"
    said = [e for e in page.console_errors if e != failed and not e.startswith("htmx:")]
    assert said == []


def test_enter_hand_opens_the_kept_form_when_the_ledger_cannot_be_reached_online(live_server, page):
    """The phone is on a network that does not reach the ledger (the table's Wi-Fi gone,
    mobile data on: the browser says it is online). Once the match page's poll has found
    no connection, "Enter hand 2" opens the kept form too; the hand is kept, and sent
    by "Send now" once the ledger answers again."""
    page_url, edit_link = new_match(live_server)
    join(page, edit_link)
    hand_one_saved(page, page_url)
    match_page_with_its_form_kept(page, page_url)

    # The context's route: it stops the service worker's requests too (offline-worker.js
    # answers the page's requests; a page's route sees none of them).
    page.context.route("**/*", lambda route: route.abort())
    page.wait_for_function(
        "() => document.documentElement.dataset.connection === 'lost'",
        timeout=(2 * POLL_SECONDS + 2) * 1000,
    )
    page.locator("a[data-offline-entry]").click()
    assert page.locator("h1").inner_text() == "Adding hand 2"
    fill_hand(page, BY_COUNTS)
    save_button(page).click()
    page.locator("#hand-queue .unsent").wait_for()
    assert page.locator("h1").inner_text() == "Adding hand 3"
    assert kept(page) == [(2, "Bikash")]

    page.context.unroute("**/*")
    page.get_by_role("button", name="Send now").click()
    assert "Hand 2 was sent and saved." in flash(page)
    assert stored(page_url) == [1, 2]
    assert unsent(page) == []


#: The names "Who finished?" offers.
FINISHERS = "[...document.querySelectorAll('#winner option')].map(o => o.value && o.textContent)"


def test_the_next_hands_form_offline_sits_out_the_next_dealer_in_turn(live_server, page):
    """Seven at a table whose hands deal to five: the dealer and the next sit out in
    turn. A hand kept offline passes the deal on in the form, and who sits out with it:
    the next dealer out, the last one back in. "Who finished?" follows them (it offered
    the kept hand's players: Asha, back in, could not be chosen, Chandra, out, could); a
    row marked unseen in the kept hand loses its note on the unseen maal with its mark;
    and Bikash, out again, is drawn as Chandra is, his note on the first hand gone (his
    row stayed boxed in yellow, a warning with nothing said)."""
    players = ["Asha", "Bikash", "Chandra", "Dipa", "Ekta", "Fulmaya", "Gopal"]
    created = api(
        live_server + "/api/v1/matches",
        {"name": "Seven", "players": players, "rules": "amarnepal", "length": None},
    )
    page_url = f"{live_server}/matches/{created['id']}"
    join(page, f"{page_url}/join/{created['edit_key']}")
    open_hand_form(page, page_url)
    plays = "[...document.querySelectorAll('input[name$=-plays]')].map(b => b.checked)"
    assert page.evaluate(plays) == [False, False, True, True, True, True, True]
    assert page.evaluate(FINISHERS)[1:] == players[2:]
    choose(page, "players-3-seen", "unseen")
    assert page.locator("#player-3-unseen-maal").is_visible()

    page.context.set_offline(True)
    save_button(page).click()
    page.locator("#hand-queue .unsent").wait_for()
    assert page.input_value("#dealer") == "Bikash"
    assert page.evaluate(plays) == [True, False, False, True, True, True, True]
    assert page.evaluate(FINISHERS)[1:] == ["Asha", *players[3:]]
    assert page.locator("#player-3-unseen-maal").is_hidden()
    assert page.locator("#player-1-carried").is_hidden()
    border = "e => getComputedStyle(e).borderStyle"
    assert page.locator("#player-1").evaluate(border) == page.locator("#player-2").evaluate(border)


def test_a_kept_hand_behind_one_that_cannot_be_saved_waits_and_follows_it_when_dropped(
    live_server, page
):
    """Offline, hand 2 is saved as the form opened (nobody's maal typed: refused once the
    server sees it) and hand 3 typed after it. Back online, hand 2 cannot be saved and
    hand 3 waits for it, not sent with a number ahead of the match (before, it was sent,
    refused, and said to be "saved by someone else first"). Hand 2 dropped, hand 3 takes
    its number and is stored, once."""
    page_url, edit_link = new_match(live_server)
    join(page, edit_link)
    hand_one_saved(page, page_url)

    page.context.set_offline(True)
    save_button(page).click()  # nothing typed
    page.locator("#hand-queue .unsent").wait_for()
    fill_hand(page, BY_COUNTS)
    save_button(page).click()
    page.locator("#hand-queue .unsent").nth(1).wait_for()

    page.context.set_offline(False)
    page.locator("#hand-queue .refused").wait_for()
    queue = page.locator("#hand-queue")
    assert "Hand 2 could not be saved as it was typed." in queue.inner_text()
    assert "Hand 3: not sent yet. It waits for the hand before it" in queue.inner_text()
    assert sorted((item["number"], bool(item.get("refused"))) for item in unsent(page)) == [
        (2, True),
        (3, False),
    ]
    assert stored(page_url) == [1]

    queue.locator(".refused").get_by_role("button", name="Drop it").click()
    page.wait_for_url(page_url)
    assert "Hand 2 was sent and saved." in flash(page)
    match = api(page_url.replace("/matches/", "/api/v1/matches/"))
    assert [(h["number"], h["winner"]) for h in match["hands"]] == [(1, "Asha"), (2, "Bikash")]
    assert unsent(page) == []


#: What a follower's page says while its poll cannot reach the ledger, and once it can.
CONNECTION = {
    "en": (
        "No connection: the scores below may be out of date. "
        "They update by themselves once it is back.",
        "Connected again: the scores are up to date.",
    ),
    "ne": (
        "कनेक्सन छैन: तलका अङ्क पुराना हुन सक्छन्। कनेक्सन फर्केपछि ती आफैँ अद्यावधिक हुन्छन्।",
        "फेरि जोडियो: अङ्क अद्यावधिक छन्।",
    ),
}


@pytest.mark.parametrize("lang", CONNECTION)
def test_a_followers_page_says_when_its_scores_may_be_stale_and_catches_up(
    live_server, browser, lang
):
    """A player following on the read-only link loses the connection while hands are
    entered: the page says its scores may be out of date (before, it showed the old
    totals as if current), then that it is connected again, with the hands it missed.
    It offers no write all along."""
    created = api(
        live_server + "/api/v1/matches",
        {"name": "Followed", "players": PLAYERS, "rules": "sparkai"},
    )
    page_url = f"{live_server}/matches/{created['id']}"
    hands_url = page_url.replace("/matches/", "/api/v1/matches/") + "/hands"
    api(hands_url, WORKED, created["edit_key"])
    lost, back = CONNECTION[lang]
    with fresh_page(browser) as follower:
        ask_in(follower, live_server, lang)
        follower.goto(page_url)
        line = follower.locator("#connection")
        assert line.get_attribute("role") == "status" and line.inner_text() == ""
        assert follower.locator("form").count() == 0  # read-only: nothing to send

        follower.context.set_offline(True)
        wait = (2 * POLL_SECONDS + 2) * 1000
        follower.wait_for_function(
            "() => document.documentElement.dataset.connection === 'lost'", timeout=wait
        )
        assert line.inner_text() == lost
        api(hands_url, BY_COUNTS, created["edit_key"])  # entered meanwhile
        follower.context.set_offline(False)
        follower.wait_for_function(
            "() => document.documentElement.dataset.connection === 'back'", timeout=wait
        )
        assert line.inner_text() == back
        follower.locator(".scores-table th.hand-col").nth(1).wait_for(timeout=wait)
        assert follower.locator("form").count() == 0


def test_a_whole_night_on_a_bad_connection_stores_every_hand_once_in_order(live_server, browser):
    """Twelve hands, entered in Nepali on a phone whose connection drops twice (hands 4-6
    typed offline; hands 10-11 typed offline and the tab closed, the match opened again
    in a new tab once back), a double tap on hand 8, a follower watching in English on
    the read-only link: every hand stored once, in order, each dealt by the next seat,
    and the follower's totals the engine's."""
    night = [(WORKED, BY_COUNTS, VOID, DUBLEE_FINISH)[i % 4] for i in range(12)]
    page_url, edit_link = new_match(live_server)
    with fresh_page(browser) as follower, fresh_page(browser) as phone:
        follower.goto(page_url)
        ask_in(phone, live_server, "ne")
        join(phone, edit_link)
        for number, hand in enumerate(night, start=1):
            offline = number in (4, 5, 6, 10, 11)
            if not offline or number in (4, 10):
                open_hand_form(phone, page_url)
            phone.context.set_offline(offline)
            (fill_hand if offline else type_hand)(phone, hand)
            if number == 8:
                save_button(phone).dblclick()
            else:
                save_button(phone).click()
            if offline:
                phone.locator("#hand-queue .unsent").nth(
                    number - (4 if number < 10 else 10)
                ).wait_for()
            else:
                phone.wait_for_url(page_url)
            if number == 6:  # back: the kept hands go, in order
                phone.context.set_offline(False)
                phone.wait_for_url(page_url)
                said = flash(phone)
                assert all(f"बाजी {n} पठाइयो र सेभ भयो।" in said for n in "४५६")
            if number == 11:  # the tab closed, opened again once back
                phone.close()
                phone = phone.context.new_page()
                phone.context.set_offline(False)
                phone.goto(page_url)
                phone.wait_for_url(page_url)
                phone.locator(".flash").first.wait_for()
                assert unsent(phone) == []
        match = api(page_url.replace("/matches/", "/api/v1/matches/"))
        assert [h["number"] for h in match["hands"]] == list(range(1, 13))
        assert [h["dealer"] for h in match["hands"]] == PLAYERS * 3
        totals = summed(*(engine_nets(hand) for hand in night))
        assert {s["name"]: s["total"] for s in match["standings"]} == totals
        assert match["next_dealer"] == "Asha"
        follower.wait_for_function(
            "() => document.body.innerText.includes('12 hands played')", timeout=15_000
        )
        assert follower.locator("form").count() == 0


#: What the second phone reads: its kept hand refused, then the page that opens it.
TAKEN = {
    "en": (
        "Hand 2 was not saved: the match changed on another phone meanwhile "
        "(most often, that hand was saved there first). Open it to compare.",
        "Not saved. Hand 2 was saved by someone else first.",
    ),
    "ne": (
        "बाजी २ सेभ भएन: बीचमा अर्को फोनबाट म्याच बदलियो (प्रायः त्यो बाजी त्यहाँ पहिल्यै सेभ भएको"
        " हुन्छ)। तुलना गर्न खोल्नुहोस्।",
        "सेभ भएन। बाजी २ अरू कसैले पहिल्यै सेभ गरिसकेको थियो।",
    ),
}


@pytest.mark.parametrize("lang", TAKEN)
def test_two_phones_offline_with_the_same_hand_one_wins_the_other_is_told(
    live_server, browser, lang
):
    """Two phones with the edit key both type hand 2 while offline. The first back saves
    it; the second is told its hand 2 was not saved because the match changed on another
    phone (before: "could not be saved as it was typed", as if mistyped), and opening it
    shows the two side by side, with its own kept to save as hand 3 or drop."""
    page_url, edit_link = new_match(live_server)
    api(
        page_url.replace("/matches/", "/api/v1/matches/") + "/hands",
        WORKED,
        edit_link.rsplit("/", 1)[1],
    )
    with fresh_page(browser) as first, fresh_page(browser) as second:
        ask_in(second, live_server, lang)
        for phone, hand in ((first, VOID), (second, BY_COUNTS)):
            join(phone, edit_link)
            open_hand_form(phone, page_url)
            phone.context.set_offline(True)
            fill_hand(phone, hand)
            save_button(phone).click()
            phone.locator("#hand-queue .unsent").wait_for()
        first.context.set_offline(False)
        first.wait_for_url(page_url)
        second.context.set_offline(False)
        refused = second.locator("#hand-queue .refused")
        refused.wait_for()
        queue_words, page_words = TAKEN[lang]
        assert refused.inner_text().startswith(queue_words)
        refused.locator("button").first.click()  # Open it
        second.locator("#taken").wait_for()
        assert second.locator("#taken").inner_text().startswith(page_words)
        assert second.locator("table.side-by-side").count() == 1
    match = api(page_url.replace("/matches/", "/api/v1/matches/"))
    assert [(h["number"], h["finish"]) for h in match["hands"]] == [(1, "sequences"), (2, "void")]


#: What a write tapped with no connection says (the page stays as it is).
HELD = {
    "en": "Not sent: this phone cannot reach the ledger just now. The page stays as it is; "
    "tap again once the connection is back.",
    "ne": "पठाइएन: यो फोनले अहिले खातासम्म पुग्न सकेन। पेज जस्ताको तस्तै छ; कनेक्सन फर्केपछि फेरि थिच्नुहोस्।",
}


def hand_count(page) -> int:
    return page.locator(".scores-table th.hand-col").count()


@pytest.mark.parametrize("lang", HELD)
def test_a_change_or_an_undo_tapped_offline_stays_on_the_page_and_goes_once_back(
    live_server, browser, lang
):
    """The scorekeeper changes hand 1 and undoes hand 2 while the phone is offline: each
    page stays as it is, the change still typed, and says it was not sent (before, the
    browser's error page took the page's place, and Back lost the change). Tapped again
    once back, each goes; a follower sees both, and is offered neither."""
    page_url, edit_link = new_match(live_server)
    key = edit_link.rsplit("/", 1)[1]
    api(page_url.replace("/matches/", "/api/v1/matches/") + "/hands", WORKED, key)
    with fresh_page(browser) as follower, fresh_page(browser) as phone:
        follower.goto(page_url)
        ask_in(phone, live_server, lang)
        join(phone, edit_link)
        phone.goto(page_url + "/hands/1/edit")
        phone.wait_for_function("() => window.htmx !== undefined")
        phone.context.set_offline(True)
        phone.fill("#players-1-maal", "7")
        save_button(phone).click()
        line = phone.locator("#connection")
        line.filter(has_text=HELD[lang]).wait_for()
        assert phone.url == page_url + "/hands/1/edit"
        assert phone.input_value("#players-1-maal") == "7"

        phone.context.set_offline(False)
        with phone.expect_navigation():
            save_button(phone).click()
        changed = api(page_url.replace("/matches/", "/api/v1/matches/"))["hands"][0]
        assert [p.get("maal") for p in changed["hand"]["players"]][1] == 7

        open_hand_form(phone, page_url)
        type_hand(phone, BY_COUNTS)
        save_button(phone).click()
        phone.wait_for_url(page_url)
        follower.wait_for_function(
            "() => document.querySelectorAll('.scores-table th.hand-col').length === 2"
        )
        phone.context.set_offline(True)
        undo = phone.locator(".undo-offer button")
        undo.click()
        phone.locator("#connection").filter(has_text=HELD[lang]).wait_for()
        assert stored(page_url) == [1, 2]
        phone.context.set_offline(False)
        with phone.expect_navigation():
            undo.click()
        assert stored(page_url) == [1]
        follower.wait_for_function(
            "() => document.querySelectorAll('.scores-table th.hand-col').length === 1"
        )
        assert follower.locator("form").count() == 0


def test_a_second_tap_offline_keeps_one_hand(live_server, page):
    """Offline, the scorekeeper taps Save, then again a moment later (did it go?): one
    hand kept. Before, the second tap kept the next hand's empty form as hand 2, refused
    once back, and the hands typed after it waited for it."""
    page_url, edit_link = new_match(live_server)
    join(page, edit_link)
    open_hand_form(page, page_url)
    page.context.set_offline(True)
    fill_hand(page, WORKED)
    save_button(page).click()
    page.locator("#hand-queue .unsent").wait_for()
    save_button(page).click()
    page.wait_for_timeout(500)
    assert kept(page) == [(1, "Asha")]
    assert page.locator("h1").inner_text() == "Adding hand 2"
    fill_hand(page, BY_COUNTS)  # typed into: the next hand saves
    save_button(page).click()
    page.locator("#hand-queue .unsent").nth(1).wait_for()
    assert kept(page) == [(1, "Asha"), (2, "Bikash")]
