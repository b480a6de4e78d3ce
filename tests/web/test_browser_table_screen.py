"""A table on the big screen in headless Chromium at 1920 × 1080 (a TV) and 1280 × 720
(a laptop): tonight's match beside the season's standings, read from three metres (each
standings line 5 % of the height or more, no text under 2.5 %, measured on the laid-out
page), all of it on the screen with no scrollbar and nothing covering anything else,
from four players tonight to the twelve a match seats (the season's last lines and the
smallest payments giving way, and saying so, when they do not all fit), following a new
hand within one poll, no serious axe-core finding, in both languages, with and without a
stake (then tonight's settle-up is on it too). Opened with no edit rights, as the
read-only link opens it."""

from __future__ import annotations

from collections.abc import Callable

import pytest
from browser_support import (
    axe_problems,
    created,
)
from match_pages_support import BY_COUNTS, DUBLEE_FINISH, THREE_PLAY, WORKED
from screen_support import (
    CROWD_IDS,
    CROWDS,
    SIZES,
    TEXTS,
    check_all_on_the_screen,
    check_tonight,
    dealt_hand,
    load_screen,
    next_part,
    says_how_many,
    screen_page,
)

from ledger.http.pace import POLL_SECONDS

pytestmark = pytest.mark.browser

FIVE = ["Asha", "Bikash", "Chandra", "Dipa", "Esha Shrestha"]
STAKE = {"per_point": "0.50", "currency": "NPR"}
AREAS = """() => [...document.querySelectorAll(`.screen-head, .screen-board, .tonight-news,
    .screen-season, .screen-settle, .screen-follow, .screen-foot`)]
  .map(e => { const r = e.getBoundingClientRect();
    return {name: e.className, top: r.top, bottom: r.bottom, left: r.left, right: r.right,
            over: e.scrollHeight > e.clientHeight + 1 || e.scrollWidth > e.clientWidth + 1}; })"""


def season(page, base: str, stake: dict | None = None) -> tuple[str, str, str]:
    """A table of five through the API: one night played, tonight's match begun. Its id,
    its edit key and tonight's match id."""
    body = {"name": "Friday table", "players": FIVE, "rules": "sparkai", "stake": stake}
    table = created(page.request, f"{base}/api/v1/tables", body)
    key = table["edit_key"]

    def match(players: list[str]) -> str:
        nights = f"{base}/api/v1/tables/{table['id']}/matches"
        return created(page.request, nights, {"name": "Night", "players": players}, key)["id"]

    def hand(match_id: str, body: dict) -> None:
        created(page.request, f"{base}/api/v1/matches/{match_id}/hands", body, key)

    first = match(FIVE[:4])
    for body in (WORKED, BY_COUNTS, DUBLEE_FINISH):
        hand(first, body)
    tonight = match(FIVE[:4])
    hand(tonight, THREE_PLAY)
    page.add_hand = hand
    return table["id"], table["edit_key"], tonight


def open_screen(page, base: str, table_id: str) -> None:
    load_screen(page, f"{base}/tables/{table_id}/screen")


