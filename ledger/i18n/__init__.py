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
  ``Msg`` (a sentence of the service layer) or a plain sentence. A sentence that counts
  ("after its 1 hand", "after its 2 hands") is ``trn(singular, plural, count, ...)``,
  and a ``PluralMsg`` in the service layer.

Modules: ``language`` (which language and digits), ``numbers`` (numbers and dates as
shown), ``messages`` (``Msg``, ``PluralMsg``, ``tr``, ``trn``, ``translate``),
``switches`` (the routes and the Flask-Babel setup). The names most pages need are
importable from here.
"""

from ledger.engine.errors import N_
from ledger.i18n.language import current_language, digit_style
from ledger.i18n.messages import Msg, PluralMsg, tr, translate, trn
from ledger.i18n.numbers import (
    MINUS,
    digits,
    format_day,
    format_moment,
    money,
    num,
    signed,
    today,
    western_digits,
    zone_name,
)

__all__ = [
    "MINUS",
    "N_",
    "Msg",
    "PluralMsg",
    "current_language",
    "digit_style",
    "digits",
    "format_day",
    "format_moment",
    "money",
    "num",
    "signed",
    "tr",
    "today",
    "translate",
    "trn",
    "western_digits",
    "zone_name",
]
