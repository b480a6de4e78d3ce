"""Every link in the figures' tables of a table is a target a finger hits (headless
Chromium, a phone): the standings' names on the table's page (its season and all time),
the hands' numbers and the names on the match page, the nights and rivals on a player's
page; each link's box is 44 px high or more (docs/tables.md)."""

import pytest
from browser_support import PLAYERS, TOUCH, TYPICAL_HAND, created, set_text_size

pytestmark = pytest.mark.browser

#: Each visible link inside a table, with its box's height, when under ``touch``.
SHORT_LINKS = """(touch) => [...document.querySelectorAll('table a[href]')]
    .filter(a => a.checkVisibility())
    .map(a => [a.textContent.trim().slice(0, 30), a.getBoundingClientRect().height])
    .filter(([, h]) => h < touch)"""


def _table(page, base: str) -> tuple[str, str, str]:
    """A table of four at a stake: one night over, one still going (a hand each); the
    table's id, its season's id and the open match's id."""
    table = created(
        page.request,
        f"{base}/api/v1/tables",
        {
            "name": "Friday table",
            "players": PLAYERS,
            "rules": "sparkai",
            "stake": {"per_point": "10", "currency": "NPR"},
        },
    )
    key = table["edit_key"]
    matches = []
    for _ in range(2):
        match = created(
            page.request,
            f"{base}/api/v1/tables/{table['id']}/matches",
            {"name": "Night", "players": PLAYERS},
            key,
        )
        created(page.request, f"{base}/api/v1/matches/{match['id']}/hands", TYPICAL_HAND, key)
        matches.append(match["id"])
    ended = page.request.patch(
        f"{base}/api/v1/matches/{matches[0]}",
        data={"finished": True},
        headers={"Authorization": f"Bearer {key}"},
    )
    assert ended.status == 200, ended.text()
    season = page.request.get(f"{base}/api/v1/tables/{table['id']}").json()["seasons"][0]["id"]
    return table["id"], season, matches[1]


@pytest.mark.parametrize("text", [16, 32], ids=["100%", "200%"])
def test_every_link_in_the_tables_is_44_px_high(live_server, page, text):
    set_text_size(page, text)
    table_id, season_id, match_id = _table(page, live_server)
    table = f"{live_server}/tables/{table_id}"
    pages = [
        table,
        f"{table}?season={season_id}",
        f"{table}?season=all",
        f"{live_server}/matches/{match_id}",
        f"{table}/players/Asha",
    ]
    for url in pages:
        page.goto(url)
        assert page.locator("table a[href]").count() > 0, url
        assert page.evaluate(SHORT_LINKS, TOUCH) == [], url
    assert page.console_errors == []
