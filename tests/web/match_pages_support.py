"""Helpers of the match page tests: a match made through the page, hands as the form
posts them, and the engine's own nets for the same hands."""

from __future__ import annotations

import re
from typing import Any

from worked_example import WORKED_HAND

from ledger.engine import parse_hand, resolve_rules, settle
from ledger.http.security import OWN_COOKIES

PLAYERS = ["Asha", "Bikash", "Chandra", "Dipa"]

#: Hands in the settle format of docs/api.md (names are the match's players).
WORKED = WORKED_HAND  # docs/rules.md §3, by one number each
BY_COUNTS = {
    "finish": "sequences",
    "winner": "Bikash",
    "players": [
        {"name": "Asha", "seen": "sequences", "maal_counts": {"poplu": 1}},
        {"name": "Bikash", "seen": "sequences", "maal_counts": {"tiplu": 2, "jhiplu": 1}},
        {"name": "Chandra", "seen": "unseen", "maal_counts": {"alter": 1}},
        {"name": "Dipa", "seen": "sequences"},
    ],
}
BY_CARDS = {
    "tiplu": "8H",
    "finish": "sequences",
    "winner": "Chandra",
    "players": [
        {"name": "Asha", "seen": "sequences", "maal_cards": ["8D"]},
        {"name": "Bikash", "seen": "unseen", "maal_cards": ["9H"]},
        {"name": "Chandra", "seen": "sequences", "maal_cards": ["7H", "8H", "9H", "5C"]},
        {"name": "Dipa", "seen": "sequences", "maal_cards": []},
    ],
}
DUBLEE_FINISH = {
    "finish": "dublees",
    "winner": "Dipa",
    "players": [
        {"name": "Asha", "seen": "sequences", "maal": 3},
        {"name": "Bikash", "seen": "dublees", "maal": 2},
        {"name": "Chandra", "seen": "unseen", "maal": 0},
        {"name": "Dipa", "seen": "dublees", "maal": 6},
    ],
}
VOID = {
    "finish": "void",
    "winner": None,
    "players": [
        {"name": "Asha", "seen": "sequences", "maal": 4},
        {"name": "Bikash", "seen": "sequences", "maal": 0},
        {"name": "Chandra", "seen": "unseen", "maal": 2},
        {"name": "Dipa", "seen": "sequences", "maal": 7},
    ],
}
THREE_PLAY = {  # Dipa sits out
    "finish": "sequences",
    "winner": "Asha",
    "players": [
        {"name": "Asha", "seen": "sequences", "maal": 10},
        {"name": "Bikash", "seen": "sequences", "maal": 2},
        {"name": "Chandra", "seen": "unseen", "maal": 0},
    ],
}


def engine_nets(hand: dict[str, Any], rules: object = "sparkai") -> dict[str, int]:
    """The nets the engine gives ``hand`` (computed here, not by the pages)."""
    resolved = resolve_rules(rules)
    return settle(parse_hand(hand, resolved), resolved).nets()


def summed(*nets: dict[str, int], players=PLAYERS) -> dict[str, int]:
    return {p: sum(n.get(p, 0) for n in nets) for p in players}


def hand_form(hand: dict[str, Any], players=PLAYERS, **extra) -> dict[str, str]:
    """The form data the hand page posts for ``hand`` (players not listed sit out)."""
    data: dict[str, str] = {}
    rows = {name: i for i, name in enumerate(players)}
    for player in hand["players"]:
        row = rows[player["name"]]
        prefix = f"players-{row}-"
        data[prefix + "plays"] = "y"
        data[prefix + "seen"] = player["seen"]
        if "maal" in player:
            data[prefix + "maal_mode"] = "number"
            data[prefix + "maal"] = str(player["maal"])
        elif "maal_cards" in player:
            data[prefix + "maal_mode"] = "cards"
            data[prefix + "maal_cards"] = " ".join(player["maal_cards"])
        else:
            data[prefix + "maal_mode"] = "counts"
            for kind, count in player.get("maal_counts", {}).items():
                data[prefix + f"count_{kind}"] = str(count)
        if player.get("dealt_tunnelas"):
            data[prefix + "dealt_tunnelas"] = " ".join(player["dealt_tunnelas"])
        if player.get("foul"):
            data[prefix + "foul"] = "y"
    if hand.get("tiplu"):
        data["tiplu"] = hand["tiplu"]
    data["finish"] = hand["finish"]
    if hand.get("winner"):
        data["winner"] = str(rows[hand["winner"]])
    return {**data, **extra}


def new_match_form(players=PLAYERS, **extra) -> dict[str, str]:
    data = {
        "name": "Tihar 2026",
        "first_dealer": "0",
        "rules-profile": "sparkai",
        "length_kind": "hands",
        "length_count": "8",
    }
    for i, name in enumerate(players):
        data[f"players-{i}"] = name
    return {**data, **extra}


def create_match(client, players=PLAYERS, **extra) -> str:
    """Create a match through the page (this client gets edit rights); its url."""
    response = client.post("/matches/new", data=new_match_form(players, **extra))
    assert response.status_code == 303, response.get_data(as_text=True)
    return response.headers["Location"]


def add_hand(client, url: str, hand: dict[str, Any], players=PLAYERS, **extra) -> None:
    response = client.post(f"{url}/hands/new", data=hand_form(hand, players, **extra))
    assert response.status_code == 303, response.get_data(as_text=True)


def page_totals(html: str) -> dict[str, int]:
    """The totals column of the match page's score table, per player."""
    found = re.findall(
        r'<th scope="row" class="player-col">([^<]*?)(?:\s*<span[^>]*>[^<]*</span>)?</th>\s*'
        r'<td class="num total-col" data-total="(-?\d+)">',
        html,
    )
    return {name.strip(): int(total) for name, total in found}


def squash(html: str) -> str:
    """The html with every run of whitespace made one space (to find text in it)."""
    return " ".join(html.split())


def field_errors(html: str, field_id: str) -> list[str]:
    """The messages a re-shown form gives beside the field ``field_id``."""
    found = re.search(
        rf'<ul class="field-errors" id="{re.escape(field_id)}-errors">(.*?)</ul>', html, re.S
    )
    return re.findall(r"<li>(.*?)</li>", found.group(1)) if found else []


def version_of(html: str) -> int:
    return int(re.search(r'data-version="(\d+)"', html).group(1))


def hidden(html: str, name: str) -> str:
    return re.search(rf'name="{name}"[^>]* value="([^"]*)"', html).group(1)


def imported_match(client, hands: int) -> tuple[str, str]:
    """A match of ``hands`` hands (one import request); its page url and edit key."""
    rotation = [WORKED, BY_COUNTS, THREE_PLAY]
    document = {
        "name": f"{hands} hands",
        "players": PLAYERS,
        "rules": "sparkai",
        "length": None,
        "hands": [
            {"number": i, "dealer": PLAYERS[(i - 1) % 4], **rotation[i % 3]}
            for i in range(1, hands + 1)
        ],
    }
    response = client.post("/api/v1/matches/import", json=document)
    assert response.status_code == 201, response.get_json()
    body = response.get_json()
    return f"/matches/{body['id']}", body["edit_key"]


def same_browser(app, client):
    """Another test client holding ``client``'s cookies: another tab of its browser (the
    session is kept in several cookies: ``ledger.http.security.OWN_COOKIES``)."""
    other = app.test_client()
    for name in ["session", *OWN_COOKIES]:
        if (cookie := client.get_cookie(name)) is not None:
            other.set_cookie(name, cookie.value)
    return other
