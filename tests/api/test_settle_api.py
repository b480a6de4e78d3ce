"""POST /api/v1/settle and GET /api/v1/rules as docs/api.md gives them."""

from __future__ import annotations

import json

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from worked_example import WORKED_FEES, WORKED_HAND, WORKED_MAAL_POINTS, WORKED_NETS

PROFILES = ["amarnepal", "sparkai", "classic", "everestbuzz", "gamerules"]

API_EXAMPLE = {
    "rules": "amarnepal",
    "tiplu": "8H",
    "finish": "sequences",
    "winner": "Asha",
    "players": [
        {"name": "Asha", "seen": "sequences", "maal_cards": ["7H", "8H", "9H", "8D"]},
        {
            "name": "Bikash",
            "seen": "dublees",
            "maal_counts": {"tiplu": 1, "poplu": 0, "jhiplu": 0, "alter": 0, "printed_joker": 0},
        },
        {"name": "Chandra", "seen": "unseen", "maal": 8},
        {"name": "Dipa", "seen": "sequences", "maal": 0, "dealt_tunnelas": ["5S"]},
    ],
}

WORKED = {"rules": "amarnepal", **WORKED_HAND}


def post(client, body, raw=False, content_type="application/json"):
    data = body if raw else json.dumps(body)
    return client.post("/api/v1/settle", data=data, content_type=content_type)


def assert_error_format(response, status):
    assert response.status_code == status, response.get_data(as_text=True)
    assert response.is_json
    body = response.get_json()
    assert isinstance(body, dict) and set(body) >= {"errors"}
    assert isinstance(body["errors"], list) and body["errors"]
    for error in body["errors"]:
        assert isinstance(error["field"], str)
        assert isinstance(error["message"], str) and error["message"]
    return [e["field"] for e in body["errors"]]


def by_name(body):
    return {p["name"]: p for p in body["players"]}


# --- the request example of docs/api.md --------------------------------------------------------


def test_api_md_request_example(client):
    response = post(client, API_EXAMPLE)
    assert response.status_code == 200, response.get_data(as_text=True)
    body = response.get_json()
    assert body["scoring"] == "zero_sum"
    assert body["rules"]["profile"] == "amarnepal"
    p = by_name(body)
    assert [q["name"] for q in body["players"]] == ["Asha", "Bikash", "Chandra", "Dipa"]
    # Asha: 7H 8H 9H marriage 10, 8D alter 5; Bikash one tiplu 3; Chandra 8, murdered
    assert p["Asha"]["maal"] == 15
    assert p["Bikash"]["maal"] == 3
    assert (p["Chandra"]["maal"], p["Chandra"]["effective_maal"]) == (8, 0)
    # Dipa: "maal is the player's whole count, tunnelas included" -> 0
    assert p["Dipa"]["maal"] == 0
    # T = 18, n = 4: points 42, -6, -18, -18; fees Bikash 3, Chandra 10, Dipa 3
    assert body["total_maal"] == 18
    assert {k: v["net"] for k, v in p.items()} == {
        "Asha": 58,
        "Bikash": -9,
        "Chandra": -28,
        "Dipa": -21,
    }
    marriage = [i for i in p["Asha"]["breakdown"] if i["item"] == "marriage"]
    assert marriage == [dict(marriage[0], cards=["7H", "8H", "9H"], points=10)]
    assert sorted((x["from"], x["to"], x["points"]) for x in body["payments"]) == [
        ("Bikash", "Asha", 9),
        ("Chandra", "Asha", 28),
        ("Dipa", "Asha", 21),
    ]


