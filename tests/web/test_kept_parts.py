"""The match page's parts that follow only the house rules and the language (the rules'
summary, the printed game's words) are rendered once and kept (issue 41): a new hand
draws them no more, and each language has its own; a forget empties them, and what is
kept of a match (its players, its newest hands)."""

from __future__ import annotations

import re

import pytest
from api_hands import new_match
from call_counting import recorded_calls, rendered_templates
from match_pages_support import THREE_PLAY, VOID, WORKED, add_hand, create_match

from ledger import matches as db_matches
from ledger.http.forgetting import forget_kept_pages
from ledger.matches.hands_kept import kept_hands
from ledger.matches.page_cache import fragment_cache
from ledger.matches.players_kept import kept_players
from ledger.web import matches
from ledger.web.matches import KEPT_PARTS, REPORT_HAND_ROWS, SCORE_CELLS


def test_a_new_hand_draws_the_rules_and_the_words_no_more(app, client, monkeypatch):
    url = create_match(client)
    add_hand(client, url, WORKED)
    macros = recorded_calls(monkeypatch, matches, "get_template_attribute", lambda t, name: name)
    with rendered_templates(app) as templates:
        first = client.get(url).text
        assert macros == ["rules_summary"] and "partials/game_words.html" in templates
        macros.clear()
        templates.clear()
        add_hand(client, url, WORKED)
        again = client.get(url).text
        assert macros == [] and "partials/game_words.html" not in templates
    for part in ('<dl class="rules-summary">', 'id="game-words-title"'):
        assert first.count(part) == again.count(part) == 1
    client.get("/lang/ne")
    nepali = client.get(url).text
    assert macros == ["rules_summary"] and "शब्द" in nepali.split('id="game-words-title"')[1][:80]


def report_rows(html: str) -> list[str]:
    """The rows of the printed report's table of hands, each hand's as the page has it."""
    table = html.split('class="report-table hands-table')[1].split("<tbody>")[1]
    table = table.split('class="totals-row"')[0]
    return ["<tr>" + row.split("</tr>")[0] for row in table.split("<tr>")[1:]]


def test_a_new_hand_draws_its_own_row_of_the_report_and_not_the_rules(app, client, monkeypatch):
    url = create_match(client)
    for hand in (WORKED, THREE_PLAY, VOID):  # a seat sat out, a void hand
        add_hand(client, url, hand)
    drawn = recorded_calls(
        monkeypatch, matches, "render_report_hand_row", lambda hand, seats: hand.number
    )
    with rendered_templates(app) as templates:
        first = client.get(url).text
        assert drawn == [1, 2, 3] and "partials/match_rules.html" in templates
        drawn.clear()
        templates.clear()
        add_hand(client, url, WORKED)
        again = client.get(url).text
        assert drawn == [4] and "partials/match_rules.html" not in templates
        assert report_rows(again)[:3] == report_rows(first)
        assert len(report_rows(again)) == 4 and 'class="num out"' in report_rows(again)[1]
        title = 'id="report-rules-title"'
        assert first.count(title) == again.count(title) == 1
        client.get("/lang/ne")
        nepali = client.get(url).text
        assert drawn == [4, 1, 2, 3, 4] and "partials/match_rules.html" in templates
    assert "बाहिर" in report_rows(nepali)[1] and "१" in report_rows(nepali)[0]


def score_cells_of(html: str) -> list[str]:
    return re.findall(r'<td class="num cell[^"]*">.*?</td>', html, re.S)


def test_a_new_hand_draws_its_own_cells_of_the_score_table(app, client, monkeypatch):
    url = create_match(client)
    for hand in (WORKED, THREE_PLAY, VOID):  # a seat sat out, a void hand
        add_hand(client, url, hand)
    drawn = recorded_calls(monkeypatch, matches, "render_score_cell", lambda cell: cell.hand)
    first = client.get(url).text
    assert drawn and set(drawn) <= {1, 2, 3}
    drawn.clear()
    add_hand(client, url, WORKED)
    again = client.get(url).text
    assert set(drawn) <= {4} and len(drawn) <= 4  # none of the earlier hands' cells
    seats = len(score_cells_of(first)) // 3  # a row a player, a cell a hand
    before, after = score_cells_of(first), score_cells_of(again)
    assert len(after) == seats * 4
    for row in range(seats):  # the earlier hands' cells as they were
        assert after[row * 4 : row * 4 + 3] == before[row * 3 : row * 3 + 3]
    client.get("/lang/ne")
    nepali = client.get(url).text
    assert set(drawn) == {1, 2, 3, 4}  # in Nepali, each drawn again in its words
    assert "बाहिर" in "".join(score_cells_of(nepali)) and "बाहिर" not in again


