"""POST /api/v1/matches/<id>/rescore: the match's hands under other rules, storing nothing
(docs/rules.md §8, docs/api.md)."""

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from rescore_support import HANDS, OWN_RULES, PLAYERS, independent_rescore

from ledger.engine import PROFILES, Invalid, resolve_rules, settle_up


@pytest.fixture
def played(create_match):
    """The varied match, played through the API."""
    match = create_match(players=PLAYERS, rules=OWN_RULES)
    for hand in HANDS:
        response = match.post_hand(hand)
        assert response.status_code == 201, response.get_json()
    return match


def rescore(match, rules, **kw):
    return match.client.post(f"{match.url}/rescore", json={"rules": rules}, **kw)


def check_against_independent(match, rules_spec) -> dict:
    """The rescore equals, hand by hand and in total, the stored inputs settled under
    the other rules by the test's own loop."""
    stored = match.get()
    response = rescore(match, rules_spec)
    assert response.status_code == 200, response.get_json()
    body = response.get_json()
    expected, totals = independent_rescore(stored["hands"], rules_spec)
    assert [h["number"] for h in body["hands"]] == [h["number"] for h in expected]
    for got, want in zip(body["hands"], expected, strict=True):
        assert got["rescored"] == want["rescored"], got
        assert {p["name"]: p["net"] for p in got["players"]} == want["nets"]
        assert {p["name"]: p["net_as_played"] for p in got["players"]} == want["played"]
        assert got["carried_penalties"] == want["carried"]
        assert (got["why"] is None) == (want["rescored"] == "full")
    assert {p["name"]: p["total"] for p in body["players"]} == totals
    as_played = {p["name"]: p["total"] for p in stored["players"]}
    assert {p["name"]: p["total_as_played"] for p in body["players"]} == as_played
    assert [p["name"] for p in body["players"]] == PLAYERS  # seat order
    rules = resolve_rules(rules_spec)
    assert body["rules"]["profile"] == rules.profile
    assert body["rules"]["overrides"] == rules.overrides()
    if rules.zero_sum:
        assert sum(totals.values()) == 0
        assert body["settle_up"] == settle_up(totals, None).to_json()
    else:
        assert body["settle_up"] is None
    return body


@pytest.mark.parametrize("profile", list(PROFILES))
def test_each_profile_equals_the_inputs_settled_one_by_one(played, profile):
    check_against_independent(played, profile)


def test_under_the_matchs_own_rules_nothing_changes(played):
    body = check_against_independent(played, OWN_RULES)
    for hand in body["hands"]:
        assert hand["rescored"] in ("full", "partly")
        for player in hand["players"]:
            assert player["net"] == player["net_as_played"]
        assert hand["carried_penalties"] == hand["carried_penalties_as_played"]
    for player in body["players"]:
        assert player["total"] == player["total_as_played"]


def test_partly_and_no_hands_say_why_and_keep_what_they_must(played):
    body = check_against_independent(played, {"profile": "gamerules", "foul": "next_hand"})
    by_number = {h["number"]: h for h in body["hands"]}
    partly = by_number[2]  # every maal entered as one number
    assert partly["rescored"] == "partly"
    assert partly["why"] == (
        "Maal entered as one number (Asha 10, Bikash 5, Esha 8) is kept as entered: these "
        "rules cannot count it again."
    )
    refused = by_number[3]  # a dublee finish; gamerules plays no dublees
    assert refused["rescored"] == "no"
    assert "Dipa: These house rules do not allow seeing by dublees." in refused["why"]
    for player in refused["players"]:
        assert player["net"] == player["net_as_played"]


def test_a_foul_refused_keeps_its_hand_as_played_and_its_carry(played):
    body = check_against_independent(played, {"profile": "sparkai", "foul": "off"})
    fouled = {h["number"]: h for h in body["hands"]}[4]
    assert fouled["rescored"] == "no"
    assert "Bikash: These house rules do not penalise fouls" in fouled["why"]


def test_a_carried_foul_follows_the_other_penalty(played):
    body = check_against_independent(played, {**OWN_RULES, "foul_penalty": 40})
    collected = {h["number"]: h for h in body["hands"]}[5]
    assert collected["carried_penalties"] == {"Bikash": -40, "Esha": 40}
    assert collected["carried_penalties_as_played"] == {"Bikash": -15, "Esha": 15}


def test_nothing_is_stored_and_no_key_is_needed(played):
    before = played.get()
    assert rescore(played, "everestbuzz", headers={}).status_code == 200
    after = played.get()
    assert after == before


