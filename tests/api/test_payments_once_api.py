"""A payment is recorded once (docs/api.md, "Money across nights"): Idempotency-Key
replays and refusals on recording and taking back, keys per table and kept as long as
the payment, four requests with one key at the same instant, and a database lost just
after the commit, which must not turn a recorded payment into an error."""

import json
import urllib.error
import urllib.request

import pytest
from api_support import bearer
from at_once import at_once
from lost_database import lost_after_commit
from people_support import give_link
from row_counts import rows
from tables_support import create_table

from ledger.tables.models import TablePayment

STAKE = {"per_point": "1.00", "currency": "NPR"}
PAID = {"from": "Dipa", "to": "Asha", "amount": "150.00"}


def keyed(key: str) -> dict[str, str]:
    return {"Idempotency-Key": key}


@pytest.fixture
def table(client):
    return create_table(client, stake=STAKE)


def pay(table, body=PAID, key: str | None = "own", **headers):
    auth = table.auth if key == "own" else bearer(key) if key else {}
    return table.client.post(f"{table.url}/payments", json=body, headers={**auth, **headers})


def take_back(table, payment_id: int, **headers):
    return table.client.delete(
        f"{table.url}/payments/{payment_id}", headers={**table.auth, **headers}
    )


def test_the_same_payment_again_gets_the_first_answer_and_records_nothing(app, table):
    first = pay(table, **keyed("paid-at-the-door"))
    assert first.status_code == 201
    assert "Idempotent-Replayed" not in first.headers
    again = pay(table, dict(reversed(list(PAID.items()))), **keyed("paid-at-the-door"))
    assert again.status_code == 201
    assert again.headers["Idempotent-Replayed"] == "true"
    assert again.get_json() == first.get_json()
    assert rows(app, TablePayment) == 1
    assert table.get("/payments")["payments"] == [first.get_json()]


def test_the_same_key_with_another_body_is_422_and_records_nothing(app, table):
    assert pay(table, **keyed("k")).status_code == 201
    other = pay(table, {**PAID, "amount": "15.00"}, **keyed("k"))
    assert other.status_code == 422
    (error,) = other.get_json()["errors"]
    assert error["field"] == "Idempotency-Key"
    assert "already used" in error["message"]
    assert "Idempotent-Replayed" not in other.headers
    assert rows(app, TablePayment) == 1


def test_without_a_key_each_request_records_one(app, table):
    assert pay(table).status_code == 201
    assert pay(table).status_code == 201
    assert rows(app, TablePayment) == 2


def test_keys_belong_to_their_table(client, app, table):
    other = create_table(client, name="Other", stake=STAKE)
    assert pay(table, **keyed("shared")).status_code == 201
    there = pay(other, **keyed("shared"))
    assert there.status_code == 201
    assert "Idempotent-Replayed" not in there.headers
    assert rows(app, TablePayment) == 2


def test_keys_belong_to_their_caller_as_well(app, table):
    """The table key and a player's own key that happen to send the same key are two
    requests: before, Dipa's own "I paid" sent with the key the scorekeeper had used got
    the scorekeeper's answer replayed (nothing recorded), and Asha's with another body
    was refused as a reused key. Each caller's replays stay theirs."""
    dipa, asha = give_link(table, "Dipa"), give_link(table, "Asha")
    by_table = pay(table, **keyed("k"))
    assert by_table.status_code == 201
    by_dipa = pay(table, key=dipa, **keyed("k"))
    assert by_dipa.status_code == 201, by_dipa.get_json()
    assert "Idempotent-Replayed" not in by_dipa.headers
    assert by_dipa.get_json()["state"] == "pending"
    assert by_dipa.get_json()["id"] != by_table.get_json()["id"]
    to_dipa = {"from": "Asha", "to": "Dipa", "amount": "20.00"}
    assert pay(table, to_dipa, key=asha, **keyed("k")).status_code == 201
    assert rows(app, TablePayment) == 3
    for key, first in (("own", by_table), (dipa, by_dipa)):
        again = pay(table, key=key, **keyed("k"))
        assert again.headers["Idempotent-Replayed"] == "true"
        assert again.get_json() == first.get_json()
    # Taking back: the table key's "t" and Dipa's "t" take back a payment each.
    gone = table.client.delete(
        f"{table.url}/payments/{by_dipa.get_json()['id']}", headers={**bearer(dipa), **keyed("t")}
    )
    assert gone.status_code == 204
    assert take_back(table, by_table.get_json()["id"], **keyed("t")).status_code == 204
    assert rows(app, TablePayment) == 1


