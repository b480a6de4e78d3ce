"""Template filters for cards, signed points and house-rules values (app-wide)."""

from __future__ import annotations

from flask import Flask
from markupsafe import Markup

from ledger.engine import PROFILES, CardError, parse_card
from ledger.engine.cards import Relation, card_of
from ledger.engine.rules import PROFILE_TITLES, SETTING_HELP

MINUS = "\N{MINUS SIGN}"


def card(code: object) -> Markup:
    """A card code as a readable card, ``8H`` → 8♥ (red suits get a class; the suit
    symbol alone tells them apart in black and white)."""
    try:
        parsed = parse_card(code)
    except CardError:
        return Markup('<span class="card">{}</span>').format(code)
    if parsed.is_printed_joker:
        return Markup('<span class="card card-joker">Joker</span>')
    red = " card-red" if parsed.suit in "HD" else ""
    return Markup('<span class="card{}">{}</span>').format(red, parsed.label)


def cards(codes: object) -> Markup:
    """Several cards, separated by spaces."""
    if not codes:
        return Markup("")
    return Markup(" ").join(card(c) for c in codes)  # type: ignore[union-attr]


def signed(value: object) -> str:
    """Points with their sign: +41, −18 (a true minus sign), 0."""
    if not isinstance(value, int) or isinstance(value, bool):
        return str(value)
    if value > 0:
        return f"+{value}"
    if value < 0:
        return f"{MINUS}{-value}"
    return "0"


def rule_value(value: object) -> str:
    """A setting's value for people: tables as ``3 / 8``, None as —, yes/no."""
    if value is None:
        return "—"
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, list | tuple):
        return " / ".join(str(v) for v in value)
    if isinstance(value, dict):  # a match length: {"hands": 4}
        return ", ".join(f"{count} {unit}" for unit, count in value.items())
    return str(value).replace("_", " ")


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


def changed_settings(rules_json: dict) -> list[tuple[str, object]]:
    """The settings of resolved rules (as JSON) that differ from their profile."""
    base = PROFILES.get(rules_json.get("profile"))
    if base is None:
        return []
    values = base.to_json()
    return [(k, v) for k, v in rules_json.items() if k in values and values[k] != v]


def init_filters(app: Flask) -> None:
    app.add_template_filter(card, "card")
    app.add_template_filter(cards, "cards")
    app.add_template_filter(signed, "signed")
    app.add_template_filter(rule_value, "rule_value")
    app.add_template_global(tiplu_family, "tiplu_family")
    app.add_template_global(changed_settings, "changed_settings")
    app.add_template_global(PROFILE_TITLES, "profile_titles")
    app.add_template_global(SETTING_HELP, "setting_help")
