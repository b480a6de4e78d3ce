"""A season started by mistake, taken back from the table's page."""

from __future__ import annotations

import re

from table_pages_support import ROSTER, create_table, start_match


def _start_season(client, url: str, name: str) -> None:
    assert client.post(f"{url}/seasons", data={"name": name}).status_code == 303


def test_a_mistaken_season_is_taken_back_from_the_table_page(client):
    url = create_table(client)
    page = client.get(url).get_data(as_text=True)
    assert "Take this season back" not in page  # the first season: none before it
    _start_season(client, url, "Dashain 2083")
    page = client.get(url).get_data(as_text=True)
    assert "Started by mistake?" in page and "Take this season back" in page
    action = page.split('class="inline-form take-back-season" method="post" action="', 1)[1]
    done = client.post(action.split('"', 1)[0], follow_redirects=True)
    text = done.get_data(as_text=True)
    assert "The season “Dashain 2083” is taken back: the season before it is current again." in text
    assert "Dashain 2083" not in text.split("is current again.", 1)[1]


def test_a_season_with_a_night_offers_no_take_back(client):
    url = create_table(client)
    _start_season(client, url, "Dashain 2083")
    start_match(client, url, ROSTER)
    assert "Take this season back" not in client.get(url).get_data(as_text=True)


def test_a_reader_is_offered_nothing_and_may_not_post(client, app):
    url = create_table(client)
    _start_season(client, url, "Dashain 2083")
    page = client.get(url).get_data(as_text=True)
    action = page.split('class="inline-form take-back-season" method="post" action="', 1)[1]
    stranger = app.test_client()
    assert "Take this season back" not in stranger.get(url).get_data(as_text=True)
    assert stranger.post(action.split('"', 1)[0]).status_code == 403
    assert "Take this season back" in client.get(url).get_data(as_text=True)


def test_in_nepali(client):
    url = create_table(client)
    _start_season(client, url, "दशैँ २०८३")
    client.set_cookie("lang", "ne")
    page = client.get(url).get_data(as_text=True)
    action = page.split('class="inline-form take-back-season" method="post" action="', 1)[1]
    text = client.post(action.split('"', 1)[0], follow_redirects=True).get_data(as_text=True)
    assert "“दशैँ २०८३” सिजन फिर्ता लिइयो" in text


def _take_back_action(client, url: str) -> str:
    page = client.get(url).get_data(as_text=True)
    action = page.split('class="inline-form take-back-season" method="post" action="', 1)[1]
    return action.split('"', 1)[0]


def test_a_take_back_sent_again_says_it_was_taken_back_and_changes_nothing(client):
    """A double tap, or the back button and the form sent again: before, "Page not found"."""
    url = create_table(client)
    _start_season(client, url, "Dashain 2083")
    action = _take_back_action(client, url)
    assert client.post(action).status_code == 303
    _start_season(client, url, "Tihar 2083")  # what the table holds now must stay
    again = client.post(action, follow_redirects=True)
    text = again.get_data(as_text=True)
    assert again.status_code == 200
    assert "This season is no longer at the table: it was already taken back" in text
    assert "Take this season back" in text  # Tihar is still there, still current
    table = client.get("/api/v1" + url).get_json()
    assert [s["name"] for s in table["seasons"]] == ["1", "Tihar 2083"]


def test_a_rename_from_a_tab_left_open_after_the_take_back_changes_nothing(client):
    url = create_table(client)
    _start_season(client, url, "Dashain 2083")
    page = client.get(url).get_data(as_text=True)
    rename = re.search(r'action="([^"]+/rename)"', page).group(1)
    season_id = rename.rsplit("/", 2)[1]
    client.post(_take_back_action(client, url))
    sent = client.post(rename, data={f"{season_id}-name": "Dashain 2084"}, follow_redirects=True)
    text = sent.get_data(as_text=True)
    assert sent.status_code == 200
    assert "it was taken back meanwhile, so no name was changed." in text
    assert "Dashain 2084" not in text


def test_a_stale_take_back_in_nepali(client):
    url = create_table(client)
    _start_season(client, url, "Dashain 2083")
    action = _take_back_action(client, url)
    client.post(action)
    client.set_cookie("lang", "ne")
    text = client.post(action, follow_redirects=True).get_data(as_text=True)
    assert "यो सिजन अब टेबलमा छैन" in text
