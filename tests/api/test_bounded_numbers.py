"""Whole numbers past what the database holds are refused on their field (issue 25 §2):
``read_whole_number`` bounds every one before it reaches a query or ``int()``."""

from __future__ import annotations

import pytest
from api_support import hand
from row_counts import rows

from ledger.engine import FieldError
from ledger.matches.models import INTEGER_MAX, Hand
from ledger.matches.reading import read_whole_number

#: Past PostgreSQL's integer, past SQLite's, and more digits than int() reads.
PAST_THE_DATABASE = [INTEGER_MAX + 1, 2**63, 2**64, int("9" * 400)]


@pytest.mark.parametrize("number", PAST_THE_DATABASE)
def test_a_hand_number_past_the_database_is_a_422_on_number(app, create_match, number):
    m = create_match()
    response = m.post_hand({**hand(), "number": number})
    assert response.status_code == 422, response.get_data(as_text=True)
    assert response.get_json()["errors"] == [
        {
            "field": "number",
            "message": "number must be the number of the hand you are adding, a whole number "
            f"from 1 to {INTEGER_MAX}.",
        }
    ]
    assert rows(app, Hand) == 0
    assert m.post_hand({**hand(), "number": 1}).status_code == 201


@pytest.mark.parametrize("version", PAST_THE_DATABASE)
def test_a_version_past_the_database_is_a_422_on_version(app, create_match, version):
    m = create_match()
    assert m.post_hand(hand()).status_code == 201
    response = m.put_hand(1, {**hand(winner="Bikash"), "version": version})
    assert response.status_code == 422
    assert [e["field"] for e in response.get_json()["errors"]] == ["version"]


def test_the_openapi_document_gives_the_bounds(client):
    schema = client.get("/api/v1/openapi.json").get_json()["components"]["schemas"]
    hand_input = schema["HandInput"]["properties"]
    assert hand_input["number"]["maximum"] == INTEGER_MAX
    assert hand_input["version"]["maximum"] == INTEGER_MAX


@pytest.mark.parametrize(
    "value", ["²", "-1", "1e3", " 7", "9" * 5000, str(INTEGER_MAX + 1), True, 1.0, None]
)
def test_the_reader_refuses_what_is_no_whole_number_in_range(value):
    with pytest.raises(FieldError) as refused:
        read_whole_number(value, "count", least=1, text=True)
    assert refused.value.field == "count"
    assert refused.value.message == f"count must be a whole number from 1 to {INTEGER_MAX}."


def test_the_reader_reads_digits_and_integers():
    assert read_whole_number("0" * 5000 + "12", "n", text=True) == 12
    assert read_whole_number("१२", "n", text=True) == 12
    assert read_whole_number(INTEGER_MAX, "n") == INTEGER_MAX
    with pytest.raises(FieldError):
        read_whole_number("12", "n")  # JSON: a number, never its text
    with pytest.raises(FieldError):
        read_whole_number(11, "n", most=10)
