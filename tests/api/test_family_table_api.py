"""A family's table kept for three seasons (tests/family_support.py: seven people and two
guests, a merge, a rename, a player who forgot himself, points-race nights among the
zero-sum ones, the stake raised between seasons, a night still going): every figure the
API gives for each season and all time is the one worked out again from the hands,
under each player's name at the end; and What if…? gives the totals worked out again
under other rules."""

from __future__ import annotations

from decimal import Decimal

import family_support as family
import pytest


@pytest.fixture
def table(client) -> dict:
    return family.build(*family.client_calls(client))


def _periods(table: dict) -> list[tuple[str, int | None]]:
    return [("all", None), *((sid, i) for i, sid in enumerate(table["seasons"]))]


def _hand(ids: list[str], hand: tuple[int, int, int] | None) -> dict | None:
    return hand and {"match": ids[hand[0]], "number": hand[1], "net": hand[2]}


def _night(ids: list[str], night: tuple[int, int] | None) -> dict | None:
    return night and {"match": ids[night[0]], "total": night[1]}


def _stats_row(figures: family.Figures, name: str, ids: list[str]) -> dict:
    """The stats row the API should give for ``figures``."""
    return {
        "name": name,
        "guest": name in family.GUESTS,
        "matches": figures.matches,
        "total": figures.total,
        "hands": figures.hands,
        "hands_won": figures.hands_won,
        "seen_hands": figures.seen_hands,
        "dublee_seen_hands": figures.dublee_seen_hands,
        "unseen_hands": figures.unseen_hands,
        "unseen_points": figures.unseen_points,
        "unseen_points_hands": figures.unseen_points_hands,
        "fouls": 0,
        "dublee_finishes": figures.dublee_finishes,
        "best_hand": _hand(ids, figures.best_hand),
        "worst_hand": _hand(ids, figures.worst_hand),
        "best_night": _night(ids, figures.best_night),
        "worst_night": _night(ids, figures.worst_night),
        "places": {str(p): n for p, n in sorted(figures.places.items())},
        "longest_winning_run": figures.longest_run,
        "form": figures.form,
    }


def test_every_figure_is_the_one_the_hands_give(client, table):
    roster = client.get(f"/api/v1/tables/{table['id']}").get_json()["players"]
    assert [p["name"] for p in roster] == [
        *("Sita", "Ram", "Geeta", "Hari", "Maya", "Kiran", "Former player 1")
    ]
    for season, index in _periods(table):
        figures, pairs, awards = family.expected(index)
        url = f"/api/v1/tables/{table['id']}"
        stats = client.get(f"{url}/stats?season={season}").get_json()
        rows = {row["name"]: row for row in stats["players"]}
        assert rows == {n: _stats_row(f, n, table["matches"]) for n, f in figures.items()}
        assert [r["total"] for r in stats["players"]] == sorted(
            (f.total for f in figures.values()), reverse=True
        )
        assert [(a["award"], set(a["players"]), a["value"]) for a in stats["awards"]] == [
            (a["award"], a["players"], a["value"]) for a in awards
        ]
        standings = client.get(f"{url}/standings?season={season}").get_json()
        lines = {
            r["name"]: (
                r["matches"],
                r["matches_won"],
                r["maal"],
                r["total"],
                r["amount"] and Decimal(r["amount"]),
            )
            for r in standings["players"]
        }
        assert lines == {
            n: (f.matches, f.matches_won, f.maal, f.total, f.amount) for n, f in figures.items()
        }
        # Zero-sum nights alone: the season's totals square, its points races left out.
        assert sum(r["total"] for r in standings["players"]) == 0
        got = {
            frozenset((r["a"], r["b"])): (
                r["matches"],
                {r["a"]: (r["a_above"], r["a_paid_b"]), r["b"]: (r["b_above"], r["b_paid_a"])},
            )
            for r in standings["head_to_head"]
        }
        assert got == {
            pair: (
                row["matches"],
                {n: (row[n]["above"], row[n]["paid"]) for n in pair},
            )
            for pair, row in pairs.items()
        }


