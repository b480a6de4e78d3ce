"""A player's figures (issue 39): ``GET /api/v1/tables/<id>/stats`` and
``GET /api/v1/matches/<id>/stats`` against every figure summed again here from the
matches' hands as the API gives them (``GET /api/v1/matches/<id>``), over random
seasons: sit-outs, fouls (settled in their hand or carried to the next), dublee
finishes, void hands, unseen players, ties, edits, an undo, a rename and a merge,
guests (then one of them joining the roster), matches over and open."""

from __future__ import annotations

from collections import defaultdict

from api_support import hand as counted_hand
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from tables_support import create_table, match_bodies

from ledger.tables import player_stats, service

ROSTER = ["Asha", "Bikash", "Chandra", "Dipa", "Esha", "Gopal"]
#: Who may play a night as a guest (not on the roster).
GUESTS = ["Ram", "Sita"]
#: Fouls on: settled in their own hand, or carried to the next hand's finisher.
FOUL_RULES = ["same_hand", "next_hand"]
AWARDS = ("hands_won", "dublee_finishes", "best_hand", "best_night")


@st.composite
def hands_of(draw, players: list[str]) -> dict:
    names = draw(st.lists(st.sampled_from(players), min_size=2, max_size=5, unique=True))
    seen = {n: draw(st.sampled_from(["sequences", "dublees", "unseen"])) for n in names}
    fouls = {n for n in names if draw(st.integers(0, 5)) == 0}
    can_finish = [n for n in names if seen[n] != "unseen" and n not in fouls]
    winner = draw(st.one_of(st.none(), st.sampled_from(can_finish))) if can_finish else None
    return {
        "finish": seen[winner] if winner else "void",
        "winner": winner,
        "players": [
            {"name": n, "seen": seen[n], "maal": draw(st.integers(0, 4)), "foul": n in fouls}
            for n in names
        ],
    }


@st.composite
def seasons(draw) -> list[dict]:
    out = []
    for _ in range(draw(st.integers(1, 4))):
        players = draw(
            st.lists(st.sampled_from(ROSTER + GUESTS), min_size=2, max_size=5, unique=True)
        )
        out.append(
            {
                "players": players,
                "finished": draw(st.booleans()),
                "hands": draw(st.lists(hands_of(players), min_size=1, max_size=4)),
                "new_season": draw(st.integers(0, 3)) == 0,
                # After the figures were read once: a hand changed, the newest taken back
                # and another played (its number is new), so kept figures must follow.
                "edit": draw(st.one_of(st.none(), st.tuples(st.integers(0, 3), hands_of(players)))),
                "undo_and_replay": draw(st.one_of(st.none(), hands_of(players))),
            }
        )
    return out


