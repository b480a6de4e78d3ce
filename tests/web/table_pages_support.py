"""Helpers of the table page tests: a table made through its pages, its edit key read
off its share link, hands played through the API with that key, and the figures summed
again here from the matches' own JSON (never from what the table keeps)."""

from __future__ import annotations

import re
from collections import defaultdict
from decimal import Decimal

from api_hands import play
from match_pages_support import BY_COUNTS, DUBLEE_FINISH, THREE_PLAY, VOID, WORKED

ROSTER = ["Asha", "Bikash", "Chandra", "Dipa"]
FOUR = [WORKED, BY_COUNTS, DUBLEE_FINISH, VOID]
#: The awards' titles, as the pages and the PDFs write them in English.
AWARD_TITLES = {
    "hands_won": "Most hands won",
    "dublee_finishes": "Most dublee finishes",
    "best_hand": "Biggest hand",
    "best_night": "Best night",
}


def new_table_form(**extra) -> dict[str, str]:
    data = {
        "name": "Friday table",
        "players": "\n".join(ROSTER),
        "rules-profile": "sparkai",
        "stake-per_point": "1.50",
        "stake-currency": "NPR",
    }
    return {**data, **extra}


def create_table(client, **extra) -> str:
    """A table made through the page (this client edits it); its url."""
    response = client.post("/tables/new", data=new_table_form(**extra))
    assert response.status_code == 303, response.get_data(as_text=True)
    return response.headers["Location"]


def edit_key(client, url: str) -> str:
    """The table's edit key, as its page's share link shows it to an editor."""
    page = client.get(url).get_data(as_text=True)
    return re.search(r"/join/([A-Za-z0-9_-]+)\"", page).group(1)


def start_match(client, url: str, players: list[str], **extra) -> str:
    """Tonight's match from the roster, through the table's page; the match's id."""
    response = client.post(f"{url}/matches", data={"players": players, **extra})
    assert response.status_code == 303, response.get_data(as_text=True)
    return response.headers["Location"].rsplit("/", 1)[1]


def race_night(client, url: str) -> str:
    """A points race of Asha and Bikash in the table, over after its one hand (Asha
    finishes: 3 maal and the bonus, 13; Bikash 1); the match's id."""
    key = edit_key(client, url)
    response = client.post(
        f"/api/v1/tables/{url.rsplit('/', 1)[1]}/matches",
        json={
            "name": "Race night",
            "players": ["Asha", "Bikash"],
            "length": {"hands": 1},
            "rules": "gamerules",
            "stake": None,
        },
        headers={"Authorization": f"Bearer {key}"},
    )
    assert response.status_code == 201, response.get_json()
    match_id = response.get_json()["id"]
    seen = [("Asha", 3), ("Bikash", 1)]
    rows = [{"name": name, "seen": "sequences", "maal": maal} for name, maal in seen]
    play(client, match_id, key, [{"finish": "sequences", "winner": "Asha", "players": rows}])
    return match_id


def night_over(client, url: str, hands: list[dict]) -> str:
    """A night of the roster in the table, ``hands`` played and stopped there (a rating
    counts finished matches); the match's id."""
    key = edit_key(client, url)
    match_id = start_match(client, url, ROSTER)
    play(client, match_id, key, hands)
    stop = client.patch(
        f"/api/v1/matches/{match_id}",
        json={"length": {"hands": len(hands)}},
        headers={"Authorization": f"Bearer {key}"},
    )
    assert stop.status_code == 200, stop.get_json()
    return match_id


def finished_night(client) -> str:
    """A table with one night of four hands, stopped there; the table's url."""
    url = create_table(client)
    night_over(client, url, FOUR)
    return url


def sums(client, match_ids: list[str]) -> dict:
    """Per player: matches, hands, total and money, summed over the matches' JSON."""
    out: dict[str, dict] = defaultdict(lambda: {"matches": 0, "hands": 0, "total": 0})
    money: dict[str, Decimal] = defaultdict(Decimal)
    for public_id in match_ids:
        body = client.get(f"/api/v1/matches/{public_id}").get_json()
        totals = {p["name"]: p["total"] for p in body["players"]}
        played = {p["name"] for hand in body["hands"] for p in hand["players"]}
        for hand in body["hands"]:
            for p in hand["players"]:
                out[p["name"]]["hands"] += 1
        for name in played:
            out[name]["matches"] += 1
            out[name]["total"] += totals[name]
            if body["stake"]:
                money[name] += totals[name] * Decimal(body["stake"]["per_point"])
    return {"players": dict(out), "money": dict(money)}


__all__ = ["FOUR", "ROSTER", "THREE_PLAY", "create_table", "edit_key", "play", "start_match"]
