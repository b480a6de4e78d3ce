"""The match API's answers are declared once (``ledger.matches.answers``): a key added to
a throwaway copy of one of them (nothing else edited) is in the document, with its text
and bounds, required or not as declared; and answers the app builds keep to the
components made from them, a renamed player's hand history included."""

from __future__ import annotations

from typing import Annotated, NotRequired

import jsonschema
import pytest
from msgspec import Meta
from tables_support import create_table
from test_table_answers import conforms

from ledger.api import openapi
from ledger.api.openapi_tables import table_schemas
from ledger.matches import answers

HAND = {
    "finish": "sequences",
    "winner": "Asha",
    "players": [
        {"name": "Asha", "seen": "sequences", "maal": 3},
        {"name": "Bikash", "seen": "unseen", "maal": 0},
        {"name": "Chandra", "seen": "sequences", "maal": 2},
    ],
}


class Deleted(answers.Deleted):
    """A hand deleted, and who may put it back."""

    restorable_until: answers.Time
    undo_count: NotRequired[Annotated[int, Meta(ge=0, le=3, description="Undos left.")]]


@pytest.fixture
def fresh_schemas():
    """The document's schemas made again for this test, and again after it (they are
    built once)."""
    openapi.components.cache_clear()
    yield lambda: openapi.components()["schemas"]
    openapi.components.cache_clear()
    openapi.document.cache_clear()


@pytest.fixture
def with_a_key_added(monkeypatch, fresh_schemas):
    """The throwaway ``Deleted`` in place of the real one among the answers."""
    swapped = tuple(Deleted if kind is answers.Deleted else kind for kind in answers.ANSWERS)
    assert swapped != answers.ANSWERS
    monkeypatch.setattr(answers, "ANSWERS", swapped)
    return fresh_schemas()["Deleted"]


def test_a_key_declared_on_an_answer_is_in_the_document(with_a_key_added):
    deleted = with_a_key_added
    assert deleted["description"] == "A hand deleted, and who may put it back."
    assert deleted["properties"]["restorable_until"] == {
        "anyOf": [{"type": "string", "format": "date-time"}, {"type": "null"}]
    }
    assert deleted["properties"]["undo_count"] == {
        "type": "integer",
        "minimum": 0,
        "maximum": 3,
        "description": "Undos left.",
    }
    assert set(deleted["required"]) == {"deleted", "totals", "match", "restorable_until"}


def test_without_it_the_document_has_no_such_key(fresh_schemas):
    deleted = fresh_schemas()["Deleted"]
    assert set(deleted["properties"]) == {"deleted", "totals", "match"}


def test_every_class_an_answer_uses_is_a_component_of_its_own_name(fresh_schemas):
    """A nested shape is named after its parent: no name falls back to a module path,
    and none takes the place of a component written by hand."""
    schemas = fresh_schemas()
    made = openapi.declared(*answers.ANSWERS)
    assert all("." not in name for name in made)
    assert {"HandReadPlayer", "SettleUpBalance", "RescoreHandPlayer", "ErrorsEntry"} <= set(made)
    assert not set(made) & {*openapi.schemas(), *table_schemas()}
    assert all(schemas[name] == made[name] for name in made)


def valid(component: str, body: dict) -> list[str]:
    schema = {"components": openapi.components(), "$ref": f"#/components/schemas/{component}"}
    return [e.message for e in jsonschema.Draft202012Validator(schema).iter_errors(body)]


def test_a_hand_renamed_in_its_table_keeps_to_its_history_entry(client):
    """A player renamed in a table leaves a "rename" version in the history of each hand
    they played: the document said only edit or delete, so GET hand broke it."""
    table = create_table(client, players=["Asha", "Bikash", "Chandra"])
    match = table.new_match(["Asha", "Bikash", "Chandra"])
    table.play(match, [HAND])
    table.patch("/players/Chandra", {"name": "Chandrika"})
    body = client.get(f"/api/v1/matches/{match['id']}/hands/1").get_json()
    assert [entry["action"] for entry in body["history"]] == ["rename"]
    assert valid("HandWithHistory", body) == []


def test_a_tables_match_says_its_table_and_season_as_declared(
    app, client, create_match, fresh_schemas
):
    """A match in a table carries ``table`` and ``season`` (docs/api.md): the document's
    ``Match`` declares them, not required (a lone match has neither), and a table's
    match's answer keeps to ``Match`` closed (no key it does not declare)."""
    declared = fresh_schemas()["Match"]
    assert declared["properties"]["table"]["type"] == "string"
    assert not {"table", "season"} & set(declared["required"])
    table = create_table(client, players=["Asha", "Bikash", "Chandra"])
    made = table.new_match(["Asha", "Bikash", "Chandra"])
    table.play(made, [HAND])
    body = client.get(f"/api/v1/matches/{made['id']}").get_json()
    assert body["table"] == table.id and body["season"] == table.get()["seasons"][0]["id"]
    conforms(app, "Match", body, closing=["Match"])
    assert made["table"] == table.id  # the new match's answer, made by the same code
    conforms(app, "CreatedMatch", made, closing=["CreatedMatch"])
    alone = create_match().get()
    assert not {"table", "season"} & set(alone)
    conforms(app, "Match", alone, closing=["Match"])
