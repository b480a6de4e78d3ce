"""A hand is stored once (docs/api.md): Idempotency-Key replays, a key reused with
another body, the same key at the same instant, the hand number the client expects,
a finished match, and PATCH of the match's name and length."""

import json
import urllib.error
import urllib.request
from functools import partial

import pytest
from api_support import bearer, hand
from at_once import at_once
from lost_database import lost_after_commit
from row_counts import rows

from ledger.matches.models import Hand

THREE = {"Asha": ("sequences", 10), "Bikash": ("sequences", 5), "Chandra": ("unseen", 8)}


def keyed(key: str) -> dict:
    return {"headers": {"Idempotency-Key": key}}


# --- Idempotency-Key ---------------------------------------------------------------------


def test_the_same_request_again_gets_the_first_answer_and_stores_nothing(app, create_match):
    m = create_match()
    first = m.post_hand(hand(), **keyed("hand-1-from-phone"))
    assert first.status_code == 201
    assert "Idempotent-Replayed" not in first.headers
    stored = m.client.get(f"{m.url}/hands/1").get_json()
    answer = first.get_json()
    assert {k: answer[k] for k in stored if k != "history"} == {
        k: v for k, v in stored.items() if k != "history"
    }  # the answer is the hand as stored, to the microsecond
    assert answer["match"]["version"] == m.get()["version"]
    m.post_hand(hand("Bikash"))  # another hand lands: the totals move on
    again = m.post_hand(hand(), **keyed("hand-1-from-phone"))
    assert again.status_code == 201
    assert again.headers["Idempotent-Replayed"] == "true"
    assert again.get_data() == first.get_data()  # the first answer, byte for byte
    assert again.get_json()["number"] == 1
    assert rows(app, Hand) == 2
    assert [h["number"] for h in m.get()["hands"]] == [1, 2]


def test_a_replay_answers_the_same_json_written_differently(create_match):
    m = create_match()
    data = hand()
    first = m.client.post(
        f"{m.url}/hands",
        data=json.dumps(data),
        headers={**bearer(m.key), "Idempotency-Key": "k", "Content-Type": "application/json"},
    )
    spaced = json.dumps(dict(reversed(list(data.items()))), indent=2)
    again = m.client.post(
        f"{m.url}/hands",
        data=spaced,
        headers={**bearer(m.key), "Idempotency-Key": "k", "Content-Type": "application/json"},
    )
    assert (first.status_code, again.status_code) == (201, 201)
    assert again.headers["Idempotent-Replayed"] == "true"
    assert again.get_json() == first.get_json()


def test_the_same_key_with_another_body_is_422_and_stores_nothing(app, create_match):
    m = create_match()
    assert m.post_hand(hand(), **keyed("k-1")).status_code == 201
    before = m.get()
    other = m.post_hand(hand("Bikash"), **keyed("k-1"))
    assert other.status_code == 422
    (error,) = other.get_json()["errors"]
    assert error["field"] == "Idempotency-Key"  # as a payment's, which honours it the same
    assert "already used for hand 1" in error["message"]
    assert "Idempotent-Replayed" not in other.headers
    assert m.get() == before
    assert rows(app, Hand) == 1


def test_keys_belong_to_their_match(create_match):
    first, second = create_match(), create_match(name="Second")
    assert first.post_hand(hand(), **keyed("shared")).status_code == 201
    answer = second.post_hand(hand(), **keyed("shared"))
    assert answer.status_code == 201
    assert "Idempotent-Replayed" not in answer.headers
    assert len(second.get()["hands"]) == 1


@pytest.mark.parametrize("key", ["", "x" * 201, "naïve", "tab\there"])
def test_a_key_that_is_not_1_to_200_printable_ascii_is_refused(app, create_match, key):
    m = create_match()
    answer = m.post_hand(hand(), headers={"Idempotency-Key": key.encode("utf-8").decode("latin-1")})
    assert answer.status_code == 422
    fields = [e["field"] for e in answer.get_json()["errors"]]
    assert fields == ["Idempotency-Key"]
    assert rows(app, Hand) == 0


def test_the_longest_and_the_oddest_printable_keys_work(create_match):
    m = create_match()
    for key in ("x" * 200, "~ !\"#$%&'()*+,-./:;<=>?@[\\]^_`{|}"):
        assert m.post_hand(hand(), **keyed(key)).status_code == 201
        assert m.post_hand(hand(), **keyed(key)).headers["Idempotent-Replayed"] == "true"
    assert len(m.get()["hands"]) == 2


