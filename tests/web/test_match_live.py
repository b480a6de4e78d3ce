"""The match page: the live part it polls, its fixed number of SQL queries, the chart
and the QR code."""

import re

import pytest
from match_pages_support import (
    BY_COUNTS,
    PLAYERS,
    THREE_PLAY,
    WORKED,
    add_hand,
    create_match,
    hand_form,
    imported_match,
    page_totals,
    version_of,
)
from sql_counting import counting_queries

from ledger.http import polls
from ledger.matches import chart
from ledger.web.score_table import RECENT_HANDS

# --- following the match -------------------------------------------------------------------


def test_the_page_polls_its_live_part(client):
    url = create_match(client)
    html = client.get(url).get_data(as_text=True)
    version = version_of(html)
    assert f'hx-get="{url}/live?v={version}"' in html
    assert 'hx-trigger="every 3s"' in html and 'hx-swap="outerHTML"' in html


def test_the_live_part_is_204_until_the_match_changes(app, client):
    url = create_match(client)
    version = version_of(client.get(url).get_data(as_text=True))
    visitor = app.test_client()
    unchanged = visitor.get(f"{url}/live?v={version}")
    assert unchanged.status_code == 204 and unchanged.data == b""
    add_hand(client, url, WORKED)
    changed = visitor.get(f"{url}/live?v={version}")
    assert changed.status_code == 200
    fragment = changed.get_data(as_text=True)
    assert fragment.lstrip().startswith('<div class="match-live" id="match-live"')
    assert "<html" not in fragment
    assert page_totals(fragment) == {"Asha": 41, "Bikash": 2, "Chandra": -18, "Dipa": -25}
    new_version = version_of(fragment)
    assert new_version > version
    assert f'hx-get="{url}/live?v={new_version}"' in fragment
    assert visitor.get(f"{url}/live?v={new_version}").status_code == 204
    # An edit and a delete change the version too.
    client.post(f"{url}/hands/1/edit", data=hand_form(BY_COUNTS, version="1"))
    assert visitor.get(f"{url}/live?v={new_version}").status_code == 200


def test_the_live_part_of_a_missing_match_is_404(client):
    assert client.get("/matches/no-such-match/live?v=1").status_code == 404
    assert client.get("/matches/no-such-match").status_code == 404


def test_standings_and_the_end_of_the_match(client):
    url = create_match(client, length_count="2")
    add_hand(client, url, WORKED)
    add_hand(client, url, THREE_PLAY)
    html = client.get(url).get_data(as_text=True)
    assert "Final standings" in html
    assert "The match is over." in html
    assert "Asha wins with +72." in html
    assert "is dealt by" not in html
    # The end leads with the result and the summary; no more hands until the match is
    # made longer (tests/web/test_hand_once_pages.py).
    assert "Enter another hand" not in html and "/hands/new" not in html
    assert html.index("The match is over.") < html.index("Final standings")
    assert f'href="{url}/summary.pdf">Match summary (PDF)</a>' in html
    assert f'href="{url}/length">Play on…</a>' in html


def test_shared_places(client):
    url = create_match(client, players=["Asha", "Bikash"], length_kind="open")
    void_for_two = {
        "finish": "void",
        "winner": None,
        "players": [{"name": "Asha", "seen": "sequences"}, {"name": "Bikash", "seen": "unseen"}],
    }
    add_hand(client, url, void_for_two, players=["Asha", "Bikash"])
    html = client.get(url).get_data(as_text=True)
    live = html[: html.index('class="print-report"')]
    assert live.count('<span class="shared" title="shared place">=</span>') == 2
    assert "Level at the top: <strong>Asha, Bikash</strong>" in html
    # The printed report (the summary PDF's standings) marks a shared place as the page
    # does: it wrote two plain 1s.
    report = html[html.index('id="report-standings-title"') :]
    report = report[: report.index("</table>")]
    assert report.count('<span class="shared" title="shared place">=</span>') == 2


