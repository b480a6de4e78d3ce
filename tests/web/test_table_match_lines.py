"""A table's page draws each match's line once per version of the match (issue 41): a
hand added tonight draws tonight's line again, and no other; nor the rating chart."""

from __future__ import annotations

from api_hands import play
from call_counting import recorded_calls
from sql_counting import counting_queries
from table_pages_support import ROSTER, create_table, edit_key, start_match

from ledger.engine.player_figures import PlayerFigures
from ledger.http import compression
from ledger.http.forgetting import forget_kept_pages
from ledger.tables import figures
from ledger.tables.figures import PlayerLine
from ledger.web import matches, tables

HAND = {
    "finish": "sequences",
    "winner": "Asha",
    "players": [{"name": n, "seen": "sequences", "maal": 2} for n in ROSTER[:4]],
}


def open_nights(client, url: str, key: str) -> list[str]:
    """Three matches of the table, each with a hand: their ids."""
    nights = [start_match(client, url, ROSTER[:4]) for _ in range(3)]
    for night in nights:
        play(client, night, key, [HAND])
    return nights


def finished_nights_and_tonight(client, url: str, key: str, finished: int = 2) -> str:
    """``finished`` nights played and ended, then tonight's with a hand: its id."""
    for _ in range(finished):
        night = start_match(client, url, ROSTER[:4])
        play(client, night, key, [HAND])
        assert client.post(f"/matches/{night}/end").status_code == 303
    tonight = start_match(client, url, ROSTER[:4])
    play(client, tonight, key, [HAND])
    return tonight


def test_a_new_hand_draws_only_its_matchs_line(client, monkeypatch):
    url = create_table(client)
    key = edit_key(client, url)
    nights = open_nights(client, url, key)
    drawn = recorded_calls(monkeypatch, tables, "render_match_line", lambda match: match.public_id)
    first = client.get(url).text
    assert sorted(drawn) == sorted(nights)
    drawn.clear()
    play(client, nights[-1], key, [HAND])
    again = client.get(url).text
    assert drawn == [nights[-1]]
    for night in nights:
        assert f'href="/matches/{night}"' in first and f'href="/matches/{night}"' in again
    assert again.count('class="hint"') == first.count('class="hint"')


def test_a_hand_in_tonights_open_match_draws_the_rating_chart_no_more(client, monkeypatch):
    """Ratings change only when a match is over: the chart of them is drawn once per
    players, finished matches and digits, not after every hand of tonight's."""
    url = create_table(client)
    key = edit_key(client, url)
    tonight = finished_nights_and_tonight(client, url, key)
    drawn = recorded_calls(
        monkeypatch, tables, "build_chart", lambda names, numbers, columns: len(columns)
    )
    first = client.get(url).text
    assert sorted(drawn) == [2, 3]  # the ratings after 2 finished matches, the 3 nights
    drawn.clear()
    play(client, tonight, key, [HAND])
    again = client.get(url).text
    assert drawn == [3]  # the nights' totals alone
    rating = 'id="rating-chart'
    assert rating in again
    chart = again[again.index(rating) : again.index("</svg>", again.index(rating))]
    assert chart == first[first.index(rating) : first.index("</svg>", first.index(rating))]
    client.get("/digits/latn" if "digits-deva" in again else "/digits/deva")
    client.get(url)
    assert drawn == [3, 3, 2]  # the other digits: its ticks' labels drawn again


def test_a_hand_tonight_counts_tonights_night_alone_into_the_figures(client, monkeypatch):
    """The players' figures over the finished nights are kept: a hand in tonight's match
    counts tonight's night on to them, and the figures are those of every night."""
    url = create_table(client)
    key = edit_key(client, url)
    nights = open_nights(client, url, key)
    stats_url = f"/api/v1/tables/{url.rsplit('/', 1)[1]}/stats?season=all"
    counted = recorded_calls(
        monkeypatch, PlayerFigures, "add_night", lambda figures, night: night.match
    )
    assert client.get(url).status_code == 200
    assert sorted(set(counted)) == sorted(nights)
    counted.clear()
    play(client, nights[-1], key, [HAND])
    page = client.get(url)
    stats = client.get(stats_url).get_json()
    assert page.status_code == 200 and set(counted) == {nights[-1]}
    asha = next(row for row in stats["players"] if row["name"] == "Asha")
    assert asha["matches"] == 3 and asha["hands"] == 4 and asha["hands_won"] == 4


