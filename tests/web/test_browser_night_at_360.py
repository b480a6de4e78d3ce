"""A table's night kept on a narrow phone (360 × 740, touch) in Nepali, hand by hand, as
a scorekeeper did it (session 23): what tripped them, held here. A hand edited after, to
add the maal a player forgot, is typed in the total box as a new hand is; an unseen
player's row under kidnap keeps "Plays" on the name line; the summary PDF opens in the
phone's viewer with nothing refused."""

from __future__ import annotations

import pytest
from browser_support import ask_in, choose, flash, fresh_page, no_sideways_scroll, save_hand

pytestmark = pytest.mark.browser

NARROW = {"width": 360, "height": 740}
PLAYERS = ["राम", "सीता", "हरि", "गीता", "बिक्रम"]
#: A table that plays kidnap and penalises fouls ("More · Foul" is the wider button).
KIDNAP = {"profile": "amarnepal", "unseen_maal": "kidnap", "foul": "same_hand"}


def _match(page, base: str, hands=(), players=PLAYERS) -> str:
    """A match of ``players`` under kidnap made through the API (with ``hands``), joined
    by this phone with its edit link; the match page's URL."""
    answer = page.request.post(
        f"{base}/api/v1/matches", data={"name": "Friday", "players": players, "rules": KIDNAP}
    )
    assert answer.status == 201, answer.text()
    body = answer.json()
    match_id, key = body["id"], body["edit_key"]
    for hand in hands:
        made = page.request.post(
            f"{base}/api/v1/matches/{match_id}/hands",
            data=hand,
            headers={"Authorization": f"Bearer {key}"},
        )
        assert made.status == 201, made.text()
    page.goto(f"{base}/matches/{match_id}/join/{key}")
    page.wait_for_url(f"{base}/matches/{match_id}")
    return f"{base}/matches/{match_id}"


@pytest.fixture
def phone(browser, live_server):
    """A 360 px phone with touch that reads the pages in Nepali."""
    with fresh_page(browser, viewport=NARROW, has_touch=True, is_mobile=True) as page:
        ask_in(page, live_server, "ne")
        yield page


def test_a_forgotten_maal_is_added_in_the_total_box_of_the_edit_form(live_server, phone):
    """सीता's 3 was not typed (the box kept its ०): the edit form opens her row as a
    total, as the new hand's form does, so the fix is a tap and a digit. It opened by
    counts, the total box gone and a screen of steppers under an open "More"."""
    hand = {
        "finish": "sequences",
        "winner": "राम",
        "players": [
            {"name": "राम", "seen": "sequences", "maal": 12},
            {"name": "सीता", "seen": "sequences"},
            {"name": "हरि", "seen": "unseen"},
        ],
    }
    match_url = _match(phone, live_server, [hand])
    phone.goto(match_url + "/hands/1/edit")
    phone.wait_for_function("() => window.htmx !== undefined")
    total = phone.locator("#players-1-maal")
    assert total.is_visible()
    assert not phone.locator("#player-1 details.more").evaluate("d => d.open")
    assert phone.locator("#players-2-maal").is_visible()  # the unseen row too
    assert no_sideways_scroll(phone)
    total.tap()
    phone.keyboard.type("३")
    save_hand(phone)
    phone.wait_for_url(match_url)
    assert "बाजी १ बदलियो" in flash(phone)
    stored = phone.request.get(match_url.replace("/matches/", "/api/v1/matches/")).json()
    (sita,) = [p for p in stored["hands"][0]["players"] if p["name"] == "सीता"]
    assert sita["maal"] == 3
    assert phone.console_errors == []


def test_an_unseen_row_keeps_plays_on_the_name_line(live_server, phone):
    """Marked unseen, a row says under the name what its maal counts for (किड्न्याप:
    माल गेम गर्नेलाई); that note wraps beside "Plays" and "More", where it pushed
    "Plays" to a line of its own and made the row a line taller."""
    match_url = _match(phone, live_server)
    phone.goto(match_url + "/hands/new")
    phone.wait_for_function("() => window.htmx !== undefined")
    choose(phone, "players-1-seen", "unseen")
    note = phone.locator("#player-1-unseen-maal")
    note.wait_for()
    assert note.inner_text() == "किड्न्याप: माल गेम गर्नेलाई"
    title = phone.locator("#player-1-title").bounding_box()
    plays = phone.locator("#player-1 .plays-switch").bounding_box()
    assert title and plays
    assert plays["y"] < title["y"] + title["height"]  # on the name's line, not below
    # and the row is as tall as a row without the note, give or take the note's 2nd line
    seen = phone.locator("#player-0 .player-head").bounding_box()
    head = phone.locator("#player-1 .player-head").bounding_box()
    assert seen and head and head["height"] <= seen["height"] + 16
    assert no_sideways_scroll(phone)
    assert phone.console_errors == []


