"""Loading a saved match or table in headless Chromium, phone-sized: the summary PDF a
phone saved is chosen on the new-match page and becomes a match this browser keeps score
for; a table's export.json, on the new-table page, a table it keeps score for."""

import re

import pytest
from browser_support import created, no_sideways_scroll
from match_pages_support import BY_COUNTS, PLAYERS, VOID

pytestmark = pytest.mark.browser

MATCH_PAGE = re.compile(r"/matches/[A-Za-z0-9_-]{16,}$")
TABLE_PAGE = re.compile(r"/tables/[A-Za-z0-9_-]{16,}$")


def saved_summary(page, live_server: str) -> tuple[str, bytes]:
    """A match of two hands made through the API, and its summary PDF."""
    body = {"name": "Tihar 2026", "players": PLAYERS, "rules": "amarnepal", "length": None}
    match = page.request.post(f"{live_server}/api/v1/matches", data=body).json()
    for hand in (BY_COUNTS, VOID):
        url = f"{live_server}/api/v1/matches/{match['id']}/hands"
        created(page.request, url, hand, match["edit_key"])
    pdf = page.request.get(f"{live_server}/matches/{match['id']}/summary.pdf")
    assert pdf.headers["content-type"] == "application/pdf"
    return match["id"], pdf.body()


def test_a_saved_summary_pdf_loads_in_the_browser(page, live_server, tmp_path):
    original, pdf = saved_summary(page, live_server)
    saved = tmp_path / "tihar-2026-summary.pdf"
    saved.write_bytes(pdf)
    junk = tmp_path / "notes.txt"
    junk.write_text("Asha owes Bikash a tea")

    page.goto(f"{live_server}/matches/new")
    page.set_input_files("#file", str(junk))
    page.get_by_role("button", name="Load the match").click()
    page.wait_for_selector("#file-errors")
    assert "neither a match summary PDF nor" in page.inner_text("#file-errors")
    assert page.evaluate("document.activeElement.id") == "file"  # the problem is in view
    # The refused file's page came with its status (422), which Chromium logs; nothing else.
    assert [e for e in page.console_errors if "status of 422" not in e] == []
    page.console_errors.clear()

    page.set_input_files("#file", str(saved))
    page.get_by_role("button", name="Load the match").click()
    page.wait_for_url(MATCH_PAGE)
    assert original not in page.url
    assert "is loaded: a new copy that this browser can edit" in page.inner_text("body")
    assert page.locator(".read-only-tag").count() == 0
    copy = page.url.rsplit("/", 1)[1]
    totals = {
        p["name"]: p["total"]
        for p in page.request.get(f"{live_server}/api/v1/matches/{copy}").json()["players"]
    }
    first = page.request.get(f"{live_server}/api/v1/matches/{original}").json()["players"]
    assert totals == {p["name"]: p["total"] for p in first}
    assert page.console_errors == []


def test_a_tables_export_loads_on_the_new_table_page_of_a_phone(page, live_server, tmp_path):
    body = {"name": "Friday table", "players": PLAYERS, "rules": "amarnepal", "stake": None}
    table = created(page.request, f"{live_server}/api/v1/tables", body)
    url = f"{live_server}/api/v1/tables/{table['id']}"
    night = {
        "name": "Friday",
        "players": PLAYERS,
        "rules": "amarnepal",
        "length": None,
        "stake": None,
    }
    match = created(page.request, f"{url}/matches", night, table["edit_key"])
    for hand in (BY_COUNTS, VOID):
        created(
            page.request,
            f"{live_server}/api/v1/matches/{match['id']}/hands",
            hand,
            table["edit_key"],
        )
    saved = tmp_path / "friday-table.json"
    saved.write_bytes(page.request.get(f"{url}/export.json").body())
    summary = tmp_path / "friday.pdf"
    summary.write_bytes(page.request.get(f"{live_server}/matches/{match['id']}/summary.pdf").body())

    page.goto(f"{live_server}/tables/new")
    page.set_input_files("#file", str(summary))  # one match's: said where it goes
    page.get_by_role("button", name="Load the table").click()
    page.wait_for_selector("#file-errors")
    assert "New match page" in page.inner_text("#file-errors")
    link = page.locator("#file-errors a")
    assert link.inner_text() == "Load a saved match"
    assert link.get_attribute("href") == "/matches/new#import"
    assert page.evaluate("document.activeElement.id") == "file"
    assert no_sideways_scroll(page)
    assert [e for e in page.console_errors if "status of 422" not in e] == []
    page.console_errors.clear()

    page.set_input_files("#file", str(saved))
    page.get_by_role("button", name="Load the table").click()
    page.wait_for_url(TABLE_PAGE)
    assert table["id"] not in page.url
    assert "is loaded: a new copy that this browser can edit" in page.inner_text("body")
    assert re.search(r"/join/[\w-]+\"", page.content())  # the edit link, under Share
    assert no_sideways_scroll(page)
    copy = page.url.rsplit("/", 1)[1]
    standings = {
        tid: [
            (p["name"], p["total"], p["hands"], p["hands_won"])
            for p in page.request.get(f"{live_server}/api/v1/tables/{tid}/stats?season=all").json()[
                "players"
            ]
        ]
        for tid in (table["id"], copy)
    }
    assert standings[copy] == standings[table["id"]] and len(standings[copy]) == len(PLAYERS)
    assert page.console_errors == []
