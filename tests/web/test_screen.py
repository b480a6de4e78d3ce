"""The match on a big screen (issue 27), without a browser: the route, what it shows
(the engine's totals, the last hand, the next dealer, the settle-up at a stake, the QR
code), that it never shows an edit key or control, and the poll it shares with the
follower page (answered in front of the app while nothing changed)."""

import re

import pytest
from match_pages_support import (
    BY_COUNTS,
    DUBLEE_FINISH,
    PLAYERS,
    THREE_PLAY,
    VOID,
    WORKED,
    engine_nets,
    summed,
)
from sql_counting import counting_queries

from ledger.matches.chart import running_chart
from ledger.web.screen import X_LABELS, x_labels

STAKE = {"per_point": "0.50", "currency": "NPR"}
TOTAL = re.compile(r'<td class="num total" data-total="(-?\d+)">')
LINE_NAME = re.compile(r'<span class="name">([^<]+)</span>')


def api_match(client, hands=(), stake=None, rules="sparkai", players=PLAYERS, length=None):
    """A match made through the JSON API, with ``hands``: (its id, its edit key)."""
    made = client.post(
        "/api/v1/matches",
        json={
            "name": "Tihar at Asha's",
            "players": players,
            "rules": rules,
            "length": length or {"hands": 8},
            "stake": stake,
        },
    )
    assert made.status_code == 201, made.get_data(as_text=True)
    body = made.get_json()
    for hand in hands:
        add(client, body["id"], body["edit_key"], hand)
    return body["id"], body["edit_key"]


def add(client, match_id: str, key: str, hand: dict) -> None:
    stored = client.post(
        f"/api/v1/matches/{match_id}/hands",
        json=hand,
        headers={"Authorization": f"Bearer {key}"},
    )
    assert stored.status_code == 201, stored.get_data(as_text=True)


def screen_totals(html: str) -> dict[str, int]:
    return dict(zip(LINE_NAME.findall(html), map(int, TOTAL.findall(html)), strict=True))


def version_in(html: str) -> int:
    return int(re.search(r'id="screen-live" data-version="(\d+)"', html).group(1))


def test_the_screen_shows_the_engines_standings_in_place_order(client):
    match_id, _ = api_match(client, hands=[WORKED, BY_COUNTS])
    response = client.get(f"/matches/{match_id}/screen")
    assert response.status_code == 200
    assert response.headers["Cache-Control"] == "no-store"
    html = response.get_data(as_text=True)
    expected = summed(engine_nets(WORKED), engine_nets(BY_COUNTS))
    totals = screen_totals(html)
    assert totals == expected
    assert list(totals.values()) == sorted(expected.values(), reverse=True)
    # Each player's points in the last hand, the finisher's with a star.
    nets = engine_nets(BY_COUNTS)
    for name, net in nets.items():
        assert f'data-net="{net}"' in html, name
    assert html.count('class="won"') == 1
    assert "Hand 2: <strong>Bikash</strong> finished by sequences." in html
    assert "Hand 3 is dealt by <strong>Chandra</strong>." in html
    assert "2 hands played of 8." in html
    # The chart (each line's sample on its standings line) and the QR code of the
    # read-only link.
    assert html.count('<g class="series series-') == len(PLAYERS)
    assert html.count('<svg class="swatch series-') == len(PLAYERS)
    assert f'src="/matches/{match_id}/qr.svg"' in html
    assert client.get(f"/matches/{match_id}/qr.svg").mimetype == "image/svg+xml"


def test_how_the_last_hand_ended(client):
    match_id, key = api_match(client, hands=[DUBLEE_FINISH], length={"hands": 3})
    url = f"/matches/{match_id}/screen"
    assert "Hand 1: <strong>Dipa</strong> finished by dublees." in client.get(url).text
    add(client, match_id, key, VOID)
    assert "Hand 2 was void: nobody finished." in client.get(url).text
    add(client, match_id, key, THREE_PLAY)  # Dipa sits out: the last match hand
    html = client.get(url).text
    assert '<span class="out">out</span>' in html
    assert "The match is over." in html and "is dealt by" not in html
    assert "Final standings" in html


def test_before_the_first_hand(client):
    match_id, _ = api_match(client)
    html = client.get(f"/matches/{match_id}/screen").text
    assert "No hands yet." in html and "Hand 1 is dealt by <strong>Asha</strong>." in html
    assert screen_totals(html) == dict.fromkeys(PLAYERS, 0)
    assert "<polyline" not in html and "The chart of the totals starts" in html


def test_the_settle_up_only_at_a_stake(client):
    at_stake, _ = api_match(client, hands=[WORKED], stake=STAKE)
    html = client.get(f"/matches/{at_stake}/screen").text
    assert 'id="screen-settle-up"' in html and "Stake: NPR\u00a00.50 a point." in html
    assert "balances-table" not in html  # the standings give the totals
    for_points, _ = api_match(client, hands=[WORKED])
    assert "settle-up" not in client.get(f"/matches/{for_points}/screen").text
    race, _ = api_match(client, hands=[WORKED], rules="gamerules")
    assert "settle-up" not in client.get(f"/matches/{race}/screen").text


def test_an_unknown_match_is_404(client):
    for path in ("/matches/no-such-match/screen", "/matches/no-such-match/screen/live?v=1"):
        response = client.get(path)
        assert response.status_code == 404
        assert "There is no match at this address" in response.text
    assert client.get("/matches/" + "A" * 22 + "/screen").status_code == 404


