"""A hand is entered once and never lost, in headless Chromium at a phone's size (390×844):
two scorekeepers saving the same hand number, Back then Save, a double tap, a save while
offline then the connection back, an answer lost on the way then a reload, undo (a
follower sees the hand go), and playing on after the end. The count of stored hands is
read from the API each time: exactly one hand per hand typed."""

import json
import re
import urllib.request
from pathlib import Path

import pytest
from browser_support import (
    CHROMIUM,
    CHROMIUM_ARGS,
    PHONE,
    axe_problems,
    flash,
    fresh_page,
    open_hand_form,
    posts_only,
)
from match_pages_support import BY_COUNTS, PLAYERS, VOID, WORKED, engine_nets, hand_form

pytestmark = pytest.mark.browser

SHOTS = Path(__file__).resolve().parents[2] / "test-output" / "screenshots"


def api(url: str, body: dict | None = None, key: str | None = None) -> dict:
    """The JSON API's answer to ``body`` posted (or a GET without one), with the edit
    rights of ``key`` if given."""
    auth = {"Authorization": f"Bearer {key}"} if key else {}
    request = urllib.request.Request(
        url,
        data=json.dumps(body).encode() if body is not None else None,
        headers={"Content-Type": "application/json", **auth},
    )
    with urllib.request.urlopen(request) as answer:
        return json.loads(answer.read())


def new_match(live_server: str, length: dict | None = None) -> tuple[str, str]:
    """A 4-player match made through the API; its page url and its edit link."""
    created = api(
        live_server + "/api/v1/matches",
        {"name": "Once", "players": PLAYERS, "rules": "sparkai", "length": length},
    )
    page_url = f"{live_server}/matches/{created['id']}"
    return page_url, f"{page_url}/join/{created['edit_key']}"


def stored(page_url: str) -> list[int]:
    """The numbers of the match's stored hands, from the API."""
    match = api(page_url.replace("/matches/", "/api/v1/matches/"))
    return [h["number"] for h in match["hands"]]


def join(page, edit_link: str) -> None:
    page.goto(edit_link)
    page.wait_for_url(re.compile(r"/matches/[A-Za-z0-9_-]+$"))


def type_hand(page, hand: dict) -> None:
    """Put ``hand`` into the form (``fill_hand``) and wait until the live preview shows
    the engine's nets."""
    fill_hand(page, hand)
    expected = ",".join(str(v) for v in engine_nets(hand).values())
    page.wait_for_function(
        """expected => [...document.querySelectorAll("#hand-preview .nets td.net")]
            .map(e => e.dataset.net).join() === expected""",
        arg=expected,
        timeout=10_000,
    )


def fill_hand(page, hand: dict) -> None:
    """Put ``hand`` into the form by the fields' names (as the form posts it, whatever the
    layout), with no preview to wait for (there is none offline)."""
    fields = {**hand_form(hand), "players-0-plays": "y"}
    page.evaluate(
        """fields => {
            const form = document.querySelector("form.hand-form");
            for (const [name, value] of Object.entries(fields)) {
                const found = form.elements.namedItem(name);
                for (const el of found instanceof RadioNodeList ? found : [found]) {
                    if (!el) continue;
                    const box = el.type === "radio" || el.type === "checkbox";
                    if (box) el.checked = el.value === value;
                    else el.value = value;
                    el.dispatchEvent(new Event("change", {bubbles: true}));
                }
            }
        }""",
        fields,
    )


def typed_in_a_new_match(live_server: str, page) -> str:
    """A new match joined with its edit link, the worked example typed into its hand
    form (not saved yet); the match's page url."""
    page_url, edit_link = new_match(live_server)
    join(page, edit_link)
    open_hand_form(page, page_url)
    type_hand(page, WORKED)
    return page_url


def unsent(page) -> list:
    """The hands the page's script keeps, not sent yet."""
    return page.evaluate("() => JSON.parse(localStorage.getItem('ledger.unsent-hands'))")


def send_now_stores_it_once(page, page_url: str) -> None:
    """With the server reachable again, "Send now" stores the kept hand, once."""
    page.unroute("**/hands/new")
    page.get_by_role("button", name="Send now").click()
    page.wait_for_url(page_url)
    assert stored(page_url) == [1]
    assert unsent(page) == []


def settled(page) -> None:
    """Wait for the page's fonts, so that leaving it cuts no download short (the test
    server would leave the file open: a ResourceWarning)."""
    page.evaluate("() => document.fonts.ready.then(() => true)")


