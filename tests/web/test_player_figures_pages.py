"""A player's figures on the pages (issue 39): the player's page leads with place, total,
money, form, the best hand (linked) and night, then the rates as people say them; the
table page shows the season's awards; the match page and its big screen show tonight's
awards once the night is over; all in Nepali with Devanagari digits too. Every figure
checked here is read from the API's stats, which tests/api/test_player_stats_api.py
holds to the stored hands."""

from __future__ import annotations

import re

from api_hands import play
from match_pages_support import BY_COUNTS, DUBLEE_FINISH, WORKED
from table_pages_support import (
    AWARD_TITLES,
    FOUR,
    ROSTER,
    create_table,
    edit_key,
    finished_night,
    night_over,
    race_night,
)

from ledger.i18n.numbers import MINUS

DEVANAGARI = str.maketrans("0123456789", "०१२३४५६७८९")


def signed_text(value: int) -> str:
    return f"+{value}" if value > 0 else f"{MINUS}{-value}" if value < 0 else "0"


def stats_of(client, url: str, **query) -> dict:
    table_id = url.rsplit("/", 1)[1]
    response = client.get(f"/api/v1/tables/{table_id}/stats", query_string=query)
    assert response.status_code == 200
    return response.get_json()


def night(client, url: str, key: str, length: int | None) -> str:
    """A match of the table with this length (None: open), through the API."""
    response = client.post(
        f"/api/v1/tables/{url.rsplit('/', 1)[1]}/matches",
        json={"name": "Night", "players": ROSTER, "length": length and {"hands": length}},
        headers={"Authorization": f"Bearer {key}"},
    )
    assert response.status_code == 201, response.get_json()
    return response.get_json()["id"]


def a_season(client) -> tuple[str, list[str]]:
    """Two finished nights of four hands and an open one of two."""
    url = create_table(client)
    key = edit_key(client, url)
    nights = []
    for hands in (FOUR, FOUR, [WORKED, DUBLEE_FINISH]):
        nights.append(night(client, url, key, len(hands) if hands is FOUR else None))
        play(client, nights[-1], key, hands)
    return url, nights


def lead_of(html: str) -> str:
    return html[html.index('class="player-lead"') : html.index('class="player-more"')]


def test_the_players_page_leads_with_their_figures(client):
    url, nights = a_season(client)
    found = stats_of(client, url)
    rows = {row["name"]: row for row in found["players"]}
    for place, row in enumerate(found["players"], 1):
        name = row["name"]
        html = client.get(f"{url}/players/{name}").get_data(as_text=True)
        lead = lead_of(html)
        mine = rows[name]
        better = sum(other["total"] > mine["total"] for other in found["players"])
        assert f"{1 + better} of {len(rows)}" in lead
        assert signed_text(mine["total"]) in lead
        assert "NPR" in lead  # the money, at the table's stake
        form = re.findall(r'class="form-place[^"]*"[^>]*>(\d+)</li>', lead)
        assert [int(p) for p in form] == mine["form"]
        best = mine["best_hand"]
        link = (
            f'href="/matches/{best["match"]}/hands/{best["number"]}">{signed_text(best["net"])}</a>'
        )
        assert link in lead
        assert f'href="/matches/{mine["best_night"]["match"]}">' in lead
        more = html[html.index('class="player-more"') :]
        seen, hands = mine["seen_hands"], mine["hands"]
        assert f"Seen in {seen} of {hands} hands" in more
        assert f"{(200 * seen + hands) // (2 * hands)} %" in more
        if mine["unseen_points"] < 0:
            assert f"unseen hands cost {signed_text(mine['unseen_points'])}" in more
        assert len(nights) == 3 and place <= len(rows)


def test_the_table_page_shows_the_seasons_awards(client):
    url, _ = a_season(client)
    found = stats_of(client, url)
    assert found["awards"]
    html = client.get(url).get_data(as_text=True)
    section = html[html.index('class="awards"') :]
    section = section[: section.index("</section>")]
    for award in found["awards"]:
        assert AWARD_TITLES[award["award"]] in section
        for name in award["players"]:
            assert name in section
    assert section.count('class="award award-') == len(found["awards"])


def test_tonights_awards_show_when_the_night_is_over_and_not_before(client):
    url = create_table(client)
    key = edit_key(client, url)
    match_id = night(client, url, key, 4)
    play(client, match_id, key, FOUR[:3])
    for page in (f"/matches/{match_id}", f"/matches/{match_id}/screen"):
        assert "Tonight's awards" not in client.get(page).get_data(as_text=True)
    play(client, match_id, key, FOUR[3:])
    awards = client.get(f"/api/v1/matches/{match_id}/stats").get_json()["awards"]
    assert awards
    for page in (f"/matches/{match_id}", f"/matches/{match_id}/screen"):
        html = client.get(page).get_data(as_text=True)
        assert "Tonight's awards" in html
        shown = html[html.index('class="awards"') :]
        shown = shown[: shown.index("</section>")]  # the first: the page's, not its print
        assert shown.count('class="award award-') == len(awards)
        for award in awards:
            value = award["value"]
            value_text = signed_text(value) if award["award"].startswith("best") else str(value)
            assert f'<span class="award-value">{value_text}</span>' in html


