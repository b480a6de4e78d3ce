"""A player's figures in the PDFs (issue 39): the season summary gains a page of the
players' figures and the season's awards, the match summary tonight's awards once the
match is over; in English and in Nepali. Figures come from the API's stats (held to the
stored hands by tests/api/test_player_stats_api.py)."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest
from pdf_support import pdf_reader, pdf_text, squeezed

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "web"))
from api_hands import play  # noqa: E402
from table_pages_support import AWARD_TITLES, FOUR, ROSTER, create_table, edit_key  # noqa: E402


def ascii_signed(value: int) -> str:
    return f"+{value}" if value > 0 else str(value)


@pytest.fixture
def season(client) -> tuple[str, str]:
    """A table with two nights of four hands, both over; the table's url and the last
    match's id."""
    url = create_table(client)
    key = edit_key(client, url)
    table_id = url.rsplit("/", 1)[1]
    for _ in range(2):
        response = client.post(
            f"/api/v1/tables/{table_id}/matches",
            json={"name": "Night", "players": ROSTER, "length": {"hands": len(FOUR)}},
            headers={"Authorization": f"Bearer {key}"},
        )
        match_id = response.get_json()["id"]
        play(client, match_id, key, FOUR)
    return url, match_id


@pytest.mark.slow  # seconds: lays out PDFs
def test_the_season_pdf_has_a_page_of_figures_and_the_awards(client, season):
    url, _ = season
    data = client.get(f"{url}/season.pdf").data
    stats = client.get(f"/api/v1{url}/stats").get_json()
    pages = [squeezed(page.extract_text()) for page in pdf_reader(data).pages]
    page = next(p for p in pages if squeezed("The players' figures") in p)
    for row in stats["players"]:
        line = squeezed(
            f"{row['name']} {row['hands']} {row['hands_won']} "
            f"{(200 * row['seen_hands'] + row['hands']) // (2 * row['hands'])} %"
        )
        assert line in page, row["name"]
        assert ascii_signed(row["best_hand"]["net"]) in page
    awards_text = page[page.index(squeezed("Awards · Season:")) :]
    for award in stats["awards"]:
        assert squeezed(AWARD_TITLES[award["award"]]) in awards_text
        for name in award["players"]:
            assert name in awards_text


@pytest.mark.slow  # seconds: lays out PDFs
def test_the_match_summary_has_tonights_awards_once_over(client, season):
    _, match_id = season
    awards = client.get(f"/api/v1/matches/{match_id}/stats").get_json()["awards"]
    text = squeezed(pdf_text(client.get(f"/matches/{match_id}/summary.pdf").data))
    assert squeezed("Tonight's awards") in text
    for award in awards:
        shown = ascii_signed(award["value"]) if award["award"].startswith("best") else ""
        assert squeezed(f"{AWARD_TITLES[award['award']]}:") in text
        assert shown in text


@pytest.mark.slow  # seconds: lays out PDFs
def test_an_open_match_prints_no_awards(client):
    response = client.post(
        "/api/v1/matches",
        json={"name": "Open", "players": ["Asha", "Bikash"], "rules": "sparkai", "length": None},
    )
    body = response.get_json()
    play(
        client,
        body["id"],
        body["edit_key"],
        [
            {
                "finish": "sequences",
                "winner": "Asha",
                "players": [
                    {"name": "Asha", "seen": "sequences", "maal": 3},
                    {"name": "Bikash", "seen": "unseen", "maal": 0},
                ],
            }
        ],
    )
    text = squeezed(pdf_text(client.get(f"/matches/{body['id']}/summary.pdf").data))
    assert squeezed("Tonight's awards") not in text


@pytest.mark.slow  # seconds: lays out PDFs
def test_the_figures_and_awards_in_nepali(client, season):
    url, match_id = season
    client.get("/lang/ne")
    client.get("/digits/deva")
    text = squeezed(pdf_text(client.get(f"{url}/season.pdf").data))
    assert squeezed("The players' figures") not in text and "Mosthandswon" not in text
    match = squeezed(pdf_text(client.get(f"/matches/{match_id}/summary.pdf").data))
    assert "Tonight" not in match
    assert any(d in match for d in "१२३४५६७८९")