def test_no_edit_key_nor_control_even_for_an_editor(app, client):
    match_id, key = api_match(client, hands=[WORKED])
    visitor = client.get(f"/matches/{match_id}/screen").text
    assert client.get(f"/matches/{match_id}/join/{key}").status_code == 303  # now an editor
    editor = client.get(f"/matches/{match_id}/screen").text
    for html in (visitor, editor):
        assert key not in html
        assert "/join/" not in html and "/hands/new" not in html and "/length" not in html
        assert "<form" not in html and "csrf" not in html.lower()
        assert "<script>" not in html and " style=" not in html  # the CSP holds
    # A visitor's screen makes no session (no token, nothing to keep).
    assert "Set-Cookie" not in app.test_client().get(f"/matches/{match_id}/screen").headers


def test_the_match_page_and_the_follower_page_open_the_screen(app, client):
    match_id, key = api_match(client, hands=[WORKED])
    link = f'<a href="/matches/{match_id}/screen">Show on a big screen</a>'
    assert link in app.test_client().get(f"/matches/{match_id}").text  # read-only
    client.get(f"/matches/{match_id}/join/{key}")
    assert link in client.get(f"/matches/{match_id}").text  # the scorekeeper's


def test_the_screen_polls_and_follows_a_new_hand(app, client, reached):
    match_id, key = api_match(client, hands=[WORKED])
    html = client.get(f"/matches/{match_id}/screen").text
    version = version_in(html)
    poll = f"/matches/{match_id}/screen/live?v={version}"
    assert f'hx-get="{poll}"' in html and 'hx-trigger="every 3s"' in html
    reached.clear()
    with counting_queries(app) as statements:
        unchanged = client.get(poll)
    assert (unchanged.status_code, unchanged.data) == (204, b"")
    assert reached == [] and len(statements) == 1  # answered in front of the app
    add(client, match_id, key, BY_COUNTS)
    changed = client.get(poll)
    assert changed.status_code == 200 and reached[-1] == "screen.live"
    fragment = changed.text
    assert fragment.lstrip().startswith('<div class="screen-live" id="screen-live"')
    assert "<html" not in fragment
    assert screen_totals(fragment) == summed(engine_nets(WORKED), engine_nets(BY_COUNTS))
    assert version_in(fragment) > version
    assert (
        client.get(f"/matches/{match_id}/screen/live?v={version_in(fragment)}").status_code == 204
    )


def test_the_part_is_kept_per_version(app, client):
    match_id, _ = api_match(client, hands=[WORKED, BY_COUNTS])
    url = f"/matches/{match_id}/screen"
    first = client.get(url).text
    with counting_queries(app) as statements:
        again = client.get(url).text
    assert again == first and len(statements) == 1  # the match's row only


@pytest.mark.parametrize(
    ("asked", "shown"), [("dark", "screen scheme-dark"), ("light", "screen scheme-light")]
)
def test_a_scheme_may_be_chosen(client, asked, shown):
    match_id, _ = api_match(client)
    html = client.get(f"/matches/{match_id}/screen?scheme={asked}").text
    assert f'class="{shown}"' in html
    other = "light" if asked == "dark" else "dark"
    assert f'href="/matches/{match_id}/screen?scheme={other}"' in html
    assert f'href="/matches/{match_id}/screen"' in html  # back to the device's
    plain = client.get(f"/matches/{match_id}/screen?scheme=<b>").text
    assert '<html lang="en" class="screen">' in plain and "&lt;b&gt;" not in plain


def test_in_nepali_with_devanagari_digits(client):
    match_id, _ = api_match(client, hands=[WORKED], stake=STAKE)
    client.get(f"/lang/ne?next=/matches/{match_id}/screen")
    client.get(f"/digits/deva?next=/matches/{match_id}/screen")
    html = client.get(f"/matches/{match_id}/screen").text
    assert '<html lang="ne"' in html
    assert "बाजी २ <strong>Bikash</strong> ले बाँड्छ।" in html
    assert "पछिल्लो बाजी" in html and "आफ्नो फोनमा हेर्नुहोस्" in html
    assert ">+४१</td>" in html  # Asha's total, in Devanagari digits
    assert "रु" in html  # the stake, in Nepali


def test_a_foul_penalty_carried_into_the_last_hand_is_beside_its_points(client):
    rules = {"profile": "sparkai", "foul": "next_hand", "foul_penalty": 15}
    chandra_fouls = {
        **WORKED,
        "players": [
            *WORKED["players"][:2],
            {"name": "Chandra", "seen": "sequences", "foul": True},
            WORKED["players"][3],
        ],
    }
    match_id, _ = api_match(client, hands=[chandra_fouls, BY_COUNTS], rules=rules)
    html = client.get(f"/matches/{match_id}/screen").text
    assert '<span class="carried">+15 foul</span>' in html  # Bikash finished hand 2
    assert '<span class="carried">\u221215 foul</span>' in html


@pytest.mark.parametrize("hands", [1, 2, 5, 6, 7, 8, 13, 40, 100])
def test_the_chart_labels_a_few_hands_the_last_one_always(hands):
    running = [(n, (n, -n)) for n in range(1, hands + 1)]
    chart = running_chart(["Asha", "Bikash"], running)
    picked = x_labels(chart)
    assert picked[0] == 0 and chart.x_ticks[picked[-1]].label == str(hands)
    assert len(picked) <= X_LABELS
    step = -(-len(chart.x_ticks) // X_LABELS)
    assert all(b - a >= step for a, b in zip(picked, picked[1:], strict=False))