def save_button(page):
    """The hand form's save button (whatever its words, in any language)."""
    return page.locator(".hand-form .form-actions button[type=submit]")


def shot(page, name: str) -> None:
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SHOTS / f"once-{name}.png"), full_page=True, caret="initial")


def test_two_scorekeepers_saving_the_same_hand_number(live_server, page, browser):
    page_url, edit_link = new_match(live_server)
    join(page, edit_link)
    with fresh_page(browser) as friend:
        join(friend, edit_link)
        open_hand_form(page, page_url)
        open_hand_form(friend, page_url)
        assert page.locator("h1").inner_text() == friend.locator("h1").inner_text()
        assert page.locator("h1").inner_text() == "Adding hand 1"

        type_hand(friend, BY_COUNTS)
        save_button(friend).click()
        assert "Hand 1 saved." in flash(friend)

        type_hand(page, WORKED)
        save_button(page).click()
        page.locator("#taken").wait_for()
        assert "Hand 1 was saved by someone else first." in page.locator("#taken").inner_text()
        table = page.locator("table.side-by-side")
        assert "Hand 1 as saved, and yours" in table.inner_text()
        assert page.locator("h1").inner_text() == "Adding hand 2"
        assert page.input_value("#players-0-maal") == "10"  # what I typed is kept
        shot(page, "409-hand-already-there")
        assert stored(page_url) == [1]

        assert page.get_by_role("button", name="Save mine as hand 2").count() == 2
        assert save_button(page).inner_text() == "Save mine as hand 2"
        page.locator("#taken button").click()  # the notice's: mine is another hand
        assert "Hand 2 saved." in flash(page)
        assert stored(page_url) == [1, 2]
        assert [e for e in page.console_errors if "409" not in e] == []


def test_back_then_save_does_not_make_a_second_hand(live_server, page, browser):
    page_url, edit_link = new_match(live_server)
    join(page, edit_link)
    open_hand_form(page, page_url)
    type_hand(page, WORKED)
    save_button(page).click()
    assert "Hand 1 saved." in flash(page)
    # Without a back/forward cache (as Playwright runs Chromium) Back loads the form
    # again: a new one, for the next hand, that says so.
    page.go_back()
    page.wait_for_url("**/hands/new")
    assert page.locator("h1").inner_text() == "Adding hand 2"
    assert page.locator("#hand-queue").is_hidden()

    # A phone's browser keeps the page as it was: the filled form, its key.
    phone = browser.browser_type.launch(
        executable_path=CHROMIUM,
        args=CHROMIUM_ARGS,
        ignore_default_args=["--disable-back-forward-cache"],
    )
    try:
        tab = phone.new_page(viewport=PHONE)
        join(tab, edit_link)
        open_hand_form(tab, page_url)
        type_hand(tab, VOID)
        save_button(tab).click()
        assert "Hand 2 saved." in flash(tab)
        tab.go_back(wait_until="commit")  # from the cache: no new "load"
        tab.wait_for_url("**/hands/new", wait_until="commit")
        assert tab.locator("h1").inner_text() == "Adding hand 2"  # as it was
        assert tab.input_value("#players-0-maal") == "4"
        note = "This form was saved as hand 2; saving it again stores nothing."
        assert note in tab.locator("#hand-queue").inner_text()
        shot(tab, "back-to-a-saved-form")
        save_button(tab).click()
        tab.wait_for_url(page_url)
        assert "Hand 2 had already been saved from this form; it is stored once." in flash(tab)
    finally:
        phone.close()
    assert stored(page_url) == [1, 2]
    assert page.console_errors == []


def test_a_double_tap_stores_one_hand(live_server, page):
    page_url = typed_in_a_new_match(live_server, page)
    save_button(page).dblclick()
    assert "Hand 1 saved." in flash(page)
    assert stored(page_url) == [1]
    # Two submissions at the same instant without the script's guard: still one hand.
    open_hand_form(page, page_url)
    type_hand(page, VOID)
    page.evaluate(
        """() => {
            const form = document.querySelector("form.hand-form");
            form.removeAttribute("data-sending");
            const body = new URLSearchParams(new FormData(form));
            return Promise.all([1, 2].map(() =>
                fetch(form.action, {method: "POST", body: new URLSearchParams(body),
                                    redirect: "manual"})));
        }"""
    )
    assert stored(page_url) == [1, 2]
    assert page.console_errors == []


