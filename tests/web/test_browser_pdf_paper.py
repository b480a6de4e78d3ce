"""The paper of the PDF links (headless Chromium): A4, as Nepal and most of the world
print, with "on US Letter" beside; US Letter first only on an English page read in a
browser whose language names a country that prints on Letter (en-US, en-CA), where
"on A4" is beside instead; never Letter first on a Nepali page (docs/architecture.md,
*Printable summaries*)."""

import sys
from pathlib import Path
from urllib.parse import parse_qs, urlsplit

import pytest
from browser_support import TYPICAL_HAND, ask_in, created, fresh_page

sys.path[:0] = [str(Path(__file__).resolve().parents[1] / "reports")]
from pdf_support import page_sizes  # noqa: E402

pytestmark = pytest.mark.browser

A4, LETTER = (595, 842), (612, 792)


def papers(page) -> dict[str, str | None]:
    """Each PDF link of the page (its words) and the paper it asks for (None: A4)."""
    links = page.eval_on_selector_all(
        "a[href]",
        "links => links.filter(a => a.pathname.endsWith('.pdf'))"
        ".map(a => [a.textContent.trim(), a.href])",
    )
    return {words: parse_qs(urlsplit(href).query).get("paper", [None])[0] for words, href in links}


def _night(page, base: str) -> tuple[str, str]:
    """A table with a night of one hand still going; the table's and the match's pages."""
    table = created(
        page.request,
        f"{base}/api/v1/tables",
        {
            "name": "Friday table",
            "players": ["Asha", "Bikash", "Chandra", "Dipa"],
            "rules": "sparkai",
        },
    )
    key = table["edit_key"]
    body = {"name": "Night", "players": ["Asha", "Bikash", "Chandra", "Dipa"]}
    match = created(page.request, f"{base}/api/v1/tables/{table['id']}/matches", body, key)
    created(page.request, f"{base}/api/v1/matches/{match['id']}/hands", TYPICAL_HAND, key)
    return f"{base}/tables/{table['id']}", f"{base}/matches/{match['id']}"


@pytest.mark.parametrize("locale", ["en-US", "en-CA"])
def test_an_american_browser_on_the_english_pages_gets_letter_first(live_server, browser, locale):
    with fresh_page(browser, locale=locale) as page:
        table_url, match_url = _night(page, live_server)
        page.goto(match_url)
        found = papers(page)
        assert found["Match summary (PDF)"] == "letter"
        assert found["with every hand's settlement"] == "letter"
        assert found["on A4"] == "a4"  # the other paper, beside
        assert "on US Letter" not in found
        summary = page.locator(".report-links a", has_text="Match summary (PDF)")
        pdf = page.request.get(summary.evaluate("a => a.href"))
        assert page_sizes(pdf.body()) == {LETTER}
        page.goto(table_url)
        assert papers(page)["Season summary (PDF)"] == "letter"
        assert page.console_errors == []


@pytest.mark.parametrize("locale", ["en-GB", "en-IN", "ne-NP", "en"])
def test_elsewhere_the_english_pages_give_a4(live_server, browser, locale):
    with fresh_page(browser, locale=locale) as page:
        table_url, match_url = _night(page, live_server)
        ask_in(page, live_server, "en")
        page.goto(match_url)
        found = papers(page)
        assert found["Match summary (PDF)"] is None  # A4, the server's default
        assert found["with every hand's settlement"] is None
        assert found["on US Letter"] == "letter"
        page.goto(table_url)
        assert papers(page)["Season summary (PDF)"] is None
        assert page.console_errors == []


def test_a_nepali_page_gives_a4_whatever_the_browser(live_server, browser):
    with fresh_page(browser, locale="en-US") as page:
        table_url, match_url = _night(page, live_server)
        ask_in(page, live_server, "ne")
        page.goto(match_url)
        found = papers(page)
        assert len(found) >= 3 and "on A4" not in found
        assert found["अमेरिकी लेटर कागजमा"] == "letter"  # the other paper, as a choice
        others = {words: paper for words, paper in found.items() if words != "अमेरिकी लेटर कागजमा"}
        assert set(others.values()) == {None}
        summary = page.locator(".report-links a").first
        assert page_sizes(page.request.get(summary.evaluate("a => a.href")).body()) == {A4}
        page.goto(table_url)
        assert set(papers(page).values()) == {None}
        assert page.console_errors == []


def test_a_part_drawn_again_follows_too(live_server, browser):
    """The match page's live part is drawn again when the match changes: the PDF links
    it brings (the end's "Match summary (PDF)" and the settle-up slip) follow too."""
    with fresh_page(browser, locale="en-US") as page:
        body = {
            "name": "Night",
            "players": ["Asha", "Bikash", "Chandra", "Dipa"],
            "rules": "sparkai",
        }
        match = created(page.request, f"{live_server}/api/v1/matches", body)
        key = match["edit_key"]
        url = f"{live_server}/api/v1/matches/{match['id']}"
        created(page.request, f"{url}/hands", TYPICAL_HAND, key)
        page.goto(f"{live_server}/matches/{match['id']}")
        assert page.locator("#match-live .match-end-actions").count() == 0
        page.evaluate(
            "() => document.addEventListener('htmx:afterSettle', () => { window.settled = true; })"
        )
        ended = page.request.patch(
            url, data={"finished": True}, headers={"Authorization": f"Bearer {key}"}
        )
        assert ended.status == 200, ended.text()
        page.wait_for_function("() => window.settled === true", timeout=20000)
        live = page.eval_on_selector_all(
            "#match-live a[href]",
            "links => links.filter(a => a.pathname.endsWith('.pdf'))"
            ".map(a => [a.textContent.trim(), new URL(a.href).searchParams.get('paper')])",
        )
        assert ["Match summary (PDF)", "letter"] in live
        assert all(paper in ("letter", "a4") for _, paper in live)
        assert page.console_errors == []
