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
