"""Tables through the API, end to end: a table of five, three nights with sit-outs and
a rename, a new season, money marked paid; every figure checked against sums made here
from the matches' own JSON."""

import json
from decimal import Decimal

from api_support import THREE_PLAYER_HAND, bearer, hand
from settle_up_support import fewest_by_search
from tables_support import ROSTER, check_settles, check_standings, create_table, match_bodies


def h(winner: str, **players: tuple[str, int]) -> dict:
    """A hand by counts: ``players`` name -> (seen, maal); the others sit out."""
    return hand(winner, players)


NIGHT_1 = [  # Esha sits out; Dipa sits out the second hand
    h(
        "Asha",
        Asha=("sequences", 9),
        Bikas=("sequences", 4),
        Chandra=("unseen", 2),
        Dipa=("sequences", 0),
    ),
    h("Asha", Asha=("sequences", 3), Bikas=("dublees", 7), Chandra=("sequences", 1)),
    h(
        "Asha",
        Asha=("sequences", 5),
        Bikas=("unseen", 0),
        Chandra=("sequences", 6),
        Dipa=("sequences", 2),
    ),
]
NIGHT_2 = [  # Dipa sits out the night
    h(
        "Asha",
        Asha=("sequences", 2),
        Bikash=("sequences", 8),
        Chandra=("sequences", 1),
        Esha=("unseen", 3),
    ),
    h("Asha", Asha=("sequences", 6), Bikash=("sequences", 0), Esha=("sequences", 4)),
    h("Asha", Asha=("sequences", 1), Chandra=("sequences", 2), Esha=("sequences", 9)),
]
NIGHT_3 = [
    h(
        "Asha",
        Asha=("sequences", 4),
        Bikash=("sequences", 3),
        Chandra=("sequences", 2),
        Dipa=("unseen", 5),
        Esha=("sequences", 1),
    ),
    h(
        "Asha",
        Asha=("sequences", 7),
        Bikash=("unseen", 1),
        Dipa=("sequences", 3),
        Esha=("sequences", 0),
    ),
    h(
        "Asha",
        Asha=("sequences", 2),
        Chandra=("sequences", 8),
        Dipa=("sequences", 1),
        Esha=("sequences", 6),
    ),
]


