"""The folded parts of a table's pages open with a finger (44 px high) on a phone: the
roster's "Change" under each name, "Record a payment", "Move in a match", "Each player's
own link" and a player's "Forget me" were lines of text 26 px high, stacked close
enough for a thumb to open the one below."""

from __future__ import annotations

import pytest
from browser_support import PHONE, TOUCH, TYPICAL_HAND, created, fresh_page

pytestmark = pytest.mark.browser

SMALL_SUMMARIES = """(touch) => [...document.querySelectorAll('summary')]
    .filter(s => s.checkVisibility() && s.getBoundingClientRect().height < touch)
    .map(s => s.textContent.trim().slice(0, 40))"""


def test_every_fold_of_a_table_and_a_players_own_page_takes_a_finger(browser, live_server):
    with fresh_page(browser, PHONE, has_touch=True) as phone:
        table = created(
            phone.request,
            f"{live_server}/api/v1/tables",
            {
                "name": "Friday table",
                "players": ["Asha", "Bikash", "Chandra", "Dipa"],
                "rules": "sparkai",
                "stake": {"per_point": "10", "currency": "NPR"},
            },
        )
        key = table["edit_key"]
        match = created(
            phone.request,
            f"{live_server}/api/v1/tables/{table['id']}/matches",
            {"name": "Night", "players": ["Asha", "Bikash", "Chandra", "Dipa"]},
            key,
        )
        created(
            phone.request, f"{live_server}/api/v1/matches/{match['id']}/hands", TYPICAL_HAND, key
        )
        link = created(
            phone.request, f"{live_server}/api/v1/tables/{table['id']}/players/Dipa/link", key=key
        )
        phone.goto(f"{live_server}/tables/{table['id']}/join/{key}")
        phone.wait_for_url(f"{live_server}/tables/{table['id']}")
        for fold in (
            "Record another payment",
            "Move in a match",
            "Change",
            "Each player's own link",
        ):
            assert phone.locator("summary", has_text=fold).count(), fold
        assert phone.evaluate(SMALL_SUMMARIES, TOUCH) == []
        phone.goto(link["url"])
        assert phone.locator("summary", has_text="Forget me at this table").count()
        assert phone.evaluate(SMALL_SUMMARIES, TOUCH) == []
        assert phone.console_errors == []
