"""PATCH /api/v1/matches/<id> with ``rules``: the match settled again for good under other
rules, every change an edit in the hand's history, or 422 naming the hands they refuse
(docs/rules.md §8, docs/api.md)."""

import pytest
from rescore_support import HANDS, OWN_RULES, PLAYERS, independent_rescore

#: Rules that take every hand of the varied match (fouls to the next hand, dublees).
OTHER = {"profile": "everestbuzz", "foul": "next_hand", "unseen_maal": "kidnap"}
#: Stamps a write changes whatever it writes.
STAMPS = {"version", "updated_at"}


@pytest.fixture
def played(create_match):
    match = create_match(players=PLAYERS, rules=OWN_RULES)
    for hand in HANDS:
        assert match.post_hand(hand).status_code == 201
    return match


def without_stamps(value):
    """The match's JSON without what any write changes (versions, moments)."""
    if isinstance(value, dict):
        return {k: without_stamps(v) for k, v in value.items() if k not in STAMPS}
    if isinstance(value, list):
        return [without_stamps(v) for v in value]
    return value


def test_every_hand_is_settled_again_and_the_totals_follow(played):
    before = played.get()
    expected, totals = independent_rescore(before["hands"], OTHER)
    response = played.patch({"rules": OTHER})
    assert response.status_code == 200, response.get_json()
    after = response.get_json()
    assert after == played.get()  # the answer is the match as kept
    assert after["rules"]["profile"] == "everestbuzz"
    assert after["rules"]["overrides"] == {"foul": "next_hand", "unseen_maal": "kidnap"}
    assert {p["name"]: p["total"] for p in after["players"]} == totals
    assert {s["name"]: s["total"] for s in after["standings"]} == totals
    assert after["cumulative"][-1]["totals"] == totals
    for hand, want in zip(after["hands"], expected, strict=True):
        assert {p["name"]: p["net"] for p in hand["players"]} == want["nets"]
        assert hand["carried_penalties"] == want["carried"]
    settled_up = played.client.get(f"{played.url}/settle-up").get_json()
    assert {b["name"]: b["total"] for b in settled_up["balances"]} == totals


def test_each_change_is_an_edit_in_the_hands_history(played):
    before = {h["number"]: h for h in played.get()["hands"]}
    assert played.patch({"rules": OTHER}).status_code == 200
    after = {h["number"]: h for h in played.get()["hands"]}
    changed = [n for n in before if before[n]["players"] != after[n]["players"]]
    assert changed  # the new rules change some hands
    for number, old in before.items():
        kept = played.client.get(f"{played.url}/hands/{number}").get_json()
        if number in changed:
            assert kept["version"] == old["version"] + 1
            (edit,) = kept["history"]
            assert edit["action"] == "edit"
            assert edit["version"] == old["version"]
            assert edit["nets"] == {p["name"]: p["net"] for p in old["players"]}
            assert edit["hand"] == old["hand"]
        else:
            assert kept["version"] == old["version"]
            assert kept["history"] == []


def test_changing_back_undoes_it_exactly(played):
    before = played.get()
    assert played.patch({"rules": OTHER}).status_code == 200
    assert played.get()["players"] != before["players"]
    assert played.patch({"rules": OWN_RULES}).status_code == 200
    back = played.get()
    assert without_stamps(back) == without_stamps(before)
    for hand in back["hands"]:
        history = played.client.get(f"{played.url}/hands/{hand['number']}").get_json()["history"]
        assert len(history) in (0, 2)  # each earlier version kept


def test_rules_that_refuse_a_hand_change_nothing_and_name_the_hands(played):
    before = played.get()
    response = played.patch({"rules": "gamerules", "name": "Renamed"})
    assert response.status_code == 422
    errors = response.get_json()["errors"]
    assert {e["field"] for e in errors} == {"rules"}
    messages = " ".join(e["message"] for e in errors)
    assert "Hand 3 cannot be scored under these rules: Dipa: These house rules do not allow " in (
        messages
    )
    assert "Hand 4 cannot be scored" in messages  # a foul, and gamerules penalise none
    assert played.get() == before  # not even the name


@pytest.mark.parametrize(
    ("rules", "field"),
    [("nope", "rules"), ({"profile": "sparkai", "fee_seen": "x"}, "rules.fee_seen")],
)
def test_rules_that_are_no_rules_are_refused_on_their_field(played, rules, field):
    before = played.get()
    response = played.patch({"rules": rules})
    assert response.status_code == 422
    assert field in [e["field"] for e in response.get_json()["errors"]]
    assert played.get() == before


def test_changing_the_rules_needs_the_edit_key(played):
    assert played.patch({"rules": OTHER}, key=None).status_code == 401
    assert played.patch({"rules": OTHER}, key="wrong").status_code == 403
    assert played.get()["rules"]["profile"] == "sparkai"


def test_the_kept_json_follows(played):
    first = played.client.get(played.url)
    assert played.patch({"rules": OTHER}).status_code == 200
    again = played.client.get(played.url, headers={"If-None-Match": first.headers["ETag"]})
    assert again.status_code == 200  # a new version, not the kept one
    assert again.get_json()["rules"]["profile"] == "everestbuzz"


def test_a_new_hand_after_the_change_is_settled_under_the_new_rules(played):
    assert played.patch({"rules": OTHER}).status_code == 200
    response = played.post_hand(HANDS[1])
    assert response.status_code == 201
    rescored = played.client.post(f"{played.url}/rescore", json={"rules": OTHER}).get_json()
    for hand in rescored["hands"]:
        assert [p["net"] for p in hand["players"]] == [p["net_as_played"] for p in hand["players"]]
