"""A table's import told an item that is no object by checking its type: a list or a
string where a match or a payment should be is a 422 naming its place in the document,
and a bug inside the import (an AttributeError of ours) is not mistaken for bad input."""

from __future__ import annotations

import pytest
from tables_support import create_table

import ledger.matches
import ledger.tables.service


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


def test_two_seasons_of_one_name_are_numbered_apart(client, exported):
    """A ledger from before season names were told apart may hold two of one name
    (digits in either script alike): its export, or a season PDF kept as the archive of
    a ledger that is gone, loads, the later season numbered so that the season picker
    tells them apart, a name at the longest cut to make room, and one numbered already
    taking the next free number."""
    longest = "x" * 80
    seasons = [
        {"name": "1", "started_at": None},
        {"name": "Tihar 2083", "started_at": None},
        {"name": "Dashain", "started_at": None},
        {"name": " tihar २०८३ ", "started_at": None},
        {"name": "Tihar 2083 (2)", "started_at": None},
        {"name": longest, "started_at": None},
        {"name": longest.upper(), "started_at": None},
    ]
    response = client.post("/api/v1/tables/import", json={**exported, "seasons": seasons})
    assert response.status_code == 201, response.get_json()
    names = [season["name"] for season in response.get_json()["seasons"]]
    assert names == [
        "1",
        "Tihar 2083",
        "Dashain",
        "tihar २०८३ (2)",
        "Tihar 2083 (3)",
        longest,
        "X" * 76 + " (2)",
    ]


@pytest.mark.parametrize(
    ("given", "loaded"),
    [
        (
            ["Tihar 2083", "Tihar 2083", "Tihar 2083 (2)"],
            ["Tihar 2083", "Tihar 2083 (2)", "Tihar 2083 (3)"],
        ),
        (["Dashain (2)", "Dashain (२)", "Dashain"], ["Dashain (2)", "Dashain (3)", "Dashain"]),
    ],
)
def test_a_season_numbered_already_takes_the_next_free_number(client, exported, given, loaded):
    """A clashing name that ends in a number ("Tihar 2083 (2)", the second season of that
    name numbered before it) takes the next free one, "Tihar 2083 (3)", where it became
    "Tihar 2083 (2) (2)"; digits in either script alike."""
    seasons = [{"name": name, "started_at": None} for name in given]
    response = client.post("/api/v1/tables/import", json={**exported, "seasons": seasons})
    assert response.status_code == 201, response.get_json()
    assert [season["name"] for season in response.get_json()["seasons"]] == loaded


@pytest.mark.parametrize(
    "seasons", ["absent", [], "1", {"name": "1"}, [{"name": "1", "started_at": None}] * 501]
)
def test_seasons_that_are_no_list_of_1_to_500_are_a_422_on_seasons(client, exported, seasons):
    """A table has a season at least: the seasons left out, none, no list or too many are
    refused on ``seasons`` (checked with the matches' and payments' lists)."""
    document = {key: value for key, value in exported.items() if key != "seasons"}
    if seasons != "absent":
        document["seasons"] = seasons
    response = client.post("/api/v1/tables/import", json=document)
    assert response.status_code == 422, response.get_json()
    errors = {e["field"]: e["message"] for e in response.get_json()["errors"]}
    assert errors["seasons"] == "seasons must be a list of the table's seasons, 1 to 500."


def test_a_payment_to_oneself_in_an_older_export_is_taken_back_not_refused(client, exported):
    """An export made before such payments were taken back may carry one from a player
    to themselves (a merge turned "Asha2 paid Asha" into Asha → Asha): the table loads,
    the payment kept as a record that no longer counts (as the upgrade took it back),
    no balance moved by it, out of the next export, which loads again."""
    paid = {"from": "Bikash", "to": "Asha", "amount": "1.00", "season": 0}
    to_self = {"from": "Asha", "to": "asha", "amount": "3.00", "season": 0}
    document = {**exported, "payments": [paid, to_self]}
    response = client.post("/api/v1/tables/import", json=document)
    assert response.status_code == 201, response.get_json()
    url = f"/api/v1/tables/{response.get_json()['id']}"

    counted = client.get(f"{url}/payments").get_json()["payments"]
    assert [(p["from"], p["to"], p["amount"]) for p in counted] == [("Bikash", "Asha", "1.00")]
    kept = client.get(f"{url}/payments", query_string={"deleted": 1}).get_json()["payments"]
    assert [(p["from"], p["to"], p["amount"]) for p in kept] == [
        ("Bikash", "Asha", "1.00"),
        ("Asha", "Asha", "3.00"),
    ]
    again = client.get(f"{url}/export.json").get_json()
    assert [(p["from"], p["to"]) for p in again["payments"]] == [("Bikash", "Asha")]
    assert client.post("/api/v1/tables/import", json=again).status_code == 201


