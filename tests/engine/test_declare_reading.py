"""A body's reader, compiled from its declaration (``declare.compile_reader``), reads an
absent key and a null as each field declares, in declaration order, whatever the keys."""

from __future__ import annotations

from typing import NamedTuple

import pytest

from ledger.engine import PROFILES, hand_body
from ledger.engine.declare import REFUSED, Body, Choice, Field, Flag, Reading, Whole
from ledger.engine.hand_body import HandReading

ODD_KEY = 'it\'s "quoted" \\ too'
FIELDS = (
    Field("needed", Whole(0, 9), required=True, refused=-1),
    Field("nullable", Whole(0, 9), nullable=True, absent="absent"),
    Field("plain", Flag("plain must be true or false."), absent=False),
    Field(ODD_KEY, Whole(0, 9), absent=0),
)


def read(body: Body, value: object) -> tuple[object, list[tuple[str, str]]]:
    reading = Reading()
    out = body.read(value, "top", reading)
    return out, [(e.field, e.message) for e in reading.errors]


@pytest.mark.parametrize("nulls_absent", [True, False])
def test_absent_keys_take_their_absent_value_and_a_required_one_is_read(nulls_absent):
    body = Body(FIELDS, "An object, please.", nulls_absent=nulls_absent)
    out, problems = read(body, {})
    assert out == {"needed": -1, "nullable": "absent", "plain": False, ODD_KEY: 0}
    assert problems == [("top.needed", "Enter a whole number from 0 to 9.")]


def test_a_null_is_left_out_where_nulls_are_absent_and_none_where_nullable():
    body = Body(FIELDS, "An object, please.")
    given = {"needed": 3, "nullable": None, "plain": None, ODD_KEY: None}
    assert read(body, given) == (
        {"needed": 3, "nullable": None, "plain": False, ODD_KEY: 0},
        [],
    )


def test_a_null_is_given_to_the_kind_where_nulls_are_values():
    body = Body(FIELDS, "An object, please.", nulls_absent=False)
    out, problems = read(body, {"needed": None, "nullable": None, "plain": None, ODD_KEY: 5})
    assert out == {"needed": -1, "nullable": None, "plain": None, ODD_KEY: 5}
    assert problems == [
        ("top.needed", "Enter a whole number from 0 to 9."),
        ("top.plain", "plain must be true or false."),
    ]


def test_problems_come_in_declaration_order_and_unknown_keys_last():
    body = Body(FIELDS, "An object, please.", unknown="{given!r} is not one of {fields}.")
    value = {ODD_KEY: 10, "other": 1, "plain": "yes", "needed": 1}
    out, problems = read(body, value)
    assert out["needed"] == 1
    assert problems == [
        ("top.plain", "plain must be true or false."),
        (f"top.{ODD_KEY}", "Enter a whole number from 0 to 9."),
        ("top.other", f"'other' is not one of needed, nullable, plain, {ODD_KEY}."),
    ]


@pytest.mark.parametrize("value", [[], "text", None, 3])
def test_a_value_that_is_no_object_is_one_problem(value):
    assert read(Body(FIELDS, "An object, please."), value) == (
        None,
        [("top", "An object, please.")],
    )


KINDS = {
    "whole": Whole(0, 9),
    "open": Whole(2),
    "choice": Choice(("left", "right"), "side must be left or right."),
    "flag": Flag("flag must be true or false."),
}


@pytest.mark.parametrize(
    "value", [0, 9, 10, -1, 2, True, False, 1.0, "3", "left", "LEFT", [], ["left"], {}]
)
def test_values_taken_without_a_call_are_those_the_kind_reads_as_they_are(value):
    """The compiled reader takes a value a kind accepts (``Kind.accepted``) without
    calling it: it gives what the kind's own reader gives, problems included."""
    body = Body(tuple(Field(key, kind) for key, kind in KINDS.items()), "An object.")
    out, problems = read(body, dict.fromkeys(KINDS, value))
    alone = Reading()
    expected = {}
    for key, kind in KINDS.items():
        got = kind.read(value, "top", key, alone)
        expected[key] = None if got is REFUSED else got
    assert out == expected
    assert problems == [(e.field, e.message) for e in alone.errors]
    assert [type(v) for v in out.values()] == [type(v) for v in expected.values()]


class Seat(NamedTuple):
    needed: int
    plain: bool


def test_a_body_that_makes_a_tuple_gives_it_made_of_its_fields():
    """``Body.make`` gives ``makes`` from the fields of its names; a field it leaves out
    is read and refused all the same, in declaration order."""
    body = Body(FIELDS, "An object, please.", makes=Seat)
    reading = Reading()
    assert body.make({"needed": 4, "plain": True, ODD_KEY: 10}, "top", reading) == (4, True)
    assert [(e.field, e.message) for e in reading.errors] == [
        (f"top.{ODD_KEY}", "Enter a whole number from 0 to 9.")
    ]
    assert body.make({}, "top", Reading()) == (-1, False)
    assert body.make([], "top", Reading()) is None


#: Values for each of the hand's kinds that read a common case inline (``Kind.fast``):
#: the common case, and those it leaves to ``read``.
HAND_KINDS = {
    "name": (
        hand_body.PlayerName(),
        [
            "Asha",
            "asha2",
            "Asha Rai",
            " Asha ",
            "A\u0301sha",
            "\u212bsha",
            "",
            "x" * 41,
            "A\u200bB",
            None,
            3,
        ],
    ),
    "winner": (
        hand_body.Winner("The winner must be a name."),
        ["Asha", "Asha Rai", " Asha\t", "A\u0301sha", "\u212bsha", "Ä", "", None, 3, ["Asha"]],
    ),
    "tiplu": (hand_body.Tiplu(), ["8H", "8h", "10♥", "TH", "JK", "XX", "", None, 5]),
    "maal_cards": (
        hand_body.MaalCards(),
        [["8H", "9H"], ["8h", "10♥"], ["JK"], [], ["ZZ", "8H"], [3], [["8H"]], "8H", None],
    ),
}


@pytest.mark.parametrize("rules", ["amarnepal", "sparkai"])
@pytest.mark.parametrize("key", list(HAND_KINDS))
def test_a_kinds_common_case_read_inline_gives_what_its_reader_gives(key, rules):
    """Where a kind's common case is written into the compiled reader (``Kind.fast``),
    every value reads as the kind's own ``read`` reads it: the value, the problems and
    what the reading keeps (the player's name, the tiplu)."""
    kind, values = HAND_KINDS[key]
    assert kind.fast() is not None
    body = Body((Field(key, kind, required=True, refused="refused"),), "An object.")
    for value in values:
        inline, alone = HandReading(PROFILES[rules]), HandReading(PROFILES[rules])
        out = body.read({key: value}, "players.1", inline)
        got = kind.read(value, "players.1", key, alone)
        assert out == {key: "refused" if got is REFUSED else got}, value
        assert [e.to_json() for e in inline.errors] == [e.to_json() for e in alone.errors]
        assert (inline.name, inline.tiplu) == (alone.name, alone.tiplu), value
