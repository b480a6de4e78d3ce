"""The pages' sentences that count read right for one as for more, in English ("1 hand
played", "after 1 hand", "1 point"), and are in Nepali on a Nepali page."""

from __future__ import annotations

import html
import re

import pytest
from api_hands import play
from table_pages_support import FOUR, ROSTER, create_table, edit_key, start_match


def _text(page: str) -> str:
    return " ".join(html.unescape(re.sub(r"<[^>]+>", " ", page)).split())


@pytest.mark.parametrize(
    ("lang", "hands", "words"),
    [
        ("en", 1, "1 hand played"),
        ("en", 2, "2 hands played"),
        ("ne", 1, "१ बाजी खेलियो"),
        ("ne", 2, "२ बाजी खेलियो"),
    ],
)
def test_the_tables_list_of_matches_counts_the_hands_played(client, lang, hands, words):
    url = create_table(client)
    match_id = start_match(client, url, ROSTER)
    play(client, match_id, edit_key(client, url), FOUR[:hands])
    client.set_cookie("lang", lang)
    page = _text(client.get(url).get_data(as_text=True))
    assert words in page
    assert "1 hands" not in page


@pytest.mark.parametrize(
    ("lang", "words"),
    [
        ("en", "The night was ended after 1 hand."),
        ("ne", "रात १ बाजीपछि टुङ्ग्याइयो।"),
    ],
)
def test_the_hand_form_of_a_night_ended_after_one_hand_says_1_hand(client, lang, words):
    url = create_table(client)
    match_id = start_match(client, url, ROSTER)
    play(client, match_id, edit_key(client, url), FOUR[:1])
    assert client.post(f"/matches/{match_id}/end").status_code == 303
    client.set_cookie("lang", lang)
    form = client.get(f"/matches/{match_id}/hands/new")
    assert form.status_code == 303
    page = _text(client.get(form.headers["Location"]).get_data(as_text=True))
    assert words in page


def test_a_players_page_after_one_hand_counts_1_hand(client):
    url = create_table(client)
    match_id = start_match(client, url, ROSTER)
    play(client, match_id, edit_key(client, url), FOUR[:1])
    page = _text(client.get(f"{url}/players/Asha").get_data(as_text=True))
    assert "of 1 hand " in page and "Seen in" in page
    assert "of 1 hands" not in page
