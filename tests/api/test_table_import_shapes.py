"""A table's import told an item that is no object by checking its type: a list or a
string where a match or a payment should be is a 422 naming its place in the document,
and a bug inside the import (an AttributeError of ours) is not mistaken for bad input."""

from __future__ import annotations

import pytest
from tables_support import create_table

import ledger.matches


@pytest.fixture
def exported(client):
    table = create_table(
        client,
        players=["Asha", "Bikash", "Chandra"],
        stake={"per_point": "2.00", "currency": "NPR"},
    )
    table.new_match(["Asha", "Bikash", "Chandra"])
    return client.get(f"{table.url}/export.json").get_json()


@pytest.mark.parametrize("not_an_object", [["Asha", "Bikash"], "a match", 7, None])
def test_a_match_or_payment_that_is_no_object_is_a_422_at_its_path(client, exported, not_an_object):
    (match,) = exported["matches"]
    payment = {"from": "Bikash", "to": "Asha", "amount": "1.00", "season": 0}
    document = {
        **exported,
        "matches": [match, not_an_object],
        "payments": [not_an_object, payment],
    }
    response = client.post("/api/v1/tables/import", json=document)
    assert response.status_code == 422, response.get_json()
    errors = {e["field"]: e["message"] for e in response.get_json()["errors"]}
    assert errors == {
        "matches.1": "Each match must be an object.",
        "payments.0": "Each payment must be an object.",
    }


def test_an_attribute_error_inside_the_import_is_no_422(client, exported, monkeypatch):
    def broken(doc):
        raise AttributeError("a programming error, not the document's")

    monkeypatch.setattr(ledger.matches, "prepare_import", broken)
    with pytest.raises(AttributeError, match="a programming error"):
        client.post("/api/v1/tables/import", json=exported)