# --- a fixed number of queries ---------------------------------------------------------------


@pytest.mark.parametrize("editor", [False, True])
def test_the_match_page_runs_the_same_queries_for_2_and_200_hands(app, client, editor):
    counts = []
    for hands in (2, 200):
        url, key = imported_match(client, hands)
        if editor:
            assert client.get(f"{url}/join/{key}").status_code == 303
        for path in (url, f"{url}/live?v=0"):
            with counting_queries(app) as statements:
                response = client.get(path)
            assert response.status_code == 200
            counts.append((path.endswith("v=0"), len(statements)))
        # The newest hands only: the page weighs the same at the 200th hand as at the 12th.
        shown = response.get_data(as_text=True).count('class="num hand-col"')
        assert shown == min(hands, RECENT_HANDS)
    assert counts[0] == counts[2] and counts[1] == counts[3]
    # Rendered: the match's row, then the match, its players, the hands' fold records
    # (the chart), the newest hands, when the first and last were played.
    assert counts[0][1] <= 6
    # Again, unchanged: the row only (the parts rendered for this version are kept); a
    # poll's version was read a moment ago, in front of the app (ledger.http.polls),
    # which gives a follower without cookies the answer it kept: no query at all.
    for path, queries in ((url, 1), (f"{url}/live?v=0", 1 if editor else 0)):
        with counting_queries(app) as statements:
            assert client.get(path).status_code == 200
        assert len(statements) == queries


def test_the_204_answer_is_one_query_then_none_for_a_second(app, client, monkeypatch):
    url = create_match(client)
    version = version_of(client.get(url).get_data(as_text=True))
    now = [1000.0]
    monkeypatch.setattr(polls.time, "monotonic", lambda: now[0])
    for later, queries in ((0.0, 1), (0.5, 0), (1.0, 0), (1.5, 1)):
        now[0] = 1000.0 + later
        with counting_queries(app) as statements:
            assert client.get(f"{url}/live?v={version}").status_code == 204
        assert len(statements) == queries, later


def test_a_write_through_this_process_is_polled_at_once(app, client):
    url = create_match(client)
    version = version_of(client.get(url).get_data(as_text=True))
    assert client.get(f"{url}/live?v={version}").status_code == 204  # the version believed
    add_hand(client, url, WORKED)
    assert client.get(f"{url}/live?v={version}").status_code == 200


# --- the chart ----------------------------------------------------------------------------------


def test_the_chart_is_plain_svg_told_apart_without_colour(client):
    url = create_match(client)
    assert "<svg" not in client.get(url).get_data(as_text=True)  # no hands, no chart
    add_hand(client, url, WORKED)
    add_hand(client, url, BY_COUNTS)
    html = client.get(url).get_data(as_text=True)
    svg = re.search(r"<svg class=\"chart\".*?</svg>", html, re.S).group(0)
    assert " style=" not in svg and "<style" not in svg and "var(" not in svg
    assert "<script" not in svg
    assert svg.count("<polyline") == 4
    dashes = re.findall(r'<polyline[^>]*?(?:stroke-dasharray="([^"]*)")?/>', svg)
    assert len(set(dashes)) == 4  # each player has their own dash pattern (one solid)
    for name in PLAYERS:
        assert f">{name}</text>" in svg  # the label at the line's end
    assert "Asha +34" in svg  # the legend: name and total
    assert 'role="img"' in svg and "<title" in svg and "<desc" in svg


def test_each_players_markers_are_one_element(client):
    """Drawn alike, a line's markers are one path (issue 41: fewer nodes and loops)."""
    url = create_match(client)
    for _ in range(5):
        add_hand(client, url, WORKED)
    svg = re.search(r"<svg class=\"chart\".*?</svg>", client.get(url).text, re.S).group(0)
    # a player's markers, and their legend's line and marker: three paths each
    assert svg.count("<path") == 3 * len(PLAYERS)
    marked = re.findall(r'<path d="([^"]*)" fill="[^"]*" stroke="[^"]*" stroke-width="1.2"/>', svg)
    # each player: one path through the markers of the 5 hands, one for the legend's
    assert sorted(d.count("M") for d in marked) == [1] * len(PLAYERS) + [5] * len(PLAYERS)


