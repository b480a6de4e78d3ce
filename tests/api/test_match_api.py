"""The Matches section of docs/api.md: create, read, add/replace/delete hands."""

import pytest
from api_support import PLAYERS, bearer, hand
from row_counts import rows
from sqlalchemy import select

from ledger.engine import parse_hand, resolve_rules, settle
from ledger.extensions import db
from ledger.matches.models import Hand, HandVersion, Match


def engine_nets(data: dict, rules="sparkai") -> dict[str, int]:
    """What the engine says a hand's nets are (the test's own reference)."""
    resolved = resolve_rules(rules)
    return settle(parse_hand(data, resolved), resolved).nets()


def summed(hands: list[dict], players=PLAYERS) -> dict[str, int]:
    totals = dict.fromkeys(players, 0)
    for data in hands:
        for name, net in engine_nets(data).items():
            totals[name] += net
    return totals


def totals_of(match: dict) -> dict[str, int]:
    return {p["name"]: p["total"] for p in match["players"]}


# --- create and read -------------------------------------------------------------------


def test_create_answers_201_with_the_match_and_an_edit_key(client):
    body = {
        "name": "Tihar 2026",
        "players": ["Asha", "Bikash", "Chandra", "Dipa"],
        "rules": "amarnepal",
        "length": {"hands": 4},
        "first_dealer": "Asha",
    }
    response = client.post("/api/v1/matches", json=body)
    assert response.status_code == 201
    match = response.get_json()
    assert len(match["edit_key"]) >= 32
    assert len(match["id"]) >= 22  # secrets.token_urlsafe(16)
    assert response.headers["Location"].endswith(f"/api/v1/matches/{match['id']}")
    assert response.headers["Cache-Control"] == "no-store"
    assert match["name"] == "Tihar 2026"
    assert match["players"] == [{"name": n, "total": 0, "guest": False} for n in body["players"]]
    assert match["length"] == {"hands": 4}
    assert match["hands"] == []
    assert match["next_dealer"] == "Asha"
    assert match["finished"] is False
    assert match["leaders"] == []
    assert match["rules"]["profile"] == "amarnepal"
    assert match["rules"]["fee_unseen"] == 10  # every setting, resolved
    assert match["rules"]["overrides"] == {}
    assert [s["place"] for s in match["standings"]] == [1, 1, 1, 1]

    read = client.get(f"/api/v1/matches/{match['id']}").get_json()
    assert "edit_key" not in read
    assert {k: v for k, v in match.items() if k != "edit_key"} == read


def test_create_with_overrides_rotations_and_default_dealer(client):
    response = client.post(
        "/api/v1/matches",
        json={
            "name": "  Dashain   night ",
            "players": ["Asha", "Bikash", "Chandra"],
            "rules": {"profile": "amarnepal", "unseen_maal": "kidnap", "fee_seen_dublee": 0},
            "length": {"rotations": 2},
        },
    )
    assert response.status_code == 201
    match = response.get_json()
    assert match["name"] == "Dashain night"
    assert match["rules"]["unseen_maal"] == "kidnap"
    assert match["rules"]["overrides"] == {"unseen_maal": "kidnap", "fee_seen_dublee": 0}
    assert match["length"] == {"rotations": 2}
    assert match["hands_in_length"] == 6
    assert match["first_dealer"] == match["next_dealer"] == "Asha"


def test_length_left_out_is_the_profiles_and_null_is_open(client):
    body = {"name": "m", "players": ["A", "B"], "rules": "amarnepal"}
    assert client.post("/api/v1/matches", json=body).get_json()["length"] == {"hands": 4}
    body["length"] = None
    assert client.post("/api/v1/matches", json=body).get_json()["length"] is None