def expected(bodies: list[dict], roster: list[str]) -> tuple[dict[str, dict], list[dict]]:
    """Every figure of every player over ``bodies`` (matches in play order), and the
    awards, from the hands alone; a player not on ``roster`` is a guest. A night still
    going has no place and is nobody's best or worst night: it has no result yet."""
    on_roster = {name.casefold() for name in roster}
    rows: dict[str, dict] = {}
    finishes: dict[str, list[int]] = defaultdict(list)
    for body in bodies:
        totals: dict[str, int] = defaultdict(int)
        played: list[str] = []
        for hand in body["hands"]:
            for name, points in hand["carried_penalties"].items():
                totals[name] += points
            for p in hand["players"]:
                name, net = p["name"], p["net"]
                if name not in played:
                    played.append(name)
                totals[name] += net
                row = rows.setdefault(name, _empty(name, name.casefold() not in on_roster))
                row["hands"] += 1
                row["hands_won"] += hand["winner"] == name
                row["seen_hands"] += p["seen"] != "unseen"
                row["dublee_seen_hands"] += p["seen"] == "dublees"
                row["unseen_hands"] += p["seen"] == "unseen"
                row["unseen_points"] += net if p["seen"] == "unseen" else 0
                row["unseen_points_hands"] += p["seen"] == "unseen"
                row["fouls"] += bool(p.get("foul"))
                row["dublee_finishes"] += hand["winner"] == name and hand["finish"] == "dublees"
                ref = {"match": body["id"], "number": hand["number"], "net": net}
                if row["best_hand"] is None or net > row["best_hand"]["net"]:
                    row["best_hand"] = ref
                if row["worst_hand"] is None or net < row["worst_hand"]["net"]:
                    row["worst_hand"] = ref
        for name in played:
            row = rows[name]
            row["matches"] += 1
            row["total"] += totals[name]
            night = {"match": body["id"], "total": totals[name]}
            best, worst = row["best_night"], row["worst_night"]
            if body["finished"] and (best is None or totals[name] > best["total"]):
                row["best_night"] = night
            if body["finished"] and (worst is None or totals[name] < worst["total"]):
                row["worst_night"] = night
            if body["finished"]:
                place = 1 + len([o for o in played if totals[o] > totals[name]])
                row["places"][str(place)] = row["places"].get(str(place), 0) + 1
                finishes[name].append(place)
    for name, row in rows.items():
        row["form"] = finishes[name][-5:]
        run = best = 0
        for place in finishes[name]:
            run = run + 1 if place == 1 else 0
            best = max(best, run)
        row["longest_winning_run"] = best
    awards = []
    for award in AWARDS:
        values = {
            name: row[award]["net"]
            if award == "best_hand"
            else (row[award] or {"total": 0})["total"]
            if award == "best_night"
            else row[award]
            for name, row in rows.items()
        }
        top = max(values.values(), default=0)
        if top > 0:
            awards.append((award, {n for n, v in values.items() if v == top}, top))
    return rows, awards


def _empty(name: str, guest: bool) -> dict:
    return {
        "name": name,
        "guest": guest,
        **dict.fromkeys(
            (
                "matches",
                "total",
                "hands",
                "hands_won",
                "seen_hands",
                "dublee_seen_hands",
                "unseen_hands",
                "unseen_points",
                "unseen_points_hands",
                "fouls",
                "dublee_finishes",
            ),
            0,
        ),
        "best_hand": None,
        "worst_hand": None,
        "best_night": None,
        "worst_night": None,
        "places": {},
    }


def on_roster(table) -> list[str]:
    return [p["name"] for p in table.get()["players"]]


def check(found: dict, bodies: list[dict], roster: list[str]) -> None:
    rows, awards = expected(bodies, roster)
    assert {row["name"]: row for row in found["players"]} == rows
    totals = [row["total"] for row in found["players"]]
    assert totals == sorted(totals, reverse=True)
    got = [(a["award"], set(a["players"]), a["value"]) for a in found["awards"]]
    assert got == awards
    order = [row["name"] for row in found["players"]]
    for award in found["awards"]:
        assert award["players"] == sorted(award["players"], key=order.index)