@pytest.mark.parametrize(
    "lang, stake",
    [("en", None), ("ne", None), ("en", STAKE), ("ne", STAKE)],
    ids=["en", "ne", "en-stake", "ne-stake"],
)
@pytest.mark.parametrize("size", SIZES)
def test_readable_from_across_the_room_with_nothing_off_screen(
    live_server, browser, size, lang, stake
):
    with screen_page(browser, live_server, size, lang) as page:
        table_id, _, tonight = season(page, live_server, stake)
        open_screen(page, live_server, table_id)
        if stake:  # tonight's settle-up, as tonight's match's own screen shows it
            settle = page.inner_text(".screen-settle")
            shown = page.request.get(f"{live_server}/matches/{tonight}/screen").text()
            assert 'class="screen-settle"' in shown
            payments = page.eval_on_selector_all(
                ".screen-settle .money", "cells => cells.map(c => c.dataset.amount)"
            )
            assert payments and all(f'data-amount="{a}"' in shown for a in payments)
            assert ("कसले कसलाई तिर्ने" if lang == "ne" else "Who pays whom") in settle
        else:
            assert page.query_selector(".screen-settle") is None
        height = page.evaluate("() => window.innerHeight")
        tonight = page.eval_on_selector_all(
            ".screen-board .standing-line",
            "rows => rows.map(r => r.getBoundingClientRect().height)",
        )
        table = page.eval_on_selector_all(
            ".screen-season .standing-line",
            "rows => rows.map(r => r.getBoundingClientRect().height)",
        )
        assert len(tonight) == 4 and len(table) == 4  # Esha has not played yet
        assert min(tonight + table) >= 0.05 * height, min(tonight + table) / height
        texts = page.evaluate(TEXTS)
        smallest = min(texts, key=lambda t: t["size"])
        assert smallest["size"] >= 0.025 * height, (smallest, smallest["size"] / height)
        check_all_on_the_screen(page, AREAS, texts)
        if lang == "ne":
            assert "सिजनको अङ्कतालिका" in page.inner_text("body")
        assert axe_problems(page, axe_source_text(), ["color-contrast"]) == []
        assert page.console_errors == []


SEVEN = ["Asha", "Bikash", "Chandra", "Dipa", "Esha Shrestha", "Fulmaya", "Gopal"]


def nights(page, base: str, roster, first: int, tonight, hands: int, packs: int = 3, guests=()):
    """A table of ``roster`` at a stake, on ``packs`` packs (a hand of six at most on
    three, eight on four; the others sit out in turn): a first night that all of them
    played, ``first`` hands in, and tonight's of ``tonight`` (with ``guests`` too, the
    table's guests), ``hands`` in, each hand dealt to everyone not sitting out (so that
    most pay someone). The table's id, tonight's and what adds tonight's next hand."""
    rules = {"profile": "sparkai", "packs": packs}
    body = {"name": "Friday table", "players": roster, "rules": rules, "stake": STAKE}
    table = created(page.request, f"{base}/api/v1/tables", body)
    key = table["edit_key"]

    def night(players: list[str], hands: int, guests=()) -> tuple[str, Callable[[], None]]:
        made = f"{base}/api/v1/tables/{table['id']}/matches"
        body = {"name": "Night", "players": [*players, *guests], "guests": [*guests]}
        played = [created(page.request, made, body, key)]

        def hand() -> None:
            url = f"{base}/api/v1/matches/{played[0]['id']}/hands"
            body = dealt_hand(played[-1], len(played))
            played.append(created(page.request, url, body, key)["match"])

        for _ in range(hands):
            hand()
        return played[0]["id"], hand

    night(roster, first)
    return table["id"], *night(tonight, hands, guests)


def season_fits(page, lang: str, roster: list[str]) -> int:
    """The season's lines that are shown are each 5 % of the height or more, nothing on
    the screen spills over, and a line says how many are hidden when some are. How many."""
    height = page.evaluate("() => window.innerHeight")
    shown, hidden = page.evaluate(
        """() => { const rows = [...document.querySelectorAll('.screen-season .season-line')];
                   return [rows.filter(r => !r.hidden).map(r => r.getBoundingClientRect().height),
                           rows.filter(r => r.hidden).length]; }"""
    )
    assert len(shown) + hidden == len(roster)
    assert min(shown) >= 0.05 * height, min(shown) / height
    says_how_many(
        page, ".screen-season", lang, {"en": "and {n} more", "ne": "र अरू {n} जना"}, hidden
    )
    check_all_on_the_screen(page, AREAS, page.evaluate(TEXTS))
    return hidden


