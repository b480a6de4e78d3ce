"""Sentences in the page's language: ``tr`` for a template of the web layer,
``translate`` for an engine error or a ``Msg`` of the service layer."""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from decimal import Decimal
from typing import Any, cast

from flask_babel import gettext, ngettext
from flask_babel import lazy_gettext as _l

from ledger.engine.errors import Tally
from ledger.i18n.numbers import num, season_name
from ledger.i18n.words import CHOICE_WORDS, KIND_NAMES, SETTING_LABELS


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

    def __reduce__(self) -> tuple[Callable[[str, dict[str, Any]], Msg], tuple[str, dict[str, Any]]]:
        # keeps pickling (sessions, copies) working
        return (_rebuild_msg, (self.template, self.values))


def _rebuild_msg(template: str, values: dict[str, Any]) -> Msg:
    return Msg(template, **values)


class PluralMsg(Msg):
    """A ``Msg`` that counts: its English is ``singular`` for a count of 1, else
    ``plural`` ("after its 1 hand", "after its 2 hands"); a page shows the catalogue's
    form for the count (``trn``).

    >>> PluralMsg("{n} hand played.", "{n} hands played.", 1, n=1)
    '1 hand played.'
    """

    plural: str
    #: The count that picks the form (``str.count`` keeps its name).
    number: int

    def __new__(cls, singular: str, plural: str, number: int, **values: Any) -> PluralMsg:
        self = cast(PluralMsg, super().__new__(cls, singular if number == 1 else plural, **values))
        self.template, self.plural, self.number = singular, plural, number
        return self

    def __reduce__(self) -> tuple[Callable[..., PluralMsg], tuple[Any, ...]]:
        return (_rebuild_plural_msg, (self.template, self.plural, self.number, self.values))


def _rebuild_plural_msg(
    singular: str, plural: str, number: int, values: dict[str, Any]
) -> PluralMsg:
    return PluralMsg(singular, plural, number, **values)


#: Game words the engine puts in its sentences as values (``{seen}``, ``{finish}``,
#: ``{kind}``), shown in the page's language. They are the catalogue's message ids.
VALUE_WORDS: dict[str, Any] = {
    "sequences": _l("sequences"),
    "dublees": _l("dublees"),
    "unseen": _l("unseen"),
    "void": _l("void"),
    **KIND_NAMES,
    **{kind.replace("_", " "): word for kind, word in KIND_NAMES.items()},
    "ordinary": _l("ordinary card"),
}
_WORD_KEYS = frozenset({"seen", "finish", "kind"})
#: "poplu (9♥)": a kind of maal and the card it is, in the "Too many ..." sentences.
_SLOT = re.compile(r"^(tiplu|poplu|jhiplu|alter|printed joker|ordinary joker)( \(.*\))?$")


def _shown_value(key: str, value: Any) -> Any:
    if isinstance(value, Tally):
        return ", ".join(f"{name} {num(count)}" for name, count in value)
    if isinstance(value, bool):
        return value
    if key == "example" and isinstance(value, list):  # as the field takes it: 2 / 5 / 10
        return " / ".join(num(v) for v in value)
    if isinstance(value, int | Decimal):  # a count, or a bound on money ("9999999999.99")
        return num(value)
    if isinstance(value, str):
        if key == "kinds":  # the kinds of dealt tunnela a field takes, as ids
            return ", ".join(str(KIND_NAMES.get(kind, kind)) for kind in value.split(", "))
        if key in _WORD_KEYS and value in VALUE_WORDS:
            return str(VALUE_WORDS[value])
        if key == "setting" and value in SETTING_LABELS:  # its name, never its id
            return "“" + str(SETTING_LABELS[value]) + "”"
        if key == "season":  # a season's name: "1" is a number, in the page's digits
            return season_name(value)
        if key == "allowed":  # a choice setting's values, as ids
            return ", ".join(str(CHOICE_WORDS.get(c, c)) for c in value.split(", "))
        if key == "name":
            found = _SLOT.match(value)
            if found:
                return str(VALUE_WORDS[found.group(1)]) + (found.group(2) or "")
    return value


def tr(template: str, **values: Any) -> str:
    """``template`` (an English message id with ``{name}`` placeholders) in the page's
    language, filled with ``values`` (numbers in the page's digits)."""
    text: str = gettext(template)
    if not values:
        return text
    return text.format(**{k: _shown_value(k, v) for k, v in values.items()})


def trn(singular: str, plural: str, count: int, **values: Any) -> str:
    """``tr`` for a sentence that counts: the catalogue's form for ``count`` (English:
    ``singular`` for 1, else ``plural``), filled with ``values``."""
    text: str = ngettext(singular, plural, count)
    return text.format(**{k: _shown_value(k, v) for k, v in values.items()})


def translate(message: object) -> str:
    """A message for a page, in its language: an engine ``FieldError`` / ``CardError``
    or a ``Msg`` (by template and values; a ``PluralMsg`` by its count too), or a
    sentence (looked up as it is)."""
    template = getattr(message, "template", None)
    values = getattr(message, "values", None)
    if isinstance(message, PluralMsg):
        return trn(message.template, message.plural, message.number, **message.values)
    if isinstance(template, str) and isinstance(values, Mapping):
        return tr(template, **values)
    if message is None:
        return ""
    text = str(message)
    return gettext(text) if text else text