def test_a_refused_request_does_not_use_up_its_key(create_match):
    m = create_match()
    bad = hand(winner="Zed")
    assert m.post_hand(bad, **keyed("k")).status_code == 422
    fixed = m.post_hand(hand(), **keyed("k"))
    assert fixed.status_code == 201
    assert "Idempotent-Replayed" not in fixed.headers


def test_a_deleted_hand_takes_its_key_with_it(create_match):
    """Keys are kept as long as the hand they created."""
    m = create_match()
    assert m.post_hand(hand(), **keyed("k")).status_code == 201
    assert m.delete_hand(1).status_code == 200
    again = m.post_hand(hand(), **keyed("k"))
    assert again.status_code == 201
    assert "Idempotent-Replayed" not in again.headers
    assert again.get_json()["number"] == 2


def test_an_edited_hand_still_replays_its_first_answer(create_match):
    m = create_match()
    first = m.post_hand(hand(), **keyed("k"))
    assert m.put_hand(1, hand("Bikash")).status_code == 200
    again = m.post_hand(hand(), **keyed("k"))
    assert again.get_json() == first.get_json()
    assert m.get()["hands"][0]["winner"] == "Bikash"


def test_a_replay_needs_the_edit_key_too(create_match):
    m = create_match()
    m.post_hand(hand(), **keyed("k"))
    assert m.post_hand(hand(), key=None, **keyed("k")).status_code == 401


# --- the hand number ---------------------------------------------------------------------


def test_the_number_the_client_expects_is_checked(app, create_match):
    m = create_match()
    assert m.post_hand(hand(number=1)).status_code == 201
    taken = m.post_hand(hand("Bikash", number=1))
    assert taken.status_code == 409
    (error,) = taken.get_json()["errors"]
    assert error["field"] == "number"
    assert "Hand 1 is already stored" in error["message"]
    assert "dealt by Asha" in error["message"]
    assert "next hand is 2" in error["message"]
    assert rows(app, Hand) == 1
    assert m.post_hand(hand("Bikash", number=2)).get_json()["number"] == 2


def test_a_number_ahead_or_of_a_deleted_hand_is_409(create_match):
    m = create_match()
    m.post_hand(hand())
    m.delete_hand(1)
    ahead = m.post_hand(hand(number=5))
    assert ahead.status_code == 409
    assert ahead.get_json()["errors"][0]["message"] == "This match's next hand is 2, not 5."
    deleted = m.post_hand(hand(number=1))
    assert deleted.status_code == 409
    assert "deleted" in deleted.get_json()["errors"][0]["message"]
    assert m.get()["hands"] == []


@pytest.mark.parametrize("number", [0, -1, "2", 1.5, True, [1]])
def test_a_number_that_is_not_a_hand_number_is_422(create_match, number):
    m = create_match()
    answer = m.post_hand(hand(number=number))
    assert answer.status_code == 422
    assert [e["field"] for e in answer.get_json()["errors"]] == ["number"]


def test_every_problem_is_reported_together(create_match):
    m = create_match()
    answer = m.post_hand(hand(winner="Zed", number="one"), **keyed("é".encode().decode("latin-1")))
    fields = {e["field"] for e in answer.get_json()["errors"]}
    assert answer.status_code == 422
    assert {"number", "Idempotency-Key", "winner"} <= fields


def test_a_retry_with_its_number_replays_instead_of_conflicting(create_match):
    """The first answer was lost: the resend (same key, same number) gets it again, not a
    409 for the hand it stored itself."""
    m = create_match()
    first = m.post_hand(hand(number=1), **keyed("k"))
    again = m.post_hand(hand(number=1), **keyed("k"))
    assert again.status_code == 201
    assert again.get_json() == first.get_json()


# --- a finished match ----------------------------------------------------------------------


@pytest.mark.parametrize("write", ["put", "delete"])
def test_a_change_stored_before_the_database_went_still_gets_its_answer(app, create_match, write):
    """A change or delete committed, then the database lost: the answer was made before
    the commit (it used to be read after it, a 503 saying nothing was changed)."""
    m = create_match()
    m.post_hand(hand())
    m.post_hand(hand("Bikash"))
    before = m.get()
    with lost_after_commit(app) as lost:
        if write == "put":
            answer = m.put_hand(1, hand("Chandra"), headers={"If-Match": '"1"'})
        else:
            answer = m.delete_hand(1, headers={"If-Match": '"1"'})
    assert lost["lost"]
    assert answer.status_code == 200, answer.get_json()
    after = m.get()
    totals = {p["name"]: p["total"] for p in after["players"]}
    assert (
        answer.get_json()["totals"] == totals != {p["name"]: p["total"] for p in before["players"]}
    )
    assert answer.get_json()["match"] == {
        k: v for k, v in after.items() if k not in ("hands", "cumulative")
    }
    if write == "put":
        assert {k: v for k, v in answer.get_json().items() if k not in ("totals", "match")} == {
            k: v for k, v in m.client.get(f"{m.url}/hands/1").get_json().items() if k != "history"
        }
    else:
        assert answer.get_json()["deleted"] == 1
        assert [h["number"] for h in after["hands"]] == [2]


