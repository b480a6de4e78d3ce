"""A season under other rules (``POST /api/v1/tables/<id>/rescore``): each player's
totals under the other rules equal the sums, over the season's matches, of each stored
hand settled again by the engine alone (``rescore_support.independent_rescore``)."""

from __future__ import annotations

from collections import defaultdict

import pytest
from rescore_support import HANDS, OWN_RULES, PLAYERS, independent_rescore
from tables_support import create_table

from ledger.engine import Invalid, parse_hand, resolve_rules, settle


@pytest.fixture
def season(client):
    """A table of six: two matches of the varied hands in its first season, one (a few
    hands) in its second."""
    table = create_table(client, players=PLAYERS, rules=OWN_RULES)
    first = [table.new_match(PLAYERS, name=f"Night {n}") for n in (1, 2)]
    for match in first:
        table.play(match, HANDS)
    table.post("/seasons", {"name": "Tihar 2083"})
    later = table.new_match(PLAYERS, name="Night 3")
    table.play(later, HANDS[:3])
    return table, [m["id"] for m in first], [later["id"]]


def expected(client, ids: list[str], rules_spec: object) -> tuple[dict, dict]:
    """Per player: (total under the rules, total as played), summed independently."""
    totals, as_played = dict.fromkeys(PLAYERS, 0), dict.fromkeys(PLAYERS, 0)
    for public_id in ids:
        stored = client.get(f"/api/v1/matches/{public_id}").get_json()
        _, rescored = independent_rescore(stored["hands"], rules_spec)
        for name in PLAYERS:
            totals[name] += rescored[name]
        for p in stored["players"]:
            as_played[p["name"]] += p["total"]
    return totals, as_played


@pytest.mark.parametrize(
    "rules_spec",
    ["amarnepal", "everestbuzz", {"profile": "sparkai", "unseen_maal": "kidnap"}, OWN_RULES],
    ids=["amarnepal", "everestbuzz", "override", "own"],
)
def test_a_season_rescored_equals_the_sum_of_its_hands_settled_again(client, season, rules_spec):
    table, first, later = season
    seasons = table.get()["seasons"]
    response = client.post(
        f"{table.url}/rescore",
        query_string={"season": seasons[0]["id"]},
        json={"rules": rules_spec},
    )
    assert response.status_code == 200, response.get_json()
    body = response.get_json()
    totals, as_played = expected(client, first, rules_spec)
    got = {p["name"]: (p["total"], p["total_as_played"]) for p in body["players"]}
    assert got == {n: (totals[n], as_played[n]) for n in PLAYERS}
    shown = [p["total"] for p in body["players"]]
    assert shown == sorted(shown, reverse=True)
    assert [m["id"] for m in body["matches"]] == first
    assert body["season"]["id"] == seasons[0]["id"]
    assert body["rules"]["profile"] == resolve_rules(rules_spec).profile
    if rules_spec == OWN_RULES:
        assert all(p["total"] == p["total_as_played"] for p in body["players"])
        assert all(m["hands_changed"] == 0 for m in body["matches"])


def test_the_current_season_by_default_and_all_time(client, season):
    table, first, later = season
    current = client.post(f"{table.url}/rescore", json={"rules": "amarnepal"}).get_json()
    assert [m["id"] for m in current["matches"]] == later
    ever = client.post(
        f"{table.url}/rescore", query_string={"season": "all"}, json={"rules": "amarnepal"}
    ).get_json()
    assert ever["season"] is None
    totals, _ = expected(client, [*first, *later], "amarnepal")
    assert {p["name"]: p["total"] for p in ever["players"]} == totals


def test_a_rescore_stores_nothing_and_needs_no_key(client, season):
    table, first, _ = season
    before = [client.get(f"/api/v1/matches/{i}").get_json() for i in first]
    assert client.post(f"{table.url}/rescore", json={"rules": "everestbuzz"}).status_code == 200
    assert [client.get(f"/api/v1/matches/{i}").get_json() for i in first] == before


@pytest.mark.parametrize(
    ("body", "query", "field"),
    [
        ({"rules": "nope"}, {}, "rules"),
        ({"rules": {"profile": "sparkai", "marriage": "lots"}}, {}, "rules.marriage"),
        ({"rules": "sparkai", "extra": 1}, {}, "extra"),
        ({"rules": "sparkai"}, {"season": "nope"}, "season"),
    ],
)
def test_bad_input_is_422_on_its_field(client, season, body, query, field):
    table, *_ = season
    response = client.post(f"{table.url}/rescore", query_string=query, json=body)
    assert response.status_code == 422
    assert field in [e["field"] for e in response.get_json()["errors"]]