def test_chart_geometry():
    built = chart.build_chart(
        ["A", "B", "C"],
        [1, 2, 5],
        [{"A": 10, "B": -5, "C": -5}, {"A": 4, "B": 1, "C": -5}, {"A": -20, "B": 25, "C": -5}],
    )
    assert [t.label for t in built.x_ticks] == ["0", "1", "2", "5"]
    labels = [t.label for t in built.y_ticks]
    assert labels[0] == "\u221220" and labels[-1] == "+30" and "0" in labels
    assert built.top <= min(float(p.split(",")[1]) for s in built.series for p in s.points.split())
    ys = sorted(s.label_y for s in built.series)
    assert all(b - a >= chart.LABEL_GAP - 0.01 for a, b in zip(ys, ys[1:], strict=False))
    assert len({(s.dash, s.hollow, s.markers[0][:1]) for s in built.series}) == 3


def test_chart_with_many_hands_thins_markers_and_labels():
    players = [f"Player {i}" for i in range(10)]
    cumulative = [{p: (i * (n + 1)) % 37 - 18 for n, p in enumerate(players)} for i in range(200)]
    built = chart.build_chart(players, list(range(1, 201)), cumulative)
    assert len(built.x_ticks) <= chart.MAX_X_LABELS
    assert all(len(s.markers) <= chart.MAX_MARKERS + 1 for s in built.series)
    assert len({(s.dash, s.hollow) for s in built.series}) == 10
    assert built.height > chart.PLOT_TOP + chart.PLOT_HEIGHT  # room for a 5-row legend


def test_spread_keeps_labels_apart_within_bounds():
    assert chart.spread([10, 10, 10], 12, 0, 100) == [0.0, 12.0, 24.0]
    assert chart.spread([100, 100], 12, 0, 100) == [88.0, 100.0]
    assert chart.spread([5, 60], 12, 0, 100) == [5.0, 60.0]


def test_eight_end_labels_bunched_near_the_top_do_not_overlap():
    """A night of eight after one hand: one total on top, three tied below it, two tied
    below them. The run of six used to be centred on its own and land on the top label
    (1.7 units apart: two names printed over each other on a phone)."""
    players = ["Asha", "Bikash", "Chandra", "Dipa", "Esha", "Firoz", "Gita", "Hari"]
    totals = dict(zip(players, [10, 2, -46, 2, 10, -6, 18, 10], strict=True))
    built = chart.build_chart(players, [1], [totals])
    ys = sorted(s.label_y for s in built.series)
    assert all(b - a >= chart.LABEL_GAP - 0.01 for a, b in zip(ys, ys[1:], strict=False)), ys
    assert built.top <= ys[0] and ys[-1] <= built.bottom + 4
    # Each label keeps its line's place in the order: the highest line, the top label.
    by_end = sorted(built.series, key=lambda s: (s.end_y, players.index(s.name)))
    assert [s.label_y for s in by_end] == ys


def test_spread_never_lets_two_labels_touch():
    """Any bunching of up to twelve labels: none nearer than the gap, in the order
    wanted, within the bounds when they fit there."""
    import random

    chance = random.Random(19)
    for _ in range(1000):
        wanted = [chance.choice([20, 40, 41, 60, 150, 200]) + chance.random() for _ in range(12)]
        wanted = wanted[: chance.randint(1, 12)]
        placed = chart.spread(wanted, chart.LABEL_GAP, 16, 206)
        ys = sorted(placed)
        assert all(b - a >= chart.LABEL_GAP - 0.01 for a, b in zip(ys, ys[1:], strict=False))
        assert 16 <= ys[0] and ys[-1] <= 206
        in_order = sorted(range(len(wanted)), key=lambda i: wanted[i])
        assert [placed[i] for i in in_order] == ys