def test_a_players_record_says_what_they_paid_and_received_of_each_other(client, table):
    """Hari's record, all time: his nights, best and worst night, and per opponent the
    matches, above, below, paid and received, as the hands give them (his merged
    spelling's night among them). Hari's last night is still going, and Ram played three
    points races: each record lists every night (the races marked), and its best and
    worst night and total are of the zero-sum nights that are over."""
    figures, pairs, _ = family.expected(None)
    plan, ids = family.nights(), table["matches"]
    for name, spellings in (("Ram", {"Ram"}), ("Hari", {"Hari", "Hary"})):
        url = f"/api/v1/tables/{table['id']}/players/{name}?season=all"
        record = client.get(url).get_json()
        mine = [i for i, n in enumerate(plan) if spellings & set(n.players)]
        assert [(n["match"], n["points_race"], n["finished"]) for n in record["nights"]] == [
            (ids[i], plan[i].race, plan[i].finished) for i in mine
        ]
        theirs = figures[name]
        assert (record["best_night"]["match"], record["best_night"]["total"]) == (
            ids[theirs.best_night[0]],
            theirs.best_night[1],
        )
        assert (record["worst_night"]["match"], record["worst_night"]["total"]) == (
            ids[theirs.worst_night[0]],
            theirs.worst_night[1],
        )
        assert record["figures"]["total"] == theirs.total
    assert not plan[mine[-1]].finished  # Hari's last night (``record`` is his, read last)
    rows = {row["other"]: row for row in record["head_to_head"]}
    for pair, row in pairs.items():
        if "Hari" not in pair:
            continue
        (other,) = pair - {"Hari"}
        assert (
            rows[other]["matches"],
            rows[other]["above"],
            rows[other]["below"],
            rows[other]["paid"],
            rows[other]["received"],
        ) == (
            row["matches"],
            row["Hari"]["above"],
            row[other]["above"],
            row["Hari"]["paid"],
            row[other]["paid"],
        )


@pytest.mark.parametrize(
    ("rules", "mine"),
    [
        ("sparkai", family.SPARKAI),
        ("everestbuzz", family.EVERESTBUZZ),
        ("gamerules", family.RACE),
        ({"profile": "sparkai", "unseen_maal": "kidnap"}, family.KIDNAP),
    ],
)
def test_what_if_gives_the_totals_the_hands_give_under_other_rules(client, table, rules, mine):
    for season, index in _periods(table):
        answer = client.post(
            f"/api/v1/tables/{table['id']}/rescore?season={season}", json={"rules": rules}
        ).get_json()
        assert {p["name"]: p["total"] for p in answer["players"]} == family.totals_under(
            mine, index
        )


def test_old_names_and_odd_seasons_are_not_found_never_an_error(client, table):
    """A bookmark of a name the table never had or forgot (forget me) or of a season it
    never had answers 404 on the pages and 404 or 422 in the API; a renamed or merged
    player's old name leads to them (302); the names it has are found ignoring case,
    guests too."""
    tid = table["id"]
    for name in ["Binod", "Former player 2", "%00", "a" * 300]:
        for path in (f"/tables/{tid}/players/{name}", f"/api/v1/tables/{tid}/players/{name}"):
            assert client.get(path).status_code == 404, path
    for old, now in [("Gita", "Geeta"), ("hary", "Hari")]:
        for path in (f"/tables/{tid}/players/", f"/api/v1/tables/{tid}/players/"):
            answer = client.get(path + old)
            assert (answer.status_code, answer.headers["Location"]) == (302, path + now)
    for name in ["former player 1", "RAJU"]:
        assert client.get(f"/tables/{tid}/players/{name}").status_code == 200
    for season in ["0", "-1", "99999999999999999999", "abc", "%00"]:
        for path in ("", "/what-if", "/season.pdf", "/players/Sita"):
            assert client.get(f"/tables/{tid}{path}?season={season}").status_code == 404
        for path in ("/stats", "/standings", "/players/Sita"):
            answer = client.get(f"/api/v1/tables/{tid}{path}?season={season}")
            assert answer.status_code == 422 and answer.get_json()["errors"][0]["field"] == (
                "season"
            )


def test_the_table_imports_with_its_former_player_and_the_same_figures(client, table):
    exported = client.get(f"/api/v1/tables/{table['id']}/export.json")
    made = client.post("/api/v1/tables/import", data=exported.data, content_type="application/json")
    assert made.status_code == 201, made.get_json()
    copy = made.get_json()["id"]
    assert "Former player 1" in [p["name"] for p in made.get_json()["players"]]
    figures = {
        tid: {
            row["name"]: (row["total"], row["hands_won"], row["form"])
            for row in client.get(f"/api/v1/tables/{tid}/stats?season=all").get_json()["players"]
        }
        for tid in (table["id"], copy)
    }
    assert figures[copy] == figures[table["id"]]