def test_response_shape(client):
    body = post(client, API_EXAMPLE).get_json()
    assert set(body) >= {"rules", "scoring", "total_maal", "players", "payments"}
    assert isinstance(body["rules"], dict)
    for setting in [
        "profile",
        "unseen_maal",
        "fee_seen",
        "fee_seen_dublee",
        "fee_unseen",
        "tiplu",
        "poplu",
        "jhiplu",
        "marriage",
        "void_hand",
    ]:
        assert setting in body["rules"], setting
    assert isinstance(body["total_maal"], int)
    for player in body["players"]:
        assert set(player) >= {
            "name",
            "seen",
            "maal",
            "effective_maal",
            "maal_points",
            "fee",
            "net",
            "breakdown",
        }
        for key in ["maal", "effective_maal", "maal_points", "fee", "net"]:
            assert isinstance(player[key], int) and not isinstance(player[key], bool)
        for item in player["breakdown"]:
            assert set(item) >= {"item", "cards", "points"}
            assert isinstance(item["cards"], list)
        assert sum(i["points"] for i in player["breakdown"]) == player["maal"]
    assert body["total_maal"] == sum(p["effective_maal"] for p in body["players"])
    assert sum(p["net"] for p in body["players"]) == 0
    n, t = len(body["players"]), body["total_maal"]
    for player in body["players"]:
        assert player["maal_points"] == n * player["effective_maal"] - t
        assert player["net"] == player["maal_points"] + player["fee"]


def test_worked_example_through_the_api(client):
    body = post(client, WORKED).get_json()
    p = by_name(body)
    assert {k: v["net"] for k, v in p.items()} == WORKED_NETS
    assert {k: v["fee"] for k, v in p.items()} == WORKED_FEES
    assert {k: v["maal_points"] for k, v in p.items()} == WORKED_MAAL_POINTS
    assert body["total_maal"] == 15
    # payments always positive: Bikash's -2 is a row from Asha to Bikash
    assert sorted((x["from"], x["to"], x["points"]) for x in body["payments"]) == [
        ("Asha", "Bikash", 2),
        ("Chandra", "Asha", 18),
        ("Dipa", "Asha", 25),
    ]


def test_rules_object_with_overrides(client):
    body = post(client, dict(WORKED, rules={"profile": "amarnepal", "unseen_maal": "kidnap"}))
    body = body.get_json()
    assert body["rules"]["unseen_maal"] == "kidnap"
    assert by_name(body)["Asha"]["effective_maal"] == 18
    assert by_name(body)["Asha"]["net"] == 65


def test_points_race_through_the_api(client):
    body = post(client, dict(WORKED, rules="gamerules")).get_json()
    assert body["scoring"] == "points_race"
    assert body["payments"] == []
    assert {p["name"]: p["net"] for p in body["players"]} == {
        "Asha": 40,
        "Bikash": 5,
        "Chandra": 0,
        "Dipa": 8,
    }


def test_void_hand_through_the_api(client):
    data = dict(WORKED, finish="void")
    del data["winner"]
    body = post(client, data).get_json()
    assert all(p["net"] == 0 for p in body["players"])
    assert body["payments"] == []
    data["winner"] = None
    assert post(client, data).status_code == 200


def test_settle_needs_no_csrf_token(csrf_client):
    assert post(csrf_client, WORKED).status_code == 200


def test_settle_stores_nothing_and_repeats(client):
    first = post(client, API_EXAMPLE).get_json()
    second = post(client, API_EXAMPLE).get_json()
    assert first == second


# --- GET /api/v1/rules --------------------------------------------------------------------