def test_a_stake_gives_money_in_the_settle_up(create_match):
    match = create_match(stake={"per_point": "0.50", "currency": "NPR"})
    assert match.post_hand(HANDS[1]).status_code == 201
    body = rescore(match, {"profile": "sparkai", "unseen_maal": "kidnap"}).get_json()
    assert body["settle_up"]["stake"] == {"per_point": "0.50", "currency": "NPR"}
    assert all(b["amount"] is not None for b in body["settle_up"]["balances"])


def test_an_empty_match_rescores_to_nothing(create_match):
    body = rescore(create_match(), "classic").get_json()
    assert body["hands"] == []
    assert all(p["total"] == p["total_as_played"] == 0 for p in body["players"])


@pytest.mark.parametrize(
    ("body", "field"),
    [
        ({}, "rules"),
        ({"rules": "nope"}, "rules"),
        ({"rules": {"profile": "nope"}}, "rules.profile"),
        ({"rules": {"profile": "sparkai", "fee_seen": -1}}, "rules.fee_seen"),
        ({"rules": {"profile": "sparkai", "no_such": 1}}, "rules.no_such"),
        ({"rules": "sparkai", "store": True}, "store"),
    ],
)
def test_bad_rules_are_refused_on_their_field(played, body, field):
    response = played.client.post(f"{played.url}/rescore", json=body)
    assert response.status_code == 422
    assert field in [e["field"] for e in response.get_json()["errors"]]


def test_an_unknown_match_is_404(client):
    assert client.post("/api/v1/matches/nope/rescore", json={"rules": "sparkai"}).status_code == 404


OVERRIDES = st.fixed_dictionaries(
    {},
    optional={
        "unseen_maal": st.sampled_from(["murder", "kidnap", "keep"]),
        "fee_seen": st.integers(0, 20),
        "fee_unseen": st.integers(0, 30),
        "fee_seen_dublee": st.integers(0, 5),
        "dublee_finish_bonus": st.integers(0, 10),
        "dublees_allowed": st.booleans(),
        "dublees_min_players": st.integers(2, 5),
        "foul": st.sampled_from(["off", "same_hand", "next_hand"]),
        "foul_penalty": st.integers(0, 50),
        "void_hand": st.sampled_from(["nothing", "maal_only"]),
        "tiplu": st.lists(st.integers(0, 20), min_size=1, max_size=3),
        "alter": st.none() | st.lists(st.integers(0, 30), min_size=1, max_size=3),
        "marriage": st.lists(st.integers(0, 60), min_size=1, max_size=3),
        "scoring": st.sampled_from(["zero_sum", "points_race"]),
        "printed_jokers": st.booleans(),
    },
)


@settings(
    max_examples=40,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture],
)
@given(profile=st.sampled_from(list(PROFILES)), overrides=OVERRIDES)
def test_any_profile_and_overrides_equal_the_inputs_settled_one_by_one(played, profile, overrides):
    spec = {"profile": profile, **overrides}
    try:
        resolve_rules(spec)
    except Invalid as problem:  # rules the engine refuses: 422 on their fields
        response = rescore(played, spec)
        assert response.status_code == 422
        fields = {e["field"] for e in response.get_json()["errors"]}
        assert fields == {e.field for e in problem.errors}
        return
    check_against_independent(played, spec)


def test_a_rescore_costs_one_settle_a_hand_and_no_query_per_hand(app, create_match, monkeypatch):
    from sql_counting import counting_queries

    from ledger.matches import rescore as module

    match = create_match(players=PLAYERS, rules=OWN_RULES)
    settles = []
    real = module.settle
    monkeypatch.setattr(
        module, "settle", lambda hand, rules: settles.append(1) or real(hand, rules)
    )
    counts = []
    for _ in range(2):
        for hand in HANDS:
            assert match.post_hand(hand).status_code == 201
        settles.clear()
        with counting_queries(app) as statements:
            response = rescore(match, "everestbuzz")
        counts.append(len(statements))
        hands = response.get_json()["hands"]
        assert len(settles) == sum(h["rescored"] != "no" for h in hands)
        assert len(hands) == len(match.get()["hands"])
    assert counts[0] == counts[1]  # twice the hands, the same queries


def test_rescores_are_rate_limited_with_the_what_if_pages(make_app):
    client = make_app(RATELIMIT_ENABLED=True, RATELIMIT_RESCORE="2 per minute").test_client()
    body = {"name": "T", "players": PLAYERS, "rules": "sparkai"}
    public_id = client.post("/api/v1/matches", json=body).get_json()["id"]
    url = f"/api/v1/matches/{public_id}/rescore"
    assert client.post(url, json={"rules": "classic"}).status_code == 200
    assert client.get(f"/matches/{public_id}/what-if").status_code == 200
    limited = client.post(url, json={"rules": "classic"})
    assert limited.status_code == 429
    assert int(limited.headers["Retry-After"]) >= 1
    assert client.get(f"/matches/{public_id}/what-if").status_code == 429