def test_a_new_hand_draws_its_own_head_of_the_score_table(app, client, monkeypatch):
    url = create_match(client)
    for hand in (WORKED, THREE_PLAY, VOID):
        add_hand(client, url, hand)
    drawn = recorded_calls(
        monkeypatch, matches, "render_score_head", lambda public_id, number: number
    )
    client.get(url)
    assert sorted(drawn) == [1, 2, 3]
    drawn.clear()
    add_hand(client, url, WORKED)
    again = client.get(url).text
    assert drawn == [4]  # the earlier hands' heads are kept
    for number in (1, 2, 3, 4):
        assert f'id="hand-{number}">\n            <a href="{url}/hands/{number}"' in again
    client.get("/lang/ne")
    nepali = client.get(url).text
    assert sorted(drawn) == [1, 2, 3, 4, 4]  # in Nepali, each drawn again in its words
    assert 'aria-label="बाजी ४">४</a>' in nepali


def test_the_header_and_the_rules_are_kept_by_what_they_show(app, client):
    """A hand draws the page's header and its house rules no more; a new name or length,
    and the reader's page (no editing links), each have their own."""
    url = create_match(client)
    add_hand(client, url, WORKED)
    parts = ["match/_head.html", "match/_rules_summary.html"]
    with rendered_templates(app) as templates:
        client.get(url)
        assert [t for t in templates if t in parts] == parts
        templates.clear()
        add_hand(client, url, WORKED)
        assert "Change the rules…" in client.get(url).text
        assert [t for t in templates if t in parts] == []
        reader = app.test_client().get(url).text
        assert [t for t in templates if t in parts] == parts
    assert "read-only" in reader and "Change the rules…" not in reader
    with app.app_context():
        match = db_matches.get_match(url.rsplit("/", 1)[1])
        db_matches.change_match(match, {"name": "A new name", "length": {"hands": 40}})
    page = client.get(url).text
    head = page.split('<header class="match-head">')[1].split("</header>")[0]
    assert "<h1>A new name</h1>" in head and "40 hands" in head


def test_a_forget_empties_every_kept_part(app, client):
    """The report's rows, the header and the score table's parts hold names as entered
    (a dealer, a finisher, a match named after a player): none stays after a forget."""
    url = create_match(client)
    add_hand(client, url, WORKED)
    client.get(url)
    stores = [fragment_cache(app, name) for name in (KEPT_PARTS, REPORT_HAND_ROWS, SCORE_CELLS)]
    assert all(len(store) for store in stores)
    forget_kept_pages(app)
    assert [len(store) for store in stores] == [0, 0, 0]


@pytest.mark.parametrize("kept", [kept_players, kept_hands], ids=["players", "hands"])
def test_a_forget_empties_what_is_kept_of_a_match(app, client, kept):
    """A match's players and newest hands are kept as entered, names and all: a forgotten
    name must not stay in memory."""
    public_id, _ = new_match(client, 3)
    client.get(f"/matches/{public_id}")
    with app.app_context():
        assert kept(app).get(public_id) is not None
        forget_kept_pages(app)
        assert kept(app).get(public_id) is None


def test_a_new_version_draws_the_read_only_pages_frame_no_more(make_app):
    """The read-only page around its body (the head, the site's header and footer) is
    kept by what it shows: a hand draws the body alone; a new name, language or digits
    their own frame. (Static files are looked at again only after an hour here: a frame
    is also drawn again when that time has passed, which under load fell between two
    reads of a second's recheck.)"""
    app = make_app(STATIC_RECHECK_SECONDS=3600)
    client = app.test_client()
    url = create_match(client)
    add_hand(client, url, WORKED)
    reader = app.test_client()
    with rendered_templates(app) as templates:
        first = reader.get(url).text
        assert templates.count("match/show.html") == 1
        add_hand(client, url, WORKED)
        templates.clear()
        again = reader.get(url).text
        assert "match/_body.html" in templates and "match/show.html" not in templates
        assert again.split('<main class="content"')[0] == first.split('<main class="content"')[0]
        assert again.split("</main>")[1] == first.split("</main>")[1]
        with app.app_context():
            match = db_matches.get_match(url.rsplit("/", 1)[1])
            db_matches.change_match(match, {"name": "Renamed night"})
        assert "<title>Renamed night · Marriage ledger</title>" in reader.get(url).text
        reader.get("/lang/ne")
        nepali = reader.get(url).text
        assert templates.count("match/show.html") == 2 and '<html lang="ne">' in nepali


def test_with_static_files_looked_at_every_time_no_frame_is_kept(make_app):
    app = make_app(STATIC_RECHECK_SECONDS=0)
    client = app.test_client()
    url = create_match(client)
    reader = app.test_client()
    reader.get(url)
    add_hand(client, url, WORKED)
    reader.get(url)
    assert len(fragment_cache(app, matches.FRAMES)) == 0