def test_rules_lists_every_profile_with_values(client):
    response = client.get("/api/v1/rules")
    assert response.status_code == 200
    body = response.get_json()
    profiles = {p["id"]: p["rules"] for p in body["profiles"]}
    assert sorted(profiles) == sorted(PROFILES)
    assert profiles["amarnepal"]["tiplu"] == [3, 8]
    assert profiles["classic"]["tiplu"] == [3, 7]
    assert profiles["everestbuzz"]["tiplu"] == [3, 7, 12]
    assert profiles["everestbuzz"]["marriage"] == [10, 30, 60]
    assert profiles["everestbuzz"]["fee_seen_dublee"] == 0
    assert profiles["everestbuzz"]["marriage_grouping"] == "marriages_first"
    assert profiles["classic"]["void_hand"] == "maal_only"
    assert profiles["amarnepal"]["printed_joker"] == [5, 15, 25]
    assert profiles["gamerules"]["scoring"] == "points_race"
    assert profiles["gamerules"]["marriage_shown"] == [15, 35]
    assert profiles["gamerules"]["finisher_bonus_per_opponent"] == 10
    for pid, rules in profiles.items():
        assert rules["profile"] == pid
        assert rules["poplu"] == rules["jhiplu"] == [2, 5, 10]
        for setting in [
            "unseen_maal",
            "fee_seen",
            "fee_seen_dublee",
            "fee_unseen",
            "dublee_finish_bonus",
            "void_hand",
            "deal_passes",
            "marriage",
        ]:
            assert setting in rules, (pid, setting)


def test_rules_values_match_settle_rules(client):
    listed = {p["id"]: p["rules"] for p in client.get("/api/v1/rules").get_json()["profiles"]}
    for pid in PROFILES:
        data = dict(WORKED, rules=pid)
        assert post(client, data).get_json()["rules"] == listed[pid]


# --- 422: the hand or the rules are not valid ---------------------------------------------


def test_422_lists_every_problem_with_its_field(client):
    data = {
        "rules": "classic",
        "finish": "dublees",
        "winner": "Asha",
        "players": [
            {"name": "Asha", "seen": "sequences", "maal": 2.5},
            {"name": "Bikash", "seen": "dublees", "maal": 3, "maal_cards": ["8H"]},
            {"name": "Chandra", "seen": "unseen", "maal_cards": ["8H", "1X", "JK"]},
            {"name": "Asha", "seen": "maybe", "maal_counts": {"tiplu": -1}},
        ],
    }
    fields = assert_error_format(post(client, data), 422)
    for expected in [
        "finish",
        "players.0.maal",
        "players.1.maal_cards",
        "players.2.maal_cards.1",
        "players.2.maal_cards.2",
        "players.3.name",
        "players.3.seen",
        "players.3.maal_counts.tiplu",
        "tiplu",
    ]:
        assert expected in fields, expected


@pytest.mark.parametrize(
    ("change", "field"),
    [
        ({"rules": "nope"}, "rules"),  # the path into the request: rules itself
        ({"rules": {"profile": "nope"}}, "rules.profile"),
        ({"rules": {"profile": "amarnepal", "unseen_maal": "steal"}}, "rules.unseen_maal"),
        ({"rules": {"profile": "amarnepal", "bogus": 1}}, "rules.bogus"),
        ({"rules": {"profile": "amarnepal", "tiplu": "3"}}, "rules.tiplu"),
        ({"winner": "Zed"}, "winner"),
        ({"finish": "dublees"}, "finish"),
        ({"players": []}, "players"),
        ({"players": "Asha"}, "players"),
        (
            {
                "tiplu": "1X",
                "players": [
                    {"name": "A", "seen": "sequences", "maal_cards": ["8H"]},
                    {"name": "B", "seen": "unseen"},
                ],
                "winner": "A",
            },
            "tiplu",
        ),
    ],
)
def test_422_with_field_paths(client, change, field):
    fields = assert_error_format(post(client, dict(WORKED, **change)), 422)
    assert field in fields


def test_422_without_rules(client):
    data = dict(WORKED)
    del data["rules"]
    assert assert_error_format(post(client, data), 422) == ["rules"]


@pytest.mark.parametrize("profile", [[], {}, ["amarnepal"]])
def test_unhashable_profile_is_422(client, profile):
    response = post(client, dict(WORKED, rules={"profile": profile}))
    assert "rules.profile" in assert_error_format(response, 422)


