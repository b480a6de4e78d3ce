"""The OpenAPI document and the reader are made from one declaration: a field added to a
throwaway copy of the hand's player body (nothing else edited) appears in the document's
PlayerInput and is read, its failure on its dotted path with its own sentence."""

from __future__ import annotations

import dataclasses

import pytest

from ledger.api import openapi
from ledger.engine import PROFILES, Invalid, hand_body, parse_hand
from ledger.engine.declare import Body, Choice, Field, Reading, Whole
from ledger.engine.hand_body import HandReading

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