@pytest.mark.parametrize("lang", ["en", "ne"])
@pytest.mark.parametrize("size", ["1080p", "720p"])
def test_a_crowded_season_beside_a_staked_night_keeps_to_its_place(
    live_server, browser, lang, size
):
    """Seven in the season's standings, six tonight and their settle-up: the season's last
    lines give way, and one line says how many; again once a new hand has come in."""
    with screen_page(browser, live_server, size, lang) as page:
        table_id, _, next_hand = nights(page, live_server, SEVEN, 4, SEVEN[:6], 4)
        open_screen(page, live_server, table_id)
        assert season_fits(page, lang, SEVEN)  # seven lines beside six and their payments
        next_part(page, next_hand)
        season_fits(page, lang, SEVEN)
        assert page.console_errors == []


#: Twelve on the table's roster, all of whom played the first night.
TWELVE = [*SEVEN, "Hari Maharjan", "Indira", "Janak", "Kamala Thapa Magar", "Laxmi"]


@pytest.mark.parametrize("count, size, lang", CROWDS, ids=CROWD_IDS)
def test_everyone_tonight_and_what_fits_of_the_season_and_the_payments(
    live_server, browser, count, size, lang
):
    """Everyone playing tonight has their line, with the news and the QR code; the
    season's twelve and tonight's payments share the rest, their last lines giving way
    (a line saying how many); again once a new hand has come in by the poll."""
    with screen_page(browser, live_server, size, lang) as page:
        players = TWELVE[:count]
        table_id, tonight, next_hand = nights(page, live_server, TWELVE, 5, players, 6, packs=4)
        open_screen(page, live_server, table_id)
        for add in (next_hand, None):
            check_tonight(page, live_server, lang, AREAS, players, tonight)
            season_fits(page, lang, TWELVE)
            if add:
                next_part(page, add)
        assert page.console_errors == []


@pytest.mark.parametrize(("size", "lang"), [("720p", "ne"), ("1080p", "en")])
def test_guests_marked_among_twelve_tonight_and_everything_still_fits(
    live_server, browser, size, lang
):
    """Twelve tonight, two of them the table's guests (one of a long name): each is
    marked on tonight's standings and the season's, and every line still fits, the
    marks at the screen's least type or larger."""
    roster, guests = TWELVE[:10], TWELVE[10:]
    with screen_page(browser, live_server, size, lang) as page:
        table_id, tonight, _ = nights(page, live_server, roster, 5, roster, 6, 4, guests)
        open_screen(page, live_server, table_id)
        check_tonight(page, live_server, lang, AREAS, TWELVE, tonight)
        season_fits(page, lang, TWELVE)
        marked = page.locator(".screen-board .player-line:has(.guest-mark) .name")
        assert sorted(marked.all_inner_texts()) == sorted(guests)
        assert page.locator(".screen-board .guest-mark").first.is_visible()
        assert page.console_errors == []


_AXE: list[str] = []


def axe_source_text() -> str:
    return _AXE[0]


@pytest.fixture(autouse=True)
def _axe(axe_source):
    _AXE[:] = [axe_source]


def test_follows_a_new_hand_within_one_poll(live_server, browser):
    with screen_page(browser, live_server, "1080p") as page:
        table_id, _, tonight = season(page, live_server)
        open_screen(page, live_server, table_id)
        before = page.inner_text(".screen-season")
        # Counted in polls, not seconds: the first poll sent after the hand shows it.
        polls_after: list[str] = []
        page.on("request", lambda r: "/screen/live" in r.url and polls_after.append(r.url))
        page.add_hand(tonight, WORKED)
        polls_after.clear()
        page.wait_for_function(
            "() => document.querySelector('.screen-board .last-hand').textContent.includes('2')",
            timeout=(4 * POLL_SECONDS + 10) * 1000,
        )
        assert len(polls_after) <= 1, polls_after  # 0: one sent while it was added
        assert page.inner_text(".screen-season") != before
        assert page.console_errors == []