@pytest.mark.parametrize(
    ("change", "field"),
    [
        ({"name": ""}, "name"),
        ({"name": "x" * 81}, "name"),
        ({"players": ["Asha"]}, "players"),
        ({"players": [f"P{i}" for i in range(13)]}, "players"),
        ({"players": ["Asha", "Bikash", "ASHA"]}, "players.2"),
        ({"players": ["Asha", "  "]}, "players.1"),
        ({"players": ["Asha", "B" * 41]}, "players.1"),
        ({"players": "Asha, Bikash"}, "players"),
        ({"first_dealer": "Zed"}, "first_dealer"),
        ({"rules": "nosuch"}, "rules"),
        ({"rules": 7}, "rules"),
        ({"rules": {"profile": "sparkai", "fee_seen": -1}}, "rules.fee_seen"),
        ({"length": {"hands": 0}}, "length"),
        ({"length": {"days": 3}}, "length"),
    ],
)
def test_create_refuses_an_invalid_match_with_the_field(app, client, change, field):
    body = {"name": "m", "players": ["Asha", "Bikash"], "rules": "sparkai", **change}
    response = client.post("/api/v1/matches", json=body)
    assert response.status_code == 422
    errors = response.get_json()["errors"]
    assert field in [e["field"] for e in errors]
    assert all(e["message"] for e in errors)
    assert rows(app, Match) == 0


def test_create_reports_every_problem_at_once(client):
    response = client.post(
        "/api/v1/matches", json={"name": "", "players": ["A"], "rules": "x", "first_dealer": "Q"}
    )
    fields = {e["field"] for e in response.get_json()["errors"]}
    assert {"name", "players", "rules", "first_dealer"} <= fields


def test_rules_left_out_are_said_to_be_missing_with_what_is_allowed(app, client):
    """Not "rules must be a profile id…", as if a wrong one had been sent: they are
    missing, and the answer names the profiles to choose from."""
    for rules in ({}, {"rules": None}):
        body = {"name": "m", "players": ["Asha", "Bikash"], **rules}
        response = client.post("/api/v1/matches", json=body)
        assert response.status_code == 422
        [error] = response.get_json()["errors"]
        assert error["field"] == "rules"
        assert error["message"].startswith("rules is missing: give a house-rules profile id")
        assert "sparkai" in error["message"] and "amarnepal" in error["message"]
    assert rows(app, Match) == 0


@pytest.mark.parametrize("body", [b"not json", b"[1, 2]", b""])
def test_a_body_that_is_not_a_json_object_is_400(client, body):
    response = client.post("/api/v1/matches", data=body, content_type="application/json")
    assert response.status_code == 400
    assert response.get_json()["errors"][0]["field"] == ""


# --- a match of several hands ------------------------------------------------------------


def test_a_match_with_sit_outs_totals_the_engines_nets(create_match):
    m = create_match(length={"hands": 5})
    hands = [
        hand(),  # Esha and Gopal sit out
        hand(
            "Esha",
            {"Bikash": ("unseen", 3), "Esha": ("sequences", 12), "Gopal": ("sequences", 2)},
        ),
        {
            "tiplu": "8H",
            "finish": "sequences",
            "winner": "Gopal",
            "players": [
                {"name": "Asha", "seen": "sequences", "maal_cards": ["7H", "8H", "9H", "8D"]},
                {"name": "Chandra", "seen": "unseen", "maal_counts": {"poplu": 1}},
                {"name": "Dipa", "seen": "dublees", "maal": 4},
                {"name": "Esha", "seen": "sequences", "maal": 0},
                {"name": "Gopal", "seen": "sequences", "maal": 7},
            ],
        },
        hand("Dipa", {"Chandra": ("sequences", 0), "Dipa": ("dublees", 6)}, finish="dublees"),
        hand(None, {"Asha": ("unseen", 2), "Bikash": ("sequences", 1)}, finish="void"),
    ]
    dealers = []
    for number, data in enumerate(hands, start=1):
        response = m.post_hand(data)
        assert response.status_code == 201, response.get_json()
        body = response.get_json()
        assert body["number"] == number
        assert body["version"] == 1
        dealers.append(body["dealer"])
        listed = [p["name"] for p in data["players"]]
        assert [p["name"] for p in body["players"]] == listed
        assert body["sitting_out"] == [p for p in PLAYERS if p not in listed]
        assert {p["name"]: p["net"] for p in body["players"]} == engine_nets(data)
        assert body["totals"] == summed(hands[:number])
        assert body["match"]["players"] == [
            {"name": n, "total": t, "guest": False} for n, t in summed(hands[:number]).items()
        ]
    assert dealers == PLAYERS[:5]  # the deal passes left, sit-outs included

    match = m.get()
    assert totals_of(match) == summed(hands)
    assert sum(totals_of(match).values()) == 0
    assert [h["number"] for h in match["hands"]] == [1, 2, 3, 4, 5]
    assert match["next_dealer"] == "Gopal"
    assert match["finished"] is True
    leader_total = max(totals_of(match).values())
    assert match["leaders"] == [n for n, t in totals_of(match).items() if t == leader_total]
    assert match["standings"][0]["total"] == leader_total
    assert match["cumulative"][-1]["totals"] == totals_of(match)

    third = match["hands"][2]
    assert third["winner"] == "Gopal"
    assert third["tiplu"] == "8H"
    asha = third["players"][0]
    assert asha["maal_cards"] == ["7H", "8H", "9H", "8D"]  # as entered ...
    assert {"maal", "effective_maal", "maal_points", "fee", "net", "breakdown"} <= set(asha)
    assert third["hand"] == hands[2]  # the input exactly as entered
    assert third["payments"]
    assert third["sitting_out"] == ["Bikash"]
    assert match["hands"][4]["winner"] is None
    assert match["hands"][4]["finish"] == "void"


