""" "What if…?" of a table's season in a phone-sized Chromium, in English and Nepali: a
reader (no edit key) taps the link on the table's page, picks another profile (htmx
redraws the comparison at once), and sees the season's standings under those rules, the
totals those of the season rescore API; no sideways scrolling, no console error, and
axe-core finds nothing serious."""

from __future__ import annotations

import pytest
from browser_support import (
    PHONE,
    axe_problems,
    created,
    no_sideways_scroll,
)
from table_pages_support import FOUR, ROSTER

pytestmark = pytest.mark.browser

WORDS = {
    "en": {"title": "What if…?", "link": "What if…?", "rules": "Everest Buzz"},
    "ne": {"title": "के भए…?", "link": "के भए…?", "rules": "एभरेस्ट बज"},
}


def api_table(request, base: str) -> tuple[str, str]:
    """A table (Sparkai rules) with two matches of four hands, through the API; its
    id and the url of its page."""
    table = {"name": "Friday table", "players": ROSTER, "rules": "sparkai"}
    made = created(request, f"{base}/api/v1/tables", table)
    table_id, key = made["id"], made["edit_key"]
    for night in ("Tihar", "Dashain"):
        match = {"name": night, "players": ROSTER}
        match_id = created(request, f"{base}/api/v1/tables/{table_id}/matches", match, key)["id"]
        for hand in FOUR:
            created(request, f"{base}/api/v1/matches/{match_id}/hands", hand, key)
    return table_id, f"{base}/tables/{table_id}"


@pytest.mark.parametrize("lang", ["en", "ne"])
def test_a_reader_sees_the_season_under_other_rules_on_a_phone(
    live_server, browser, axe_source, lang
):
    words = WORDS[lang]
    context = browser.new_context(viewport=PHONE)  # no edit key: a reader
    page = context.new_page()
    errors: list[str] = []
    page.on("console", lambda msg: errors.append(msg.text) if msg.type == "error" else None)
    try:
        table_id, table_url = api_table(context.request, live_server)
        api = context.request.post(
            f"{live_server}/api/v1/tables/{table_id}/rescore", data={"rules": "everestbuzz"}
        )
        assert api.status == 200, api.text()
        figures = {p["name"]: p for p in api.json()["players"]}
        assert any(p["total"] != p["total_as_played"] for p in figures.values())

        page.goto(f"{live_server}/lang/{lang}?next=/")
        page.goto(table_url)
        page.locator("a.button", has_text=words["link"]).first.click()
        page.wait_for_url("**/what-if?*")
        page.locator("h1", has_text=words["title"]).wait_for()
        assert no_sideways_scroll(page)
        assert axe_problems(page, axe_source) == []

        page.wait_for_function("() => window.htmx !== undefined")
        page.select_option("#rules-profile", "everestbuzz")  # htmx redraws at once
        page.locator(".what-if-answer h2", has_text=words["rules"]).wait_for()
        assert "rules-profile=everestbuzz" in page.url
        shown = dict(
            zip(
                page.locator(".what-if-standings tbody th[scope=row]").all_inner_texts(),
                [
                    int(t)
                    for t in page.eval_on_selector_all(
                        ".what-if-standings td.total", "cells => cells.map(c => c.dataset.total)"
                    )
                ],
                strict=True,
            )
        )
        assert shown == {name: p["total"] for name, p in figures.items()}
        assert any(shown[name] != p["total_as_played"] for name, p in figures.items())
        printed = page.locator('.report-links a[href*="/what-if.pdf"]')
        assert "rules-profile=everestbuzz" in printed.get_attribute("href")  # this comparison
        assert no_sideways_scroll(page)
        assert axe_problems(page, axe_source) == []
        assert errors == []
    finally:
        context.close()
