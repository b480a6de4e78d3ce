"""Where features built apart meet: a match's rules changed for good, then exported and
imported; a player renamed in a table after that; a damaged export never a 500."""

from __future__ import annotations

import json
import random

import pytest
from api_support import hand
from row_counts import rows
from tables_support import check_settles, check_standings, create_table, match_bodies
from test_match_export_api import comparable
from test_tables_api import h

from ledger.matches.models import HandVersion, Match
from ledger.tables.export import MAX_IMPORTED_PAYMENTS, MAX_IMPORTED_SEASONS
from ledger.tables.models import Table

#: The same rules without dublees: the corrected dublee hand's first version is refused.
NO_DUBLEES = {"profile": "sparkai", "dublees_allowed": False}


def corrected_then_changed(create_match):
    """A match whose hand 1 was entered as a dublee finish, then corrected; hand 2's
    nets change with the rules; then its rules are changed to rules without dublees."""
    m = create_match()
    dublee = hand("Dipa", {"Chandra": ("sequences", 0), "Dipa": ("dublees", 6)}, finish="dublees")
    assert m.post_hand(dublee).status_code == 201
    assert (
        m.put_hand(
            1, hand("Dipa", {"Chandra": ("sequences", 0), "Dipa": ("sequences", 6)})
        ).status_code
        == 200
    )
    assert m.post_hand(hand()).status_code == 201
    changed = m.patch({"rules": {**NO_DUBLEES, "unseen_maal": "kidnap"}})
    assert changed.status_code == 200, changed.get_json()
    return m


def history(client, url: str, number: int) -> list[dict]:
    return client.get(f"{url}/hands/{number}").get_json()["history"]


def test_a_match_whose_rules_changed_imports_back_with_every_figure(client, create_match):
    m = corrected_then_changed(create_match)
    document = client.get(f"{m.url}/export.json").get_json()
    imported = client.post("/api/v1/matches/import", json=document)
    assert imported.status_code == 201, imported.get_json()
    copy = imported.get_json()
    assert comparable(copy) == comparable(m.get())
    url = f"/api/v1/matches/{copy['id']}"
    for number in (1, 2):
        assert history(client, url, number) == history(client, m.url, number)
    (dublee,) = history(client, url, 1)
    assert dublee["hand"]["finish"] == "dublees"
    # hand 2 as it was under the first rules (murder), not settled again under kidnap
    (murder,) = history(client, url, 2)
    assert murder["nets"] != {p["name"]: p["net"] for p in copy["hands"][1]["players"]}
    assert client.get(f"{url}/export.json").get_json()["history"] == document["history"]


def test_a_history_version_under_rules_that_refuse_it_is_still_refused(client, create_match):
    """The rules a history version gives are checked, and its hand under them."""
    m = corrected_then_changed(create_match)
    document = client.get(f"{m.url}/export.json").get_json()
    first = next(i for i, old in enumerate(document["history"]) if old["hand"] == 1)
    document["history"][first]["rules"] = NO_DUBLEES
    refused = client.post("/api/v1/matches/import", json=document)
    assert refused.status_code == 422
    assert any(e["field"].startswith(f"history.{first}.") for e in refused.get_json()["errors"])
    document["history"][first]["rules"] = {"profile": "no-such-profile"}
    refused = client.post("/api/v1/matches/import", json=document)
    assert refused.status_code == 422
    assert any(
        e["field"].startswith(f"history.{first}.rules") for e in refused.get_json()["errors"]
    )


def table_with_a_changed_match(client):
    """A staked table: night 1 has a corrected dublee hand and its rules changed for good
    to rules without dublees; night 2 is played by "Bikas", a typo of Bikash."""
    table = create_table(
        client,
        players=["Asha", "Bikash", "Chandra", "Dipa"],
        stake={"per_point": "0.50", "currency": "NPR"},
    )
    one = table.new_match(["Asha", "Bikash", "Chandra", "Dipa"])
    url = f"/api/v1/matches/{one['id']}"
    dublee = h("Dipa", Chandra=("sequences", 0), Dipa=("dublees", 6))
    dublee["finish"] = "dublees"
    table.play(
        one, [dublee, h("Asha", Asha=("sequences", 9), Bikash=("unseen", 2), Dipa=("sequences", 3))]
    )
    fixed = client.put(
        f"{url}/hands/1",
        json=h("Dipa", Chandra=("sequences", 0), Dipa=("sequences", 6)),
        headers=table.auth,
    )
    assert fixed.status_code == 200, fixed.get_json()
    changed = client.patch(
        url, json={"rules": {**NO_DUBLEES, "unseen_maal": "kidnap"}}, headers=table.auth
    )
    assert changed.status_code == 200, changed.get_json()
    two = table.new_match(["Asha", "Bikas", "Chandra"])
    table.play(
        two, [h("Bikas", Asha=("sequences", 1), Bikas=("sequences", 9), Chandra=("unseen", 0))]
    )
    return table, [one["id"], two["id"]]