def test_names_match_ignoring_case_and_take_the_registered_spelling(create_match):
    m = create_match()
    data = hand("asha", {"asha": ("sequences", 3), "BIKASH": ("unseen", 0)})
    body = m.post_hand(data).get_json()
    assert [p["name"] for p in body["players"]] == ["Asha", "Bikash"]
    assert body["winner"] == "Asha"


def test_the_dealer_can_be_given(create_match):
    m = create_match()
    body = m.post_hand(hand(dealer="chandra")).get_json()
    assert body["dealer"] == "Chandra"
    assert m.get()["next_dealer"] == "Dipa"


def test_foul_penalty_carried_to_the_next_finisher(create_match):
    m = create_match(rules={"profile": "sparkai", "foul": "next_hand"})
    first = hand()
    first["players"][2]["foul"] = True  # Chandra fouls
    assert m.post_hand(first).status_code == 201
    assert m.get()["fouls_pending"] == ["Chandra"]
    second = hand("Bikash", {"Bikash": ("sequences", 0), "Dipa": ("sequences", 0)})
    body = m.post_hand(second).get_json()
    assert body["carried_penalties"] == {"Chandra": -15, "Bikash": 15}
    rules = {"profile": "sparkai", "foul": "next_hand"}
    nets1, nets2 = engine_nets(first, rules), engine_nets(second, rules)
    assert body["totals"]["Chandra"] == nets1["Chandra"] - 15
    assert body["totals"]["Bikash"] == nets1["Bikash"] + nets2["Bikash"] + 15


# --- invalid hands ---------------------------------------------------------------------


@pytest.mark.parametrize(
    ("data", "fields"),
    [
        (hand(players={"Asha": ("sequences", 1), "Zed": ("sequences", 0)}), {"players.1.name"}),
        (hand("Dipa"), {"winner"}),  # Dipa never saw
        (hand(players={"Asha": ("sequences", 1)}), {"players"}),
        (hand(dealer="Zed"), {"dealer"}),
        (
            hand(
                "Asha",
                {"Asha": ("sequences", -1), "Nobody": ("seen", 0), "Dipa": ("unseen", 0)},
            ),
            {"players.0.maal", "players.1.name", "players.1.seen"},
        ),
        ({**hand(), "tiplu": "1X"}, {"tiplu"}),
        ({**hand(), "rules": "amarnepal"}, {"rules"}),
        ({"finish": "sequences"}, {"players"}),
    ],
)
def test_an_invalid_hand_is_422_with_field_paths_and_nothing_is_stored(
    app, create_match, data, fields
):
    m = create_match()
    m.post_hand(hand())
    before = m.get()
    response = m.post_hand(data)
    assert response.status_code == 422
    errors = response.get_json()["errors"]
    assert fields <= {e["field"] for e in errors}, errors
    assert all(e["message"] for e in errors)
    assert m.get() == before
    assert rows(app, Hand) == 1


