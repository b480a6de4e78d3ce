"""Numbers and dates as a page shows them: its digits, a true minus sign."""

from __future__ import annotations

from numbers import Number

from babel.dates import format_date
from flask import has_request_context
from flask_babel import get_locale

from ledger.i18n.language import DEFAULT_LANGUAGE, digit_style

MINUS = "\N{MINUS SIGN}"
_DEVANAGARI = str.maketrans("0123456789", "०१२३४५६७८९")


def digits(text: object) -> str:
    """``text`` with its Western digits written in the page's digits."""
    text = str(text)
    return text.translate(_DEVANAGARI) if digit_style() == "deva" else text


def num(value: object, sign: bool = False) -> str:
    """A number as shown: the page's digits, a true minus sign (−), and with
    ``sign=True`` a ``+`` on positive numbers. Text is passed through ``digits``
    (so ``"3 / 8"`` works); None shows as nothing.

    Only for display: the engine's numbers, attributes and form values stay as they are.
    """
    if value is None or value == "":
        return ""
    if isinstance(value, bool):
        return str(value)
    if isinstance(value, Number):
        if value < 0:  # type: ignore[operator]
            text = MINUS + str(-value)  # type: ignore[operator]
        elif sign and value > 0:  # type: ignore[operator]
            text = "+" + str(value)
        else:
            text = str(value)
        return digits(text)
    text = str(value)
    if text.startswith("-") and text[1:2].isdigit():
        text = MINUS + text[1:]
    return digits(text)


def signed(value: object) -> str:
    """Points with their sign: +41, −18, 0 (in the page's digits)."""
    if isinstance(value, int) and not isinstance(value, bool):
        return num(value, sign=True)
    return str(value)


def format_day(moment: object) -> str:
    """A date for people, in the page's language and digits: ``29 Nov 2026``,
    ``२९ नोभेम्बर २०२६``."""
    locale = get_locale() if has_request_context() else None
    return digits(format_date(moment, "d MMM y", locale=locale or DEFAULT_LANGUAGE))