def test_chart_doctests():
    import doctest

    result = doctest.testmod(chart)
    assert result.attempted > 0 and result.failed == 0


# --- sharing -------------------------------------------------------------------------------------


def test_the_qr_code_holds_the_read_only_link(app, client):
    url = create_match(client)
    response = client.get(f"{url}/qr.svg")
    assert response.status_code == 200
    assert response.mimetype == "image/svg+xml"
    svg = response.get_data(as_text=True)
    assert svg.startswith("<svg") and "viewBox" in svg and "<script" not in svg
    html = client.get(url).get_data(as_text=True)
    assert f'src="{url}/qr.svg"' in html
    read_link = re.search(r'id="read-link" type="url" readonly value="([^"]+)"', html).group(1)
    assert read_link == f"http://localhost{url}"
    assert "/join/" not in read_link
    assert client.get("/matches/nope/qr.svg").status_code == 404


# --- parts kept per match version -----------------------------------------------------------


def test_kept_parts_follow_the_version_the_reader_and_the_digits(app, client):
    url = create_match(client)
    add_hand(client, url, WORKED)
    editor_page = client.get(url).get_data(as_text=True)
    assert "Enter hand 2" in editor_page
    visitor = app.test_client()
    assert "Enter hand 2" not in visitor.get(url).get_data(as_text=True)  # not the editor's
    nepali_digits = app.test_client()
    nepali_digits.set_cookie("digits", "deva")
    assert "+४१" in nepali_digits.get(url).get_data(as_text=True)
    assert "+४१" not in visitor.get(url).get_data(as_text=True)
    add_hand(client, url, BY_COUNTS)  # a new version: rendered again
    assert 'aria-label="Hand 2"' in visitor.get(url).get_data(as_text=True)


def test_the_cache_keeps_the_most_recently_used():
    from markupsafe import Markup

    from ledger.matches.page_cache import FragmentCache

    cache = FragmentCache(size=2)
    cache.put("a", Markup("A"))
    cache.put("b", Markup("B"))
    assert cache.get("a") == "A"  # a is now the most recent
    cache.put("c", Markup("C"))
    assert cache.get("b") is None and cache.get("a") == "A" and cache.get("c") == "C"


def test_the_cache_holds_no_more_than_its_characters():
    from ledger.matches.page_cache import FragmentCache

    cache = FragmentCache(size=10, chars=10)
    cache.put("a", "x" * 4)
    cache.put("b", "y" * 4)
    cache.put("a", "z" * 5)  # replaced: counted once
    assert cache.get("a") == "zzzzz" and cache.get("b") == "yyyy"
    cache.put("c", "w" * 4)  # 13 characters: the least recently used (a) goes
    assert cache.get("a") is None and cache.get("b") and cache.get("c")
    cache.put("big", "v" * 11)  # more than it may hold: not kept, nothing dropped
    assert cache.get("big") is None and cache.get("b") and cache.get("c")


def test_a_long_devanagari_name_is_cut_where_a_letter_ends():
    """The chart cuts a long name to fit beside its line and in the legend; cut by
    characters, "चन्द्रबहादुर" ended in a half letter or a vowel sign without its letter."""
    import unicodedata

    names = ["चन्द्रबहादुर", "सन्तोषकुमार श्रेष्ठ थापा मगर", "कृष्णप्रसाद"]
    built = chart.build_chart(names, [1], [dict(zip(names, [3, -1, -2], strict=True))])
    for s in built.series:
        for shown in (s.short_name, s.legend_name):
            kept = shown.removesuffix("…")
            assert s.name.startswith(kept), shown
            rest = s.name[len(kept) :]
            assert not kept.endswith(chart.VIRAMA), shown
            assert not rest or unicodedata.category(rest[0])[0] != "M", shown
    assert [s.short_name for s in built.series][0] == "चन्द्रबहा…"
