"""The match on a big screen (issue 27) in headless Chromium, at 1920 × 1080 (a TV) and
1280 × 720 (a laptop): read from three metres (each standings line 5 % of the height
or more, no text under 2.5 %, measured on the laid-out page), all of it on the screen
with no scrollbar and nothing covering anything else, from four players to the twelve
a match seats at a stake (the smallest payments and tonight's awards giving way, and
saying so, when they do not all fit), following a hand entered through the API within
one poll, saying when the connection drops and comes back, no serious axe-core finding,
in both languages and both schemes. Opened with no edit rights, as a follower's link
opens it."""

from __future__ import annotations

import pytest
from browser_support import (
    axe_problems,
    created,
)
from match_pages_support import BY_COUNTS, DUBLEE_FINISH, THREE_PLAY, WORKED
from screen_support import (
    CROWD_IDS,
    CROWDS,
    FITTED,
    SIZES,
    TEXTS,
    check_all_on_the_screen,
    check_payments,
    check_tonight,
    dealt_hand,
    in_digits,
    load_screen,
    next_part,
    screen_page,
)

from ledger.http.pace import POLL_SECONDS

pytestmark = pytest.mark.browser

STAKE = {"per_point": "0.50", "currency": "NPR"}
FOUR = ["Asha", "Bikash", "Chandra", "Dipa"]
#: Ten players, with names as long as a name may be read on a line.
TEN = [*FOUR, "Ekta Shrestha", "Gopal", "Hari Maharjan", "Indira", "Janak", "Kamala Thapa Magar"]
#: The most a match seats (four packs: eight in a hand, the others sitting out in turn).
TWELVE = [*TEN, "Laxmi", "Mohan Bahadur"]
FOUR_PACKS = {"profile": "sparkai", "packs": 4}
HANDS = [WORKED, BY_COUNTS, DUBLEE_FINISH, THREE_PLAY]

#: Each area of the screen's grid: its box, and whether its content overflows it.
AREAS = """() => [...document.querySelectorAll(
    '.screen-head, .screen-board, .screen-chart, .screen-settle, .screen-follow, .screen-foot')]
  .map(e => { const r = e.getBoundingClientRect();
    return {name: e.className, top: r.top, bottom: r.bottom, left: r.left, right: r.right,
            over: e.scrollHeight > e.clientHeight + 1 || e.scrollWidth > e.clientWidth + 1}; })"""


def made(page, base: str, players=FOUR, hands=HANDS, stake=STAKE) -> tuple[str, str]:
    """A match made and played through the JSON API, as a scorekeeper's phone does:
    its id and edit key (this browser is not given it)."""
    body = created(
        page.request,
        f"{base}/api/v1/matches",
        {
            "name": "Tihar at Asha's",
            "players": players,
            "rules": "sparkai",
            "length": {"hands": 12},
            "stake": stake,
        },
    )
    for hand in hands:
        post_hand(page, base, body["id"], body["edit_key"], hand)
    return body["id"], body["edit_key"]


def post_hand(page, base: str, match_id: str, key: str, hand: dict) -> None:
    created(page.request, f"{base}/api/v1/matches/{match_id}/hands", hand, key)


def open_screen(page, base: str, match_id: str) -> None:
    load_screen(page, f"{base}/matches/{match_id}/screen")


def totals(page) -> dict[str, int]:
    return page.eval_on_selector_all(
        ".standing-line",
        """rows => Object.fromEntries(rows.map(r => [r.querySelector('.name').textContent,
                                               +r.querySelector('.total').dataset.total]))""",
    )


