"""Numbers, money and dates as a page shows them: its digits, a true minus sign, the
table's clock (the setting ``TIMEZONE``) and, in Nepali, the Bikram Sambat calendar."""

from __future__ import annotations

import re
from collections.abc import Callable
from datetime import UTC, date, datetime, tzinfo
from decimal import Decimal
from functools import lru_cache
from numbers import Number
from zoneinfo import ZoneInfo

import tzlocal
from babel import Locale
from babel.dates import format_date, format_time, get_timezone_name
from babel.numbers import (
    format_currency,
    format_decimal,
    get_currency_name,
    get_currency_precision,
    get_currency_symbol,
)
from flask import current_app, has_app_context, has_request_context
from flask_babel import get_locale, ngettext

from ledger.i18n.language import DEFAULT_LANGUAGE, WESTERN_DIGITS, digit_style

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
    if type(value) is int:  # nearly every number a page shows: formatted once
        return _integer(value, sign, digit_style())
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


@lru_cache(maxsize=4096)
def _integer(value: int, sign: bool, style: str) -> str:
    """An integer as ``num`` shows it in digits ``style``: a page shows hundreds of them
    (points, totals, hand numbers, the chart's ticks), mostly the same few."""
    text = MINUS + str(-value) if value < 0 else "+" + str(value) if sign and value else str(value)
    return _in_digits(text, style)


def length_words(unit: str, count: object) -> str:
    """``4 hands``, ``1 rotation``."""
    if not isinstance(count, int):
        return f"{count} {unit}"
    if unit == "hands":
        return str(ngettext("%(count)s hand", "%(count)s hands", count, count=num(count)))
    if unit == "rotations":
        return str(ngettext("%(count)s rotation", "%(count)s rotations", count, count=num(count)))
    return f"{num(count)} {unit}"


def western_digits(text: str) -> str:
    """Typed text with any Devanagari digits written as Western ones (``"०.५०"`` →
    ``"0.50"``), for reading what a Nepali keyboard typed."""
    return text.translate(WESTERN_DIGITS)


def season_name(name: str) -> str:
    """A season's name as shown: one written only in Western digits (the first season is
    "1", as the API names it) is a number, shown in the page's digits; any other name is
    the table's own words and stays as typed (``तिहार 2083`` keeps its 2083)."""
    return num(name) if name.isascii() and name.isdigit() else name


#: A currency written in letters (``NPR``, ``नेरू``) right against the amount: CLDR's
#: currency spacing, which Babel does not apply, puts a space there (``$12`` keeps none).
#: A currency's symbol and name as a table writes them where CLDR's differ, by language:
#: rupees are रु on a Nepali page (CLDR's नेरू is read by no player), and India's रुपैयाँ
#: is spelt as Nepal spells its own (CLDR: रूपिँया).
_SYMBOLS = {("ne", "NPR"): "रु"}
_NAMES = {("ne", "INR"): "भारतीय रुपैयाँ"}


def currency_name(code: str, locale: Locale | None) -> str:
    """A currency's name in ``locale``'s language (the currency lists)."""
    return _NAMES.get((str(locale), code)) or get_currency_name(code, locale=locale)


_LETTERS_THEN_DIGIT = re.compile(r"(?<=[^\W\d_]|[\u0900-\u097f])(?=\d)")


def money(amount: Decimal, currency: str | None, sign: bool = False) -> str:
    """An amount of money as shown: Babel's format for the page's language (the
    currency's symbol and the language's grouping: ``NPR 1,234.50``, ``रु १२,३४.५०``,
    a currency's letters kept apart from the amount by a no-break space), the page's
    digits, a true minus sign, and with ``sign=True`` a ``+`` on positive amounts. Never
    rounded: Babel would round to the currency's usual places (¥12.50 to ¥12); here the
    amount keeps every digit it has, its cents written out in full (``¥1.10``, never
    ``¥1.1``). No currency known (a payment recorded before
    payments kept theirs, in a table without a stake now): the amount alone, never
    Babel's bare ``¤``."""
    locale = get_locale() if has_request_context() else None
    if currency is None:
        text = format_decimal(
            abs(amount), "#,##0.00", locale=locale or DEFAULT_LANGUAGE, decimal_quantization=False
        )
    else:
        text = format_currency(
            abs(amount),
            currency,
            locale=locale or DEFAULT_LANGUAGE,
            currency_digits=_currency_places_hold(amount, currency),
            decimal_quantization=False,
        )
        ours = _SYMBOLS.get((str(locale), currency))
        if ours is not None:
            text = text.replace(get_currency_symbol(currency, locale=locale), ours)
    text = _LETTERS_THEN_DIGIT.sub("\N{NO-BREAK SPACE}", text)
    if amount < 0:
        text = MINUS + text
    elif sign and amount > 0:
        text = "+" + text
    return digits(text)