def test_overrides_without_a_profile_say_the_profile_is_missing(client):
    """Overrides with no profile were answered "None is not a house-rules profile", the
    JSON null of a field never sent."""
    response = post(client, dict(WORKED, rules={"unseen_maal": "kidnap"}))
    assert assert_error_format(response, 422) == ["rules.profile"]
    assert response.get_json()["errors"][0]["message"] == (
        "Give the profile that these overrides change: one of amarnepal, sparkai, classic,"
        " everestbuzz, gamerules."
    )


@pytest.mark.parametrize("where", ["tiplu", "maal_cards", "dealt_tunnelas"])
def test_unicode_digit_card_is_422(client, where):
    data = dict(WORKED, tiplu="8H")
    data["players"] = [dict(p) for p in WORKED["players"]]
    if where == "tiplu":
        data["tiplu"] = "²H"
    else:
        data["players"][0] = {"name": "Asha", "seen": "sequences", where: ["²H"]}
    assert assert_error_format(post(client, data), 422)


# --- 400: not JSON, or not an object ------------------------------------------------------


@pytest.mark.parametrize(
    "body",
    [b"", b"nope", b"{", b"{'rules': 1}", b"\xff\xfe\x00", b"[" * 100_000, b'{"a": 1} x', b"NaNa"],
)
def test_400_not_json(client, body):
    assert assert_error_format(post(client, body, raw=True), 400) == [""]


@pytest.mark.parametrize("body", [[], [WORKED], "amarnepal", 5, 1.5, None, True])
def test_400_not_an_object(client, body):
    assert assert_error_format(post(client, body), 400) == [""]


# --- fuzz: random and malformed JSON never gives a 500 ------------------------------------


scalars = (
    st.none()
    | st.booleans()
    | st.integers()
    | st.integers(min_value=-(10**400), max_value=10**400)
    | st.floats()
    | st.text(max_size=12)
    | st.sampled_from(
        [
            "",
            " ",
            "8H",
            "10♥",
            "JK",
            "TH",
            "1X",
            "sequences",
            "dublees",
            "unseen",
            "void",
            "Asha",
            "amarnepal",
            "gamerules",
            "kidnap",
            "tiplu",
            "ordinary",
            "\u0000",
            "\ud800",
            "💥",
            "हरि",
        ]
    )
)
json_values = st.recursive(
    scalars,
    lambda children: (
        st.lists(children, max_size=4) | st.dictionaries(st.text(max_size=8), children, max_size=4)
    ),
    max_leaves=12,
)
card_like = st.text(alphabet="A23456789TJQK10SHDCshdc♠♥♦♣ xX-", max_size=4) | scalars
SETTINGS_NAMES = [
    "unseen_maal",
    "tiplu",
    "alter",
    "fee_seen",
    "fee_seen_dublee",
    "void_hand",
    "marriage",
    "marriage_shown",
    "foul",
    "printed_jokers",
    "scoring",
    "dublee_finish_bonus_mode",
    "match_length",
    "tunnela_ordinary",
    "tiplu_copies_max",
    "dublees_min_players",
    "profile",
    "nonsense",
]


@st.composite
def rules_values(draw):
    """A profile id, any JSON, or a profile with random overrides."""
    kind = draw(st.integers(0, 2))
    if kind == 0:
        return draw(st.sampled_from(PROFILES))
    if kind == 1:
        return draw(json_values)
    out = {"profile": draw(st.sampled_from(PROFILES) | json_values)}
    for name in draw(st.lists(st.sampled_from(SETTINGS_NAMES), max_size=4, unique=True)):
        out[name] = draw(
            json_values
            | st.lists(st.integers(-5, 2000), max_size=4)
            | st.sampled_from(
                ["kidnap", "keep", "same_hand", "next_hand", "maal_only", "points_race"]
            )
        )
    return out


