""" "What if…?" of a points race under zero-sum rules that refuse one of its hands, and the
other way round (docs/rules.md §8, §9; issue 35): the match's page and PDF and the
table's page and PDF answer 200, the refused hand keeps its nets as played, and the
totals, which no longer sum to 0, are not settled."""

from __future__ import annotations

import io

import pytest
from api_hands import add, table_night
from pypdf import PdfReader

PLAYERS = ["Asha", "Bikash", "Chandra"]
THREE_TIPLUS = {  # three tiplus: the points race puts the indicator back, amarnepal does not
    "tiplu": "8H",
    "finish": "sequences",
    "winner": "Asha",
    "players": [
        {"name": "Asha", "seen": "sequences", "maal_cards": ["8H", "8H", "8H"]},
        {"name": "Bikash", "seen": "sequences", "maal_cards": ["9H"]},
        {"name": "Chandra", "seen": "unseen", "maal_cards": []},
    ],
}
DUBLEES = {  # a dublee finish, which the points race does not play
    "finish": "dublees",
    "winner": "Asha",
    "players": [
        {"name": "Asha", "seen": "dublees", "maal_counts": {"tiplu": 1}},
        {"name": "Bikash", "seen": "sequences", "maal_counts": {"poplu": 1}},
        {"name": "Chandra", "seen": "unseen", "maal_counts": {}},
    ],
}
PLAIN = {  # a hand every profile here plays
    "finish": "sequences",
    "winner": "Asha",
    "players": [
        {"name": "Asha", "seen": "sequences", "maal_counts": {"poplu": 1}},
        {"name": "Bikash", "seen": "sequences", "maal_counts": {"tiplu": 1}},
        {"name": "Chandra", "seen": "unseen", "maal_counts": {}},
    ],
}
CASES = [("gamerules", THREE_TIPLUS, "amarnepal"), ("sparkai", DUBLEES, "gamerules")]
IDS = ["points-race-as-zero-sum", "zero-sum-as-points-race"]


def new_match(client, rules: str, hand: dict) -> str:
    body = client.post(
        "/api/v1/matches", json={"name": "Tihar", "players": PLAYERS, "rules": rules}
    ).get_json()
    headers = {"Authorization": f"Bearer {body['edit_key']}"}
    stored = client.post(f"/api/v1/matches/{body['id']}/hands", json=hand, headers=headers)
    assert stored.status_code == 201, stored.get_json()
    return body["id"]


def new_table(client, rules: str, hand: dict) -> str:
    table_id, headers, match_id = table_night(client, PLAYERS, rules)
    add(client, match_id, headers, hand)
    return table_id


def refused_nets(client, public_id: str) -> dict[str, int]:
    hand = client.get(f"/api/v1/matches/{public_id}").get_json()["hands"][0]
    return {p["name"]: p["net"] for p in hand["players"]}


@pytest.mark.parametrize(("played", "hand", "other"), CASES, ids=IDS)
def test_the_match_page_keeps_the_refused_hand(client, played, hand, other):
    public_id = new_match(client, played, hand)
    response = client.get(f"/matches/{public_id}/what-if", query_string={"rules-profile": other})
    assert response.status_code == 200
    html = response.get_data(as_text=True)
    assert 'data-hand="1" data-rescored="no"' in html
    for name, net in refused_nets(client, public_id).items():  # kept as played
        assert f'<th scope="row">{name}</th>\n          <td class="num" data-total="{net}">' in html
    assert 'id="what-if-settle-up"' not in html
    if other == "amarnepal":
        assert "do not add up to 0" in html


@pytest.mark.parametrize(("played", "hand", "other"), CASES, ids=IDS)
def test_the_table_page_keeps_the_refused_hand(client, played, hand, other):
    table = new_table(client, played, hand)
    response = client.get(f"/tables/{table}/what-if", query_string={"rules-profile": other})
    assert response.status_code == 200
    api = client.post(f"/api/v1/tables/{table}/rescore", json={"rules": other}).get_json()
    html = response.get_data(as_text=True)
    for line in api["players"]:
        assert f'data-total="{line["total"]}"' in html
    assert api["matches"][0]["hands_refused"] == 1


@pytest.mark.slow  # seconds: lays out PDFs
@pytest.mark.parametrize(("played", "hand", "other"), CASES, ids=IDS)
def test_the_pdfs_keep_the_refused_hand(client, played, hand, other):
    public_id = new_match(client, played, hand)
    response = client.get(
        f"/matches/{public_id}/what-if.pdf", query_string={"rules-profile": other}
    )
    assert response.status_code == 200 and response.mimetype == "application/pdf"
    text = " ".join(PdfReader(io.BytesIO(response.data)).pages[0].extract_text().split())
    assert "not rescored: it keeps its nets as played" in text
    table = new_table(client, played, hand)
    response = client.get(f"/tables/{table}/what-if.pdf", query_string={"rules-profile": other})
    assert response.status_code == 200 and response.mimetype == "application/pdf"


def change_column(html: str) -> bool:
    return ">Change</th>" in html


#: The page's words where the totals as played and under the rules picked count different
#: things (a points race's are each player's own maal), by the way the match was played.
OTHER_KIND = {
    "sparkai": "As played, the totals are points won and lost; under a points race they are",
    "gamerules": "As played (a points race), the totals are each player's own maal;",
}


@pytest.mark.parametrize(("played", "other"), [("sparkai", "gamerules"), ("gamerules", "sparkai")])
def test_no_change_is_worked_out_between_a_points_race_and_a_zero_sum_match(client, played, other):
    """A zero-sum match under a points race, and the other way round: the totals as played
    and under the other rules count different things (points won and lost, each player's
    own maal), so the page has no "Change" column, where it subtracted one from the other,
    and says why; each hand that changes shows its points as played → under these rules,
    where it showed their difference. Under rules of the same kind the change is shown."""
    public_id = new_match(client, played, PLAIN)
    url = f"/matches/{public_id}/what-if"
    html = client.get(url, query_string={"rules-profile": other}).get_data(as_text=True)
    assert not change_column(html) and "data-change" not in html
    assert OTHER_KIND[played] in html.replace("&#39;", "'")
    api = client.post(f"/api/v1/matches/{public_id}/rescore", json={"rules": other}).get_json()
    changed = [p for p in api["hands"][0]["players"] if p["net"] != p["net_as_played"]]
    assert changed
    for p in changed:
        assert f'data-as-played="{p["net_as_played"]}" data-rescored="{p["net"]}"' in html
    same = "amarnepal" if played == "sparkai" else "gamerules"
    html = client.get(url, query_string={"rules-profile": same}).get_data(as_text=True)
    assert change_column(html) and OTHER_KIND[played] not in html.replace("&#39;", "'")


def test_no_change_is_worked_out_for_a_season_under_a_points_race(client):
    """A season's "As played" is the standings' points won and lost: under a points race
    the totals are each player's own maal, and no "Change" column sets one against the
    other; under zero-sum rules it is there."""
    table = new_table(client, "sparkai", PLAIN)
    url = f"/tables/{table}/what-if"
    html = client.get(url, query_string={"rules-profile": "gamerules"}).get_data(as_text=True)
    assert not change_column(html) and OTHER_KIND["sparkai"] in html
    html = client.get(url, query_string={"rules-profile": "amarnepal"}).get_data(as_text=True)
    assert change_column(html) and OTHER_KIND["sparkai"] not in html
    client.get("/lang/ne")
    html = client.get(url, query_string={"rules-profile": "gamerules"}).get_data(as_text=True)
    assert ">फरक</th>" not in html and "तिनको फरक निकालिँदैन" in html