def test_three_nights_two_seasons_a_rename_and_money(client):
    table = create_table(
        client,
        players=["Asha", "Bikas", "Chandra", "Dipa", "Esha"],
        stake={"per_point": "0.50", "currency": "NPR"},
    )
    first_season = table.get()["seasons"][0]
    assert first_season["current"]

    night_1 = table.new_match(["Asha", "Bikas", "Chandra", "Dipa"], length={"hands": 3})
    assert night_1["stake"] == {"per_point": "0.50", "currency": "NPR"}
    assert night_1["rules"]["profile"] == "sparkai" and night_1["table"] == table.id
    table.play(night_1, NIGHT_1)

    # The same four again: the deal goes on from where the table left off.
    left_off = table.get("/next-dealer", players="Asha,Bikas,Chandra,Dipa")["next_dealer"]
    assert left_off == client.get(f"/api/v1/matches/{night_1['id']}").get_json()["next_dealer"]

    # "Bikas" was a typo: renamed in the roster and through every hand; totals stay.
    before = client.get(f"/api/v1/matches/{night_1['id']}").get_json()
    table.patch("/players/Bikas", {"name": "Bikash"})
    after = client.get(f"/api/v1/matches/{night_1['id']}").get_json()
    assert [p["total"] for p in after["players"]] == [p["total"] for p in before["players"]]
    assert [p["name"] for p in after["players"]] == ["Asha", "Bikash", "Chandra", "Dipa"]
    history = client.get(f"/api/v1/matches/{night_1['id']}/hands/1").get_json()["history"]
    assert history[-1]["action"] == "rename"
    assert "Bikas" in [p["name"] for p in history[-1]["hand"]["players"]]
    assert [p["name"] for p in table.get()["players"]] == ROSTER

    night_2 = table.new_match(["Asha", "bikash", "Chandra", "Esha"], length={"hands": 3})
    assert [p["name"] for p in night_2["players"]][1] == "Bikash"  # the roster's spelling
    table.play(night_2, NIGHT_2)

    # Two who played together cannot be merged; nothing changes.
    response = client.patch(
        f"{table.url}/players/Esha", json={"merge_into": "Asha"}, headers=table.auth
    )
    assert response.status_code == 422
    assert response.get_json()["errors"][0]["field"] == "merge_into"

    season_1 = [night_1["id"], night_2["id"]]
    standings_1 = table.get("/standings")
    check_standings(standings_1, match_bodies(client, season_1))

    # A new season; the third night goes into it.
    season = table.post("/seasons", {"name": "Tihar 2083"})
    assert season["current"] and season["name"] == "Tihar 2083"
    night_3 = table.new_match(["Asha", "Bikash", "Chandra", "Dipa", "Esha"], length={"hands": 3})
    assert client.get(f"/api/v1/matches/{night_3['id']}").get_json()["season"] == season["id"]
    table.play(night_3, NIGHT_3)

    check_standings(table.get("/standings"), match_bodies(client, [night_3["id"]]))
    check_standings(
        table.get("/standings", season=first_season["id"]), match_bodies(client, season_1)
    )
    everything = table.get("/standings", season="all")
    check_standings(everything, match_bodies(client, [*season_1, night_3["id"]]))
    assert everything["season"] is None

    # Asha won every match: she rates highest.
    ordinals = {p["name"]: p["rating"]["ordinal"] for p in everything["players"]}
    assert max(ordinals, key=ordinals.get) == "Asha"
    for p in everything["players"]:
        assert p["rating"]["ordinal"] == p["rating"]["mu"] - 3 * p["rating"]["sigma"]
    history = table.get("/rating-history", season="all")["games"]
    assert [g["match"] for g in history] == [*season_1, night_3["id"]]

    # Money across the first season's nights, then some of it handed over.
    bodies = match_bodies(client, season_1)
    owed = {}
    for body in bodies:
        for p in body["players"]:
            owed[p["name"]] = owed.get(p["name"], Decimal(0)) + p["total"] * Decimal("0.50")
    money = table.get("/settle-up", season=first_season["id"])
    check_settles(money)
    assert {b["name"]: Decimal(b["amount"]) for b in money["balances"] if b["name"] in owed} == owed
    debtor = min(owed, key=owed.get)
    creditor = max(owed, key=owed.get)
    # The payment is made in the current season; the first season is settled as it was.
    paid = table.post("/payments", {"from": debtor, "to": creditor, "amount": "1.50"})
    assert paid["amount"] == "1.50" and paid["id"]
    now = table.get("/settle-up")
    check_settles(now)
    this_season = {b["name"]: Decimal(b["amount"]) for b in now["balances"]}
    want = dict.fromkeys(this_season, Decimal(0))
    for p in match_bodies(client, [night_3["id"]])[0]["players"]:
        want[p["name"]] += p["total"] * Decimal("0.50")
    want[debtor] += Decimal("1.50")
    want[creditor] -= Decimal("1.50")
    assert this_season == want
    cents = [int(v * 100) for v in want.values()]
    assert len(now["transfers"]) == fewest_by_search(cents)
    assert [p["id"] for p in table.get("/payments")["payments"]] == [paid["id"]]
    response = client.delete(f"{table.url}/payments/{paid['id']}", headers=table.auth)
    assert response.status_code == 204
    assert table.get("/payments")["payments"] == []

    # A player's record.
    record = table.get("/players/Asha", season="all")
    assert [n["match"] for n in record["nights"]] == [*season_1, night_3["id"]]
    assert all(n["place"] == 1 for n in record["nights"])
    assert record["figures"]["total"] == sum(n["total"] for n in record["nights"])
    assert record["best_night"]["total"] == max(n["total"] for n in record["nights"])
    assert record["nemesis"] is None  # nobody finished above her


