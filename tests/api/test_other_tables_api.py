"""Other tables' rules through the API (docs/rules.md §7, docs/api.md "More players"): four
packs and 8 players in the dispute checker and in a match, the new settings described by
GET /api/v1/rules and the OpenAPI document."""

from __future__ import annotations

from ledger.engine import parse_hand, resolve_rules, settle

EIGHT = ["Asha", "Bikash", "Chandra", "Dipa", "Esha", "Firoz", "Gita", "Hari"]
TEN = [*EIGHT, "Indra", "Janak"]


def eight_player_hand(names=EIGHT) -> dict:
    """Eight players by cards (tiplu 8H): a marriage, four alters (35: the table's last
    entry 25 and its last step 10), two tiplus, two unseen players."""
    cards = [["7H", "8H", "9H"], ["8D"] * 4, ["8H", "8H"], [], ["9H"], ["7H", "7H"], ["7H"], []]
    seen = ["sequences"] * 4 + ["unseen", "unseen", "sequences", "dublees"]
    return {
        "tiplu": "8H",
        "finish": "sequences",
        "winner": names[0],
        "players": [
            {"name": n, "seen": s, "maal_cards": c}
            for n, s, c in zip(names, seen, cards, strict=True)
        ],
    }


FOUR_PACKS = {"profile": "sparkai", "packs": 4}


def test_settle_takes_eight_players_with_four_packs(client):
    response = client.post("/api/v1/settle", json={"rules": FOUR_PACKS, **eight_player_hand()})
    assert response.status_code == 200, response.get_json()
    body = response.get_json()
    assert body["n"] == 8
    assert body["rules"]["packs"] == 4
    assert [p["net"] for p in body["players"]] == [60, 222, 6, -58, -65, -65, -42, -58]
    alters = body["players"][1]["breakdown"][0]
    assert alters["item"] == "alter"
    assert alters["past_table"] == {"entries": 3, "last": 25, "step": 10}
    assert (
        sum(p["points"] for p in body["payments"] if p["to"] == "Asha")
        - sum(p["points"] for p in body["payments"] if p["from"] == "Asha")
        == 60
    )


def test_settle_refuses_six_players_with_three_packs(client):
    data = eight_player_hand()
    data["players"] = data["players"][:6]
    response = client.post("/api/v1/settle", json={"rules": "sparkai", **data})
    assert response.status_code == 422
    players = [e for e in response.get_json()["errors"] if e["field"] == "players"]
    assert players == [
        {
            "field": "players",
            "message": "A hand has 2 to 5 players with three packs; this one lists 6. "
            "Four packs (the packs setting) deal to 2 to 8.",
        }
    ]


def test_settle_with_the_new_settings(client):
    data = {
        "rules": {"profile": "sparkai", "unseen_maal": "keep_not_between_unseen"},
        "finish": "sequences",
        "winner": "A",
        "players": [
            {"name": "A", "seen": "sequences", "maal": 20},
            {"name": "B", "seen": "sequences", "maal": 10},
            {"name": "C", "seen": "unseen", "maal": 5},
            {"name": "D", "seen": "unseen", "maal_counts": {}},
        ],
    }
    body = client.post("/api/v1/settle", json=data).get_json()
    assert [p["net"] for p in body["players"]] == [68, 2, -30, -40]
    data["rules"] = {"profile": "classic", "dealt_tunnela_bonus_mode": "added"}
    data["tiplu"] = "8H"
    data["players"][0] = {
        "name": "A",
        "seen": "sequences",
        "maal_counts": {"marriage": 1},
        "dealt_tunnelas": ["5S"],
    }
    body = client.post("/api/v1/settle", json=data).get_json()
    first = body["players"][0]
    assert first["maal"] == 15  # the bonus of ordinary cards 5, a marriage entered 10
    assert [(i["item"], i.get("note")) for i in first["breakdown"]] == [
        ("dealt_tunnela", "no_maal_cards"),
        ("marriage", "marriages_entered"),
    ]  # the tunnela's 5S 5S 5S once, in its own item: no "not maal" item repeats them,
    # and its note says none below counts them (bonus_added would say they count as maal)