def every_figure(client, table_id: str, ids: list[str]) -> dict:
    """The table's standings, settle-up and rating, each match's JSON and every hand's
    history, without what differs between a table and its imported copy."""
    url = f"/api/v1/tables/{table_id}"
    out: dict = {}
    for path in ("/standings", "/settle-up", "/rating-history"):
        response = client.get(f"{url}{path}?season=all")
        assert response.status_code == 200, response.get_json()
        out[path] = response.get_json()
    for number, public_id in enumerate(ids):
        body = client.get(f"/api/v1/matches/{public_id}").get_json()
        for kept in body["hands"]:
            kept["history"] = history(client, f"/api/v1/matches/{public_id}", kept["number"])
        out[number] = comparable({k: v for k, v in body.items() if k not in ("table", "season")})
    return without_ids(out)


def without_ids(value):
    if isinstance(value, dict):
        return {
            k: without_ids(v)
            for k, v in value.items()
            if k not in ("id", "table", "match", "season", "exported_at")
        }
    if isinstance(value, list):
        return [without_ids(v) for v in value]
    return value


def test_a_table_renamed_and_merged_after_a_change_of_rules_imports_back(client):
    table, ids = table_with_a_changed_match(client)
    before = {
        p["name"]: p["total"] for p in client.get(f"/api/v1/matches/{ids[0]}").get_json()["players"]
    }
    table.patch("/players/Dipa", {"name": "Deepa"})  # in the dublee hand's history too
    table.patch("/players/bikas", {"merge_into": "Bikash"})
    after = {
        p["name"]: p["total"] for p in client.get(f"/api/v1/matches/{ids[0]}").get_json()["players"]
    }
    assert after == {("Deepa" if n == "Dipa" else n): t for n, t in before.items()}
    (dublee, renamed) = history(client, f"/api/v1/matches/{ids[0]}", 1)
    assert dublee["hand"]["finish"] == "dublees" and "Deepa" in dublee["nets"]
    assert renamed["action"] == "rename" and renamed["version"] > dublee["version"]
    check_standings(table.get("/standings", season="all"), match_bodies(client, ids))
    check_settles(table.get("/settle-up", season="all"))

    for public_id in ids:
        document = client.get(f"/api/v1/matches/{public_id}/export.json").get_json()
        imported = client.post("/api/v1/matches/import", json=document)
        assert imported.status_code == 201, imported.get_json()
        copy = imported.get_json()["id"]
        assert (
            client.get(f"/api/v1/matches/{copy}/export.json").get_json()["history"]
            == document["history"]
        )

    exported = client.get(f"{table.url}/export.json").get_json()
    response = client.post("/api/v1/tables/import", json=exported)
    assert response.status_code == 201, response.get_json()
    copy = response.get_json()

    def listed(table_id: str) -> list[str]:
        return [m["id"] for m in client.get(f"/api/v1/tables/{table_id}").get_json()["matches"]]

    assert every_figure(client, copy["id"], listed(copy["id"])) == every_figure(
        client, table.id, listed(table.id)
    )


NIGHT = [
    h("Asha", Asha=("sequences", 9), Bikash=("unseen", 4), Chandra=("sequences", 2)),
    h("Chandra", Asha=("unseen", 6), Bikash=("sequences", 1), Chandra=("sequences", 5)),
]
KIDNAP = {"profile": "sparkai", "unseen_maal": "kidnap"}


def staked_night(client, rules: object) -> tuple:
    table = create_table(
        client,
        players=["Asha", "Bikash", "Chandra"],
        stake={"per_point": "0.50", "currency": "NPR"},
    )
    night = table.new_match(["Asha", "Bikash", "Chandra"], length={"hands": 2}, rules=rules)
    table.play(night, NIGHT)
    return table, night


def table_figures(table) -> dict:
    """The table's figures, without ids and the dates the nights were played."""
    figures = without_ids(
        {
            path: table.get(path, season="all")
            for path in ("/standings", "/settle-up", "/rating-history")
        }
    )
    for game in figures["/rating-history"]["games"]:
        del game["date"]
    return figures