@settings(
    max_examples=15,
    deadline=None,
    database=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(
    season=seasons(),
    rename=st.booleans(),
    merge=st.booleans(),
    join=st.booleans(),
    foul=st.sampled_from(FOUL_RULES),
)
def test_every_figure_is_the_sum_of_the_stored_hands(client, season, rename, merge, join, foul):
    rules = {"profile": "sparkai", "foul": foul, "foul_penalty": 7}
    table = create_table(client, players=ROSTER + ["Hari"], rules=rules)
    played: list[tuple[str, str]] = []  # (match id, season id), in play order
    for spec in season:
        if spec["new_season"]:
            table.post("/seasons", {"name": f"Season {len(played)}"})
        length = {"hands": len(spec["hands"])} if spec["finished"] else None
        guests = [n for n in spec["players"] if n in GUESTS]
        match = table.new_match(spec["players"], length=length, guests=guests)
        table.play(match, spec["hands"])
        played.append((match["id"], match["season"]))
    ids = [m for m, _ in played]

    check(table.get("/stats", season="all"), match_bodies(client, ids), on_roster(table))
    for (match_id, _), spec in zip(played, season, strict=True):
        hands = f"/api/v1/matches/{match_id}/hands"
        numbers = [
            h["number"] for h in client.get(f"/api/v1/matches/{match_id}").get_json()["hands"]
        ]
        if spec["edit"] is not None:
            number = numbers[spec["edit"][0] % len(numbers)]
            response = client.put(f"{hands}/{number}", json=spec["edit"][1], headers=table.auth)
            assert response.status_code in (200, 409), response.get_json()  # 409: it is over
        if spec["undo_and_replay"] is not None and len(numbers) > 1:
            response = client.delete(f"{hands}/{numbers[-1]}", headers=table.auth)
            assert response.status_code in (200, 204), response.get_json()
            table.play({"id": match_id}, [spec["undo_and_replay"]])
    if rename:
        table.patch("/players/Bikash", {"name": "Bikas"})
    if merge:  # two who never sat at the same match become one (Hari never played)
        apart = [
            (a, b)
            for a in ROSTER[2:]
            for b in [*ROSTER[2:], "Hari"]
            if a != b and not any({a, b} <= set(s["players"]) for s in season)
        ]
        a, b = apart[0]
        table.patch(f"/players/{a}", {"merge_into": b})
    if join:  # a guest joins the roster: their nights become theirs
        table.patch("", {"players": ["Ram"]})
    bodies = match_bodies(client, ids)
    check(table.get("/stats", season="all"), bodies, on_roster(table))
    current = table.get()["seasons"][-1]["id"]
    in_current = [b for b, (_, s) in zip(bodies, played, strict=True) if s == current]
    found = table.get("/stats")
    assert found["season"]["id"] == current
    check(found, in_current, on_roster(table))
    for body in bodies:
        response = client.get(f"/api/v1/matches/{body['id']}/stats")
        assert response.status_code == 200
        check(response.get_json(), [body], on_roster(table))


def test_a_tie_shares_the_better_place_and_both_take_the_award(client):
    table = create_table(client, rules="sparkai")
    match = table.new_match(["Asha", "Bikash", "Chandra"], length={"hands": 2})
    hand = {
        "finish": "sequences",
        "players": [
            {"name": "Asha", "seen": "sequences", "maal": 0},
            {"name": "Bikash", "seen": "sequences", "maal": 0},
            {"name": "Chandra", "seen": "unseen", "maal": 0},
        ],
    }
    table.play(match, [{**hand, "winner": "Asha"}, {**hand, "winner": "Bikash"}])
    found = client.get(f"/api/v1/matches/{match['id']}/stats").get_json()
    rows = {row["name"]: row for row in found["players"]}
    assert rows["Asha"]["total"] == rows["Bikash"]["total"] > rows["Chandra"]["total"]
    assert rows["Asha"]["places"] == rows["Bikash"]["places"] == {"1": 1}
    assert rows["Chandra"]["places"] == {"3": 1}
    assert rows["Asha"]["form"] == [1] and rows["Chandra"]["longest_winning_run"] == 0
    assert rows["Chandra"]["unseen_points"] == rows["Chandra"]["total"] < 0
    by_award = {a["award"]: a for a in found["awards"]}
    assert by_award["hands_won"]["players"] == ["Asha", "Bikash"]
    assert by_award["best_night"]["players"] == ["Asha", "Bikash"]
    assert "dublee_finishes" not in by_award  # nobody finished by dublees: not given
    assert found["season"]["id"] == match["season"]


def test_a_lone_match_has_no_season_and_no_guests(client):
    response = client.post(
        "/api/v1/matches",
        json={"name": "Alone", "players": ["Asha", "Bikash"], "rules": "sparkai"},
    )
    match = response.get_json()
    found = client.get(f"/api/v1/matches/{match['id']}/stats").get_json()
    assert found == {"season": None, "players": [], "awards": []}


def test_stats_of_no_table_or_match_or_season(client):
    table = create_table(client)
    assert client.get("/api/v1/tables/nosuchtable/stats").status_code == 404
    assert client.get("/api/v1/matches/nosuchmatch/stats").status_code == 404
    response = client.get(f"{table.url}/stats", query_string={"season": "nope"})
    assert response.status_code == 422
    assert response.get_json()["errors"][0]["field"] == "season"


def test_figures_read_before_follow_an_edit_an_undo_a_new_hand_and_a_rename(client):
    table = create_table(client, rules="sparkai")
    match = table.new_match(["Asha", "Bikash", "Chandra"])
    hand = {
        "finish": "sequences",
        "winner": "Asha",
        "players": [
            {"name": "Asha", "seen": "sequences", "maal": 3},
            {"name": "Bikash", "seen": "dublees", "maal": 0},
            {"name": "Chandra", "seen": "unseen", "maal": 1},
        ],
    }
    table.play(match, [hand, hand, hand])
    hands, auth = f"/api/v1/matches/{match['id']}/hands", table.auth
    steps = [
        lambda: client.put(
            f"{hands}/1", json={**hand, "winner": "Bikash", "finish": "dublees"}, headers=auth
        ),
        lambda: client.delete(f"{hands}/3", headers=auth),
        lambda: client.post(hands, json={**hand, "finish": "void", "winner": None}, headers=auth),
        lambda: client.patch(f"{table.url}/players/Chandra", json={"name": "Chandu"}, headers=auth),
    ]
    for step in steps:
        check(
            table.get("/stats"), match_bodies(client, [match["id"]]), on_roster(table)
        )  # read, then kept
        assert step().status_code in (200, 201, 204)
    check(table.get("/stats"), match_bodies(client, [match["id"]]), on_roster(table))


def _won_by(winner: str, **maal: int) -> dict:
    """A hand ``winner`` finishes, everyone seen by sequences with the maal given."""
    return counted_hand(winner, {name: ("sequences", points) for name, points in maal.items()})


def test_a_night_still_going_is_nobodys_best_or_worst_night(client):
    """Asha's +3 in a night that is over is her best night, not the +10 she leads with
    tonight: a night still going has no result yet (nor a place), in her figures, the
    season's awards and her record alike."""
    table = create_table(client, rules="sparkai")
    over = table.new_match(["Asha", "Bikash"], length={"hands": 1})
    table.play(over, [_won_by("Asha", Asha=0, Bikash=0)])
    going = table.new_match(["Asha", "Bikash"])  # open: no length, not ended
    table.play(going, [counted_hand("Asha", {"Asha": ("sequences", 0), "Bikash": ("unseen", 0)})])
    rows = {row["name"]: row for row in table.get("/stats")["players"]}
    assert rows["Asha"]["total"] == 13  # the night going counts in the total as ever
    assert rows["Asha"]["best_night"] == {"match": over["id"], "total": 3}
    assert rows["Bikash"]["worst_night"] == {"match": over["id"], "total": -3}
    best = {a["award"]: a for a in table.get("/stats")["awards"]}["best_night"]
    assert best["value"] == 3
    record = table.get("/players/Bikash")
    assert (record["worst_night"]["match"], record["best_night"]["match"]) == (over["id"],) * 2


def test_a_night_still_going_puts_nobody_above_anyone_head_to_head(client):
    """Asha ended a finished night above Bikash; tonight, still going, Bikash leads:
    the pair played 2 matches together, and Asha is above once, Bikash never (a night
    still going has no places yet, in the head-to-head as in the places), in the
    standings and in each one's record."""
    table = create_table(client, rules="sparkai")
    over = table.new_match(["Asha", "Bikash"], length={"hands": 1})
    table.play(over, [_won_by("Asha", Asha=0, Bikash=0)])
    going = table.new_match(["Asha", "Bikash"])  # open: no length, not ended
    table.play(going, [_won_by("Bikash", Asha=0, Bikash=0)])
    (pair,) = table.get("/standings")["head_to_head"]
    assert (pair["a"], pair["matches"], pair["a_above"], pair["b_above"]) == ("Asha", 2, 1, 0)
    (row,) = table.get("/players/Bikash")["head_to_head"]
    assert (row["other"], row["matches"], row["above"], row["below"]) == ("Asha", 2, 0, 1)
    # Once it is over, it counts.
    ended = client.patch(
        f"/api/v1/matches/{going['id']}", json={"finished": True}, headers=table.auth
    )
    assert ended.status_code == 200
    (pair,) = table.get("/standings")["head_to_head"]
    assert (pair["matches"], pair["a_above"], pair["b_above"]) == (2, 1, 1)


def test_a_points_race_night_counts_as_played_not_in_the_points(client):
    """A zero-sum night (Asha +3, Bikash −3) and a points race Bikash wins with his own
    maal (Asha 2, Bikash 30): the season's totals, money, best hand and night are the
    zero-sum night's alone (they square); the race counts as a night played and won,
    for its hands, places and rating, and his record lists it, marked."""
    table = create_table(client, rules="sparkai", stake={"per_point": "1.00", "currency": "NPR"})
    zero_sum = table.new_match(["Asha", "Bikash"], length={"hands": 1})
    table.play(zero_sum, [_won_by("Asha", Asha=0, Bikash=0)])
    race = table.new_match(["Asha", "Bikash"], length={"hands": 1}, rules="gamerules", stake=None)
    table.play(race, [_won_by("Bikash", Asha=2, Bikash=20)])
    standings = {line["name"]: line for line in table.get("/standings")["players"]}
    assert {n: (line["total"], line["amount"]) for n, line in standings.items()} == {
        "Asha": (3, "3.00"),
        "Bikash": (-3, "-3.00"),
    }
    played = {
        n: (line["matches"], line["matches_won"], line["maal"]) for n, line in standings.items()
    }
    assert played == {"Asha": (2, 1, 2), "Bikash": (2, 1, 20)}
    (pair,) = table.get("/standings")["head_to_head"]
    assert (pair["matches"], pair["a_above"], pair["b_above"]) == (2, 1, 1)
    stats = table.get("/stats")
    bikash = next(row for row in stats["players"] if row["name"] == "Bikash")
    assert bikash["total"] == -3 and bikash["hands"] == bikash["hands_won"] * 2 == 2
    assert bikash["best_hand"] == {"match": zero_sum["id"], "number": 1, "net": -3}
    assert bikash["best_night"] == bikash["worst_night"] == {"match": zero_sum["id"], "total": -3}
    assert bikash["places"] == {"1": 1, "2": 1} and bikash["form"] == [2, 1]
    awards = {a["award"]: (a["players"], a["value"]) for a in stats["awards"]}
    assert awards["best_hand"] == awards["best_night"] == (["Asha"], 3)
    assert awards["hands_won"] == (["Asha", "Bikash"], 1)
    record = table.get("/players/Bikash")
    assert [(n["match"], n["points_race"], n["place"]) for n in record["nights"]] == [
        (zero_sum["id"], False, 2),
        (race["id"], True, 1),
    ]
    assert record["best_night"]["match"] == record["worst_night"]["match"] == zero_sum["id"]
    # The race night alone, on its own: its own figures, its winner's best night.
    alone = client.get(f"/api/v1/matches/{race['id']}/stats").get_json()
    assert {row["name"]: row["total"] for row in alone["players"]} == {"Bikash": 30, "Asha": 2}


def test_earlier_nights_counted_with_a_races_points_are_not_the_seasons(client, app):
    """The figures of a period's earlier nights are kept, by those nights: counted with
    a points race's points (``zero_sum_only=False``, every night's own figures) they are
    not the season's (its points left out), so each is kept apart. Read with the race's
    points first, the season still leaves them out of Bikash's total."""
    table = create_table(client, rules="sparkai")
    race = table.new_match(["Asha", "Bikash"], length={"hands": 1}, rules="gamerules", stake=None)
    table.play(race, [_won_by("Bikash", Asha=2, Bikash=20)])
    later = table.new_match(["Asha", "Bikash"], length={"hands": 1})
    table.play(later, [_won_by("Asha", Asha=0, Bikash=0)])
    raced = client.get(f"/api/v1/matches/{race['id']}/stats").get_json()["players"]
    race_total = next(row["total"] for row in raced if row["name"] == "Bikash")
    with app.app_context():
        found = service.get_table(table.id)
        nights = service.season_matches(found, None)
        every = player_stats.stats(found, nights, zero_sum_only=False)
        season = player_stats.stats(found, nights)
        again = player_stats.stats(found, nights, zero_sum_only=False)
    assert every.row("Bikash").total == again.row("Bikash").total == race_total - 3
    assert season.row("Bikash").total == -3
    assert season.row("Bikash").tally.best_hand.match == later["id"]
