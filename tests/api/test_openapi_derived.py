"""The OpenAPI document and the reader are made from one declaration: a field added to a
throwaway copy of the hand's player body (nothing else edited) appears in the document's
PlayerInput and is read, its failure on its dotted path with its own sentence; so does
one added to an export's history entry, and a house-rules setting's kind."""

from __future__ import annotations

import dataclasses

import pytest

from ledger.api import openapi
from ledger.engine import PROFILES, Invalid, hand_body, parse_hand, resolve_rules, rules
from ledger.engine.declare import Body, Choice, Field, Reading, Whole
from ledger.engine.hand_body import HandReading
from ledger.matches import export

SEATED = Field("seat", Whole(1, 8, message="Enter a seat from 1 to {most}."), help="The seat.")
HAND = {
    "finish": "sequences",
    "winner": "Asha",
    "players": [
        {"name": "Asha", "seen": "sequences", "maal": 3, "seat": 1},
        {"name": "Bikash", "seen": "unseen", "maal": 0, "seat": 9},
    ],
}


@pytest.fixture
def seated(monkeypatch):
    """PLAYER with one more field, in place of the real one, for this test only."""
    player = dataclasses.replace(hand_body.PLAYER, fields=(*hand_body.PLAYER.fields, SEATED))
    monkeypatch.setattr(hand_body, "PLAYER", player)
    return player


def test_a_declared_field_is_in_the_document(seated):
    player_input = openapi.schemas()["PlayerInput"]
    assert player_input["properties"]["seat"] == {
        "type": "integer",
        "minimum": 1,
        "maximum": 8,
        "description": "The seat.",
    }
    assert [f.key for f in seated.fields] == list(player_input["properties"])


def test_without_it_the_document_has_no_such_field():
    assert "seat" not in openapi.schemas()["PlayerInput"]["properties"]


def test_a_declared_field_is_read_with_its_path_and_sentence(seated):
    with pytest.raises(Invalid) as refused:
        parse_hand(HAND, PROFILES["amarnepal"])
    assert [e.to_json() for e in refused.value.errors] == [
        {"field": "players.1.seat", "message": "Enter a seat from 1 to 8."}
    ]
    reading = HandReading(PROFILES["amarnepal"])
    assert seated.read(HAND["players"][0], "players.0", reading)["seat"] == 1


def test_a_throwaway_body_gives_its_reader_and_schema():
    body = Body(
        (
            Field("side", Choice(("left", "right"), "side must be left or right."), required=True),
            SEATED,
        ),
        "The body must be an object.",
    )
    reading = Reading(PROFILES["amarnepal"])
    assert body.read({"side": "up", "seat": 0}, "", reading) == {"side": None, "seat": None}
    assert [(e.field, e.message) for e in reading.errors] == [
        ("side", "side must be left or right."),
        ("seat", "Enter a seat from 1 to 8."),
    ]
    assert body.schema() == {
        "type": "object",
        "properties": {
            "side": {"enum": ["left", "right"]},
            "seat": {"type": "integer", "minimum": 1, "maximum": 8, "description": "The seat."},
        },
        "required": ["side"],
    }


def test_a_field_declared_for_an_exports_history_is_in_the_document_and_read(monkeypatch):
    """The import document too: a field added to a throwaway copy of a history entry's
    declaration is in the document's Export and refused on its path when it is wrong."""
    entry, times = export.ENTRIES["history"]
    monkeypatch.setitem(
        export.ENTRIES,
        "history",
        (dataclasses.replace(entry, fields=(*entry.fields, SEATED)), times),
    )
    history = openapi.schemas()["Export"]["properties"]["history"]["items"]
    assert history["properties"]["seat"]["maximum"] == 8
    hand = {"dealer": "Asha", **openapi.HAND_EXAMPLE}
    document = {
        "name": "Tihar",
        "players": ["Asha", "Bikash", "Chandra"],
        "rules": "sparkai",
        "hands": [{"number": 1, "version": 2, **hand}],
        "history": [{"hand": 1, "version": 1, **hand, "seat": 1}],
    }
    assert len(export.read_export(document).history) == 1
    document["history"][0]["seat"] = 9
    with pytest.raises(Invalid) as refused:
        export.read_export(document)
    assert [e.to_json() for e in refused.value.errors] == [
        {"field": "history.0.seat", "message": "Enter a seat from 1 to 8."}
    ]


def test_a_house_rules_setting_is_read_and_described_by_its_one_kind(monkeypatch):
    """A setting's kind (``SETTING_KINDS``) gives both its reading and its schema: one
    narrowed in one place is narrowed in the document and in ``resolve_rules``."""
    monkeypatch.setitem(rules.SETTING_KINDS, "foul", rules.OneOf(("off", "same_hand")))
    spec = openapi.schemas()["RulesSpec"]["anyOf"][1]["properties"]["foul"]
    assert spec["enum"] == ["off", "same_hand"]
    assert openapi.schemas()["ResolvedRules"]["properties"]["foul"]["enum"] == ["off", "same_hand"]
    with pytest.raises(Invalid) as refused:
        resolve_rules({"profile": "amarnepal", "foul": "next_hand"})
    assert [e.to_json() for e in refused.value.errors] == [
        {"field": "rules.foul", "message": "foul must be one of off, same_hand; got 'next_hand'."}
    ]
