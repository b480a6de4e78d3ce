"""Numbers, money and dates as a page shows them: its digits, a true minus sign."""

from __future__ import annotations

from datetime import date
from decimal import Decimal
from numbers import Number

from babel.dates import format_date
from babel.numbers import format_currency
from flask import has_request_context
from flask_babel import get_locale

from ledger.i18n.language import DEFAULT_LANGUAGE, digit_style

MINUS = "\N{MINUS SIGN}"
_DEVANAGARI = str.maketrans("0123456789", "०१२३४५६७८९")
_WESTERN = str.maketrans("०१२३४५६७८९", "0123456789")


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


def western_digits(text: str) -> str:
    """Typed text with any Devanagari digits written as Western ones (``"०.५०"`` →
    ``"0.50"``), for reading what a Nepali keyboard typed."""
    return text.translate(_WESTERN)


def money(amount: Decimal, currency: str, sign: bool = False) -> str:
    """An amount of money as shown: Babel's format for the page's language (the
    currency's symbol and the language's grouping: ``NPR1,234.50``, ``नेरू १२,३४.५०``),
    the page's digits, a true minus sign, and with ``sign=True`` a ``+`` on positive
    amounts. Never rounded: Babel would round to the currency's usual places (¥12.50 to
    ¥12); here the amount keeps every digit it has."""
    locale = get_locale() if has_request_context() else None
    text = format_currency(
        abs(amount), currency, locale=locale or DEFAULT_LANGUAGE, decimal_quantization=False
    )
    if amount < 0:
        text = MINUS + text
    elif sign and amount > 0:
        text = "+" + text
    return digits(text)


def signed(value: object) -> str:
    """Points with their sign: +41, −18, 0 (in the page's digits)."""
    if isinstance(value, int) and not isinstance(value, bool):
        return num(value, sign=True)
    return str(value)


def format_day(moment: date) -> str:
    """A date for people, in the page's language and digits: ``29 Nov 2026``,
    ``२९ नोभेम्बर २०२६``."""
    locale = get_locale() if has_request_context() else None
    return digits(format_date(moment, "d MMM y", locale=locale or DEFAULT_LANGUAGE))
