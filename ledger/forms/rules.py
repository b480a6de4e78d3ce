"""The house-rules chooser (a profile and single-setting overrides), both ways.

Used by the dispute checker, and meant for the new-match page too: the form is
``ledger.forms.hand.RulesForm`` (a ``FormField`` of the page's form), its template macros are
in ``templates/rules/_choose.html``.
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping
from typing import Any

from msgspec import Struct, field
from werkzeug.datastructures import MultiDict
from wtforms import Field, Form, SelectChoice

from ledger.engine import PROFILES, FieldError, HouseRules, Invalid, resolve_rules
from ledger.engine.rules import (
    BOOLS,
    CHOICES,
    COUNTS,
    DEFAULT_PROFILE,
    OPTIONAL_TABLES,
    SETTING_KINDS,
    TUNNELA_SETTINGS,
)
from ledger.forms.hand import IMPORTANT_SETTINGS, OTHER_SETTINGS, OVERRIDABLE
from ledger.forms.numbers import read_whole
from ledger.forms.problems import Problem, attach, place_errors
from ledger.i18n import digits, tr
from ledger.i18n.words import CHOICE_WORDS

NONE_WORDS = ("none", "no", "-", "—", "–", "off", "छैन")
_NUMBERS = re.compile(r"[\s,/]+")


class RulesChoice(Struct):
    """What the rules chooser holds."""

    rules: HouseRules | None  # None when an override is not valid
    base: HouseRules  # the rules to draw the hand form with: ``rules``, else the profile
    spec: str | dict[str, Any] | None  # the settle format's "rules": an id or overrides
    problems: list[Problem] = field(default_factory=list)
    entered: list[str] = field(default_factory=list)  # the settings with an override typed
    important: tuple[str, ...] = IMPORTANT_SETTINGS  # the order the chooser shows them in
    others: tuple[str, ...] = OTHER_SETTINGS

    @property
    def spec_key(self) -> str:
        """The spec as compact JSON ('' when the rules are not valid)."""
        return "" if self.spec is None else json.dumps(self.spec, separators=(",", ":"))


def format_setting(value: object) -> str:
    """A setting's value as typed into an override field: ``3 / 8``, ``—``, ``yes``. No
    value is "—", as the boxes' placeholders write it: a word would be English on a
    Nepali page (the box reads "—", "none" and "छैन" alike)."""
    if value is None:
        return "—"
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, list | tuple):
        return " / ".join(str(v) for v in value)
    return str(value)


def parse_setting(name: str, text: str) -> object:
    """An override field's text as the setting's JSON value; ValueError with a sentence."""
    if name in CHOICES:
        return text
    if name in BOOLS:
        if text.lower() in ("yes", "true", "y", "1"):
            return True
        if text.lower() in ("no", "false", "n", "0"):
            return False
        raise ValueError(tr("Choose yes or no."))
    if name in COUNTS:
        count = read_whole(text, signed=True)
        if count is None:
            raise ValueError(_count_wanted(name))
        return count
    if text.lower() in NONE_WORDS:
        if name in OPTIONAL_TABLES or name in TUNNELA_SETTINGS:
            return None
        raise ValueError(tr("This setting needs numbers, like 3 / 8."))
    numbers = [read_whole(part, signed=True) for part in _NUMBERS.split(text) if part]
    if not numbers or None in numbers:
        if name in OPTIONAL_TABLES or name in TUNNELA_SETTINGS:
            message = tr(
                "Enter the totals for holding 1, 2, 3 separated by /, like 2 / 5 / 10, or none."
            )
        else:
            message = tr("Enter the totals for holding 1, 2, 3 separated by /, like 2 / 5 / 10.")
        raise ValueError(message)
    if name in TUNNELA_SETTINGS and len(numbers) == 1:
        return numbers[0]
    return numbers


def _count_wanted(name: str) -> str:
    """What a count setting takes, as the engine bounds it: 3 or 4, or a range."""
    described = SETTING_KINDS[name].schema()
    if "enum" in described:
        first, second = described["enum"]
        return tr("Enter {first} or {second}.", first=first, second=second)
    return tr(
        "Enter a whole number from {least} to {most}.",
        least=described["minimum"],
        most=described["maximum"],
    )


def prepare_rules_form(rules_form: Form) -> None:
    """Show the chosen profile's value of each setting as its blank choice or placeholder."""
    base = PROFILES.get(rules_form.profile.data) or PROFILES[DEFAULT_PROFILE]
    values = base.to_json()
    for name in OVERRIDABLE:
        f = getattr(rules_form, name)
        value = values[name]
        text = format_setting(value).replace("_", " ")
        if f.type == "SelectField":
            # a word, or a number (packs) in the page's digits
            words = CHOICE_WORDS.get(value, text) if isinstance(value, str | bool) else digits(text)
            f.choices = [
                SelectChoice("", tr("{value} (profile)", value=str(words))),
                *f.choices[1:],
            ]
        else:
            # in the page's digits (the box takes both), and "—" (a word for "none") for no value
            shown = "—" if value is None else digits(text)
            f.render_kw = {**(f.render_kw or {}), "placeholder": shown}