def test_a_hand_tonight_sums_tonights_match_alone_into_the_standings(client, monkeypatch):
    """The standings' sums over the earlier matches are kept: a hand in tonight's match
    adds tonight's lines alone, and the standings are those of every match."""
    url = create_table(client)
    key = edit_key(client, url)
    nights = open_nights(client, url, key)
    standings_url = f"/api/v1/tables/{url.rsplit('/', 1)[1]}/standings?season=all"
    added = recorded_calls(monkeypatch, PlayerLine, "add", lambda player, *_: player.name)
    assert client.get(url).status_code == 200
    assert len(added) == 12  # four players, three matches
    added.clear()
    play(client, nights[-1], key, [HAND])
    assert client.get(url).status_code == 200
    assert sorted(added) == sorted(ROSTER[:4])
    lines = {line["name"]: line for line in client.get(standings_url).get_json()["players"]}
    assert lines["Asha"]["matches"] == 3 and lines["Asha"]["hands"] == 4
    assert lines["Asha"]["hands_won"] == 4 and lines["Bikash"]["hands"] == 4


def test_the_table_page_reads_the_seasons_payments_once(app, client):
    """The page lists the season's payments and counts them in its money: one read."""
    url = create_table(client)
    key = edit_key(client, url)
    night = start_match(client, url, ROSTER[:4])
    play(client, night, key, [HAND])
    with counting_queries(app) as statements:
        page = client.get(url)
    assert page.status_code == 200 and f'href="/matches/{night}"' in page.text
    assert len([s for s in statements if "FROM table_payments" in s]) == 1


def test_the_rating_charts_svg_is_kept_until_a_rating_or_a_name_changes(client, monkeypatch):
    """Its SVG is kept by the chart (and its words): a hand tonight draws it no more, a
    rename or another finished match does."""
    url = create_table(client)
    key = edit_key(client, url)
    tonight = finished_nights_and_tonight(client, url, key)
    drawn = recorded_calls(
        monkeypatch, matches, "get_template_attribute", lambda template, name: name
    )
    client.get(url)
    assert drawn.count("match_chart") == 1
    play(client, tonight, key, [HAND])
    client.get(url)
    assert drawn.count("match_chart") == 1
    renamed = {"player": "Bikash", "p" + b"Bikash".hex() + "-name": "Bikas"}
    assert client.post(f"{url}/players/rename", data=renamed).status_code == 303
    page = client.get(url).text
    assert drawn.count("match_chart") == 2
    start = page.index('id="rating-chart')
    rating = page[start : page.index("</svg>", start)]
    assert "Bikas " in rating and "Bikash" not in rating
    assert client.post(f"/matches/{tonight}/end").status_code == 303
    client.get(url)
    assert drawn.count("match_chart") == 3


def test_a_forget_empties_the_cached_ratings_chart_and_compressed_pages(app, client):
    """The ratings, the rating chart and the compressed pages hold names as entered:
    after a forget none of them stays in the process's memory."""
    url = create_table(client)
    finished_nights_and_tonight(client, url, edit_key(client, url), finished=1)
    page = client.get(url, headers={"Accept-Encoding": "br"})
    assert page.headers["Content-Encoding"] == "br"
    caches = [figures.rating_steps, tables._rating_chart, compression._compress_kept]
    assert all(cache.cache_info().currsize for cache in caches)
    forget_kept_pages(app)
    assert [cache.cache_info().currsize for cache in caches] == [0, 0, 0]