def test_the_table_key_writes_to_its_matches_and_a_match_moves_in(client, create_match):
    table = create_table(client)
    match = table.new_match(["Asha", "Bikash", "Chandra"])
    three = THREE_PLAYER_HAND
    own = client.post(
        f"/api/v1/matches/{match['id']}/hands", json=three, headers=bearer(match["edit_key"])
    )
    assert own.status_code == 201
    by_table = client.post(f"/api/v1/matches/{match['id']}/hands", json=three, headers=table.auth)
    assert by_table.status_code == 201
    lone = create_match()
    assert lone.post_hand(three, key=table.key).status_code == 403  # not the table's match

    moved = table.post("/matches", {"match": lone.id, "match_edit_key": lone.key}, status=200)
    assert moved["table"] == table.id
    assert lone.post_hand(three, key=table.key).status_code == 201
    roster = [p["name"] for p in table.get()["players"]]
    assert roster == ["Asha", "Bikash", "Chandra", "Dipa", "Esha", "Gopal"]
    assert [m["id"] for m in table.get()["matches"]] == [lone.id, match["id"]]

    wrong = client.post(
        f"{table.url}/matches",
        json={"match": lone.id, "match_edit_key": "nope"},
        headers=table.auth,
    )
    assert wrong.status_code == 422


def test_a_match_changes_season(client):
    table = create_table(client)
    match = table.new_match(["Asha", "Bikash"])
    old = table.get()["seasons"][0]["id"]
    new = table.post("/seasons", {"name": "Dashain"})["id"]
    url = f"/api/v1/matches/{match['id']}"
    response = client.patch(url, json={"season": new}, headers=table.auth)
    assert response.status_code == 200 and response.get_json()["season"] == new
    bad = client.patch(url, json={"season": "no-such-season"}, headers=table.auth)
    assert bad.status_code == 422 and bad.get_json()["errors"][0]["field"] == "season"
    assert table.get("/standings", season=old)["players"] == []
    assert client.get(url).get_json()["season"] == new


def test_bad_input_is_refused_on_its_field_and_stores_nothing(client):
    table = create_table(client)
    version = table.get()["version"]

    def refused(method, path, body, field):
        response = getattr(client, method)(f"{table.url}{path}", json=body, headers=table.auth)
        assert response.status_code == 422, response.get_json()
        error = response.get_json()["errors"][0]
        assert error["field"] == field and error["message"].endswith("."), error

    refused("get", "/standings?season=nope", None, "season")
    refused("post", "/payments", {"from": "Asha", "to": "Dipa", "amount": "5.00"}, "")  # no stake
    table.patch("", {"stake": {"per_point": "1.00", "currency": "NPR"}})
    version = table.get()["version"]
    refused("post", "/payments", {"from": "Asha", "to": "Dipa", "amount": "-5.00"}, "amount")
    refused("post", "/payments", {"from": "Asha", "to": "Dipa", "amount": 5.0}, "amount")
    refused("post", "/payments", {"from": "Asha", "to": "Dipa", "amount": "5.001"}, "amount")
    refused("post", "/payments", {"from": "Nobody", "to": "Dipa", "amount": "5.00"}, "from")
    refused("patch", "", {"players": ["asha"]}, "players.0")
    refused("patch", "/players/Asha", {"name": "DIPA"}, "name")
    refused(
        "post",
        "/matches",
        {
            "name": "x",
            "players": ["Asha", "Bikash"],
            "stake": {"per_point": "1.00", "currency": "INR"},
        },
        "stake.currency",
    )
    assert table.get()["version"] == version
    assert table.get("/payments")["payments"] == []
    assert table.get()["matches"] == []

    no_key = client.patch(table.url, json={"name": "x"})
    assert no_key.status_code == 401
    wrong = client.patch(table.url, json={"name": "x"}, headers=bearer("wrong"))
    assert wrong.status_code == 403
    assert client.get("/api/v1/tables/nope").status_code == 404


