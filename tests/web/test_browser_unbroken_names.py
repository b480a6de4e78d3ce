"""Names typed without a space, as long as the ledger takes them (a table's, a match's
and a season's 80 letters, a player's 40), in Devanagari and in Latin letters: on a
phone (390 px) no page scrolls sideways. Before, such a name was as wide as itself on
nearly every page (the headings, the breadcrumb, the awards, the roster, a player's
figures, a hand's payments, the big screen), and the whole page slid sideways under the
scorekeeper's thumb."""

from __future__ import annotations

from urllib.parse import quote

import pytest
from api_hands import won_by
from browser_support import PHONE, created, no_sideways_scroll

pytestmark = pytest.mark.browser

TABLE = ("शुक्रबारकोटेबल" * 6)[:80]
MATCH = ("FridayNightAtRameshUncleHouseBaneshwor" * 3)[:80]
SEASON = ("तिहारसिजन" * 10)[:80]
PLAYERS = [
    "रामबहादुरश्रेष्ठक्षेत्रीपौडेलअधिकारीखनाल"[:40],
    "ChandrabahadurShresthaPoudelAdhikariKhanal"[:40],
    "सीता",
    "Gita",
]

#: What reaches past the screen, outside a box that scrolls or clips (to say what to fix).
TOO_WIDE = """() => [...document.querySelectorAll('body *')].filter(e => {
    for (let a = e.parentElement; a; a = a.parentElement)
      if (getComputedStyle(a).overflowX !== 'visible') return false;
    return e.getBoundingClientRect().right > document.documentElement.clientWidth + 1;
  }).map(e => e.tagName + '.' + e.className).slice(-5)"""


def _night(request, base: str) -> dict:
    """A staked table of ``PLAYERS`` with a night of three hands, ended, a payment, and
    the first player's own link: the ids, the table key and the link."""
    table = created(
        request,
        f"{base}/api/v1/tables",
        {
            "name": TABLE,
            "players": PLAYERS,
            "season": SEASON,
            "stake": {"per_point": "10", "currency": "NPR"},
        },
    )
    key = table["edit_key"]
    match = created(
        request,
        f"{base}/api/v1/tables/{table['id']}/matches",
        {"name": MATCH, "players": PLAYERS},
        key,
    )
    for winner in PLAYERS[:3]:
        created(request, f"{base}/api/v1/matches/{match['id']}/hands", won_by(winner, PLAYERS), key)
    auth = {"Authorization": f"Bearer {key}"}
    ended = request.patch(
        f"{base}/api/v1/matches/{match['id']}", data={"finished": True}, headers=auth
    )
    assert ended.status == 200, ended.text()
    created(
        request,
        f"{base}/api/v1/tables/{table['id']}/payments",
        {"from": PLAYERS[1], "to": PLAYERS[0], "amount": "10.00"},
        key,
    )
    link = created(
        request, f"{base}/api/v1/tables/{table['id']}/players/{quote(PLAYERS[0])}/link", key=key
    )
    return {"table": table["id"], "match": match["id"], "key": key, "link": link["url"]}


def _pages(night: dict) -> list[str]:
    t, m = night["table"], night["match"]
    return [
        "/",
        f"/tables/{t}",
        f"/tables/{t}/players/{quote(PLAYERS[0])}",
        f"/tables/{t}/players/{quote(PLAYERS[1])}",
        f"/tables/{t}/what-if",
        f"/tables/{t}/screen",
        f"/tables/{t}/change",
        f"/tables/{t}/delete",
        f"/me/{t}",
        f"/matches/{m}",
        f"/matches/{m}/hands",
        f"/matches/{m}/hands/1",
        f"/matches/{m}/hands/1/edit",
        f"/matches/{m}/hands/1/delete",
        f"/matches/{m}/screen",
        f"/matches/{m}/what-if",
        f"/matches/{m}/length",
        f"/matches/{m}/delete",
    ]


@pytest.mark.parametrize("lang", ["en", "ne"])
def test_a_name_without_a_space_keeps_every_page_on_a_phone(browser, live_server, lang):
    context = browser.new_context(viewport=PHONE, has_touch=True)
    try:
        phone = context.new_page()
        night = _night(phone.request, live_server)
        phone.goto(f"{live_server}/tables/{night['table']}/join/{night['key']}")  # the editor
        phone.goto(night["link"].replace("http://localhost", live_server))  # and the player
        phone.goto(f"{live_server}/lang/{lang}?next=/")
        wide = {}
        for path in _pages(night):
            answer = phone.goto(live_server + path)
            assert answer.status == 200, path
            phone.evaluate("() => document.fonts.ready.then(() => true)")
            if not no_sideways_scroll(phone):
                wide[path] = phone.evaluate(TOO_WIDE)
        assert wide == {}
    finally:
        context.close()