def read_rules_form(rules_form: Form) -> RulesChoice:
    """The chosen profile with its overrides, resolved by the engine; problems per field."""
    profile = rules_form.profile.data
    problems: list[Problem] = []
    if profile not in PROFILES:
        problems.append(
            Problem(
                tr("Choose one of the house-rules profiles."),
                rules_form.profile,
                str(rules_form.profile.label.text),
            )
        )
        profile = DEFAULT_PROFILE
    overrides: dict[str, object] = {}
    entered = []
    for name in OVERRIDABLE:
        f = getattr(rules_form, name)
        text = (f.data or "").strip() if isinstance(f.data, str) else ""
        if not text:
            continue
        entered.append(name)
        try:
            overrides[name] = parse_setting(name, text)
        except ValueError as problem:
            problems.append(Problem(str(problem), f, tr("Override · {label}", label=f.label.text)))
    base = PROFILES[profile]
    rules = None
    # The overrides that were read are checked even when another was not: every problem
    # is told at once, not one after each fix.
    try:
        resolved = resolve_rules({"profile": profile, **overrides})
    except Invalid as invalid:

        def locate(error: FieldError) -> tuple[Field | None, str]:
            name = error.field.removeprefix("rules.")
            f = getattr(rules_form, name, None) if name in OVERRIDABLE else None
            if f is not None:
                return f, tr("Override · {label}", label=f.label.text)
            return None, str(rules_form.profile.label.text)

        problems += place_errors(invalid.errors, locate)
    else:
        rules = None if problems else resolved
    attach(problems)
    if rules is None:
        return RulesChoice(None, base, None, problems, entered)
    spec: str | dict[str, Any] = rules.spec() if rules.overrides() else profile
    return RulesChoice(rules, rules, spec, problems, entered)


def keep_unoffered(spec: object, own: Mapping[str, object]) -> object:
    """``spec`` (as the chooser read it) with the overrides of ``own`` (a rules spec as
    stored) that the chooser does not offer: the deal's direction, a match length. A
    form that cannot show them must not drop them."""
    kept = {k: v for k, v in own.items() if k != "profile" and k not in OVERRIDABLE}
    if not kept or not isinstance(spec, str | Mapping):
        return spec
    return {**({"profile": spec} if isinstance(spec, str) else spec), **kept}


def rules_formdata(spec: object, prefix: str = "rules-") -> tuple[MultiDict[str, str], list[str]]:
    """Form data for the chooser from the settle format's ``rules``, and problems met."""
    out: MultiDict[str, str] = MultiDict()
    if isinstance(spec, str):
        spec = {"profile": spec}
    if not isinstance(spec, Mapping):
        return out, [
            tr("The house rules in the link are not readable; the default profile is shown.")
        ]
    notes = []
    profile = spec.get("profile")
    if profile in PROFILES:
        out[prefix + "profile"] = profile
    else:
        notes.append(
            tr(
                "{profile!r} is not a house-rules profile; the default profile is shown.",
                profile=profile,
            )
        )
    for name, value in spec.items():
        if name == "profile":
            continue
        if name in OVERRIDABLE:
            out[prefix + name] = format_setting(value)
        else:
            notes.append(
                tr("The setting {name!r} cannot be overridden here; it was left out.", name=name)
            )
    return out, notes
