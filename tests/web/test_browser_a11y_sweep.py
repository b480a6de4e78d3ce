"""Every page a person can reach, audited by axe-core in English and Nepali, on a phone
(390 px) and a desktop, in the states that matter: forms refused with their problems, an
empty table, a finished match, a season closed, the offline banner of a hand not sent.

The sweep knows the app's pages: each page it opens is matched to its endpoint, and the
test fails when a page the app serves (a GET that answers HTML) is left out, so a new
page is swept from the day it is made (or named in NOT_PAGES, with why)."""

from __future__ import annotations

from urllib.parse import urlsplit

import pytest
from browser_support import (
    api_match,
    axe_problems,
    created,
    fill_typical_hand,
    fresh_page,
    open_hand_form,
    use_maal_mode,
)
from match_pages_support import BY_COUNTS, PLAYERS, VOID, WORKED
from test_browser_a11y import FOUND_BEFORE, SIZES
from werkzeug.exceptions import MethodNotAllowed

from ledger.matches.share_link import encode_hand_link

pytestmark = [pytest.mark.browser, pytest.mark.slow]

#: GET endpoints that answer no page of their own: files, JSON, redirects, polls.
NOT_PAGES = {
    "static",
    "main.healthz",
    "home_screen.manifest",  # JSON for the browser
    "home_screen.favicon",  # a redirect to the icon, for browsers' PDF viewers
    "main.offline_worker",  # the service worker's script
    "serving.readyz",
    "i18n.set_language",  # redirects back
    "i18n.set_digits",
    "matches.join",  # redirect to the match, the table, the player's page
    "tables.join",
    "people.join",
    "matches.qr",  # images in the match's and table's pages
    "tables.qr",
    "matches.live",  # the polls: parts of the match's and screens' pages
    "screen.live",
    "table_screen.live",
}
TABLE = {
    "name": "Friday table",
    "players": PLAYERS,
    "rules": "sparkai",
    "stake": {"per_point": "1.00", "currency": "NPR"},
}


def _a_played_table(request, base: str) -> dict:
    """A table at a stake with a finished night of two hands, a payment, a season
    started after it, and Dipa's own link; what the pages need of it."""
    table = created(request, f"{base}/api/v1/tables", TABLE)
    key = table["edit_key"]
    night = created(
        request,
        f"{base}/api/v1/tables/{table['id']}/matches",
        {"name": "Night", "players": PLAYERS, "rules": "sparkai"},
        key,
    )
    for hand in (WORKED, BY_COUNTS):
        created(request, f"{base}/api/v1/matches/{night['id']}/hands", hand, key)
    auth = {"Authorization": f"Bearer {key}"}
    ended = request.patch(
        f"{base}/api/v1/matches/{night['id']}", data={"finished": True}, headers=auth
    )
    assert ended.status == 200, ended.text()
    paid = {"from": "Bikash", "to": "Asha", "amount": "1.00"}
    created(request, f"{base}/api/v1/tables/{table['id']}/payments", paid, key)
    link = f"{base}/api/v1/tables/{table['id']}/players/Dipa/link"
    dipa = created(request, link, key=key)["url"].replace("http://localhost", base)
    first = request.get(f"{base}/api/v1/tables/{table['id']}").json()
    created(request, f"{base}/api/v1/tables/{table['id']}/seasons", {"name": "Spring"}, key)
    return {
        "id": table["id"],
        "key": key,
        "night": night["id"],
        "dipa": dipa,
        "first_season": first["seasons"][0]["id"],
    }