@pytest.mark.parametrize("rules", ["absent", None])
def test_an_export_without_rules_is_refused_by_its_reader_with_its_other_problems(
    client, exported, monkeypatch, rules
):
    """A table's export edited by hand with no ``rules`` (or ``null``) is refused on
    ``rules`` while the document is read, beside its other problems: before, the reading
    took the default profile, settled every match, and ``create_table`` refused it alone
    afterwards, so the file was sent back to be fixed once for each."""
    monkeypatch.setattr(ledger.tables.service, "create_table", _never_reached)
    document = {key: value for key, value in exported.items() if key != "rules"}
    if rules != "absent":
        document["rules"] = rules
    paid = {"from": "Nobody", "to": "Asha", "amount": "1.00", "currency": "NPR", "season": 0}
    document["payments"] = [paid]
    response = client.post("/api/v1/tables/import", json=document)
    assert response.status_code == 422, response.get_json()
    errors = {e["field"]: e["message"] for e in response.get_json()["errors"]}
    assert list(errors) == ["rules", "payments.0.from"]
    assert errors["rules"] == (
        "rules is missing: give a house-rules profile id (one of amarnepal, sparkai, "
        "classic, everestbuzz, gamerules), or an object with a profile and overrides."
    )
    monkeypatch.undo()
    assert client.post("/api/v1/tables/import", json=exported).status_code == 201


def _never_reached(*args, **kwargs):
    raise AssertionError("a document with a problem reached create_table")


def test_a_season_index_out_of_range_is_told_the_indexes_taken(client, exported):
    """A night's or a payment's ``season`` past the document's seasons says which indexes
    there are (it said "season must be a season's index.", leaving the reader to guess)."""
    (match,) = exported["matches"]
    paid = {"from": "Bikash", "to": "Asha", "amount": "1.00", "currency": "NPR", "season": 1}
    document = {**exported, "matches": [{**match, "season": 3}], "payments": [paid]}
    response = client.post("/api/v1/tables/import", json=document)
    assert response.status_code == 422, response.get_json()
    assert response.get_json()["errors"] == [
        {
            "field": "matches.0.season",
            "message": "season must be the index of one of the document's seasons, from 0 "
            "to 0, or null.",
        },
        {
            "field": "payments.0.season",
            "message": "season must be the index of one of the document's seasons, from 0 to 0.",
        },
    ]


@pytest.mark.parametrize("seasons", ["absent", []])
def test_seasons_refused_are_not_refused_again_at_each_index(client, exported, seasons):
    """A document whose seasons are left out (or none) is refused on ``seasons`` alone:
    every match and payment that gave a season's index was refused for it too, one
    error each, burying the one that matters."""
    (match,) = exported["matches"]
    paid = {"from": "Bikash", "to": "Asha", "amount": "1.00", "currency": "NPR", "season": 0}
    document = {key: value for key, value in exported.items() if key != "seasons"}
    if seasons != "absent":
        document["seasons"] = seasons
    document.update(matches=[match, {**match, "name": "Again"}], payments=[paid])
    response = client.post("/api/v1/tables/import", json=document)
    assert response.status_code == 422, response.get_json()
    assert [e["field"] for e in response.get_json()["errors"]] == ["seasons"]


@pytest.mark.parametrize(("version", "said"), [(2, "2"), ("1", '"1"'), (None, "null")])
def test_a_table_s_export_of_another_format_version_is_refused(client, exported, version, said):
    """As a match's import refuses a ``format_version`` it does not read (a newer
    ledger's), a table's does: it took any, and read a newer ledger's table as its own."""
    response = client.post("/api/v1/tables/import", json={**exported, "format_version": version})
    assert response.status_code == 422, response.get_json()
    assert response.get_json()["errors"] == [
        {
            "field": "format_version",
            "message": f"This ledger reads exports of format_version 1; this one has {said}.",
        }
    ]


def test_an_older_payment_is_read_in_the_stake_when_the_table_s_other_fields_are_refused(
    client, exported
):
    """A payment without a currency (an export from before payments kept one) is read in
    the document's stake; with the table's rules (or name) refused, it was refused too,
    as a table's "without a stake", a problem the file does not have."""
    paid = {"from": "Bikash", "to": "Asha", "amount": "1.00", "season": 0}
    document = {key: value for key, value in exported.items() if key != "rules"}
    response = client.post("/api/v1/tables/import", json={**document, "payments": [paid]})
    assert response.status_code == 422, response.get_json()
    assert [e["field"] for e in response.get_json()["errors"]] == ["rules"]
