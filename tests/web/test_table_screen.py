"""A table on the big screen (ledger/web/table_screen.py): tonight's match beside the
season's standings, polled as the match's screen is (204 while nothing changed)."""

from __future__ import annotations

import re

from api_hands import play
from match_pages_support import THREE_PLAY
from table_pages_support import FOUR, ROSTER, create_table, edit_key, start_match, sums


def stamp(html: str) -> str:
    return re.search(r'id="screen-live" data-version="([^"]+)"', html).group(1)


def test_tonights_match_beside_the_season_and_the_poll(app, client):
    url = create_table(client)
    key = edit_key(client, url)
    first = start_match(client, url, ROSTER, name="Monday")
    play(client, first, key, FOUR)
    tonight = start_match(client, url, ROSTER[:3], name="Tuesday")
    reader = app.test_client()  # the screen needs no edit rights
    html = reader.get(f"{url}/screen").get_data(as_text=True)
    assert "Tuesday" in html and "No hands yet." in html
    assert "/join/" not in html and 'method="post"' not in html
    assert f'src="{url}/qr.svg"' in html
    part = html[html.index('class="screen-season"') :]
    names = re.findall(r'class="name">([^<]+)</span>', part)
    totals = re.findall(r'data-total="(-?\d+)"', part)
    season = dict(zip(names, totals, strict=True))
    want = sums(client, [first])["players"]
    assert {n: int(t) for n, t in season.items()} == {n: f["total"] for n, f in want.items()}
    v = stamp(html)
    assert reader.get(f"{url}/screen/live", query_string={"v": v}).status_code == 204
    play(client, tonight, key, [THREE_PLAY])
    fresh = reader.get(f"{url}/screen/live", query_string={"v": v})
    assert fresh.status_code == 200
    part = fresh.get_data(as_text=True)
    assert stamp(part) != v and "Hand 1" in part and "No hands yet." not in part


def test_a_table_without_matches_and_an_unknown_table(client):
    url = create_table(client)
    html = client.get(f"{url}/screen").get_data(as_text=True)
    assert "No matches in this season yet." in html
    assert client.get("/tables/AAAAAAAAAAAAAAAAAAAAAA/screen").status_code == 404
    assert 'href="' + url + '/screen"' in client.get(url).get_data(as_text=True)
