"""Template filters for cards and house-rules values (registered in create_app).

Numbers are shown in the page's digits and words in its language (``ledger.i18n``);
card ranks stay Western (8♥), as they are printed on the cards.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from flask_babel import gettext
from markupsafe import Markup

from ledger.engine import CardError, parse_card
from ledger.engine.cards import Relation, card_of
from ledger.engine.rules import overrides_of
from ledger.i18n import digits, num
from ledger.i18n.numbers import length_words, season_name
from ledger.i18n.words import (
    CHOICE_WORDS,
    KIND_NAMES,
    SETTING_LABELS,
)

__all__ = ["card", "cards", "rule_value", "season_name", "season_title", "tiplu_family"]


def card(code: object) -> Markup:
    """A card code as a readable card, ``8H`` → 8♥ (red suits get a class; the suit
    symbol alone tells them apart in black and white)."""
    try:
        parsed = parse_card(code)
    except CardError:
        return Markup('<span class="card">{}</span>').format(code)
    if parsed.is_printed_joker:
        return Markup('<span class="card card-joker">{}</span>').format(gettext("Joker"))
    red = " card-red" if parsed.suit in "HD" else ""
    return Markup('<span class="card{}">{}</span>').format(red, parsed.label)


def cards(codes: object) -> Markup:
    """Several cards, separated by spaces."""
    if not codes:
        return Markup("")
    return Markup(" ").join(card(c) for c in codes)  # type: ignore[attr-defined]


def rule_value(value: object) -> str:
    """A setting's value for people: tables as ``3 / 8``, None as —, yes/no, choices
    and match lengths in words."""
    if value is None:
        return "—"
    if isinstance(value, bool):
        return str(CHOICE_WORDS[value])
    if isinstance(value, list | tuple):
        return digits(" / ".join(str(v) for v in value))
    if isinstance(value, dict):  # a match length: {"hands": 4}
        return ", ".join(length_words(unit, count) for unit, count in value.items())
    if isinstance(value, int):
        return num(value)
    if isinstance(value, str) and value in CHOICE_WORDS:
        return str(CHOICE_WORDS[value])
    return str(value).replace("_", " ")


def season_title(season: Any) -> str:
    """What a heading names a season by: "Season: 1" (the first season's name is its
    number, and "Standings: 1" said nothing of a season), or "All time" for no season.
    ``season``: a season, or its JSON (a player's own page has it so)."""
    if season is None:
        return str(gettext("All time"))
    name = season["name"] if isinstance(season, Mapping) else season.name
    return str(gettext("Season: %(season)s", season=season_name(name)))


def setting_label(name: str) -> str:
    """A setting's name for people: ``unseen_maal`` → Unseen maal."""
    label = SETTING_LABELS.get(name)
    return str(label) if label is not None else name.replace("_", " ").capitalize()


def kind_word(kind: str) -> str:
    """A kind of maal or tunnela in lower case words: ``printed_joker`` → printed joker."""
    word = KIND_NAMES.get(kind)
    return str(word) if word is not None else kind.replace("_", " ")


def tiplu_family(code: object) -> list[tuple[str, str]]:
    """The maal cards a tiplu makes: [("poplu", "9H"), ("jhiplu", "7H"), ("alter", "8D")]."""
    try:
        tiplu = parse_card(code)
    except CardError:
        return []
    if tiplu.is_printed_joker:
        return []
    out = []
    for kind in (Relation.POPLU, Relation.JHIPLU, Relation.ALTER):
        found = card_of(kind, tiplu)
        if found is not None:
            out.append((kind.value, found.code))
    return out


def changed_settings(rules_json: dict[str, Any]) -> list[tuple[str, object]]:
    """The settings of resolved rules (as JSON) that differ from their profile."""
    return list(overrides_of(rules_json).items())


#: The widths of a score grid's name column (``.scores-table.names-*`` in app.css), by
#: the most letters in one word of a name: the column holds its longest word whole.
NAME_WIDTHS = ((6, ""), (9, "names-wide"), (13, "names-wider"))


def name_width(names: Iterable[str]) -> str:
    """The class that gives a score grid's name column room for the longest word of
    ``names`` (a name breaks between its words only): "" for the usual width."""
    longest = max((len(word) for name in names for word in name.split()), default=0)
    return next((cls for most, cls in NAME_WIDTHS if longest <= most), "names-widest")