def test_the_figures_and_awards_in_nepali_with_devanagari_digits(client):
    url, nights = a_season(client)
    found = stats_of(client, url)
    client.get("/lang/ne")
    client.get("/digits/deva")
    name = found["players"][0]["name"]
    mine = found["players"][0]
    html = client.get(f"{url}/players/{name}").get_data(as_text=True)
    lead = lead_of(html)
    assert "Place" not in lead and "Best hand" not in lead and "Form" not in lead
    assert signed_text(mine["total"]).translate(DEVANAGARI) in lead
    more = html[html.index('class="player-more"') :]
    assert "Seen in" not in more
    assert f"{mine['hands']}".translate(DEVANAGARI) in more
    table = client.get(url).get_data(as_text=True)
    section = table[table.index('class="awards"') :]
    assert "Most hands won" not in section and "Best night" not in section
    match = client.get(f"/matches/{nights[0]}").get_data(as_text=True)
    assert "Tonight's awards" not in match and 'class="awards"' in match


def test_a_points_race_is_marked_and_counts_in_no_total_on_the_pages(client):
    """A season of one points race (Asha 13 of her own maal and bonus, Bikash 1): the
    table's page lists it as a points race and its standings' totals stay 0 (they count
    the zero-sum nights, as the hint under them says); Bikash's page lists the night,
    marked, and has no best hand or night to link to (it answers, never an error)."""
    url = create_table(client)
    race_night(client, url)
    hint = "Totals count the zero-sum nights only"
    table_page = client.get(url).get_data(as_text=True)
    assert hint in table_page and "points race" in table_page
    assert re.findall(r'data-total="(-?\d+)"', table_page) == ["0", "0"]
    page = client.get(f"{url}/players/Bikash")
    assert page.status_code == 200
    html = page.get_data(as_text=True)
    nights = html[html.index('id="nights-title"') : html.index('id="h2h-title"')]
    assert '<span class="tag">points race</span>' in nights and hint in nights
    lead = " ".join(lead_of(html).split())
    assert "/hands/" not in lead and "Best night: —" in lead


def _asha_finishes_bikash_unseen(client, url: str, key: str, **fields) -> str:
    """A one-hand night of Asha and Bikash (``fields``: its rules and stake) that Asha
    finishes seen with 3 maal, Bikash unseen; the match's id."""
    response = client.post(
        f"/api/v1/tables/{url.rsplit('/', 1)[1]}/matches",
        json={"name": "Night", "players": ["Asha", "Bikash"], "length": {"hands": 1}, **fields},
        headers={"Authorization": f"Bearer {key}"},
    )
    assert response.status_code == 201, response.get_json()
    match_id = response.get_json()["id"]
    rows = [
        {"name": "Asha", "seen": "sequences", "maal": 3},
        {"name": "Bikash", "seen": "unseen", "maal": 0},
    ]
    play(client, match_id, key, [{"finish": "sequences", "winner": "Asha", "players": rows}])
    return match_id


def test_the_unseen_hands_beside_their_cost_are_those_the_cost_is_of(client):
    """Bikash played unseen in a zero-sum night and in a points race. What unseen hands
    cost counts the zero-sum night alone (the race's points are his own maal), so the
    count beside it does too, and says so: "once in a zero-sum night", not "in 2 hands";
    his seen rate still counts both nights' hands. In Nepali too."""
    url = create_table(client)
    key = edit_key(client, url)
    _asha_finishes_bikash_unseen(client, url, key)
    _asha_finishes_bikash_unseen(client, url, key, rules="gamerules", stake=None)
    bikash = next(r for r in stats_of(client, url)["players"] if r["name"] == "Bikash")
    assert (bikash["unseen_hands"], bikash["unseen_points_hands"]) == (2, 1)
    assert bikash["unseen_points"] < 0
    html = client.get(f"{url}/players/Bikash").get_data(as_text=True)
    more = " ".join(html[html.index('class="player-more"') :].split())
    cost = f"unseen hands cost {signed_text(bikash['unseen_points'])}"
    assert f"Played unseen once in a zero-sum night: <strong>{cost}</strong>" in more
    assert "Played unseen in 2 hands" not in more and "Seen in 0 of 2 hands" in more
    client.get("/lang/ne")
    html = client.get(f"{url}/players/Bikash").get_data(as_text=True)
    assert "आपसी हिसाबको रातमा" in html and "Played unseen" not in html