@pytest.mark.parametrize("stake", [STAKE, None], ids=["at a stake", "for points"])
@pytest.mark.parametrize("players", [FOUR, TEN], ids=["4 players", "10 players"])
@pytest.mark.parametrize("lang", ["en", "ne"])
@pytest.mark.parametrize("size", SIZES)
def test_readable_from_across_the_room(live_server, browser, size, lang, players, stake):
    with screen_page(browser, live_server, size, lang) as page:
        hands = HANDS if players is FOUR else [WORKED, BY_COUNTS]
        match_id, _ = made(page, live_server, players=players, hands=hands, stake=stake)
        open_screen(page, live_server, match_id)
        assert page.locator(".screen-settle").count() == (1 if stake else 0)
        height = page.evaluate("() => window.innerHeight")
        lines = page.eval_on_selector_all(
            ".standing-line", "rows => rows.map(r => r.getBoundingClientRect().height)"
        )
        assert len(lines) == len(players)
        assert min(lines) >= 0.05 * height, (min(lines) / height, lines)
        texts = page.evaluate(TEXTS)
        assert len(texts) > 40
        smallest = min(texts, key=lambda t: t["size"])
        assert smallest["size"] >= 0.025 * height, (smallest, smallest["size"] / height)
        # Everything on the screen, nothing scrolled to, nothing spilling over another part.
        check_all_on_the_screen(page, AREAS, texts)
        if lang == "ne":  # no tofu: the vendored Devanagari faces set the text
            assert page.evaluate(
                """() => document.fonts.check('700 16px "Noto Sans Devanagari"', 'बाजी')
                      && document.fonts.check('16px "Noto Sans Devanagari"', 'अघिल्लो')"""
            )
            assert "पछिल्लो बाजी" in page.inner_text("body")
        assert page.console_errors == []


def played_through_the_api(page, base: str, players: list[str], hands: int, length: int):
    """A match of ``players`` at a stake on four packs, ``hands`` hands in (everyone
    dealt a hand in turn, so that most pay someone), through the API: its id and what
    adds its next hand."""
    body = created(
        page.request,
        f"{base}/api/v1/matches",
        {
            "name": "Tihar at Asha's",
            "players": players,
            "rules": FOUR_PACKS,
            "length": {"hands": length},
            "stake": STAKE,
        },
    )
    match_id, key = body["id"], body["edit_key"]
    played = [body]

    def hand() -> None:
        url = f"{base}/api/v1/matches/{match_id}/hands"
        played.append(created(page.request, url, dealt_hand(played[-1], len(played)), key)["match"])

    for _ in range(hands):
        hand()
    return match_id, hand


@pytest.mark.parametrize("count, size, lang", CROWDS, ids=CROWD_IDS)
def test_every_player_and_the_payments_fit_at_a_stake(live_server, browser, count, size, lang):
    """Everyone's line, the news, the chart and the QR code on the screen, and the
    payments that fit under them (the smallest giving way, a line saying how many);
    again once a new hand has come in by the poll."""
    with screen_page(browser, live_server, size, lang) as page:
        players = TWELVE[:count]
        match_id, next_hand = played_through_the_api(page, live_server, players, 6, 12)
        open_screen(page, live_server, match_id)
        check_tonight(page, live_server, lang, AREAS, players, match_id)
        next_part(page, next_hand)
        assert in_digits(7, lang) in page.inner_text(".last-hand")  # the new hand's
        check_tonight(page, live_server, lang, AREAS, players, match_id)
        assert page.console_errors == []


#: What a stand-in font's widths would leave: every payment shown again, unfitted.
UNFITTED = """() => {
  const area = document.querySelector('.screen-settle');
  area.querySelectorAll('[data-give-way]').forEach(line => { line.hidden = false; });
  area.querySelector('.fit-more').hidden = true;
  return area.scrollHeight > area.clientHeight + 1; }"""
#: A font face the page did not have, fetched and loaded as a late one would be.
LATE_FONT = """async url => {
  const face = new FontFace('Late', `url(${url})`);
  document.fonts.add(face);
  await face.load(); }"""


def test_the_payments_are_fitted_again_when_a_font_comes_late(live_server, browser):
    """A font fetched after the page was fitted (on a TV's slow line, the Devanagari can
    come after fonts.ready has answered) has the parts that give way fitted again."""
    with screen_page(browser, live_server, "720p", "en") as page:
        match_id, _ = played_through_the_api(page, live_server, TWELVE, 6, 12)
        open_screen(page, live_server, match_id)
        assert page.locator(".screen-settle [data-give-way][hidden]").count() > 0
        assert page.evaluate(UNFITTED)  # overflowing, as the stand-in font's widths left it
        page.evaluate(LATE_FONT, f"{live_server}/static/fonts/web/NotoSansMath-Regular.woff2")
        page.wait_for_function(FITTED, timeout=5000)
        settle_up = page.request.get(f"{live_server}/api/v1/matches/{match_id}/settle-up")
        check_payments(page, "en", settle_up.json()["transfers"])
        assert page.console_errors == []


