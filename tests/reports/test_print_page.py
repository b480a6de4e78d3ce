"""The match page prints as the summary's first pages; it links the PDFs."""

from __future__ import annotations

import re
import shutil
import subprocess
from pathlib import Path

import pytest
from api_hands import PLAYERS, add, hand, table_night
from browser_support import created
from pdf_support import make_match

OUTPUT = Path(__file__).resolve().parents[2] / "test-output" / "pdf"


@pytest.mark.slow  # seconds: lays out PDFs or runs many requests
def test_the_match_page_links_the_summary_and_carries_the_printed_report(app, client):
    with app.app_context():
        match = make_match(6, players=["Asha", "राम", "Chandra", "Dipa", "Esha"])
        public_id = match.public_id
    page = client.get(f"/matches/{public_id}").get_data(as_text=True)
    assert f'href="/matches/{public_id}/summary.pdf"' in page
    assert f'href="/matches/{public_id}/summary.pdf?paper=letter"' in page
    report = page[page.index('<div class="print-report">') :]
    for part in ("Standings", "House rules", "Every hand", "(माल)"):
        assert part in report
    # The page's own chart is the one printed: the report draws none of its own.
    assert "Running totals" not in report
    hand = client.get(f"/matches/{public_id}/hands/2").get_data(as_text=True)
    assert f'href="/matches/{public_id}/hands/2/slip.pdf"' in hand
    assert client.get(f"/matches/{public_id}/hands/2/slip.pdf").mimetype == "application/pdf"


@pytest.mark.browser
def test_the_browser_prints_the_report_without_navigation_or_buttons(live_server, page):
    response = page.request.post(
        f"{live_server}/api/v1/matches",
        data={
            "name": "Tihar 2026",
            "players": ["Asha", "राम", "Chandra", "Dipa"],
            "rules": "amarnepal",
            "length": None,
        },
    )
    match = response.json()
    hands = f"{live_server}/api/v1/matches/{match['id']}/hands"
    for winner, maal in (("Asha", 10), ("राम", 4), ("Chandra", 7)):
        hand = {
            "finish": "sequences",
            "winner": winner,
            "players": [
                {"name": name, "seen": "sequences", "maal": maal if name == winner else 2}
                for name in ("Asha", "राम", "Chandra", "Dipa")
            ],
        }
        created(page.request, hands, hand, match["edit_key"])
    page.goto(f"{live_server}/matches/{match['id']}")
    assert page.locator(".report-links a").first.is_visible()
    assert not page.locator(".print-report").is_visible()

    page.emulate_media(media="print")
    for hidden in (".site-header", ".site-footer", ".report-links", ".match-head", ".scores"):
        assert not page.locator(hidden).first.is_visible(), hidden
    assert page.locator(".print-report").is_visible()
    assert page.locator(".print-report .standings-table").is_visible()
    assert page.locator(".print-report .hands-table").is_visible()
    assert page.locator(".match-chart svg.chart").is_visible()
    chart_top = page.locator(".match-chart").bounding_box()["y"]
    assert page.locator(".print-report .report-rules").bounding_box()["y"] < chart_top
    assert chart_top < page.locator(".print-report .hands-table").bounding_box()["y"]
    assert page.locator("button:visible, .button:visible, nav:visible").count() == 0
    assert not page.console_errors

    OUTPUT.mkdir(parents=True, exist_ok=True)
    pdf = OUTPUT / "browser-print.pdf"
    page.pdf(path=str(pdf), format="A4", print_background=True)
    if shutil.which("pdftoppm"):
        for old in OUTPUT.glob("browser-print-*.png"):
            old.unlink()
        subprocess.run(
            ["pdftoppm", "-r", "60", "-png", "-l", "2", str(pdf), str(OUTPUT / "browser-print")],
            check=True,
            timeout=120,
        )
    text = subprocess.run(["pdftotext", str(pdf), "-"], capture_output=True, text=True).stdout
    if text:
        assert re.search(r"Standings", text) and "Every hand" in text
        assert "Dispute checker" not in text  # the navigation


@pytest.mark.parametrize(
    ("lang", "said", "not_said"),
    [
        ("en", "Finished: 2 hands played.", "An open match"),
        ("ne", "सकियो: २ बाजी खेलियो।", "खुला म्याच"),
    ],
)
def test_an_ended_night_is_printed_as_finished(client, lang, said, not_said):
    """A night the table ended (an open match: no length) was printed "An open match:
    2 hands played. Winner: Asha.", as if it were still being played."""
    _table, auth, public_id = table_night(client, PLAYERS)
    for winner in ("Asha", "Bikash"):
        add(client, public_id, auth, hand(winner))
    ended = client.patch(f"/api/v1/matches/{public_id}", json={"finished": True}, headers=auth)
    assert ended.status_code == 200
    client.get(f"/lang/{lang}")
    page = client.get(f"/matches/{public_id}").get_data(as_text=True)
    state = re.search(r'<p class="report-state">(.*?)</p>', page, re.S).group(1)
    assert said in state and not_said not in state, state