def test_the_summary_opened_on_a_phone_is_answered_whole(live_server, phone):
    """The night's summary PDF, tapped on the match page, opens in the phone's own
    viewer, which asks the site for /favicon.ico: that was a 404, an error on every PDF
    opened."""
    hand = {
        "finish": "sequences",
        "winner": "राम",
        "players": [{"name": n, "seen": "sequences", "maal": 3} for n in PLAYERS],
    }
    match_url = _match(phone, live_server, [hand])
    phone.locator("a[href$='/summary.pdf']").first.tap()
    phone.wait_for_url(match_url + "/summary.pdf")
    phone.wait_for_load_state("networkidle")
    phone.wait_for_timeout(500)  # the viewer asks for the icon once it has drawn the page
    assert phone.console_errors == []


#: The words of the rows' names broken across two lines (a hyphenated word may break
#: after its hyphen).
BROKEN_WORDS = """() => [...document.querySelectorAll('.player-title')]
    .filter(e => e.checkVisibility()).flatMap(e => {
      const text = e.firstChild, broken = [];
      for (const m of text.data.matchAll(/\\S+/g)) {
        const range = document.createRange();
        range.setStart(text, m.index);
        range.setEnd(text, m.index + m[0].length);
        const lines = new Set([...range.getClientRects()].map(r => Math.round(r.top))).size;
        if (lines > m[0].split('-').length) broken.push(m[0]);
      }
      return broken;
    })"""


def test_a_long_first_name_is_not_broken_inside_a_word(live_server, phone):
    """The name "Chandrakanta Bhattarai-Upadhyaya" read "Chandraka / nta" in the form at 360 px:
    beside "✓ Plays" and "More · Foul" the name had 100 px, and it was broken anywhere.
    It breaks between words now, "Plays" going under it when its word is wider than
    that; and a row that sits out gives the name the room of its "More", folded away
    with the row (there it broke too, beside "Sits out")."""
    players = ["Chandrakanta Bhattarai-Upadhyaya", *PLAYERS]  # 6: one sits out in turn
    match_url = _match(phone, live_server, players=players)
    phone.goto(match_url + "/hands/new")
    phone.wait_for_function("() => window.htmx !== undefined")
    phone.evaluate("() => document.fonts.ready.then(() => true)")
    assert not phone.locator("#players-0-plays").is_checked()  # the dealer sits out
    assert phone.evaluate(BROKEN_WORDS) == []
    phone.locator("#player-0 .plays-switch > span").tap()  # plays after all
    assert phone.evaluate(BROKEN_WORDS) == []
    assert no_sideways_scroll(phone)


#: Who plays, row by row, as the "Plays" switches say.
PLAYING = "() => [...document.querySelectorAll('input[name$=-plays]')].map(b => b.checked)"


def test_another_dealer_chosen_sits_out_in_their_turn(live_server, phone):
    """Six at a table whose hands deal to five: the form opens with राम, the dealer,
    sitting out. गीता dealt in fact: the scorekeeper picks her as the dealer, and she
    sits out instead, राम plays (he stayed out, and she could be named the finisher of a
    hand she did not play). A sit-out the scorekeeper set by hand is theirs: another
    dealer then leaves who plays as it is."""
    match_url = _match(phone, live_server, players=[*PLAYERS, "कृष्ण"])
    phone.goto(match_url + "/hands/new")
    phone.wait_for_function("() => window.htmx !== undefined")
    assert phone.evaluate(PLAYING) == [False, True, True, True, True, True]
    phone.select_option("#dealer", "गीता")
    assert phone.evaluate(PLAYING) == [True, True, True, False, True, True]
    finishers = phone.locator("#winner option").all_inner_texts()
    assert "गीता" not in finishers and "राम" in finishers

    phone.locator("#player-5 .plays-switch > span").tap()  # कृष्ण stepped away
    phone.select_option("#dealer", "हरि")
    assert phone.evaluate(PLAYING) == [True, True, True, False, True, False]
    assert phone.console_errors == []