PLAYER_FIELDS = {
    "name": lambda: st.sampled_from(["Asha", "Bikash", "Chandra", " Asha ", ""]),
    "seen": lambda: st.sampled_from(["sequences", "dublees", "unseen"]),
    "maal": lambda: st.integers(-5, 100),
    "maal_counts": lambda: st.dictionaries(
        st.sampled_from(
            ["tiplu", "poplu", "jhiplu", "alter", "printed_joker", "ordinary_joker", "x"]
        ),
        st.integers(-2, 8) | json_values,
        max_size=5,
    ),
    "maal_cards": lambda: st.lists(card_like, max_size=8),
    "dealt_tunnelas": lambda: st.lists(
        card_like
        | st.sampled_from(
            ["ordinary", "ordinary_joker", "poplu", "jhiplu", "alter", "printed_joker", "tiplu"]
        ),
        max_size=4,
    ),
    "marriages_shown": lambda: st.integers(-1, 4),
    "foul": lambda: st.booleans(),
}


@st.composite
def player_values(draw):
    if draw(st.integers(0, 9)) == 0:
        return draw(json_values)
    out = {}
    for key in draw(st.lists(st.sampled_from(list(PLAYER_FIELDS)), max_size=5, unique=True)):
        out[key] = draw(PLAYER_FIELDS[key]() | json_values)
    return out


HAND_FIELDS = {
    "rules": rules_values,
    "tiplu": lambda: card_like,
    "finish": lambda: st.sampled_from(["sequences", "dublees", "void"]) | json_values,
    "winner": lambda: st.sampled_from(["Asha", "Bikash", "Chandra"]) | json_values,
    "players": lambda: st.lists(player_values(), max_size=7) | json_values,
}


@st.composite
def hands(draw):
    """Objects shaped like a settle request, with anything at all in their fields."""
    out = {}
    for key in draw(st.lists(st.sampled_from(list(HAND_FIELDS)), max_size=5, unique=True)):
        out[key] = draw(HAND_FIELDS[key]())
    return out


def deep(value, depth):
    for _ in range(depth):
        value = [value]
    return value


FUZZ = settings(
    max_examples=100,
    deadline=None,
    suppress_health_check=[
        HealthCheck.function_scoped_fixture,
        HealthCheck.too_slow,
        HealthCheck.data_too_large,
    ],
)


def check_any_answer(response):
    assert response.status_code in (200, 400, 422), response.get_data(as_text=True)[:500]
    assert response.is_json
    body = response.get_json()
    if response.status_code == 200:
        assert isinstance(body["players"], list)
        assert all(p["points"] > 0 for p in body["payments"])
    else:
        assert_error_format(response, response.status_code)


@pytest.mark.slow  # seconds: lays out PDFs or runs many requests
@FUZZ
@given(body=hands() | json_values)
def test_fuzz_json_never_500(client, body):
    check_any_answer(post(client, body))


@FUZZ
@given(
    body=hands(),
    depth=st.integers(1, 1200),
    where=st.sampled_from(["rules", "tiplu", "winner", "players", "finish"]),
)
@pytest.mark.slow  # seconds: lays out PDFs or runs many requests
def test_fuzz_deep_nesting_never_500(client, body, depth, where):
    body = dict(body)
    body[where] = deep(body.get(where), depth)
    check_any_answer(post(client, body))


@FUZZ
@given(
    raw=st.binary(max_size=64)
    | st.text(max_size=64).map(lambda s: s.encode("utf-8", "surrogatepass"))
)
def test_fuzz_raw_bodies_never_500(client, raw):
    check_any_answer(post(client, raw, raw=True))


@FUZZ
@given(
    index=st.integers(0, 3),
    key=st.sampled_from(
        [
            "name",
            "seen",
            "maal",
            "maal_counts",
            "maal_cards",
            "dealt_tunnelas",
            "foul",
            "marriages_shown",
        ]
    ),
    value=json_values,
)
def test_fuzz_one_field_of_the_example_never_500(client, index, key, value):
    data = json.loads(json.dumps(API_EXAMPLE))
    data["players"][index][key] = value
    check_any_answer(post(client, data))