def test_a_save_waits_for_the_preview_on_its_way(live_server, page):
    """A preview answered after the save would bring back the session cookie as it was
    before the save, and take away the save's message and its undo: the save waits."""
    page_url = typed_in_a_new_match(live_server, page)
    held = []
    page.route("**/hands/preview", lambda route: held.append(route))  # answered later
    page.evaluate(
        """() => document.querySelector("form.hand-form select[name=dealer]")
            .dispatchEvent(new Event("change", {bubbles: true}))"""
    )
    while not held:
        page.wait_for_timeout(50)
    save_button(page).click()
    page.wait_for_timeout(1000)
    assert stored(page_url) == []  # not sent while the preview is on its way
    held[0].continue_()
    page.wait_for_url(page_url)
    assert "Hand 1 saved." in flash(page)
    assert page.get_by_role("button", name="Undo hand 1").is_visible()
    assert stored(page_url) == [1]


def test_a_hand_saved_offline_is_kept_and_sent_once_when_the_connection_is_back(live_server, page):
    page_url = typed_in_a_new_match(live_server, page)
    page.context.set_offline(True)
    save_button(page).click()
    queue = page.locator("#hand-queue")
    queue.locator(".unsent").wait_for()
    assert "Hand 1: not sent yet." in queue.inner_text()
    assert page.url.endswith("/hands/new")  # no browser error page: the form is still here
    kept = unsent(page)
    assert [item["number"] for item in kept] == [1]
    assert ["players-0-maal", "10"] in kept[0]["fields"]  # as typed
    # ... and the form takes the next hand (tests/web/test_browser_offline_night.py)
    assert page.locator("h1").inner_text() == "Adding hand 2"
    shot(page, "offline-not-sent-yet")
    assert stored(page_url) == []

    page.context.set_offline(False)  # the browser's "online": the script sends it
    page.wait_for_url(page_url)
    assert "Hand 1 was sent and saved." in flash(page)
    assert stored(page_url) == [1]
    assert unsent(page) == []
    # The hand sent from the queue can be undone as any other.
    assert page.get_by_role("button", name="Undo hand 1").is_visible()


def test_a_kept_hand_survives_a_reload_and_is_sent_once(live_server, page):
    """The server cannot be reached (the phone thinks it is online): the hand is kept,
    still there after a reload, and "Send now" sends it once the server answers."""
    page_url = typed_in_a_new_match(live_server, page)
    page.route("**/hands/new", posts_only(lambda route: route.abort("connectionrefused")))
    save_button(page).click()
    page.locator("#hand-queue .unsent").wait_for()
    settled(page)
    page.reload()
    page.locator("#hand-queue .unsent").wait_for()  # kept, and tried again: still unsent
    assert "Hand 1: not sent yet." in page.locator("#hand-queue").inner_text()
    assert page.locator("h1").inner_text() == "Adding hand 1"
    assert stored(page_url) == []

    send_now_stores_it_once(page, page_url)


def test_a_503_keeps_the_hand_to_send_again(live_server, page):
    """The server answers that it cannot save just now (its database away, its disk
    full: a 503 with Retry-After): the hand is kept, as when there is no answer, and
    sent once the server takes it."""
    page_url = typed_in_a_new_match(live_server, page)

    def unavailable(route):
        route.fulfill(
            status=503,
            headers={"Retry-After": "5", "Content-Type": "text/html; charset=utf-8"},
            body="<h1>Busy just now</h1>",
        )

    page.route("**/hands/new", posts_only(unavailable))
    save_button(page).click()
    page.locator("#hand-queue .unsent").wait_for()
    assert "Hand 1: not sent yet." in page.locator("#hand-queue").inner_text()
    assert ["players-0-maal", "10"] in unsent(page)[0]["fields"]
    assert stored(page_url) == []

    send_now_stores_it_once(page, page_url)


def test_an_answer_lost_on_the_way_then_a_reload_stores_the_hand_once(live_server, page):
    """The server stored the hand but the phone never heard: the hand stays kept as not
    sent; after a reload the script sends it again and the server answers with the hand
    it stored (the same key), not a second one."""
    page_url = typed_in_a_new_match(live_server, page)

    def lose_the_answer(route):
        route.fetch(max_redirects=0)  # it reaches the server ...
        route.abort("connectionreset")  # ... and the answer is lost
        # (Playwright puts that answer's session cookie in the context all the same, so
        # the page's messages are not checked here: the server's replay is, in
        # tests/web/test_hand_once_pages.py.)

    page.route("**/hands/new", lose_the_answer)
    save_button(page).click()
    page.locator("#hand-queue .unsent").wait_for()
    assert "Hand 1: not sent yet." in page.locator("#hand-queue").inner_text()
    assert stored(page_url) == [1]

    # The page opened again (a reload, in a tab without the test's interception).
    again = page.context.new_page()
    settled(page)
    page.close()
    again.goto(page_url + "/hands/new")
    again.wait_for_url(page_url)  # sent, and answered with the hand it had stored
    again.locator(".scores-table th.hand-col").first.wait_for()
    assert stored(page_url) == [1]
    assert unsent(again) == []


