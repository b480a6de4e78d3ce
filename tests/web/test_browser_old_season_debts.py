"""A debt outlives its season, on two phones (390 px, touch), in English and Nepali: a
new season began before Bikash paid; his own page still shows what he owes from the
season before, he taps its "I paid", Asha confirms on her phone, and the season before
closes while the new one stays square. axe finds no serious problem, nothing scrolls
sideways, and the Nepali page writes the money in Devanagari digits."""

from __future__ import annotations

import re
from decimal import Decimal

import pytest
from browser_support import axe_problems, created, fresh_page, no_sideways_scroll

pytestmark = pytest.mark.browser

TABLE = {
    "name": "Friday table",
    "players": ["Asha", "Bikash", "Chandra"],
    "rules": "sparkai",
    "stake": {"per_point": "0.50", "currency": "NPR"},
}
#: Asha wins; Bikash and Chandra, unseen, pay her.
HAND = {
    "finish": "sequences",
    "winner": "Asha",
    "players": [
        {"name": "Asha", "seen": "sequences", "maal": 7},
        {"name": "Bikash", "seen": "unseen", "maal": 0},
        {"name": "Chandra", "seen": "unseen", "maal": 0},
    ],
}


def _season_owed(request, base: str) -> tuple[dict, str, dict[str, str]]:
    """The table, its first season's id, and Bikash's and Asha's own links, after a
    night and a new season."""
    table = created(request, f"{base}/api/v1/tables", TABLE)
    key, url = table["edit_key"], f"{base}/api/v1/tables/{table['id']}"
    night = {"name": "Night 1", "players": TABLE["players"]}
    match = created(request, f"{url}/matches", night, key)
    created(request, f"{base}/api/v1/matches/{match['id']}/hands", HAND, key)
    created(request, f"{url}/seasons", {"name": "Dashain"}, key)
    first = request.get(url).json()["seasons"][0]["id"]
    links = {
        name: created(request, f"{url}/players/{name}/link", key=key)["url"]
        for name in ("Bikash", "Asha")
    }
    return table, first, links


@pytest.mark.parametrize("lang", ["en", "ne"])
def test_an_old_debt_paid_and_confirmed_on_two_phones(live_server, browser, axe_source, lang):
    found: dict[str, list[str]] = {}
    with (
        fresh_page(browser, has_touch=True) as bikash,
        fresh_page(browser, has_touch=True) as asha,
    ):
        bikash.goto(f"{live_server}/lang/{lang}?next=/")
        table, first, links = _season_owed(bikash.request, live_server)
        api = f"{live_server}/api/v1/tables/{table['id']}"
        [owed] = [
            t
            for t in bikash.request.get(f"{api}/settle-up?season={first}").json()["transfers"]
            if t["from"] == "Bikash"
        ]
        bikash.goto(links["Bikash"].replace("http://localhost", live_server))
        bikash.wait_for_url(f"{live_server}/me/{table['id']}")
        earlier = bikash.locator(".person-earlier")
        assert earlier.is_visible()
        shown = earlier.inner_text()
        if lang == "ne":
            assert not re.search(r"[0-9]", shown.replace("Bikash", "").replace("Asha", ""))
            assert "रु" in shown
        found["Bikash's page, an old debt"] = axe_problems(bikash, axe_source)
        assert no_sideways_scroll(bikash)
        earlier.locator("form button[type=submit]").tap()
        bikash.locator(".flash").wait_for()
        assert bikash.locator(".payment.state-pending").count() == 1

        asha.goto(f"{live_server}/lang/{lang}?next=/")
        asha.goto(links["Asha"].replace("http://localhost", live_server))
        asha.wait_for_url(f"{live_server}/me/{table['id']}")
        asha.locator("form[action$='/confirm'] button").tap()
        asha.locator(".flash").wait_for()
        assert asha.locator(".payment.state-confirmed").count() == 1
        assert no_sideways_scroll(asha)
        found["Asha's page, confirmed"] = axe_problems(asha, axe_source)

        bikash.reload()
        assert bikash.locator(".person-earlier").count() == 0
        settle = bikash.request.get(f"{api}/settle-up?season={first}").json()
        assert all(t["from"] != "Bikash" for t in settle["transfers"])
        balances = {b["name"]: Decimal(b["amount"]) for b in settle["balances"]}
        assert balances["Bikash"] == 0  # he owed only Asha
        now = bikash.request.get(f"{api}/settle-up").json()["balances"]
        assert {Decimal(b["amount"]) for b in now} == {Decimal("0")}
    assert found == {state: [] for state in found}