def _currency_places_hold(amount: Decimal, currency: str) -> bool:
    """Whether the currency's usual places hold the amount (``¥55``, ``NPR 12.50``). An
    amount with cents in a currency of fewer places (a yen stake of 0.55 a point) is
    written with the language's two instead: Babel, keeping its digits, dropped a
    trailing zero down to the currency's places, and a column read ¥6.05 beside ¥1.1."""
    return amount % Decimal(1).scaleb(-get_currency_precision(currency)) == 0


def signed_writer() -> Callable[[int], str]:
    """``signed`` for the many integers of one page (a score table's cells), the page's
    digits looked up once rather than for each."""
    style = digit_style()
    return lambda value: _integer(value, True, style)


def signed(value: object) -> str:
    """Points with their sign: +41, −18, 0 (in the page's digits)."""
    if isinstance(value, int) and not isinstance(value, bool):
        return num(value, sign=True)
    return str(value)


#: Zones that are UTC by another name: named "UTC" (CLDR has no name for them).
UTC_NAMES = frozenset(
    {
        "UTC",
        "Etc/UTC",
        "Etc/UCT",
        "UCT",
        "Etc/GMT",
        "GMT",
        "Etc/Universal",
        "Universal",
        "Etc/Zulu",
        "Zulu",
        "Etc/Greenwich",
        "Greenwich",
    }
)


def time_zone() -> tzinfo:
    """The zone the ledger's times are shown in: the setting ``TIMEZONE``
    (``LEDGER_TIMEZONE``, checked by ``ledger.settings``), else the server's own."""
    name = current_app.config.get("TIMEZONE") if has_app_context() else None
    return ZoneInfo(name) if name else tzlocal.get_localzone()


def local(moment: datetime) -> datetime:
    """A stored moment (UTC; a naive one is UTC) on the table's clock."""
    aware = moment if moment.tzinfo is not None else moment.replace(tzinfo=UTC)
    return aware.astimezone(time_zone())


def today() -> date:
    """Today's date on the table's clock."""
    return datetime.now(time_zone()).date()


def _locale() -> Locale | str:
    return (get_locale() if has_request_context() else None) or DEFAULT_LANGUAGE


def _day(moment: object) -> date:
    if isinstance(moment, str):  # an ISO 8601 moment, as the views keep them
        moment = datetime.fromisoformat(moment)
    if isinstance(moment, datetime):
        return local(moment).date()
    if isinstance(moment, date):
        return moment
    raise TypeError(f"not a date: {moment!r}")


#: The months as wall calendars and players name them. nepali-datetime's own names mix
#: two registers (जेष्ठ and असार, श्रावण and भदौ, ...); these are one.
BS_MONTHS = (
    "वैशाख",
    "जेठ",
    "असार",
    "साउन",
    "भदौ",
    "असोज",
    "कात्तिक",
    "मंसिर",
    "पुस",
    "माघ",
    "फागुन",
    "चैत",
)


def bikram_sambat(day: date) -> str | None:
    """``day`` in the Bikram Sambat calendar (by nepali-datetime) with its Nepali month:
    ``१ वैशाख २०८३``, in the page's digits; None outside the years the library knows."""
    return _bikram_sambat(day, digit_style())


def _bikram_sambat(day: date, style: str) -> str | None:
    import nepali_datetime  # at the first Nepali date, not at start: its import reads a CSV

    try:
        bs = nepali_datetime.date.from_datetime_date(day)
    except (ValueError, OverflowError):
        return None
    return _in_digits(f"{bs.day} {BS_MONTHS[bs.month - 1]} {bs.year}", style)