def test_a_finished_match_takes_no_more_hands_until_its_length_changes(app, create_match):
    m = create_match(length={"hands": 2})
    for winner in ("Asha", "Bikash"):
        assert m.post_hand(hand(winner)).status_code == 201
    assert m.get()["finished"] is True
    refused = m.post_hand(hand("Chandra"))
    assert refused.status_code == 409
    (error,) = refused.get_json()["errors"]
    assert error["field"] == ""
    assert "This match is over: its 2 hands are played" in error["message"]
    assert rows(app, Hand) == 2

    played_on = m.patch({"length": {"hands": 3}})
    assert played_on.status_code == 200
    assert played_on.get_json()["finished"] is False
    assert m.post_hand(hand("Chandra")).status_code == 201
    assert m.get()["finished"] is True


def test_a_finished_match_still_replays_its_last_hand(create_match):
    m = create_match(length={"hands": 1})
    first = m.post_hand(hand(), **keyed("last"))
    again = m.post_hand(hand(), **keyed("last"))
    assert again.status_code == 201
    assert again.get_data() == first.get_data()


def test_rotations_finish_after_a_round_of_deals_per_rotation(create_match):
    m = create_match(players=["Asha", "Bikash", "Chandra"], length={"rotations": 1})
    three = {"Asha": ("sequences", 3), "Bikash": ("sequences", 1), "Chandra": ("unseen", 0)}
    for winner in ("Asha", "Bikash", "Asha"):
        assert m.post_hand(hand(winner, three)).status_code == 201
    assert m.post_hand(hand("Asha", three)).status_code == 409


# --- PATCH ---------------------------------------------------------------------------------


def test_patch_changes_name_and_length_and_answers_the_match(create_match):
    m = create_match(length={"hands": 4})
    m.post_hand(hand())
    answer = m.patch({"name": "  Tihar   night  ", "length": {"rotations": 2}})
    assert answer.status_code == 200
    body = answer.get_json()
    assert body["name"] == "Tihar night"
    assert body["length"] == {"rotations": 2}
    assert body["hands_in_length"] == 12  # six players
    assert len(body["hands"]) == 1
    assert m.get() == body
    assert m.patch({"length": None}).get_json()["length"] is None  # open


def test_patch_changes_only_what_it_gives(create_match):
    m = create_match(length={"hands": 4})
    before = m.get()
    after = m.patch({"name": "Renamed"}).get_json()
    assert after["length"] == before["length"]
    assert after["version"] == before["version"] + 1
    same = m.patch({})
    assert same.status_code == 200
    assert same.get_json()["version"] == after["version"]


def test_stop_here_sets_the_length_to_the_hands_played(create_match):
    m = create_match(length=None)
    for _ in range(3):
        m.post_hand(hand())
    stopped = m.patch({"length": {"hands": 3}}).get_json()
    assert stopped["finished"] is True
    assert m.post_hand(hand()).status_code == 409


def test_the_length_cannot_be_below_the_hands_played(create_match):
    m = create_match(players=["Asha", "Bikash", "Chandra"], length=None)
    three = {"Asha": ("sequences", 3), "Bikash": ("sequences", 1), "Chandra": ("unseen", 0)}
    for _ in range(4):
        m.post_hand(hand("Asha", three))
    before = m.get()
    for length in ({"hands": 3}, {"rotations": 1}):
        answer = m.patch({"length": length})
        assert answer.status_code == 422
        (error,) = answer.get_json()["errors"]
        assert error["field"] == "length"
        assert "4 hands played" in error["message"]
    assert m.get() == before
    assert m.patch({"length": {"hands": 4}}).status_code == 200