#: The chart's drawing on the screen: its height, and its text's least size, in px.
CHART = """() => {
  const svg = document.querySelector('.screen-chart-svg'), m = svg.getScreenCTM();
  const sizes = [...svg.querySelectorAll('text')]
    .map(t => parseFloat(getComputedStyle(t).fontSize));
  return {height: svg.viewBox.baseVal.height * m.d, text: Math.min(...sizes) * m.a}; }"""


@pytest.mark.parametrize("count", [4, 5])
@pytest.mark.parametrize("lang", ["en", "ne"])
@pytest.mark.parametrize("size", SIZES)
def test_few_players_at_a_stake_leave_the_chart_the_room(live_server, browser, size, lang, count):
    """Four or five at a stake: their payments are few, so the chart takes the right
    half's width over them, drawn 40 % of the height or more (39 % while it shared
    the width with the QR code), its text 2.5 % or more; everything else as always."""
    with screen_page(browser, live_server, size, lang) as page:
        players = TWELVE[:count]
        match_id, _ = played_through_the_api(page, live_server, players, 6, 12)
        open_screen(page, live_server, match_id)
        check_tonight(page, live_server, lang, AREAS, players, match_id)
        height = page.evaluate("() => window.innerHeight")
        chart = page.evaluate(CHART)
        assert chart["text"] >= 0.025 * height, chart["text"] / height
        assert chart["height"] >= 0.40 * height, chart["height"] / height
        assert page.console_errors == []


#: What the screen says when tonight's awards give way.
NO_AWARDS = {
    "en": "Tonight's awards are on the match page.",
    "ne": "आजको रातका पुरस्कार म्याचको पेजमा छन्।",
}


@pytest.mark.parametrize(
    "count, size, lang",
    [(4, "1080p", "en"), (8, "720p", "ne"), (12, "1080p", "ne"), (12, "720p", "en")],
    ids=["4 players-1080p-en", "8 players-720p-ne", "12 players-1080p-ne", "12 players-720p-en"],
)
def test_the_final_standings_with_the_awards_that_fit(live_server, browser, count, size, lang):
    """The match over: everyone's line, who won and the payments on the screen, and
    tonight's awards when they fit (else a line saying where they are)."""
    with screen_page(browser, live_server, size, lang) as page:
        players = TWELVE[:count]
        match_id, _ = played_through_the_api(page, live_server, players, 6, 6)
        open_screen(page, live_server, match_id)
        assert page.locator(".next-deal.final").is_visible()
        check_tonight(page, live_server, lang, AREAS, players, match_id)
        if page.locator(".screen .awards").is_hidden():
            assert count > 4  # four lines leave room for them
            assert page.inner_text(".screen-board .fit-more") == NO_AWARDS[lang]
        else:
            assert count < 12  # twelve lines and the news leave none
            assert page.locator(".screen-board .fit-more").is_hidden()
        assert page.console_errors == []


def test_follows_a_new_hand_within_one_poll(live_server, browser):
    with screen_page(browser, live_server, "1080p") as page:
        match_id, key = made(page, live_server, hands=[WORKED])
        open_screen(page, live_server, match_id)
        before = totals(page)
        assert page.locator(".last-hand").inner_text() == "Hand 1: Asha finished by sequences."
        # Counted in polls, not seconds: the first poll sent after the hand shows it.
        polls_after: list[str] = []
        page.on("request", lambda r: "/screen/live" in r.url and polls_after.append(r.url))
        post_hand(page, live_server, match_id, key, BY_COUNTS)
        polls_after.clear()
        page.wait_for_function(
            "() => document.querySelector('.last-hand').textContent.includes('Hand 2')",
            timeout=(4 * POLL_SECONDS + 10) * 1000,
        )
        assert len(polls_after) <= 1, polls_after  # 0: one sent while it was posted
        after = totals(page)
        assert after != before and sum(after.values()) == 0
        assert "Bikash" in page.locator(".last-hand").inner_text()
        assert page.locator(".next-deal").inner_text() == "Hand 3 is dealt by Chandra."
        assert page.locator("#connection").inner_text() == ""  # nothing to say
        assert page.console_errors == []