def test_an_unknown_table_is_404(client):
    response = client.post(
        "/api/v1/tables/AAAAAAAAAAAAAAAAAAAAAA/rescore", json={"rules": "sparkai"}
    )
    assert response.status_code == 404


def test_season_rescores_are_rate_limited_with_the_match_rescore(make_app):
    app = make_app(RATELIMIT_ENABLED=True, RATELIMIT_RESCORE="2 per minute")
    client = app.test_client()
    table = create_table(client)
    url = f"{table.url}/rescore"
    assert client.post(url, json={"rules": "sparkai"}).status_code == 200
    assert client.get(f"/tables/{table.id}/what-if").status_code == 200
    refused = client.post(url, json={"rules": "sparkai"})
    assert refused.status_code == 429 and "Retry-After" in refused.headers


def _ended(client, table, ids: list[str]) -> None:
    """End these matches (the table's "End the night"), so that they count as won and
    rated."""
    for public_id in ids:
        response = client.patch(
            f"/api/v1/matches/{public_id}", json={"finished": True}, headers=table.auth
        )
        assert response.status_code == 200, response.get_json()


def test_a_season_rescored_under_its_own_rules_is_its_standings(client, season):
    """The answer is the standings (every figure of a player's line, and the
    head-to-head), each player's total beside their total as played."""
    table, first, _ = season
    _ended(client, table, first[:1])
    season_id = table.get()["seasons"][0]["id"]
    standings = table.get("/standings", season=season_id)
    response = client.post(
        f"{table.url}/rescore", query_string={"season": season_id}, json={"rules": OWN_RULES}
    )
    assert response.status_code == 200, response.get_json()
    body = response.get_json()
    assert body["head_to_head"] == standings["head_to_head"]
    for line in body["players"]:
        assert line["total_as_played"] == line["total"]
        assert line["matches_won_as_played"] == line["matches_won"]
    as_played = [
        {k: v for k, v in line.items() if not k.endswith("_as_played")} for line in body["players"]
    ]
    assert as_played == standings["players"]


def _settled_again(client, ids: list[str], rules_spec: object) -> tuple[dict, dict]:
    """Per player their maal counted, and per (payer, payee) the points paid, over the
    matches' hands settled again here (a hand the rules refuse: as played)."""
    rules = resolve_rules(rules_spec)
    maal, paid = defaultdict(int), defaultdict(int)
    for public_id in ids:
        for kept in client.get(f"/api/v1/matches/{public_id}").get_json()["hands"]:
            try:
                result = settle(parse_hand(kept["hand"], rules), rules).to_json()
            except Invalid:
                result = kept
            for p in result["players"]:
                maal[p["name"]] += p["maal"]
            for payment in result["payments"]:
                paid[payment["from"], payment["to"]] += payment["points"]
    return maal, paid


def test_a_season_rescored_gives_each_pair_and_player_their_figures_under_the_rules(client, season):
    table, first, _ = season
    _ended(client, table, first)
    season_id = table.get()["seasons"][0]["id"]
    standings = table.get("/standings", season=season_id)
    rules = {"profile": "sparkai", "unseen_maal": "kidnap"}
    body = client.post(
        f"{table.url}/rescore", query_string={"season": season_id}, json={"rules": rules}
    ).get_json()
    totals = [{p["name"]: p["total"] for p in m["players"]} for m in body["matches"]]
    maal, paid = _settled_again(client, first, rules)
    pairs = {(p["a"], p["b"]): p for p in body["head_to_head"]}
    assert set(pairs) == {(p["a"], p["b"]) for p in standings["head_to_head"]}
    for (a, b), pair in pairs.items():
        assert pair["a_above"] == sum(t[a] > t[b] for t in totals)
        assert pair["b_above"] == sum(t[b] > t[a] for t in totals)
        assert (pair["a_paid_b"], pair["b_paid_a"]) == (paid[a, b], paid[b, a])
    assert [(p["a_above"], p["a_paid_b"]) for p in body["head_to_head"]] != [
        (p["a_above"], p["a_paid_b"]) for p in standings["head_to_head"]
    ], "kidnap changes who ended above whom, and who paid whom, in this season"
    lines = {line["name"]: line for line in body["players"]}
    for line in standings["players"]:  # sit-outs, finishes and routes are those played
        mine = lines[line["name"]]
        assert set(mine) >= set(line)
        for figure in ("matches", "hands", "hands_won", "seen_hands"):
            assert mine[figure] == line[figure]
        assert mine["maal"] == maal[line["name"]]