def test_the_21_card_limit_is_a_422_on_the_field(client):
    data = {
        "rules": "amarnepal",
        "finish": "sequences",
        "winner": "A",
        "players": [
            {"name": "A", "seen": "sequences", "maal": 0, "dealt_tunnelas": ["ordinary"] * 20},
            {"name": "B", "seen": "sequences", "maal_counts": {"tiplu": 3}},
        ],
    }
    response = client.post("/api/v1/settle", json=data)
    assert response.status_code == 422
    assert response.get_json()["errors"] == [
        {
            "field": "players.0.dealt_tunnelas",
            "message": "A lists 20 dealt tunnelas, but a player holds 21 cards: at most 7 "
            "tunnelas of 3.",
        },
        {
            "field": "players.1.maal_counts.tiplu",
            "message": "B cannot hold 3 tiplus: at most 2 copies of the tiplu can be in hands "
            "(one is set aside as the indicator). Enter 0 to 2.",
        },
    ]


def test_a_match_of_ten_plays_eight_player_hands_with_four_packs(create_match):
    match = create_match(players=TEN, rules=FOUR_PACKS)
    data = eight_player_hand()
    response = match.post_hand(data)
    assert response.status_code == 201, response.get_json()
    rules = resolve_rules(FOUR_PACKS)
    nets = settle(parse_hand(data, rules), rules).nets()
    totals = {p["name"]: p["total"] for p in match.get()["players"]}
    assert totals == {**dict.fromkeys(TEN, 0), **nets}
    stored = match.get()["hands"][0]
    assert stored["sitting_out"] == ["Indra", "Janak"]


def test_a_three_pack_match_refuses_six_players_in_a_hand(create_match):
    match = create_match(players=TEN, rules="sparkai")
    data = eight_player_hand(EIGHT)
    data["players"] = data["players"][:6]
    response = match.post_hand(data)
    assert response.status_code == 422
    assert "players" in {e["field"] for e in response.get_json()["errors"]}
    assert match.get()["hands"] == []


def test_a_match_registers_up_to_12_players(client):
    body = {"name": "Big", "players": [f"P{i}" for i in range(12)], "rules": FOUR_PACKS}
    assert client.post("/api/v1/matches", json=body).status_code == 201
    body["players"].append("P12")
    response = client.post("/api/v1/matches", json=body)
    assert response.status_code == 422
    (error,) = response.get_json()["errors"]
    assert error["field"] == "players"
    # Four packs deal to 8: the message must not say that a hand has at most 5.
    assert error["message"] == (
        "A match has 2 to 12 players (each hand has 2 to 5 of them, 2 to 8 with four "
        "packs); this one lists 13."
    )


def test_the_rules_list_describes_packs_and_the_new_settings(client):
    body = client.get("/api/v1/rules").get_json()
    for setting in ("packs", "dealt_tunnela_bonus_mode", "unseen_maal"):
        assert setting in body["settings"]
    assert "keep_not_between_unseen" in body["settings"]["unseen_maal"]
    assert body["packs"]["3"]["players"] == {"least": 2, "most": 5}
    assert body["packs"]["4"]["players"] == {"least": 2, "most": 8}
    assert body["packs"]["4"]["copies"]["tiplu"] == 3  # amarnepal sets the indicator aside
    assert body["packs"]["4"]["copies"]["poplu"] == 4
    assert body["packs"]["3"]["hand_cards"] == 21
    assert body["packs"]["3"]["dealt_tunnelas"] == 7
    limits = {p["id"]: p["limits"] for p in body["profiles"]}
    assert limits["everestbuzz"]["copies"]["tiplu"] == 3
    assert limits["sparkai"]["copies"]["printed_joker"] == 0
    assert all(p["rules"]["packs"] == 3 for p in body["profiles"])
    assert all(p["rules"]["dealt_tunnela_bonus_mode"] == "instead" for p in body["profiles"])
    assert "marriage" in body["maal_counts"]


def test_the_openapi_document_carries_the_new_settings_and_limits(client):
    doc = client.get("/api/v1/openapi.json").get_json()
    schemas = doc["components"]["schemas"]
    rules = schemas["ResolvedRules"]["properties"]
    assert rules["packs"]["enum"] == [3, 4]
    assert rules["dealt_tunnela_bonus_mode"]["enum"] == ["instead", "added"]
    assert "keep_not_between_unseen" in rules["unseen_maal"]["enum"]
    player = schemas["PlayerInput"]["properties"]
    assert player["maal_counts"]["properties"]["marriage"]["maximum"] == 4
    assert player["maal_counts"]["properties"]["tiplu"]["maximum"] == 4
    assert player["dealt_tunnelas"]["maxItems"] == 7
    assert schemas["SettleRequest"]["properties"]["players"]["maxItems"] == 8
