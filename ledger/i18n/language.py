"""Which language and which digits a page is in (the API: always English, Western)."""

from __future__ import annotations

import re
from collections.abc import Callable
from functools import cached_property, lru_cache

from babel.support import NullTranslations, Translations
from flask import g, has_request_context, request
from flask_babel import Babel, Domain, get_locale, get_translations

LANGUAGES: dict[str, str] = {"en": "English", "ne": "नेपाली"}
DEFAULT_LANGUAGE = "en"
LANG_COOKIE = "lang"
DIGITS_COOKIE = "digits"
#: Digit styles by their CLDR numbering-system names.
DIGIT_STYLES = ("deva", "latn")
WESTERN_DIGITS = str.maketrans("०१२३४५६७८९", "0123456789")


#: A number of an English sentence's own (``up to 5 a hand``, ``e.g. 0.50``, ``3 / 8``),
#: not a part of a code: a card's (``8H``, ``10♥``, the ranks ``2-10``), an address's
#: (``/api/v1``), a paper's (``A4``), a standard's (``ISO 4217``), a time's, an attribute's.
_OWN_NUMBER = re.compile(r'(?<![\w\-/:.{])(?<!=")(?<!ISO )[0-9]+(?:\.[0-9]+)?(?![\w\-:♠♥♦♣])')
_DEVANAGARI = str.maketrans("0123456789", "०१२३४५६७८९")


def _western(text: str) -> str:
    return text.translate(WESTERN_DIGITS)


@lru_cache(maxsize=2048)
def _devanagari(text: str) -> str:
    return _OWN_NUMBER.sub(lambda number: number.group().translate(_DEVANAGARI), text)


class CatalogueDigits(NullTranslations):
    """A catalogue whose sentences write their own numbers in the reader's digits where
    those are not the language's: a sentence writes some numbers as they are ("० देखि
    {most}", "up to 5 a hand"), which would stand in the language's digits beside the
    numbers filled in in the reader's ("० देखि 3", "up to ५"). ``write`` rewrites the
    catalogue's text, before the numbers are filled in."""

    def __init__(self, found: NullTranslations, write: Callable[[str], str]) -> None:
        super().__init__()
        self.found = found
        self.write = write

    def ugettext(self, message: str) -> str:
        return self.write(self.found.ugettext(message))

    def ungettext(self, msgid1: str, msgid2: str, n: int) -> str:
        return self.write(self.found.ungettext(msgid1, msgid2, n))

    def upgettext(self, context: str, message: str) -> str:
        return self.write(self.found.upgettext(context, message))

    def unpgettext(self, context: str, singular: str, plural: str, num: int) -> str:
        return self.write(self.found.unpgettext(context, singular, plural, num))

    gettext, ngettext, pgettext, npgettext = ugettext, ungettext, upgettext, unpgettext


class PageDomain(Domain):  # type: ignore[misc]  # Flask-Babel has no types
    """Flask-Babel's domain, its catalogue in the reader's digits (``CatalogueDigits``):
    Nepali in Western digits, English in Devanagari ones."""

    def get_translations(self) -> NullTranslations:
        found: NullTranslations = super().get_translations()
        nepali = current_language() != DEFAULT_LANGUAGE
        if digit_style() == "latn" and nepali:
            return CatalogueDigits(found, _western)
        if digit_style() == "deva" and not nepali:
            return CatalogueDigits(found, _devanagari)
        return found


class PageBabel(Babel):  # type: ignore[misc]  # Flask-Babel has no types
    """Flask-Babel, its every translation (templates, forms, messages) by ``PageDomain``."""

    @cached_property
    def domain_instance(self) -> Domain:
        return PageDomain(domain=self.domain)


babel = PageBabel()


def is_api_request() -> bool:
    """Whether this request is the JSON API's (English, JSON errors, Western digits)."""
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
    """``deva`` or ``latn``: the visitor's choice, else the language's usual digits
    (looked up once a request: a page shows hundreds of numbers)."""
    if not has_request_context():
        return "latn"
    style: str | None = g.get("_ledger_digits")
    if style is None:
        chosen = request.cookies.get(DIGITS_COOKIE)
        if is_api_request():
            style = "latn"
        elif chosen in DIGIT_STYLES:
            style = chosen
        else:
            style = "deva" if current_language() == "ne" else "latn"
        g._ledger_digits = style
    return style


def translations() -> Translations | NullTranslations:
    """Flask-Babel's translations of this request, looked up once a request (a page
    translates a couple of hundred words; each of Flask-Babel's look-ups costs several)."""
    found: Translations | NullTranslations | None
    if not has_request_context():
        found = get_translations()
        return found
    found = g.get("_ledger_translations")
    if found is None:
        found = g._ledger_translations = get_translations()
    return found