@pytest.mark.parametrize("size", SIZES)
@pytest.mark.parametrize("lang", ["en", "ne"])
def test_every_page_in_every_state_that_matters(live_server, browser, app, axe_source, lang, size):
    found: dict[str, list[str]] = {}
    endpoints = app.url_map.bind("localhost")
    seen: set[str] = set()

    def audit(state: str) -> None:
        page.wait_for_load_state()
        path = urlsplit(page.url).path
        try:
            seen.add(endpoints.match(path, method="GET")[0])
        except MethodNotAllowed:  # a form's answer, at the address it was sent to
            seen.add(endpoints.match(path, method="POST")[0])
        found[f"{state} ({path})"] = axe_problems(page, axe_source, FOUND_BEFORE)

    def refused(form: str, state: str) -> None:
        page.locator(f"{form} .form-actions button[type=submit]").first.click()
        page.locator(".field-errors, .form-problems").first.wait_for()
        audit(state)

    with fresh_page(browser, SIZES[size]) as page:
        base = live_server
        page.goto(f"{base}/lang/{lang}?next=/")
        audit("home, a first visit")
        page.goto(f"{base}/matches/new")
        refused("form[action$='/matches/new']", "new match, refused")
        page.set_input_files(
            "#file", {"name": "notes.txt", "mimeType": "text/plain", "buffer": b"tea"}
        )
        page.locator("#import button[type=submit]").click()
        page.locator("#file-errors").wait_for()
        audit("load a saved match, refused")
        page.goto(f"{base}/tables/new")
        refused("form[action$='/tables/new']", "new table, refused")
        page.set_input_files(
            "#file", {"name": "notes.txt", "mimeType": "text/plain", "buffer": b"tea"}
        )
        page.locator("#import button[type=submit]").click()
        page.locator("#file-errors").wait_for()
        audit("load a saved table, refused")

        empty = created(page.request, f"{base}/api/v1/tables", TABLE)
        page.goto(f"{base}/tables/{empty['id']}/join/{empty['edit_key']}")
        audit("a table with no match yet")
        page.goto(f"{base}/tables/{empty['id']}/change")
        audit("changing the table")
        page.goto(f"{base}/tables/{empty['id']}/delete")
        audit("deleting a table made by mistake")
        table = _a_played_table(page.request, base)
        page.goto(f"{base}/tables/{table['id']}/join/{table['key']}")
        audit("a table, its season just started")
        page.goto(f"{base}/tables/{table['id']}?season={table['first_season']}")
        audit("a table, a finished season")
        page.locator("details.payment-other > summary").click()
        page.fill("details.payment-other input[name=amount]", "-3")
        refused("details.payment-other", "a payment refused")
        page.goto(f"{base}/tables/{table['id']}/players/Asha")
        audit("a player's record and figures")
        page.goto(f"{base}/tables/{table['id']}/what-if?rules-profile=everestbuzz")
        audit("the season's What if…?")
        page.goto(f"{base}/tables/{table['id']}/screen")
        audit("the table's big screen")
        page.goto(f"{base}/matches/{table['night']}")
        audit("a finished match")
        page.goto(table["dipa"])
        audit("a player's own page")
        page.goto(f"{base}/me")
        audit("my tables")

        match_url = api_match(page, base, hands=[WORKED, BY_COUNTS, VOID])
        audit("a match under way")
        for part in (
            "/hands",
            "/hands/1",
            "/hands/1/edit",
            "/hands/1/delete",
            "/length",
            "/delete",
        ):
            page.goto(match_url + part)
            audit(part)
        page.goto(match_url + "/rules")
        audit("the match's rules")
        page.goto(match_url + "/what-if?rules-profile=everestbuzz")
        audit("the match's What if…?")
        page.goto(match_url + "/screen")
        audit("the match's big screen")

        open_hand_form(page, match_url)
        page.fill("#tiplu", "8H")  # the maal as cards needs it
        for row, mode in enumerate(("counts", "cards", "number")):
            use_maal_mode(page, row, mode)
        audit("hand form, the maal by counts, by cards, as a number")
        page.select_option("#winner", "")
        refused(".hand-form", "hand form, refused")
        open_hand_form(page, match_url)
        fill_typical_hand(page)
        page.context.set_offline(True)
        page.locator(".hand-form .form-actions button[type=submit]").click()
        page.locator("#hand-queue .unsent").wait_for()
        audit("offline, a hand not sent yet")
        page.context.set_offline(False)
        page.wait_for_url(match_url)
        page.console_errors.clear()  # what the browser logs of the requests that failed

        page.goto(f"{base}/check")
        audit("the dispute checker")
        page.goto(f"{base}/check?h=" + encode_hand_link({"rules": "sparkai", **WORKED}))
        page.locator("#hand-preview .nets").wait_for()
        for step in page.locator("#hand-preview details > summary").all():
            step.click()
        audit("the dispute checker, a hand's steps open")
        page.goto(f"{base}/rules")
        audit("the rules")
        page.goto(f"{base}/glossary")
        audit("the glossary")
        page.goto(f"{base}/matches/no-such-match")
        audit("not found")
        stranger = created(
            page.request,
            f"{base}/api/v1/matches",
            {"name": "Dashain", "players": PLAYERS, "rules": "sparkai"},
        )
        page.goto(f"{base}/matches/{stranger['id']}/hands/new")
        audit("not allowed")
        page.goto(f"{base}/")
        audit("home, with this browser's matches and tables")

    pages = {
        rule.endpoint
        for rule in app.url_map.iter_rules()
        if "GET" in (rule.methods or ())
        and not rule.endpoint.startswith(("api.", "reports.", "table_reports."))
        and not rule.rule.endswith(".pdf")
    }
    assert sorted(pages - NOT_PAGES - seen) == []
    assert found == dict.fromkeys(found, [])
    assert [e for e in page.console_errors if "status of 4" not in e] == []