def test_says_when_the_connection_drops_and_comes_back(live_server, browser):
    with screen_page(browser, live_server, "720p") as page:
        match_id, key = made(page, live_server, hands=[WORKED])
        open_screen(page, live_server, match_id)
        # The screen is kept awake where the browser allows it (feature-detected).
        page.wait_for_function("() => document.documentElement.dataset.wakeLock")
        has_api = page.evaluate("() => 'wakeLock' in navigator")
        state = page.evaluate("() => document.documentElement.dataset.wakeLock")
        assert state in (("held", "refused") if has_api else ("unavailable",))
        status = page.locator("#connection")
        assert status.get_attribute("role") == "status" and status.inner_text() == ""
        assert page.console_errors == []
        page.context.set_offline(True)
        wait = (2 * POLL_SECONDS + 2) * 1000
        page.wait_for_function(
            "() => document.documentElement.dataset.connection === 'lost'", timeout=wait
        )
        assert status.inner_text() == "Connection lost: trying again…"
        post_hand(page, live_server, match_id, key, BY_COUNTS)  # entered meanwhile
        page.context.set_offline(False)
        page.wait_for_function(
            "() => document.documentElement.dataset.connection === 'back'", timeout=wait
        )
        assert status.inner_text() == "Connected again: the scores are up to date."
        page.wait_for_function(  # and what was missed arrives
            "() => document.querySelector('.last-hand').textContent.includes('Hand 2')",
            timeout=wait,
        )
        # While offline, the browser and htmx log each failed poll; none once back.
        page.console_errors.clear()
        page.wait_for_timeout(POLL_SECONDS * 1000 + 500)
        assert page.console_errors == []
        page.wait_for_function(  # and the line goes quiet again
            "() => document.querySelector('#connection').textContent === ''", timeout=8000
        )


@pytest.mark.parametrize("scheme", ["light", "dark"])
@pytest.mark.parametrize("lang", ["en", "ne"])
@pytest.mark.parametrize("size", SIZES)
def test_no_serious_accessibility_problem(live_server, browser, axe_source, size, lang, scheme):
    with screen_page(browser, live_server, size, lang, color_scheme=scheme) as page:
        match_id, _ = made(page, live_server)
        open_screen(page, live_server, match_id)
        assert axe_problems(page, axe_source, ["color-contrast"]) == []
        assert page.console_errors == []


def background(page) -> float:
    """The relative luminance of the page's background (0 black, 1 white)."""
    return page.evaluate(
        """() => {
          const [r, g, b] = getComputedStyle(document.body).backgroundColor
            .match(/[\\d.]+/g).slice(0, 3).map(v => {
              v = v / 255; return v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4; });
          return 0.2126 * r + 0.7152 * g + 0.0722 * b;
        }"""
    )


def test_the_devices_scheme_or_the_one_chosen(live_server, browser, axe_source):
    with screen_page(browser, live_server, "1080p", color_scheme="dark") as page:
        match_id, _ = made(page, live_server)
        open_screen(page, live_server, match_id)
        assert background(page) < 0.05  # the device's dark
        dark_line = page.eval_on_selector(".series-0 polyline", "e => getComputedStyle(e).stroke")
        assert dark_line != "rgb(29, 31, 33)"  # the light chart's first colour, lighter
        page.get_by_role("link", name="Light").click()
        page.wait_for_url("**/screen?scheme=light")
        assert background(page) > 0.9
        assert page.eval_on_selector(".series-0 polyline", "e => getComputedStyle(e).stroke") == (
            "rgb(29, 31, 33)"
        )
        page.get_by_role("link", name="Dark").click()
        page.wait_for_url("**/screen?scheme=dark")
        assert background(page) < 0.05
        assert axe_problems(page, axe_source, ["color-contrast"]) == []
        assert page.console_errors == []


def test_usable_on_a_phone_held_upright(live_server, browser):
    """Made for landscape; opened on a phone it shows its parts one under the other."""
    with screen_page(browser, live_server, "1080p") as page:
        page.set_viewport_size({"width": 390, "height": 844})
        match_id, _ = made(page, live_server)
        open_screen(page, live_server, match_id)
        assert page.evaluate("() => document.documentElement.scrollWidth <= window.innerWidth")
        board = page.locator(".screen-board").bounding_box()
        chart = page.locator(".screen-chart").bounding_box()
        assert chart["y"] >= board["y"] + board["height"]  # under the standings
        assert page.locator(".screen-qr").is_visible()
        assert page.console_errors == []