def test_a_hand_with_the_matchs_own_rules_is_accepted(create_match):
    m = create_match()
    assert m.post_hand({**hand(), "rules": "sparkai"}).status_code == 201


def test_an_invalid_edit_is_422_and_keeps_the_hand(create_match):
    m = create_match()
    m.post_hand(hand())
    before = m.get()
    response = m.put_hand(1, hand("Dipa"))
    assert response.status_code == 422
    assert m.get() == before


# --- edits and deletes -----------------------------------------------------------------


def test_edit_resettles_the_hand_and_keeps_its_history(client, create_match):
    m = create_match()
    first, second = hand(), hand("Bikash")
    m.post_hand(first)
    m.post_hand(second)
    edited = hand("Chandra", dealer="Esha")
    response = m.put_hand(2, {**edited, "version": 1})
    assert response.status_code == 200
    body = response.get_json()
    assert body["number"] == 2
    assert body["version"] == 2
    assert body["dealer"] == "Esha"
    assert body["winner"] == "Chandra"
    assert body["totals"] == summed([first, edited])
    assert totals_of(m.get()) == summed([first, edited])

    again = m.put_hand(2, hand("Asha"))  # no version given: last write wins
    assert again.get_json()["version"] == 3
    detail = client.get(f"{m.url}/hands/2")
    assert detail.headers["ETag"] == '"3"'
    history = detail.get_json()["history"]
    assert [(h["version"], h["action"], h["hand"]["winner"]) for h in history] == [
        (1, "edit", "Bikash"),
        (2, "edit", "Chandra"),
    ]
    assert history[0]["nets"] == engine_nets(second)
    assert history[0]["dealer"] == "Bikash"


def test_delete_keeps_numbers_and_never_reuses_one(app, client, create_match):
    m = create_match()
    hands = [hand(), hand("Bikash"), hand("Chandra")]
    for data in hands:
        m.post_hand(data)
    response = m.delete_hand(2)
    assert response.status_code == 200
    body = response.get_json()
    assert body["deleted"] == 2
    assert body["totals"] == summed([hands[0], hands[2]])
    match = m.get()
    assert [h["number"] for h in match["hands"]] == [1, 3]
    assert totals_of(match) == summed([hands[0], hands[2]])
    assert m.delete_hand(3).status_code == 200
    assert m.post_hand(hand()).get_json()["number"] == 4
    assert client.get(f"{m.url}/hands/2").status_code == 404
    with app.app_context():
        kept = db.session.scalars(select(HandVersion).order_by(HandVersion.hand_number)).all()
        assert [(v.hand_number, v.action) for v in kept] == [(2, "delete"), (3, "delete")]


# --- stale edits (409) -----------------------------------------------------------------


def test_a_stale_version_in_the_body_is_409_and_changes_nothing(create_match):
    m = create_match()
    m.post_hand(hand())
    assert m.put_hand(1, {**hand("Bikash"), "version": 1}).status_code == 200
    before = m.get()
    response = m.put_hand(1, {**hand("Chandra"), "version": 1})  # the second scorekeeper
    assert response.status_code == 409
    error = response.get_json()["errors"][0]
    assert error["field"] == "version"
    assert "version 2" in error["message"]
    assert m.get() == before


@pytest.mark.parametrize(("header", "status"), [('"1"', 409), ("1", 409), ('W/"2"', 200)])
def test_if_match_must_be_the_current_version(create_match, header, status):
    m = create_match()
    m.post_hand(hand())
    m.put_hand(1, hand("Bikash"))  # now version 2
    response = m.put_hand(1, hand("Chandra"), headers={"If-Match": header})
    assert response.status_code == status


def test_delete_with_a_stale_if_match_is_409(create_match):
    m = create_match()
    m.post_hand(hand())
    m.put_hand(1, hand("Bikash"))
    assert m.delete_hand(1, headers={"If-Match": '"1"'}).status_code == 409
    assert len(m.get()["hands"]) == 1
    assert m.delete_hand(1, headers={"If-Match": '"2"'}).status_code == 200


