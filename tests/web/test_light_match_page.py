"""A long match: the match page shows the newest hands and weighs the same at the 300th
hand as at the 20th; every hand is on the pages of hands; the chart is drawn through at
most ``MAX_POINTS`` of its hands; the match's JSON is kept per version."""

from __future__ import annotations

import json
import re

import pytest
from flask import template_rendered
from match_pages_support import PLAYERS, imported_match

from ledger.matches.chart import MAX_POINTS
from ledger.web.hands import HANDS_PER_PAGE
from ledger.web.score_table import RECENT_HANDS


def hand_columns(html: str) -> list[int]:
    return [int(n) for n in re.findall(r'class="num hand-col" id="hand-(\d+)"', html)]


@pytest.fixture
def long_match(client):
    url, _key = imported_match(client, 120)
    return url


def test_the_page_shows_the_newest_hands_and_links_the_rest(client, long_match):
    html = client.get(long_match).get_data(as_text=True)
    assert hand_columns(html) == list(range(121 - RECENT_HANDS, 121))
    older = 120 - RECENT_HANDS
    assert f"See the {older} earlier hands" in html
    assert f'href="{long_match}/hands"' in html
    # The printed report says where the earlier hands are.
    report = html[html.index('<div class="print-report">') :]
    assert f"The {older} earlier hands are in the match summary (PDF)." in report


def test_the_page_weighs_the_same_however_long_the_match(client):
    sizes = []
    for hands in (20, 300):
        url, _key = imported_match(client, hands)
        sizes.append(len(client.get(url).get_data()))
    assert sizes[1] < sizes[0] * 1.15


def test_the_pages_of_hands_hold_every_hand_once(client, long_match):
    pages = -(-120 // HANDS_PER_PAGE)
    seen = []
    for page in range(1, pages + 1):
        response = client.get(f"{long_match}/hands?page={page}")
        assert response.status_code == 200
        html = response.get_data(as_text=True)
        assert f"page {page} of {pages}" in html
        seen += hand_columns(html)
    assert seen == list(range(1, 121))
    # The running total in each cell is the match's: the JSON's cumulative totals.
    first = client.get(f"{long_match}/hands?page=1").get_data(as_text=True)
    public_id = long_match.rsplit("/", 1)[1]
    cumulative = client.get(f"/api/v1/matches/{public_id}").get_json()["cumulative"]
    running = re.findall(r'<span class="running">= ([^<]+)</span>', first)
    assert running[0].replace("\N{MINUS SIGN}", "-").lstrip("+") == str(
        cumulative[0]["totals"]["Asha"]
    )


@pytest.mark.parametrize("page", ["0", "99", "x", "-1"])
def test_a_page_that_is_not_there_shows_the_newest(client, long_match, page):
    response = client.get(f"{long_match}/hands?page={page}")
    assert response.status_code == 200
    assert hand_columns(response.get_data(as_text=True))[-1] == 120


def test_a_match_without_hands_has_an_empty_page_of_hands(client):
    url, _key = imported_match(client, 0)
    html = client.get(f"{url}/hands").get_data(as_text=True)
    assert "No hands have been played yet." in html


def test_the_chart_is_drawn_through_at_most_max_points_hands(client, long_match):
    html = client.get(long_match).get_data(as_text=True)
    chart = html[html.index('class="match-chart"') :]
    polyline = re.search(r'<polyline[^>]* points="([^"]+)"', chart).group(1)
    assert len(polyline.split()) <= MAX_POINTS + 1  # and the start, before any hand


def test_the_match_json_is_kept_per_version_and_answers_304_to_its_etag(client, long_match):
    public_id = long_match.rsplit("/", 1)[1]
    first = client.get(f"/api/v1/matches/{public_id}")
    etag = first.headers["ETag"]
    again = client.get(f"/api/v1/matches/{public_id}", headers={"If-None-Match": etag})
    assert again.status_code == 304 and again.get_data() == b""
    body = json.loads(first.get_data())
    assert len(body["hands"]) == 120 and len(body["cumulative"]) == 120
    # Another version is another answer.
    with client.application.app_context():
        from ledger import matches

        match = matches.get_match(public_id)
        matches.change_match(match, {"name": "Renamed"})
    changed = client.get(f"/api/v1/matches/{public_id}", headers={"If-None-Match": etag})
    assert changed.status_code == 200 and changed.get_json()["name"] == "Renamed"
    assert changed.headers["ETag"] != etag


@pytest.mark.parametrize("part", ["", "/live"])
def test_the_chart_is_drawn_once_per_page(client, long_match, part):
    """The printed page shows the screen's chart in the report's place (report.css): one
    drawing, one line per player."""
    html = client.get(long_match + part).get_data(as_text=True)
    assert html.count('<svg class="chart"') == 1
    assert "print-chart" not in html
    assert html.count("<polyline") == len(PLAYERS)


@pytest.mark.parametrize("part", ["", "/live"])
def test_the_settle_up_is_drawn_once_per_page(app, client, long_match, part):
    """The page shows who pays whom on the screen and again in its printed report: the
    figures are drawn once (``settle_up_figures``), the same in both places."""
    drawn: list[str] = []

    def count(sender, template, context, **extra):
        drawn.append(template.name)

    template_rendered.connect(count, app)
    try:
        html = client.get(long_match + part).get_data(as_text=True)
    finally:
        template_rendered.disconnect(count, app)
    assert drawn.count("match/_settle_up_figures.html") == 1
    screen = re.search(r'<section class="settle-up" id="settle-up".*?</section>', html, re.S)
    report = re.search(r'<section class="settle-up" id="report-settle-up".*?</section>', html, re.S)
    assert screen and report
    assert screen[0].count("<tr>") == report[0].count("<tr>") > 1
    assert re.findall(r'data-total="(-?\d+)"', screen[0]) == re.findall(
        r'data-total="(-?\d+)"', report[0]
    )