@pytest.mark.parametrize(
    "body, fields",
    [
        ({"name": ""}, {"name"}),
        ({"name": 7}, {"name"}),
        ({"name": "x" * 200}, {"name"}),
        ({"length": {"hands": 0}}, {"length"}),
        ({"length": {"days": 3}}, {"length"}),
        ({"length": 4}, {"length"}),
        ({"players": ["A", "B"]}, {"players"}),
        ({"name": "", "rules": "no-such-profile", "length": "long"}, {"name", "rules", "length"}),
    ],
)
def test_patch_refuses_bad_input_on_its_field_and_changes_nothing(create_match, body, fields):
    m = create_match(length={"hands": 4})
    before = m.get()
    answer = m.patch(body)
    assert answer.status_code == 422
    errors = answer.get_json()["errors"]
    assert {e["field"] for e in errors} == fields
    assert all(e["message"] for e in errors)
    assert m.get() == before


def test_patch_needs_the_edit_key_and_a_json_object(client, create_match):
    m = create_match()
    other = create_match(name="Other")
    assert m.patch({"name": "x"}, key=None).status_code == 401
    assert m.patch({"name": "x"}, key=other.key).status_code == 403
    assert m.patch(["name"]).status_code == 400
    assert client.patch("/api/v1/matches/nope", json={}, headers=bearer(m.key)).status_code == 404
    assert m.get()["name"] == "Tihar 2026"


# --- at the same instant, against a real server --------------------------------------------


def _post_together(url: str, key: str, bodies: list[dict], headers: list[dict]) -> list:
    """POST each body from its own thread, all released at once; (status, headers, body)."""
    requests = [
        urllib.request.Request(
            url,
            data=json.dumps(body).encode(),
            headers={"Content-Type": "application/json", **bearer(key), **extra},
            method="POST",
        )
        for body, extra in zip(bodies, headers, strict=True)
    ]
    return at_once(*(partial(_answer, request) for request in requests))


def _answer(request: urllib.request.Request) -> tuple:
    try:
        with urllib.request.urlopen(request, timeout=30) as answer:
            return answer.status, dict(answer.headers), answer.read()
    except urllib.error.HTTPError as refused:
        return refused.code, dict(refused.headers), refused.read()


def _new_match(base: str, **fields) -> tuple[str, str]:
    body = {"name": "Race", "players": ["Asha", "Bikash", "Chandra", "Dipa"], "rules": "sparkai"}
    request = urllib.request.Request(
        base + "/api/v1/matches",
        data=json.dumps({**body, **fields}).encode(),
        headers={"Content-Type": "application/json"},
        method="POST",
    )
    with urllib.request.urlopen(request) as answer:
        created = json.loads(answer.read())
    return f"{base}/api/v1/matches/{created['id']}", created["edit_key"]


def _hand_numbers(match_url: str) -> list[int]:
    with urllib.request.urlopen(match_url) as answer:
        return [h["number"] for h in json.loads(answer.read())["hands"]]


def test_eight_requests_with_one_key_at_the_same_instant_store_one_hand(live_server):
    url, key = _new_match(live_server, length=None)
    results = _post_together(
        url + "/hands", key, [hand()] * 8, [{"Idempotency-Key": "same-instant"}] * 8
    )
    assert [status for status, _, _ in results] == [201] * 8
    replayed = [h.get("Idempotent-Replayed") for _, h, _ in results]
    assert replayed.count("true") == 7 and replayed.count(None) == 1
    assert len({body for _, _, body in results}) == 1  # every answer is the first one
    assert _hand_numbers(url) == [1]


def test_eight_scorekeepers_adding_the_same_number_store_one_hand(live_server):
    url, key = _new_match(live_server, length=None)
    bodies = [hand(winner, THREE, number=1) for winner in ["Asha", "Bikash"] * 4]
    headers = [{"Idempotency-Key": f"keeper-{i}"} for i in range(8)]
    results = _post_together(url + "/hands", key, bodies, headers)
    statuses = sorted(status for status, _, _ in results)
    assert statuses == [201] + [409] * 7
    for status, _, body in results:
        if status == 409:
            assert json.loads(body)["errors"][0]["field"] == "number"
    assert _hand_numbers(url) == [1]


def test_the_last_hand_of_a_match_is_stored_once_when_eight_race_for_it(live_server):
    url, key = _new_match(live_server, length={"hands": 1})
    headers = [{"Idempotency-Key": f"keeper-{i}"} for i in range(8)]
    results = _post_together(url + "/hands", key, [hand()] * 8, headers)
    assert sorted(status for status, _, _ in results) == [201] + [409] * 7
    assert _hand_numbers(url) == [1]