def test_undo_takes_the_hand_back_and_a_follower_sees_it_go(live_server, page, browser):
    page_url, edit_link = new_match(live_server)
    join(page, edit_link)
    with fresh_page(browser) as follower:
        open_hand_form(page, page_url)
        type_hand(page, WORKED)
        save_button(page).click()
        assert "Hand 1 saved." in flash(page)
        follower.goto(page_url)
        follower.locator(".scores-table th.hand-col").first.wait_for()

        undo = page.get_by_role("button", name="Undo hand 1")
        shot(page, "undo-offer")
        box = undo.bounding_box()
        assert box is not None and box["height"] >= 44
        undo.click()
        assert "Hand 1 undone." in flash(page)
        assert stored(page_url) == []
        follower.wait_for_function(
            "() => document.querySelectorAll('.scores-table th.hand-col').length === 0",
            timeout=10_000,
        )
        page.goto(page_url + "/hands/1")  # its record is kept
        assert "This hand was deleted" in page.locator("main").inner_text()
        assert "deleted" in page.locator(".history-item").inner_text()
    assert page.console_errors == []


def test_play_on_after_the_end(live_server, page):
    page_url, edit_link = new_match(live_server, length={"hands": 1})
    join(page, edit_link)
    open_hand_form(page, page_url)
    type_hand(page, WORKED)
    save_button(page).click()
    flash(page)
    status = page.locator(".match-status")
    assert status.locator(".final").inner_text().startswith("The match is over.")
    assert page.get_by_role("link", name=re.compile("Enter")).count() == 0
    assert page.get_by_role("link", name="Match summary (PDF)").count() == 2  # lead and header
    shot(page, "finished-match")

    page.get_by_role("link", name="Play on…").click()
    page.wait_for_url("**/length")
    assert page.locator("h1").inner_text() == "Play on"
    page.fill("#count", "2")
    page.get_by_role("button", name="Set the length").click()
    page.wait_for_url(page_url)
    assert "The match goes on." in flash(page)
    page.get_by_role("link", name="Enter hand 2").click()
    page.wait_for_url("**/hands/new")
    page.wait_for_function("() => window.htmx !== undefined")
    type_hand(page, VOID)
    save_button(page).click()
    flash(page)
    assert stored(page_url) == [1, 2]
    assert page.locator(".match-status .final").count() == 1
    assert page.console_errors == []


@pytest.mark.parametrize("lang", ["en", "ne"])
def test_no_serious_accessibility_problem_in_these_states(live_server, browser, axe_source, lang):
    """axe-core (as tests/web/test_browser_a11y.py runs it) on the states of this file:
    the hand already there, a hand not sent yet, the finished match, play on."""
    from test_browser_a11y import FOUND_BEFORE

    found: dict[str, list[str]] = {}

    def audit(state: str) -> None:
        found[state] = axe_problems(page, axe_source, FOUND_BEFORE)

    with fresh_page(browser) as page:
        page.goto(f"{live_server}/lang/{lang}?next=/")
        page_url, edit_link = new_match(live_server, length={"hands": 2})
        join(page, edit_link)
        open_hand_form(page, page_url)
        api_hand = {**BY_COUNTS, "number": 1}
        page.request.post(
            page_url.replace("/matches/", "/api/v1/matches/") + "/hands",
            data=api_hand,
            headers={"Authorization": "Bearer " + edit_link.rsplit("/", 1)[1]},
        )
        type_hand(page, WORKED)
        save_button(page).click()
        page.locator("#taken").wait_for()
        audit("the hand already there, beside mine")
        open_hand_form(page, page_url)
        type_hand(page, VOID)
        page.context.set_offline(True)
        save_button(page).click()
        page.locator("#hand-queue .unsent").wait_for()
        audit("a hand not sent yet")
        page.context.set_offline(False)
        page.wait_for_url(page_url)
        page.locator(".match-end-actions").wait_for()
        audit("the finished match, a hand just saved")
        page.goto(page_url + "/length")
        audit("play on")
    assert found == dict.fromkeys(found, [])
