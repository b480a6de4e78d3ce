"""A season started by mistake, taken back from the table's page."""

from __future__ import annotations

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
