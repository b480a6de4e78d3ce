"""Whole numbers that a form posts as text (a row, a version, a length), read without
ever raising: a form field can hold anything, and ``int()`` fails on ``²`` (a digit
that is no decimal digit) and on more than 4300 digits."""

from __future__ import annotations

from ledger.engine import FieldError
from ledger.matches.reading import read_whole_number

#: More digits than any number a form of the ledger asks for.
MAX_DIGITS = 9


def read_whole(text: object) -> int | None:
    """The number ``text`` writes in decimal digits (Devanagari ones too), or None.

    >>> read_whole("12"), read_whole("१२"), read_whole("²"), read_whole("-1"), read_whole("9" * 10)
    (12, 12, None, None, None)
    """
    try:
        return read_whole_number(text, "", most=10**MAX_DIGITS - 1, text=True)
    except FieldError:
        return None