#: How many Bikram Sambat months after today's ``copy_calendar`` holds: a copy a page's
#: script dates is kept when the page is fetched, later than it was rendered (a match
#: page's parts are rendered once per version) but seldom a year later.
COPY_MONTHS_AHEAD = 12


def copy_calendar() -> list[tuple[str, int, str]]:
    """The months a page's script writes a date in: the time the phone kept its copy of
    the page (static/js/connection.js), where the browser's own Nepali is not to be
    trusted (Debian's Chromium has no Nepali month names and writes them in English). In
    Nepali, the Bikram Sambat months from the one before today's (the phone's clock may
    be a day behind the table's) to ``COPY_MONTHS_AHEAD`` after it, each as its first
    day (ISO), its year and its name (``BS_MONTHS``), and the first day of the month
    after them, which ends the last; empty in English, which the browser writes."""
    if str(_locale()).split("_")[0] != "ne":
        return []
    return _copy_calendar(today())


@lru_cache(maxsize=4)
def _copy_calendar(day: date) -> list[tuple[str, int, str]]:
    import nepali_datetime

    try:
        bs = nepali_datetime.date.from_datetime_date(day)
    except (ValueError, OverflowError):
        return []
    year, month = (bs.year, bs.month - 1) if bs.month > 1 else (bs.year - 1, 12)
    months = []
    for _ in range(COPY_MONTHS_AHEAD + 3):
        try:
            first = nepali_datetime.date(year, month, 1).to_datetime_date()
        except (ValueError, OverflowError):  # past the years the library knows
            break
        months.append((first.isoformat(), year, BS_MONTHS[month - 1]))
        year, month = (year, month + 1) if month < 12 else (year + 1, 1)
    return months


def _in_digits(text: str, style: str) -> str:
    return text.translate(_DEVANAGARI) if style == "deva" else text


def format_day(moment: object, both: bool = False) -> str:
    """A date for people, in the page's language and digits, on the table's clock:
    ``29 Nov 2026``; in Nepali by Bikram Sambat, ``१३ मंसिर २०८३``, and with ``both``
    (a printed page) the Gregorian date beside it: ``१३ मंसिर २०८३ (२९ नोभेम्बर २०२६)``.
    A moment, a date or its ISO text; None (a time an import left out) shows as nothing."""
    if moment is None:
        return ""
    return _day_text(_day(moment), str(_locale()), digit_style(), both)


@lru_cache(maxsize=1024)
def _day_text(day: date, locale: str, style: str, both: bool) -> str:
    """``format_day``'s text, made once per day, language and digits: a table's page shows
    the same few dates again and again, and Babel takes a fraction of a millisecond each."""
    gregorian = _in_digits(format_date(day, "d MMM y", locale=locale), style)
    if locale.split("_")[0] != "ne":
        return gregorian
    bs = _bikram_sambat(day, style)
    if bs is None:
        return gregorian
    return f"{bs} ({gregorian})" if both else bs


def zone_name(moment: datetime | None = None) -> str:
    """The table's zone as people name it, in the page's language: ``Nepal Time``,
    ``नेपाल समय``, ``British Summer Time`` (at ``moment``: summer or winter), ``UTC``."""
    zone = time_zone()
    if getattr(zone, "key", None) in UTC_NAMES or (zone is UTC):
        return "UTC"
    at = local(moment) if moment is not None else datetime.now(zone)
    return get_timezone_name(at, locale=_locale())


def format_moment(moment: object) -> str:
    """A moment for people: its date (as ``format_day``), its time on the table's clock and
    the zone named: ``1 Dec 2026, 19:12 (British Time)``, ``१६ मंसिर २०८३, ००:५७ (नेपाल समय)``."""
    if isinstance(moment, str):
        moment = datetime.fromisoformat(moment)
    if not isinstance(moment, datetime):
        raise TypeError(f"not a moment: {moment!r}")
    at = local(moment)
    clock = digits(format_time(at, "HH:mm", tzinfo=at.tzinfo, locale=_locale()))
    return f"{format_day(at)}, {clock} ({zone_name(at)})"
