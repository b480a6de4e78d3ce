"""Guests of a table through the API (issue 38): they play a night without joining the
roster, are marked ``guest`` in every player row of the match, the settle-ups, the
standings and the head-to-head, are known by name ignoring case across nights, and
their nights become theirs once the name joins the roster."""

import pytest
from api_support import hand
from tables_support import ROSTER, check_settles, check_standings, create_table, match_bodies

FOUR = ["Asha", "Bikash", "Chandra", "Ram"]
WITH_RAM = {
    "Asha": ("sequences", 10),
    "Bikash": ("sequences", 5),
    "Chandra": ("unseen", 0),
    "Ram": ("sequences", 8),
}


def _night(table, players=FOUR, guests=("Ram",), hands=2) -> dict:
    made = table.new_match(list(players), guests=list(guests))
    names = dict(zip(FOUR, players, strict=True))
    seats = {names[n]: counts for n, counts in WITH_RAM.items()}
    table.play(made, [hand("Ram" if i % 2 else "Asha", {**seats}) for i in range(hands)])
    return made


def _rows(body: dict, key: str = "players") -> dict[str, bool]:
    return {row["name"]: row["guest"] for row in body[key]}


def test_a_guest_plays_a_night_without_joining_the_roster(client):
    table = create_table(client, stake={"per_point": "1.00", "currency": "NPR"})
    made = _night(table)
    assert _rows(made) == {"Asha": False, "Bikash": False, "Chandra": False, "Ram": True}
    assert [p["name"] for p in table.get()["players"]] == ROSTER
    body = client.get(f"/api/v1/matches/{made['id']}").get_json()
    assert _rows(body) == _rows(made) and _rows(body, "standings") == _rows(made)
    settle = client.get(f"/api/v1/matches/{made['id']}/settle-up").get_json()
    assert _rows(settle, "balances")["Ram"] is True

    standings = table.get("/standings")
    check_standings(standings, match_bodies(client, [made["id"]]))
    assert _rows(standings)["Ram"] is True and _rows(standings)["Asha"] is False
    pairs = [r for r in standings["head_to_head"] if "Ram" in (r["a"], r["b"])]
    assert len(pairs) == 3
    assert all(r["b_guest"] if r["b"] == "Ram" else r["a_guest"] for r in pairs)
    season = table.get("/settle-up")
    check_settles(season)
    assert _rows(season, "balances")["Ram"] is True
    listed = table.get()["matches"][0]
    assert _rows(listed)["Ram"] is True
    record = table.get("/players/ram")
    assert record["name"] == "Ram" and record["guest"] is True
    assert {r["other"]: r["guest"] for r in record["head_to_head"]}["Asha"] is False
    # A guest pays and is paid like anyone.
    owed = next(t for t in season["transfers"] if "Ram" in (t["from"], t["to"]))
    paid = table.post("/payments", {"from": owed["from"], "to": owed["to"], "amount": "1.00"})
    assert paid["from"] == owed["from"]


def test_a_guest_is_known_by_name_ignoring_case_across_nights(client):
    table = create_table(client)
    first = _night(table)
    second = _night(table, players=["Asha", "Bikash", "Chandra", "RAM"], guests=["ram"])
    assert "Ram" in [p["name"] for p in second["players"]]  # spelt as the first night
    standings = table.get("/standings")
    check_standings(standings, match_bodies(client, [first["id"], second["id"]]))
    ram = next(line for line in standings["players"] if line["name"] == "Ram")
    assert ram["matches"] == 2 and ram["guest"] is True
    assert "Ram" not in [p["name"] for p in table.get()["players"]]


def test_joining_the_roster_later_makes_the_guest_s_nights_theirs(client):
    table = create_table(client)
    made = _night(table)
    before = client.get(f"/api/v1/matches/{made['id']}").get_json()
    table.patch("", {"players": ["ram"]})
    assert "ram" in [p["name"].lower() for p in table.get()["players"]]
    after = client.get(f"/api/v1/matches/{made['id']}").get_json()
    assert after["version"] > before["version"]
    assert not any(_rows(after).values()) and not any(_rows(after, "standings").values())
    standings = table.get("/standings")
    assert not any(_rows(standings).values())
    assert not any(r["a_guest"] or r["b_guest"] for r in standings["head_to_head"])
    assert not any(_rows(table.get("/settle-up"), "balances").values())


def test_guests_that_are_no_guests_are_refused_on_the_field(client):
    table = create_table(client)
    on_roster = table.post(
        "/matches", {"name": "N", "players": FOUR, "guests": ["asha"]}, status=422
    )
    assert on_roster["errors"][0]["field"] == "guests"
    assert "asha" in on_roster["errors"][0]["message"]
    not_playing = table.post(
        "/matches", {"name": "N", "players": FOUR, "guests": ["Sita"]}, status=422
    )
    assert not_playing["errors"][0]["field"] == "guests"
    assert "Sita" in not_playing["errors"][0]["message"]
    not_a_list = table.post("/matches", {"name": "N", "players": FOUR, "guests": "Ram"}, 422)
    assert not_a_list["errors"][0]["field"] == "guests"
    assert table.get()["matches"] == []
    assert "Ram" not in [p["name"] for p in table.get()["players"]]