@pytest.mark.parametrize("key", ["", "x" * 201, "naïve", "tab\there"])
def test_a_key_that_is_not_1_to_200_printable_ascii_is_refused(app, table, key):
    answer = pay(table, **keyed(key.encode("utf-8").decode("latin-1")))
    assert answer.status_code == 422
    assert [e["field"] for e in answer.get_json()["errors"]] == ["Idempotency-Key"]
    assert rows(app, TablePayment) == 0


def test_a_refused_payment_does_not_use_up_its_key(app, table):
    assert pay(table, {**PAID, "from": "Zed"}, **keyed("k")).status_code == 422
    fixed = pay(table, **keyed("k"))
    assert fixed.status_code == 201
    assert "Idempotent-Replayed" not in fixed.headers


def test_a_replay_needs_the_table_key_first(table):
    pay(table, **keyed("k"))
    assert pay(table, key=None, **keyed("k")).status_code == 401
    assert pay(table, key="not-the-key", **keyed("k")).status_code == 403


def test_taking_back_twice_with_one_key_answers_the_first_answer(app, table):
    payment = pay(table).get_json()
    first = take_back(table, payment["id"], **keyed("undo-1"))
    assert (first.status_code, first.get_data()) == (204, b"")
    again = take_back(table, payment["id"], **keyed("undo-1"))
    assert (again.status_code, again.get_data()) == (204, b"")
    assert again.headers["Idempotent-Replayed"] == "true"
    assert "Idempotent-Replayed" not in first.headers
    assert take_back(table, payment["id"]).status_code == 404  # without the key: gone
    assert rows(app, TablePayment) == 0


def test_one_key_names_one_request_across_recording_and_taking_back(table):
    payment = pay(table, **keyed("k")).get_json()
    refused = take_back(table, payment["id"], **keyed("k"))
    assert refused.status_code == 422
    assert table.get("/payments")["payments"] == [payment]


def test_a_payment_taken_back_takes_its_key_with_it(app, table):
    """The key is kept as long as the payment it recorded."""
    first = pay(table, **keyed("k")).get_json()
    assert take_back(table, first["id"]).status_code == 204
    again = pay(table, **keyed("k"))
    assert again.status_code == 201
    assert "Idempotent-Replayed" not in again.headers
    assert again.get_json()["recorded_at"] != first["recorded_at"]  # recorded anew
    assert rows(app, TablePayment) == 1


def test_a_replay_after_a_rename_names_the_player_as_the_roster_does(table):
    first = pay(table, **keyed("k")).get_json()
    table.patch("/players/Dipa", {"name": "Deepa"})
    again = pay(table, **keyed("k")).get_json()
    assert again == {**first, "from": "Deepa"}
    assert table.get("/payments")["payments"] == [again]


# --- the database lost just after the commit -----------------------------------------


def test_a_payment_committed_before_the_database_went_is_answered_as_recorded(app, table):
    """It used to answer 503 "nothing was changed": the answer was read after the
    commit."""
    with lost_after_commit(app) as lost:
        answer = pay(table, **keyed("k"))
    assert lost["lost"]  # the failure came, after the commit
    assert answer.status_code == 201, answer.get_json()
    assert answer.get_json()["from"] == "Dipa"
    assert table.get("/payments")["payments"] == [answer.get_json()]
    assert pay(table, **keyed("k")).headers["Idempotent-Replayed"] == "true"


# --- at the same instant, against a real server --------------------------------------


def test_four_requests_with_one_key_at_the_same_instant_record_one_payment(live_server):
    made = _post(
        f"{live_server}/api/v1/tables",
        {"name": "Race", "players": ["Asha", "Dipa"], "rules": "sparkai", "stake": STAKE},
        {},
    )
    url = f"{live_server}/api/v1/tables/{made[2]['id']}/payments"
    headers = {**bearer(made[2]["edit_key"]), **keyed("four-phones")}
    results = at_once(*[lambda: _post(url, PAID, headers)] * 4)
    assert [status for status, _, _ in results] == [201] * 4
    replayed = [h.get("Idempotent-Replayed") for _, h, _ in results]
    assert replayed.count("true") == 3
    assert len({json.dumps(body) for _, _, body in results}) == 1
    with urllib.request.urlopen(url) as listed:
        assert len(json.loads(listed.read())["payments"]) == 1


def _post(url: str, body: dict, headers: dict):
    request = urllib.request.Request(
        url,
        data=json.dumps(body).encode(),
        headers={"Content-Type": "application/json", **headers},
        method="POST",
    )
    try:
        with urllib.request.urlopen(request, timeout=30) as answer:
            return answer.status, dict(answer.headers), json.loads(answer.read())
    except urllib.error.HTTPError as refused:
        return refused.code, dict(refused.headers), json.loads(refused.read())