def test_a_match_whose_rules_change_moves_its_tables_figures(client):
    """The table's standings, head-to-head, settle-up and rating after the change are
    those of a table where the same night was played under the new rules from the start;
    the match's rescore under the new rules said so before, and under the old rules
    gives back the totals as first played."""
    table, night = staked_night(client, "sparkai")
    url = f"/api/v1/matches/{night['id']}"
    played = {p["name"]: p["total"] for p in client.get(url).get_json()["players"]}
    first = table_figures(table)  # read (and kept) before the change
    assert first["/rating-history"]["games"]
    foreseen = client.post(f"{url}/rescore", json={"rules": KIDNAP}).get_json()
    changed = client.patch(url, json={"rules": KIDNAP}, headers=table.auth)
    assert changed.status_code == 200, changed.get_json()
    totals = {p["name"]: p["total"] for p in changed.get_json()["players"]}
    assert totals != played
    assert totals == {p["name"]: p["total"] for p in foreseen["players"]}

    after = table_figures(table)
    assert after != first
    check_standings(table.get("/standings", season="all"), match_bodies(client, [night["id"]]))
    check_settles(table.get("/settle-up", season="all"))
    balances = {b["name"]: b["total"] for b in after["/settle-up"]["balances"]}
    assert balances == totals
    owed = [(b["name"], b["total"], b["amount"]) for b in after["/settle-up"]["balances"]]
    assert owed == [(b["name"], b["total"], b["amount"]) for b in foreseen["settle_up"]["balances"]]
    fresh, _ = staked_night(client, KIDNAP)
    assert after == table_figures(fresh)

    back = client.post(f"{url}/rescore", json={"rules": "sparkai"}).get_json()
    assert {p["name"]: p["total"] for p in back["players"]} == played


EIGHT = ["Asha", "Bikash", "Chandra", "Dipa", "Esha", "Gopal", "Hari", "Indira"]
FOUR_PACKS = {"profile": "sparkai", "packs": 4}


def test_a_four_pack_night_of_eight_in_a_table(client):
    """Standings and settle-up of an 8-player, four-pack night; its rescore under three
    packs refuses the hands of 6 or more players with the reason, and keeps their nets."""
    table = create_table(
        client, players=EIGHT, rules=FOUR_PACKS, stake={"per_point": "1.00", "currency": "NPR"}
    )
    night = table.new_match(EIGHT)
    assert night["rules"]["packs"] == 4
    seven = {n: ("sequences", i) for i, n in enumerate(EIGHT[:7])}
    seven["Gopal"] = ("unseen", 2)
    table.play(
        night,
        [
            h("Asha", **{n: ("sequences", i) for i, n in enumerate(EIGHT)}),
            h("Bikash", **seven),
            h("Chandra", Asha=("sequences", 3), Chandra=("sequences", 4), Dipa=("unseen", 1)),
        ],
    )
    body = client.get(f"/api/v1/matches/{night['id']}").get_json()
    assert [len(hand["players"]) for hand in body["hands"]] == [8, 7, 3]
    check_standings(table.get("/standings", season="all"), [body])
    settled = table.get("/settle-up", season="all")
    check_settles(settled)
    totals = {p["name"]: p["total"] for p in body["players"]}
    assert {b["name"]: b["total"] for b in settled["balances"]} == totals
    assert sum(totals.values()) == 0

    rescored = client.post(f"/api/v1/matches/{night['id']}/rescore", json={"rules": "sparkai"})
    assert rescored.status_code == 200, rescored.get_json()
    hands = rescored.get_json()["hands"]
    assert [hand["rescored"] for hand in hands[:2]] == ["no", "no"]
    assert all("5" in hand["why"] and "player" in hand["why"] for hand in hands[:2]), [
        hand["why"] for hand in hands
    ]
    for rescore, played in zip(hands[:2], body["hands"][:2], strict=True):
        assert {p["name"]: p["net"] for p in rescore["players"]} == {
            p["name"]: p["net"] for p in played["players"]
        }
    assert hands[2]["rescored"] == "partly"  # maal entered as one number


#: What a damaged export may hold where a value was.
DAMAGE = (None, -1, 0, 2**70, 1.5, True, "", "x" * 5000, "=1+1", [], {}, [[]], {"a": 1}, "1")


def damaged(document: object, rng: random.Random) -> object:
    """``document`` with one value somewhere in it replaced, or one key or item dropped."""
    copy = json.loads(json.dumps(document))
    paths: list[tuple[object, object]] = []

    def walk(node: object) -> None:
        if isinstance(node, dict):
            for key, value in node.items():
                paths.append((node, key))
                walk(value)
        elif isinstance(node, list):
            for index, value in enumerate(node):
                paths.append((node, index))
                walk(value)

    walk(copy)
    node, key = rng.choice(paths)
    if rng.random() < 0.2:
        del node[key]  # type: ignore[index,attr-defined]
    else:
        node[key] = rng.choice(DAMAGE)  # type: ignore[index]
    return copy