def test_a_roster_player_listed_as_a_guest_too_is_refused_on_guests_naming_them(client):
    """A roster player among the players and again among the guests (any case) is
    refused on ``guests`` with the sentence naming them, not "listed twice" on
    ``players``, and nothing is recorded."""
    table = create_table(client)
    twice = table.post(
        "/matches", {"name": "N", "players": [*FOUR, "asha"], "guests": ["asha"]}, status=422
    )
    assert [e["field"] for e in twice["errors"]] == ["guests"]
    assert twice["errors"][0]["message"] == (
        "asha is on the table's roster, so plays as themselves, not as a guest."
    )
    assert table.get()["matches"] == []


def test_a_name_not_listed_as_a_guest_joins_the_roster_as_before(client):
    table = create_table(client)
    made = table.new_match(FOUR)
    assert not any(_rows(made).values())
    assert "Ram" in [p["name"] for p in table.get()["players"]]


def test_a_table_s_export_keeps_its_guests(client):
    table = create_table(client, stake={"per_point": "1.00", "currency": "NPR"})
    _night(table)
    table.post("/payments", {"from": "Ram", "to": "Asha", "amount": "2.00"})
    document = client.get(f"{table.url}/export.json").get_json()
    response = client.post("/api/v1/tables/import", json=document)
    assert response.status_code == 201, response.get_json()
    copy = response.get_json()
    assert "Ram" not in [p["name"] for p in copy["players"]]
    assert {p["name"]: p["guest"] for p in copy["matches"][0]["players"]}["Ram"] is True
    match = client.get(f"/api/v1/matches/{copy['matches'][0]['id']}").get_json()
    assert {p["name"]: p["guest"] for p in match["players"]}["Ram"] is True


def test_a_roster_player_cannot_take_a_guest_s_name(client):
    table = create_table(client)
    made = _night(table)
    refused = table.patch("/players/Dipa", {"name": "ram"}, status=422)
    assert refused["errors"][0]["field"] == "name"
    body = client.get(f"/api/v1/matches/{made['id']}").get_json()
    assert {p["name"]: p["guest"] for p in body["players"]}["Ram"] is True


def test_a_guest_s_money_closes_with_the_table_key_and_they_get_no_own_link(client):
    """A guest has no own link (422 on the name), so what is paid to them is confirmed
    or rejected with the table key; a payment from them counts as any other."""
    table = create_table(client, stake={"per_point": "1.00", "currency": "NPR"})
    _night(table)
    refused = table.post("/players/Ram/link", None, status=422)
    assert refused["errors"][0]["message"]
    to_ram = table.post("/payments", {"from": "Asha", "to": "Ram", "amount": "3.00"})
    assert to_ram["state"] == "unconfirmed"
    confirmed = table.post(f"/payments/{to_ram['id']}/confirm", None, status=200)
    assert confirmed["state"] == "confirmed" and confirmed["confirmed"] is True
    from_ram = table.post("/payments", {"from": "Ram", "to": "Bikash", "amount": "2.00"})
    rejected = table.post(f"/payments/{from_ram['id']}/reject", None, status=200)
    assert rejected["state"] == "rejected"
    season = table.get("/settle-up")
    assert season["unconfirmed"] == [] and season["pending"] == []
    balances = {row["name"]: row["amount"] for row in season["balances"]}
    before = {row["name"]: row["amount"] for row in table.get("/settle-up")["balances"]}
    assert balances == before  # read twice: the same
    lone = create_table(client, stake={"per_point": "1.00", "currency": "NPR"})
    _night(lone)
    unpaid = {row["name"]: float(row["amount"]) for row in lone.get("/settle-up")["balances"]}
    # Asha paid Ram 3 (confirmed, counts): Asha's balance rises by 3, Ram's falls by 3;
    # Ram's 2 to Bikash was rejected and counts for nothing.
    assert float(balances["Asha"]) == unpaid["Asha"] + 3
    assert float(balances["Ram"]) == unpaid["Ram"] - 3
    assert float(balances["Bikash"]) == unpaid["Bikash"]


@pytest.mark.parametrize(
    ("guests", "message"),
    [
        ("Ram", "guests must be a list of names, each one of the players."),
        ([7], "guests must be a list of names, each one of the players."),
        (
            ["Rm"],
            "Rm is not one of this match's players: a guest plays too, so list them among "
            "the players as well.",
        ),
    ],
)
def test_a_table_s_export_with_guests_edited_wrong_is_refused_on_them(client, guests, message):
    """A night's ``guests`` in a table's export, edited by hand into one name, a number or
    a misspelt name, is a 422 on ``matches.N.guests`` as a new night's is: it was taken
    as no guest at all, and the guest joined the roster."""
    table = create_table(client, stake={"per_point": "1.00", "currency": "NPR"})
    _night(table)
    document = client.get(f"{table.url}/export.json").get_json()
    document["matches"][0]["guests"] = guests
    response = client.post("/api/v1/tables/import", json=document)
    assert response.status_code == 422, response.get_json()
    assert response.get_json()["errors"] == [{"field": "matches.0.guests", "message": message}]