def test_export_and_import_a_whole_table(client):
    table = create_table(client, stake={"per_point": "2.00", "currency": "NPR"})
    night = table.new_match(["Asha", "Bikash", "Chandra"], length={"hands": 2})
    table.play(
        night,
        NIGHT_1[1:2] and [THREE_PLAYER_HAND] * 2,
    )
    table.post("/seasons", {"name": "Tihar"})
    table.post("/payments", {"from": "Bikash", "to": "Asha", "amount": "4.00"})
    exported = client.get(f"{table.url}/export.json").get_json()
    response = client.post("/api/v1/tables/import", json=exported)
    assert response.status_code == 201, response.get_json()
    copy = response.get_json()
    assert copy["id"] != table.id
    original = table.get()
    assert [s["name"] for s in copy["seasons"]] == [s["name"] for s in original["seasons"]]
    assert [p["name"] for p in copy["players"]] == [p["name"] for p in original["players"]]
    assert [m["players"] for m in copy["matches"]] == [m["players"] for m in original["matches"]]

    def settle(public_id):
        return client.get(f"/api/v1/tables/{public_id}/settle-up?season=all").get_json()

    assert settle(copy["id"])["balances"] == settle(table.id)["balances"]

    broken = {
        **exported,
        "payments": [{"from": "Nobody", "to": "Asha", "amount": "1.00", "season": 0}],
    }
    response = client.post("/api/v1/tables/import", json=broken)
    assert response.status_code == 422
    assert response.get_json()["errors"][0]["field"] == "payments.0.from"


def test_a_table_moved_in_keeps_the_days_its_nights_were_played(client):
    """Its nights were all dated the day of the import (the season PDF's "Nights", the
    records' best and worst nights), a table played through 2025 moved in on one day."""
    table = create_table(client)
    for name in ("Night 1", "Night 2"):
        table.play(table.new_match(["Asha", "Bikash", "Chandra"], name=name), [THREE_PLAYER_HAND])
    text = client.get(f"{table.url}/export.json").get_data(as_text=True)
    today = table.get()["created_at"][:10]
    exported = json.loads(text.replace(f'"{today}T', '"2025-10-20T'))
    copy = client.post("/api/v1/tables/import", json=exported).get_json()
    nights = [(m["name"], m["created_at"]) for m in copy["matches"]]
    assert nights == [(m["name"], m["created_at"]) for m in reversed(exported["matches"])]
    assert all(day.startswith("2025-10-20T") for _, day in nights)


def test_a_misspelt_player_merges_into_the_other_and_no_total_changes(client):
    table = create_table(client, players=["Asha", "Bikash", "Chandra"])
    one = table.new_match(["Asha", "Bikash", "Chandra"])
    table.play(
        one, [h("Bikash", Asha=("sequences", 2), Bikash=("sequences", 6), Chandra=("unseen", 1))]
    )
    two = table.new_match(["Asha", "Bikas", "Chandra"])  # a typo: a new roster entry
    table.play(
        two, [h("Bikas", Asha=("sequences", 1), Bikas=("sequences", 9), Chandra=("sequences", 0))]
    )
    assert "Bikas" in [p["name"] for p in table.get()["players"]]
    totals = [m["players"] for m in table.get()["matches"]]

    table.patch("/players/bikas", {"merge_into": "Bikash"})
    assert [p["name"] for p in table.get()["players"]] == ["Asha", "Bikash", "Chandra"]
    renamed = [
        [{**p, "name": "Bikash" if p["name"] == "Bikas" else p["name"]} for p in m] for m in totals
    ]
    assert [m["players"] for m in table.get()["matches"]] == renamed
    line = {p["name"]: p for p in table.get("/standings")["players"]}["Bikash"]
    assert (line["matches"], line["hands_won"]) == (2, 2)
    body = client.get(f"/api/v1/matches/{two['id']}").get_json()
    assert body["hands"][0]["winner"] == "Bikash"
    # The match still exports and imports (its history holds the hand as it was).
    exported = client.get(f"/api/v1/matches/{two['id']}/export.json").get_json()
    assert [e["action"] for e in exported["history"]] == ["rename"]
    assert client.post("/api/v1/matches/import", json=exported).status_code == 201
    assert (
        client.patch(
            f"{table.url}/players/Nobody", json={"name": "X"}, headers=table.auth
        ).status_code
        == 404
    )