def stored(app) -> tuple[int, ...]:
    return tuple(rows(app, model) for model in (Table, Match, HandVersion))


@pytest.mark.slow  # seconds: lays out PDFs or runs many requests
def test_damaged_exports_are_refused_or_imported_never_a_500(app, client):
    """Exports of a table and of its match whose rules were changed, each damaged in one
    to three places: each is a 201, or a 422 naming fields, with nothing stored."""
    table, ids = table_with_a_changed_match(client)
    table.patch("/players/Dipa", {"name": "Deepa"})
    whole = client.get(f"{table.url}/export.json").get_json()
    one = client.get(f"/api/v1/matches/{ids[0]}/export.json").get_json()
    rng = random.Random(25)
    for n in range(300):
        url, document = (
            ("/api/v1/tables/import", whole) if n % 2 else ("/api/v1/matches/import", one)
        )
        broken = document
        for _ in range(rng.randint(1, 3)):
            broken = damaged(broken, rng)
        before = stored(app)
        response = client.post(url, json=broken)
        assert response.status_code in (201, 422), (
            n,
            response.status_code,
            response.get_data()[:300],
        )
        if response.status_code == 422:
            errors = response.get_json()["errors"]
            assert errors and all(isinstance(e["field"], str) and e["message"] for e in errors)
            assert stored(app) == before, n


PAYMENT = {"from": "Asha", "to": "Bikash", "amount": "1.00", "season": 0}
TABLE_DAMAGE = {
    "payments that are no list": (lambda d: d.update(payments="x"), "payments"),
    "a payment recorded at no time": (
        lambda d: d.update(payments=[{**PAYMENT, "recorded_at": "garbage"}]),
        "payments.0.recorded_at",
    ),
    "more seasons than a table keeps": (
        lambda d: d.update(seasons=[{"name": "s"}] * (MAX_IMPORTED_SEASONS + 1)),
        "seasons",
    ),
    "more payments than a table keeps": (
        lambda d: d.update(payments=[PAYMENT] * (MAX_IMPORTED_PAYMENTS + 1)),
        "payments",
    ),
}


@pytest.mark.parametrize("change", TABLE_DAMAGE, ids=list(TABLE_DAMAGE))
def test_a_table_export_damaged_so_is_refused_on_its_field(app, client, change):
    table = create_table(
        client, players=["Asha", "Bikash"], stake={"per_point": "1.00", "currency": "NPR"}
    )
    document = client.get(f"{table.url}/export.json").get_json()
    damage, field = TABLE_DAMAGE[change]
    damage(document)
    before = stored(app)
    response = client.post("/api/v1/tables/import", json=document)
    assert response.status_code == 422, response.get_json()
    assert field in [e["field"] for e in response.get_json()["errors"]]
    assert stored(app) == before
    seasons = [{"name": f"s{i}"} for i in range(MAX_IMPORTED_SEASONS)]  # no name twice
    document.update(seasons=seasons, payments=[PAYMENT] * 3)
    assert client.post("/api/v1/tables/import", json=document).status_code == 201


def test_a_four_pack_night_refuses_three_packs_for_good_and_round_trips(client):
    table = create_table(client, players=EIGHT, rules=FOUR_PACKS)
    night = table.new_match(EIGHT)
    url = f"/api/v1/matches/{night['id']}"
    table.play(
        night,
        [
            h("Asha", **{n: ("sequences", i) for i, n in enumerate(EIGHT)}),
            h("Chandra", Asha=("sequences", 3), Chandra=("sequences", 4), Dipa=("unseen", 1)),
        ],
    )
    before = client.get(url).get_json()
    refused = client.patch(url, json={"rules": "sparkai"}, headers=table.auth)
    assert refused.status_code == 422
    (error,) = refused.get_json()["errors"]
    assert error["field"] == "rules" and error["message"].startswith("Hand 1 ")
    assert client.get(url).get_json() == before
    table.patch("/players/Hari", {"name": "Harihar"})
    document = client.get(f"{url}/export.json").get_json()
    imported = client.post("/api/v1/matches/import", json=document)
    assert imported.status_code == 201, imported.get_json()
    lone = {k: v for k, v in client.get(url).get_json().items() if k not in ("table", "season")}
    assert comparable(imported.get_json()) == comparable(lone)  # a lone match now