def test_the_unseen_hands_of_zero_sum_nights_alone_need_no_word_of_it(client):
    """Without a points race the count is every unseen hand, said as ever."""
    url = create_table(client)
    key = edit_key(client, url)
    _asha_finishes_bikash_unseen(client, url, key)
    html = client.get(f"{url}/players/Bikash").get_data(as_text=True)
    more = " ".join(html[html.index('class="player-more"') :].split())
    assert "Played unseen once: <strong>unseen hands cost" in more
    assert "zero-sum" not in more


def _night_address(item: dict) -> str:
    return f"/matches/{item['match']}"


def _hand_address(item: dict) -> str:
    return f"/matches/{item['match']}/hands/{item['number']}"


def _worst_shown(client, url: str, kind: str, address) -> dict[str, str | None]:
    """Each player's worst night or hand (``kind``) as their page links it (None: "—"),
    after checking their best is linked at its ``address``."""
    shown = {}
    for row in stats_of(client, url)["players"]:
        html = client.get(f"{url}/players/{row['name']}").get_data(as_text=True)
        assert f'href="{address(row[f"best_{kind}"])}">' in lead_of(html)
        more = " ".join(html[html.index('class="player-more"') :].split())
        found = re.search(rf'Worst {kind}: (?:<a href="(/matches/[^"]+)">|—)', more)
        assert found is not None, more
        shown[row["name"]] = found.group(1)
    return shown


def test_a_night_is_never_both_the_best_and_the_worst(client):
    """After one night, each player's only night is their best night, and no worst
    night is named ("—"); after a second with another total, the lower is the worst.
    A player whose two nights came out alike has a best night alone still."""
    url = finished_night(client)
    assert set(_worst_shown(client, url, "night", _night_address).values()) == {None}
    night_over(client, url, FOUR[:1])
    shown = _worst_shown(client, url, "night", _night_address)
    for row in stats_of(client, url)["players"]:
        best, worst = row["best_night"], row["worst_night"]
        assert shown[row["name"]] == (_night_address(worst) if best != worst else None)
    assert any(shown.values())


def test_a_hand_is_never_both_the_best_and_the_worst(client):
    """After one hand, each player's only hand is their best hand, and no worst hand is
    named ("—"), where the page named that hand twice; the API still gives it as both.
    After a second hand with another net, the lower is the worst."""
    url = create_table(client)
    key = edit_key(client, url)
    match_id = night(client, url, key, None)
    play(client, match_id, key, [WORKED])
    assert set(_worst_shown(client, url, "hand", _hand_address).values()) == {None}
    rows = stats_of(client, url)["players"]
    assert all(row["worst_hand"] == row["best_hand"] is not None for row in rows)
    play(client, match_id, key, [BY_COUNTS])
    shown = _worst_shown(client, url, "hand", _hand_address)
    for row in stats_of(client, url)["players"]:
        best, worst = row["best_hand"], row["worst_hand"]
        assert shown[row["name"]] == (_hand_address(worst) if best != worst else None)
    assert any(shown.values())


def test_the_head_to_head_says_above_and_below_wait_for_a_night_to_end(client):
    """With a night still going (counted in "Matches" but in no place yet) the page says
    above and below count the nights that are over; once it is over, it need not."""
    url, nights = a_season(client)
    hint = "Above and below count the nights that are over"
    html = client.get(f"{url}/players/{ROSTER[0]}").get_data(as_text=True)
    assert hint in html[html.index('id="h2h-title"') :]
    client.get("/lang/ne")
    html = client.get(f"{url}/players/{ROSTER[0]}").get_data(as_text=True)
    assert hint not in html
    assert "सकिएका रातहरू मात्र" in html
    client.get("/lang/en")
    ended = client.patch(
        f"/api/v1/matches/{nights[-1]}",
        json={"finished": True},
        headers={"Authorization": f"Bearer {edit_key(client, url)}"},
    )
    assert ended.status_code == 200
    assert hint not in client.get(f"{url}/players/{ROSTER[0]}").get_data(as_text=True)


def test_a_player_whose_name_has_a_slash_has_a_page(client):
    """A roster name may hold a "/" ("Ram/Shyam", a pair who play one seat): the table
    page's link to their figures was a 404, its "/" read as the end of the name."""
    body = {"name": "Friday", "players": ["Ram/Shyam", "Asha", "Bikash"]}
    table = client.post("/api/v1/tables", json=body).get_json()
    page = client.get(f"/tables/{table['id']}").get_data(as_text=True)
    links = re.findall(r'href="(/tables/[^"]+/players/Ram[^"]*)"', page)
    assert links, page
    for link in set(links):
        figures = client.get(link)
        assert figures.status_code == 200, link
        assert "Ram/Shyam" in figures.get_data(as_text=True)
    assert client.get(f"/tables/{table['id']}/players/Ram/Nobody").status_code == 404