def test_a_version_that_is_not_a_number_is_422(create_match):
    m = create_match()
    m.post_hand(hand())
    assert m.put_hand(1, {**hand(), "version": "one"}).status_code == 422


# --- edit keys -------------------------------------------------------------------------


def _writes(m, key):
    return [
        m.post_hand(hand(), key=key),
        m.put_hand(1, hand("Bikash"), key=key),
        m.delete_hand(1, key=key),
    ]


@pytest.mark.parametrize("kind", ["none", "wrong", "other match", "not bearer", "empty"])
def test_writes_without_the_matchs_key_are_refused_and_store_nothing(
    app, client, create_match, kind
):
    m = create_match()
    other = create_match(name="Other")
    m.post_hand(hand())
    before = m.get()
    if kind == "none":
        headers = {}
    elif kind == "wrong":
        headers = bearer("not-the-key")
    elif kind == "other match":
        headers = bearer(other.key)
    elif kind == "not bearer":
        headers = {"Authorization": f"Basic {m.key}"}
    else:
        headers = {"Authorization": "Bearer "}
    responses = [
        client.post(f"{m.url}/hands", json=hand(), headers=headers),
        client.put(f"{m.url}/hands/1", json=hand("Bikash"), headers=headers),
        client.delete(f"{m.url}/hands/1", headers=headers),
    ]
    expected = 403 if kind in ("wrong", "other match") else 401
    for response in responses:
        assert response.status_code == expected
        assert response.get_json()["errors"][0]["message"]
        if expected == 401:
            assert response.headers["WWW-Authenticate"].startswith("Bearer")
    assert m.get() == before
    assert rows(app, Hand) == 1
    assert rows(app, HandVersion) == 0


def test_the_key_of_a_match_does_not_open_another(create_match):
    first, second = create_match(), create_match(name="Second")
    assert first.post_hand(hand(), key=second.key).status_code == 403
    assert second.post_hand(hand(), key=first.key).status_code == 403
    assert first.post_hand(hand()).status_code == 201


# --- 404s ------------------------------------------------------------------------------


def test_unknown_matches_and_hands_are_404(client, create_match):
    m = create_match()
    m.post_hand(hand())
    missing = "/api/v1/matches/NoSuchMatchAtAll12345"
    for response in (
        client.get(missing),
        client.post(f"{missing}/hands", json=hand(), headers=bearer(m.key)),
        client.put(f"{missing}/hands/1", json=hand(), headers=bearer(m.key)),
        client.delete(f"{missing}/hands/1", headers=bearer(m.key)),
        client.get(f"{missing}/export.json"),
        client.get(f"{missing}/export.csv"),
        client.get(f"{missing}/hands/1"),
        m.put_hand(7, hand()),
        m.delete_hand(7),
        client.get(f"{m.url}/hands/7"),
        client.get(f"{m.url}/hands/one"),
    ):
        assert response.status_code == 404
        assert response.get_json()["errors"][0]["message"]


def test_an_unknown_match_is_404_before_the_key_is_looked_at(client):
    response = client.post("/api/v1/matches/nosuch/hands", json=hand())
    assert response.status_code == 404


# --- names full of HTML ------------------------------------------------------------------


def test_names_full_of_html_round_trip_as_given(client):
    names = ['<script>alert("x")</script>', "Bob's & <b>bold</b>", "नेपाली"]
    body = {"name": "<img src=x onerror=alert(1)>", "players": names, "rules": "sparkai"}
    created = client.post("/api/v1/matches", json=body)
    assert created.status_code == 201
    match = created.get_json()
    assert match["name"] == body["name"]
    assert [p["name"] for p in match["players"]] == names
    key = match["edit_key"]
    data = hand(names[0], {names[0]: ("sequences", 3), names[1]: ("unseen", 0)})
    added = client.post(f"/api/v1/matches/{match['id']}/hands", json=data, headers=bearer(key))
    assert added.status_code == 201
    assert added.get_json()["winner"] == names[0]
    read = client.get(f"/api/v1/matches/{match['id']}")
    assert read.mimetype == "application/json"
    assert [p["name"] for p in read.get_json()["players"]] == names
    assert read.get_json()["hands"][0]["sitting_out"] == [names[2]]