def test_a_changed_table_gives_its_new_matches_its_rules_and_stake(client):
    table = create_table(client)
    changed = table.patch(
        "",
        {
            "name": "Tihar table",
            "rules": {"profile": "amarnepal", "unseen_maal": "kidnap"},
            "stake": {"per_point": "2.00", "currency": "NPR"},
            "players": ["Firoz"],
        },
    )
    assert changed["name"] == "Tihar table" and changed["stake"]["per_point"] == "2.00"
    assert changed["players"][-1] == {"name": "Firoz"}
    match = table.new_match(["Asha", "Firoz"])
    assert match["rules"]["profile"] == "amarnepal"
    assert match["rules"]["unseen_maal"] == "kidnap"
    assert match["stake"] == {"per_point": "2.00", "currency": "NPR"}
    unstaked = table.new_match(["Asha", "Firoz"], stake=None)
    assert unstaked["stake"] is None


def test_the_table_key_joins_a_browser_to_its_matches(client):
    """The pages' edit link works with the table's key as with the match's own."""
    table = create_table(client)
    match = table.new_match(["Asha", "Bikash"])
    joined = client.get(f"/matches/{match['id']}/join/{table.key}")
    assert joined.status_code == 303
    other = create_table(client)
    assert client.get(f"/matches/{match['id']}/join/{other.key}").status_code == 403


def test_a_new_match_in_a_table_says_where_it_is_as_its_document_does(client):
    """Like ``POST /api/v1/matches``, the answer gives the new match's address in
    ``Location``, and the OpenAPI document declares it."""
    table = create_table(client)
    response = client.post(
        f"{table.url}/matches", json={"name": "N", "players": ROSTER[:3]}, headers=table.auth
    )
    assert response.status_code == 201
    assert response.headers["Location"] == f"/api/v1/matches/{response.get_json()['id']}"
    document = client.get("/api/v1/openapi.json").get_json()
    created = document["paths"]["/api/v1/tables/{public_id}/matches"]["post"]["responses"]
    assert "Location" in created["201"]["headers"]


def test_a_rival_is_never_also_the_nemesis(client):
    """Bikash ends above Asha in 2 of their 3 nights (below in 1): the worst record
    against her, and the closest too. He is named her nemesis alone, and her rival is
    the next closest: Chandra, whom she ended above all 3 times."""
    table = create_table(client)

    def night(winner: str, second: str) -> None:
        """``winner`` first, ``second`` next (1 maal), Chandra last (no maal)."""
        maal = {"Asha": 0, "Bikash": 0, "Chandra": 0, second: 1}
        match = table.new_match(["Asha", "Bikash", "Chandra"], length={"hands": 1})
        table.play(match, [h(winner, **{n: ("sequences", m) for n, m in maal.items()})])

    night("Bikash", "Asha")
    night("Bikash", "Asha")
    night("Asha", "Bikash")
    record = table.get("/players/Asha")
    rows = {r["other"]: (r["above"], r["below"]) for r in record["head_to_head"]}
    assert rows == {"Bikash": (1, 2), "Chandra": (3, 0)}
    assert (record["nemesis"], record["rival"]) == ("Bikash", "Chandra")
    # Chandra's: below both every time; Asha and Bikash equally bad for him (3 of 3),
    # so the nemesis is the first of them and the rival the other.
    chandra = table.get("/players/Chandra")
    assert {chandra["nemesis"], chandra["rival"]} == {"Asha", "Bikash"}


def test_a_new_tables_first_season_is_refused_on_its_own_field(client):
    """A season's name too long (or empty) was refused on ``name``: the organiser was
    told the table's name, which was fine, had too many characters."""
    for season, message in (("s" * 81, "at most 80 characters"), ("  ", "Give the season a name")):
        response = client.post("/api/v1/tables", json={"name": "Friday table", "season": season})
        assert response.status_code == 422
        assert [(e["field"], message in e["message"]) for e in response.get_json()["errors"]] == [
            ("season", True)
        ]
