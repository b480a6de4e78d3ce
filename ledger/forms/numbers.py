"""Whole numbers that a form posts as text (a row, a version, a length, a maal), read
without ever raising: a form field can hold anything, and ``int()`` fails on ``²`` (a
digit that is no decimal digit) and on more than 4300 digits.

Every box a person types a whole number into is a ``WholeNumberInput``: a text box with
the phone's number keyboard, never ``<input type=number>``, which empties itself without
a word when Devanagari digits (१२) are typed. The server reads the text with
``read_whole``; what is not a number is an error on its field. A box of other numbers (a
table of totals, a stake, an amount) is a ``NumbersInput``: both write what they hold in
the page's digits."""

from __future__ import annotations

import re
from typing import Any

from wtforms import Field
from wtforms.widgets import TextInput

from ledger.engine import FieldError
from ledger.i18n import digits
from ledger.matches.reading import read_whole_number

#: More digits than any number a form of the ledger asks for.
MAX_DIGITS = 9


def read_whole(text: object, signed: bool = False) -> int | None:
    """The number ``text`` writes in decimal digits (Devanagari ones too), or None.
    ``signed``: a leading minus is read too, so that the engine, which knows the
    setting's range, is the one to say what is allowed.

    >>> read_whole("12"), read_whole("१२"), read_whole("²"), read_whole("-1"), read_whole("9" * 10)
    (12, 12, None, None, None)
    >>> read_whole("1_0"), read_whole("१०"), read_whole(""), read_whole("−३", signed=True)
    (None, 10, None, -3)
    """
    if signed and isinstance(text, str) and text[:1] in ("-", "\N{MINUS SIGN}"):
        value = read_whole(text[1:])
        return None if value is None else -value
    try:
        return read_whole_number(text, "", most=10**MAX_DIGITS - 1, text=True)
    except FieldError:
        return None


#: A number as typed: ``12``, ``0.50``.
_NUMBER = r"[0-9]+(?:\.[0-9]+)?"


class NumbersInput(TextInput):
    """A text box for numbers typed as text (a table of totals such as ``2 / 5 / 10``, a
    stake, an amount): what it holds, when that is such numbers, and its placeholder are
    written in the page's digits, as every other number of the page is (a stored
    ``2 / 5 / 10`` reads ``२ / ५ / १०`` on a Devanagari page); the readers take both
    digits. What is no number stays as typed, beside its error."""

    #: What the box shows in the page's digits: numbers apart by ``/`` or ``,``.
    numbers = re.compile(rf"{_NUMBER}(?: *[/,] *{_NUMBER})*")

    def __call__(self, field: Field, **kwargs: Any) -> Any:
        if kwargs.get("placeholder") is not None:  # "0" reads "०" on a Nepali page
            kwargs["placeholder"] = digits(kwargs["placeholder"])
        if "value" not in kwargs:
            value = field._value()
            kwargs["value"] = digits(value) if self.numbers.fullmatch(value) else value
        return super().__call__(field, **kwargs)


class WholeNumberInput(NumbersInput):
    """A text box for a whole number: the numeric keyboard, and the bounds the steppers
    of static/js/hand-form.js keep to as ``data-min`` / ``data-max`` (the server checks
    them again); only a whole number is written in the page's digits (``2.5`` is none)."""

    numbers = re.compile("[0-9]+")

    def __init__(self, min: int | None = None, max: int | None = None) -> None:
        super().__init__()
        self.min = min
        self.max = max

    def __call__(self, field: Field, **kwargs: Any) -> Any:
        kwargs.setdefault("inputmode", "numeric")
        kwargs.setdefault("autocomplete", "off")
        if self.min is not None:
            kwargs.setdefault("data_min", self.min)
        if self.max is not None:
            kwargs.setdefault("data_max", self.max)
        return super().__call__(field, **kwargs)
