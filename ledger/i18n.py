"""English and Nepali: the language and digits of a page, and translated messages.

- The language (``en`` or ``ne``) is the one the visitor chose (the cookie ``lang``,
  set by ``GET /lang/<code>?next=<path>``), else the best match of the browser's
  ``Accept-Language``, else English. The JSON API (``/api/``) is always English.
- The digits (``deva``: ०१२३, ``latn``: 0123) are the visitor's choice (the cookie
  ``digits``, set by ``GET /digits/<style>?next=<path>``), else Devanagari on Nepali
  pages and Western on English ones. Only what is shown changes: the ``num`` and
  ``signed`` filters write a number in the page's digits; the engine's numbers never
  change, nor do attributes (``data-net``), form values or card ranks (8♥ is read off
  the card, so card codes keep Western ranks).
- Messages: the catalogues are in ``ledger/translations`` (``make translations-update``
  extracts and merges; the setup compiles them). ``tr(template, **values)`` is the one
  way the web layer turns an English template into the page's language: the
  template is looked up in the catalogue, then filled with ``str.format`` (numbers in
  the page's digits, game words such as ``sequences`` in the page's language).
  ``translate(x)`` does the same for an engine ``FieldError`` / ``CardError``, a
  ``Msg`` (a sentence of the service layer) or a plain sentence.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from numbers import Number
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

from flask import Blueprint, Flask, g, has_request_context, redirect, request
from flask_babel import Babel, get_locale, gettext
from flask_babel import lazy_gettext as _l

from ledger.engine.errors import N_

__all__ = ["N_", "Msg", "num", "signed", "tr", "translate"]

LANGUAGES: dict[str, str] = {"en": "English", "ne": "नेपाली"}
DEFAULT_LANGUAGE = "en"
LANG_COOKIE = "lang"
DIGITS_COOKIE = "digits"
#: Digit styles by their CLDR numbering-system names.
DIGIT_STYLES = ("deva", "latn")
COOKIE_MAX_AGE = 2 * 365 * 24 * 3600  # two years: a preference, not a session
TRANSLATIONS = Path(__file__).resolve().parent / "translations"

MINUS = "\N{MINUS SIGN}"
_DEVANAGARI = str.maketrans("0123456789", "०१२३४५६७८९")

babel = Babel()
bp = Blueprint("i18n", __name__)


class Msg(str):
    """An English sentence that keeps its template and values: the API shows it as it is
    (it *is* the English text); a page shows ``translate(msg)``.

    >>> m = Msg("Hand {number} saved.", number=3)
    >>> m, m.template, m.values
    ('Hand 3 saved.', 'Hand {number} saved.', {'number': 3})
    """

    template: str
    values: dict[str, Any]

    def __new__(cls, template: str, **values: Any) -> Msg:
        self = super().__new__(cls, template.format(**values) if values else template)
        self.template = template
        self.values = values
        return self

    def __reduce__(self):  # keeps pickling (sessions, copies) working
        return (_rebuild_msg, (self.template, self.values))


def _rebuild_msg(template: str, values: dict[str, Any]) -> Msg:
    return Msg(template, **values)


# --- which language, which digits ----------------------------------------------------


def is_api_request() -> bool:
    return has_request_context() and request.path.startswith("/api/")


def select_language() -> str:
    """The language of this request (Flask-Babel's locale selector)."""
    if not has_request_context() or is_api_request():
        return DEFAULT_LANGUAGE
    chosen = request.cookies.get(LANG_COOKIE)
    if chosen in LANGUAGES:
        return chosen
    return request.accept_languages.best_match(LANGUAGES, default=DEFAULT_LANGUAGE)


def current_language() -> str:
    locale = get_locale()
    return locale.language if locale is not None else DEFAULT_LANGUAGE


def digit_style() -> str:
    """``deva`` or ``latn``: the visitor's choice, else the language's usual digits."""
    if not has_request_context() or is_api_request():
        return "latn"
    style = getattr(g, "_ledger_digits", None)
    if style is None:
        chosen = request.cookies.get(DIGITS_COOKIE)
        if chosen in DIGIT_STYLES:
            style = chosen
        else:
            style = "deva" if current_language() == "ne" else "latn"
        g._ledger_digits = style
    return style


# --- numbers ----------------------------------------------------------------------------


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
    from babel.dates import format_date

    locale = get_locale() if has_request_context() else None
    return digits(format_date(moment, "d MMM y", locale=locale or DEFAULT_LANGUAGE))


def _css_string(text: str) -> str:
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"').replace("\n", " ") + '"'


def pdf_page_css() -> str:
    """The PDFs' margin boxes in the page's language and digits: the title at the top
    right and "page N of M" at the foot (CSS counters, in Devanagari when chosen), and
    the numbers of ordered lists (the chart's legend, the players) in the same digits."""
    style = "devanagari" if digit_style() == "deva" else "decimal"
    counters = {"page": f"counter(page, {style})", "pages": f"counter(pages, {style})"}
    parts = []
    for piece in re.split(r"(\{page\}|\{pages\})", gettext("page {page} of {pages}")):
        if piece in ("{page}", "{pages}"):
            parts.append(counters[piece[1:-1]])
        elif piece:
            parts.append(_css_string(piece))
    fonts = '"Noto Sans", "Noto Sans Devanagari"'
    return (
        f"@page {{ @top-right {{ content: {_css_string(gettext('Marriage ledger'))}; "
        f"font-family: {fonts}; }} "
        f"@bottom-right {{ content: {' '.join(parts)}; font-family: {fonts}; }} }} "
        "@page :first { @top-right { content: none; } } "
        f"ol {{ list-style-type: {style}; }}"
    )


# --- messages ---------------------------------------------------------------------------

#: Game words the engine puts in its sentences as values (``{seen}``, ``{finish}``,
#: ``{kind}``), shown in the page's language. They are the catalogue's message ids.
VALUE_WORDS: dict[str, Any] = {
    "sequences": _l("sequences"),
    "dublees": _l("dublees"),
    "unseen": _l("unseen"),
    "void": _l("void"),
    "tiplu": _l("tiplu"),
    "poplu": _l("poplu"),
    "jhiplu": _l("jhiplu"),
    "alter": _l("alter"),
    "printed joker": _l("printed joker"),
    "ordinary joker": _l("ordinary joker"),
    "ordinary": _l("ordinary card"),
    "printed_joker": _l("printed joker"),
    "ordinary_joker": _l("ordinary joker"),
}
_WORD_KEYS = frozenset({"seen", "finish", "kind"})
#: "poplu (9♥)": a kind of maal and the card it is, in the "Too many ..." sentences.
_SLOT = re.compile(r"^(tiplu|poplu|jhiplu|alter|printed joker|ordinary joker)( \(.*\))?$")
#: The engine's ``{who}`` names players each with a count ("Asha 1, Bikash 3"): the
#: counts are numbers of the sentence (the page's digits), the names stay as typed.
_WHO_COUNT = re.compile(r"(?<= )[0-9]+(?=, |$)")


def _shown_value(key: str, value: Any) -> Any:
    if isinstance(value, bool):
        return value
    if isinstance(value, int):
        return num(value)
    if isinstance(value, str):
        if key == "who":
            return _WHO_COUNT.sub(lambda count: num(int(count.group())), value)
        if key in _WORD_KEYS and value in VALUE_WORDS:
            return str(VALUE_WORDS[value])
        if key == "name":
            found = _SLOT.match(value)
            if found:
                return str(VALUE_WORDS[found.group(1)]) + (found.group(2) or "")
    return value


def tr(template: str, **values: Any) -> str:
    """``template`` (an English message id with ``{name}`` placeholders) in the page's
    language, filled with ``values`` (numbers in the page's digits)."""
    text = gettext(template)
    if not values:
        return text
    return text.format(**{k: _shown_value(k, v) for k, v in values.items()})


def translate(message: object) -> str:
    """A message for a page, in its language: an engine ``FieldError`` / ``CardError``
    or a ``Msg`` (by template and values), or a sentence (looked up as it is)."""
    template = getattr(message, "template", None)
    values = getattr(message, "values", None)
    if isinstance(template, str) and isinstance(values, Mapping):
        return tr(template, **values)
    if message is None:
        return ""
    text = str(message)
    return gettext(text) if text else text


def in_language(language: str, template: str, **values: Any) -> str:
    """``tr`` in another language than the page's (the switch names each language in
    its own words)."""
    from flask_babel import force_locale

    with force_locale(language):
        return tr(template, **values)


# --- the switches -----------------------------------------------------------------------


def safe_next(target: object) -> str:
    """``target`` if it is a path on this site (``/check?h=...``), else ``/``: the
    switches never redirect elsewhere."""
    if not isinstance(target, str):
        return "/"
    target = target.strip()
    if (
        not target.startswith("/")
        or target.startswith("//")
        or "\\" in target
        or any(ord(c) < 32 or ord(c) == 127 for c in target)
    ):
        return "/"
    parts = urlsplit(target)
    if parts.scheme or parts.netloc:
        return "/"
    return target


def here() -> str:
    """The path (and query) of this page, for a switch's ``next``."""
    path = request.full_path if request.query_string else request.path
    return path.rstrip("?") or "/"


def _remember(cookie: str, value: str):
    response = redirect(safe_next(request.args.get("next")), code=303)
    response.set_cookie(
        cookie,
        value,
        max_age=COOKIE_MAX_AGE,
        samesite="Lax",
        httponly=True,
        secure=request.is_secure,
        path="/",
    )
    response.headers["Cache-Control"] = "no-store"
    return response


@bp.get("/lang/<code>")
def set_language(code: str):
    """Remember a language and go back to the page (``next``, a path on this site)."""
    if code not in LANGUAGES:
        code = DEFAULT_LANGUAGE
    return _remember(LANG_COOKIE, code)


@bp.get("/digits/<style>")
def set_digits(style: str):
    """Remember the digits (``deva`` or ``latn``) and go back to the page."""
    if style not in DIGIT_STYLES:
        style = "latn"
    return _remember(DIGITS_COOKIE, style)


def _vary(response):
    """Pages depend on the language and digits chosen: caches must keep them apart."""
    if not is_api_request():
        response.vary.update(("Accept-Language", "Cookie"))
    return response


def init_i18n(app: Flask) -> None:
    app.config.setdefault("BABEL_DEFAULT_LOCALE", DEFAULT_LANGUAGE)
    app.config.setdefault("BABEL_TRANSLATION_DIRECTORIES", str(TRANSLATIONS))
    babel.init_app(app, locale_selector=select_language)
    # {% trans %} blocks are read with their whitespace folded: one-line message ids.
    app.jinja_env.policies["ext.i18n.trimmed"] = True
    app.add_template_filter(num, "num")
    app.add_template_filter(signed, "signed")
    app.add_template_filter(digits, "digits")
    app.add_template_filter(translate, "tr")
    app.add_template_global(tr, "tr")
    app.add_template_global(current_language, "current_language")
    app.add_template_global(digit_style, "digit_style")
    app.add_template_global(here, "here")
    app.add_template_global(LANGUAGES, "languages")
    app.after_request(_vary)
    app.register_blueprint(bp)
