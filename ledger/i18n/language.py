"""Which language and which digits a page is in (the API: always English, Western)."""

from __future__ import annotations

from functools import cached_property

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


class WesternDigits(NullTranslations):
    """The Nepali catalogue for a reader who chose Western digits: a translation writes
    some numbers as they are ("० देखि {most}"), which would stand in Devanagari beside
    the Western digits of the numbers filled in ("० देखि 3")."""

    def __init__(self, found: NullTranslations) -> None:
        super().__init__()
        self.found = found

    def ugettext(self, message: str) -> str:
        return self.found.ugettext(message).translate(WESTERN_DIGITS)

    def ungettext(self, msgid1: str, msgid2: str, n: int) -> str:
        return self.found.ungettext(msgid1, msgid2, n).translate(WESTERN_DIGITS)

    def upgettext(self, context: str, message: str) -> str:
        return self.found.upgettext(context, message).translate(WESTERN_DIGITS)

    def unpgettext(self, context: str, singular: str, plural: str, num: int) -> str:
        return self.found.unpgettext(context, singular, plural, num).translate(WESTERN_DIGITS)

    gettext, ngettext, pgettext, npgettext = ugettext, ungettext, upgettext, unpgettext


class PageDomain(Domain):  # type: ignore[misc]  # Flask-Babel has no types
    """Flask-Babel's domain, its catalogue in the reader's digits (``WesternDigits``)."""

    def get_translations(self) -> NullTranslations:
        found: NullTranslations = super().get_translations()
        if digit_style() == "latn" and current_language() != DEFAULT_LANGUAGE:
            return WesternDigits(found)
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
