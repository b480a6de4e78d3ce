"""The table's pages in a phone-sized Chromium (390 × 844), in English and Nepali: a new
table from the home page, tonight's match from the roster (the last night's players
ticked next time), mark paid and take it back, a player's page; no sideways scrolling,
no console error, and axe-core finds nothing serious on each page."""

from __future__ import annotations

import pytest
from browser_support import axe_problems, no_sideways_scroll
from match_pages_support import BY_COUNTS, THREE_PLAY, WORKED

pytestmark = pytest.mark.browser

WORDS = {
    "en": {"new": "New table", "tonight": "Tonight's match", "paid": "paid", "back": "taken back"},
    "ne": {"new": "नयाँ टेबल", "tonight": "आजको म्याच", "paid": "तिर्‍यो", "back": "फिर्ता लिइयो"},
}
ROSTER = ["Asha", "Bikash", "Chandra", "Dipa"]


def checked(page) -> list[str]:
    return page.eval_on_selector_all(
        ".tonight-list input:checked", "boxes => boxes.map(b => b.value)"
    )


def fit_and_accessible(page, axe_source: str) -> None:
    assert no_sideways_scroll(page)
    assert axe_problems(page, axe_source) == []


@pytest.mark.parametrize("lang", ["en", "ne"])
def test_a_table_from_the_home_page_to_a_players_record(live_server, page, axe_source, lang):
    words = WORDS[lang]
    page.goto(f"{live_server}/lang/{lang}?next=/")
    page.get_by_role("link", name=words["new"]).click()
    page.wait_for_url("**/tables/new")
    fit_and_accessible(page, axe_source)
    page.fill("#name", "Friday table")
    page.fill("#players", "\n".join(ROSTER))
    page.fill("#stake-per_point", "2")
    page.locator("form[action$='/tables/new'] .form-actions button[type=submit]").click()
    page.wait_for_url("**/tables/*")
    table_url = page.url
    assert page.locator("h1").inner_text() == "Friday table"
    assert page.locator("#new-match-title").inner_text() == words["tonight"]
    assert checked(page) == ROSTER  # no night yet: the whole roster
    fit_and_accessible(page, axe_source)

    # Tonight: Dipa sits this one out; the match opens with its table's rules and stake.
    page.uncheck(".tonight-list input[value=Dipa]")
    page.locator(".table-new-match button[type=submit]").click()
    page.wait_for_url("**/matches/*")
    match_id = page.url.rsplit("/", 1)[1]
    page.goto(table_url)
    key = page.input_value("#edit-link").rsplit("/", 1)[1]
    for hand in (
        THREE_PLAY,
        {**WORKED, "players": WORKED["players"][:3], "winner": "Asha"},
        {**BY_COUNTS, "players": BY_COUNTS["players"][:3]},
    ):
        answer = page.request.post(
            f"{live_server}/api/v1/matches/{match_id}/hands",
            data=hand,
            headers={"Authorization": f"Bearer {key}"},
        )
        assert answer.status == 201, answer.text()
    page.goto(table_url)
    assert checked(page) == ["Asha", "Bikash", "Chandra"]  # the last night's players
    assert page.locator(".table-standings .standing-line, .table-standings tbody tr").count() == 3
    assert page.locator("#season-chart-heading").count() == 1
    fit_and_accessible(page, axe_source)

    # Mark the first payment paid, then take it back.
    transfers = page.locator(".transfer").count()
    assert transfers >= 1
    page.locator(".transfer form button").first.click()
    page.locator(".flash-success", has_text=words["paid"]).wait_for()
    assert page.locator(".transfer").count() == transfers - 1
    assert page.locator(".payment").count() == 1
    fit_and_accessible(page, axe_source)
    page.locator(".payment form button").click()
    page.locator(".flash-success", has_text=words["back"]).wait_for()
    assert page.locator(".payment").count() == 0
    assert page.locator(".transfer").count() == transfers

    # A player's record, from the standings.
    page.locator(".table-standings th a", has_text="Asha").click()
    page.wait_for_url("**/players/Asha")
    assert page.locator("h1").inner_text() == "Asha"
    assert page.locator(".player-nights tbody tr").count() == 1
    assert page.locator(".head-to-head tbody tr").count() == 2
    fit_and_accessible(page, axe_source)
    assert page.console_errors == []
