"""The table's "What if…?" page (ledger/web/table_what_if.py): the season's standings
as played and under the rules picked, as the season rescore API gives them."""

from __future__ import annotations

import io
import re

import pytest
from api_hands import play
from pypdf import PdfReader
from table_pages_support import FOUR, ROSTER, create_table, edit_key, race_night, start_match


def rows(html: str) -> dict[str, tuple[str, int]]:
    found = re.findall(
        r'<tr><th scope="row">([^<]+)</th>\s*<td class="num">([^<]+)</td>\s*'
        r'<td class="num total" data-total="(-?\d+)">',
        html,
    )
    return {name: (played, int(total)) for name, played, total in found}


def test_the_page_shows_the_season_under_the_rules_picked(client):
    url = create_table(client)
    key = edit_key(client, url)
    for _ in range(2):
        play(client, start_match(client, url, ROSTER), key, FOUR)
    assert 'href="' + url + "/what-if?season=" in client.get(url).get_data(as_text=True)
    own = client.get(f"{url}/what-if")
    assert own.status_code == 200
    html = own.get_data(as_text=True)
    assert "the table&#39;s own rules" in html or "the table's own rules" in html
    page = client.get(f"{url}/what-if", query_string={"rules-profile": "everestbuzz"})
    assert page.status_code == 200
    api = client.post(f"/api/v1{url}/rescore", json={"rules": "everestbuzz"}).get_json()
    got = rows(page.get_data(as_text=True))
    assert {n: t for n, (_, t) in got.items()} == {p["name"]: p["total"] for p in api["players"]}
    assert any(p["total"] != p["total_as_played"] for p in api["players"])  # a real change


def test_a_bad_override_is_422_on_its_field_and_an_unknown_season_404(client):
    url = create_table(client)
    bad = client.get(
        f"{url}/what-if", query_string={"rules-profile": "sparkai", "rules-marriage": "lots"}
    )
    assert bad.status_code == 422
    assert 'id="rules-marriage-errors"' in bad.get_data(as_text=True)
    assert client.get(f"{url}/what-if", query_string={"season": "nope"}).status_code == 404


def test_the_page_in_nepali(client):
    url = create_table(client)
    client.get("/lang/ne")
    html = client.get(f"{url}/what-if", query_string={"rules-profile": "everestbuzz"}).get_data(
        as_text=True
    )
    assert "के भए…?" in html and "What if" not in html


@pytest.mark.slow  # seconds: lays out PDFs or runs many requests
def test_the_season_comparison_prints_on_one_page_kept_until_a_hand_changes_it(client):
    url = create_table(client)
    key = edit_key(client, url)
    first = start_match(client, url, ROSTER)
    play(client, first, key, FOUR)
    play(client, start_match(client, url, ROSTER), key, FOUR)
    page = client.get(f"{url}/what-if", query_string={"rules-profile": "everestbuzz"})
    link = re.search(r'href="([^"]*/what-if\.pdf[^"]*)"', page.get_data(as_text=True)).group(1)
    response = client.get(link.replace("&amp;", "&"))
    assert response.status_code == 200 and response.mimetype == "application/pdf"
    pdf = PdfReader(io.BytesIO(response.data))
    assert len(pdf.pages) == 1
    text = " ".join(pdf.pages[0].extract_text().split())
    api = client.post(f"/api/v1{url}/rescore", json={"rules": "everestbuzz"}).get_json()
    assert "Everest Buzz" in text
    for line in api["players"]:  # each player's two totals, as the API sums them
        assert line["name"] in text
        for total in (line["total_as_played"], line["total"]):
            assert f"{total:+d}".replace("-", "−") in text or str(total) in text
    assert client.get(link.replace("&amp;", "&")).data == response.data  # kept
    play(client, first, key, FOUR[:1])  # a new hand: printed again
    assert client.get(link.replace("&amp;", "&")).data != response.data


def test_the_season_pdf_refuses_bad_rules_and_an_unknown_season_and_speaks_nepali(client):
    url = create_table(client)
    pdf = f"{url}/what-if.pdf"
    assert client.get(pdf, query_string={"rules-profile": "nope"}).status_code == 404
    assert client.get(pdf, query_string={"season": "nope"}).status_code == 404
    client.get("/lang/ne")
    response = client.get(pdf, query_string={"rules-profile": "everestbuzz"})
    assert response.status_code == 200
    text = "".join(PdfReader(io.BytesIO(response.data)).pages[0].extract_text().split())
    assert "केभए" in text and "Whatif" not in text and "Asplayed" not in text


ZERO_SUM_ONLY = "“As played” counts the zero-sum nights only"


def test_the_page_says_as_played_leaves_the_points_races_out_and_these_rules_do_not(client):
    """A season of a zero-sum night and a points race: "As played" is the standings'
    total, of the zero-sum night alone; under zero-sum rules the race is rescored and
    counts, and under a points race every night's maal counts. The page says so, under
    either (in Nepali too); a season without a race has nothing to say."""
    url = create_table(client)
    key = edit_key(client, url)
    play(client, start_match(client, url, ROSTER), key, FOUR)
    assert ZERO_SUM_ONLY not in client.get(f"{url}/what-if").get_data(as_text=True)
    race_night(client, url)
    for profile, words in (
        ("sparkai", "the points races rescored as zero-sum nights"),
        ("gamerules", "each player’s own maal"),
    ):
        page = client.get(f"{url}/what-if", query_string={"rules-profile": profile})
        note = " ".join(page.get_data(as_text=True).split())
        assert ZERO_SUM_ONLY in note and words in note, profile
    api = client.post(f"/api/v1{url}/rescore", json={"rules": "sparkai"}).get_json()
    assert [m["points_race"] for m in api["matches"]] == [False, True]
    client.get("/lang/ne")
    html = client.get(f"{url}/what-if", query_string={"rules-profile": "sparkai"})
    assert ZERO_SUM_ONLY not in html.get_data(as_text=True)
    assert "आपसी हिसाबका रातहरू मात्र" in html.get_data(as_text=True)
