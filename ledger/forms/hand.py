"""WTForms forms of the pages.

The hand form is shared by the dispute checker and the match pages: build it with
``ledger.forms.hand_setup.build_hand_form`` (which also sets which fields the house rules
need) rather than instantiating these classes directly. The forms only carry what
was typed: every check of a hand is the engine's (``ledger.forms.hand_reading.check_hand``).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from functools import partial
from typing import TYPE_CHECKING

from flask_babel import lazy_gettext as _l
from flask_wtf import FlaskForm
from markupsafe import escape
from wtforms import (
    BooleanField,
    FieldList,
    Form,
    FormField,
    HiddenField,
    RadioField,
    SelectChoice,
    SelectField,
    StringField,
)

from ledger.engine.game import MAX_MAAL, MAX_MATCH_PLAYERS, MAX_NAME
from ledger.engine.hand_body import MOST_COUNTS
from ledger.engine.rules import CHOICES, PROFILES, SETTING_KINDS, HouseRules
from ledger.forms import stripped, text_field
from ledger.forms.numbers import NumbersInput, WholeNumberInput
from ledger.i18n import digits
from ledger.i18n.words import CHOICE_WORDS, KIND_WORDS, PROFILE_NAMES, SETTING_LABELS

if TYPE_CHECKING:
    from ledger.forms.hand_setup import HandLayout

# Labels, choices and placeholders are lazy strings: read in the page's language.
SEEN_CHOICES = [
    SelectChoice("sequences", _l("Sequences")),
    SelectChoice("dublees", _l("Dublees")),
    SelectChoice("unseen", _l("Unseen")),
]
FINISH_CHOICES = [
    SelectChoice("sequences", _l("By sequences")),
    SelectChoice("dublees", _l("By dublees")),
    SelectChoice("void", _l("Void")),
]
MAAL_MODES = [
    SelectChoice("counts", _l("Count")),
    SelectChoice("cards", _l("Cards")),
    SelectChoice("number", _l("Total")),
]
AS_THE_PROFILE = _l("as the profile")
BOOL_CHOICES = (("", AS_THE_PROFILE), ("yes", CHOICE_WORDS[True]), ("no", CHOICE_WORDS[False]))


def _count_field(label: str, most: int = 6) -> StringField:
    """A small whole number typed or stepped; read by ``hand_form`` (blank is 0)."""
    return StringField(
        label,
        filters=[stripped],
        widget=WholeNumberInput(min=0, max=most),
        render_kw={"placeholder": "0"},
    )


def _cards_field(label: str, placeholder: str, **render_kw: object) -> StringField:
    """Card codes typed on a phone: no spell check."""
    return text_field(label, None, spellcheck="false", placeholder=placeholder, **render_kw)


class PlayerForm(Form):
    """One player's part of a hand."""

    name = text_field(_l("Name"), maxlength=MAX_NAME, autocapitalize="words")
    plays = BooleanField(_l("Plays this hand"), default=True)
    seen = RadioField(_l("Seen"), choices=SEEN_CHOICES, validate_choice=False)
    maal_mode = RadioField(
        _l("Maal entered as"), choices=MAAL_MODES, default="counts", validate_choice=False
    )
    count_tiplu = _count_field(KIND_WORDS["tiplu"])
    count_poplu = _count_field(KIND_WORDS["poplu"])
    count_jhiplu = _count_field(KIND_WORDS["jhiplu"])
    count_alter = _count_field(KIND_WORDS["alter"])
    count_printed_joker = _count_field(KIND_WORDS["printed_joker"], most=3)
    count_ordinary_joker = _count_field(KIND_WORDS["ordinary_joker"])
    #: Marriages entered as such (the API's ``maal_counts.marriage``, docs/rules.md §7).
    count_marriage = _count_field(KIND_WORDS["marriage"], most=MOST_COUNTS["marriage"])
    count_marriages_shown = _count_field(KIND_WORDS["marriages_shown"], most=3)
    maal_cards = _cards_field(_l("Maal cards"), _l("e.g. 7H 8H 9H 8D"), autocapitalize="characters")
    maal = _count_field(_l("Maal, added up"), most=MAX_MAAL)
    dealt_tunnelas = _cards_field(_l("Dealt tunnelas"), _l("e.g. 5S, poplu"))
    foul = BooleanField(_l("Foul (a false show or finish)"))


class HandForm(FlaskForm):
    """A hand: the tiplu, each player, the finish and the finisher.

    ``winner`` holds the finisher's row number (as text), not a name, so it stays right
    while names are typed. The CSRF token is checked by ``CSRFProtect`` on every POST
    (page and htmx preview alike), before any view runs.
    """

    tiplu = _cards_field(
        KIND_WORDS["tiplu"], _l("e.g. 8H"), autocapitalize="characters", maxlength=4
    )
    players = FieldList(FormField(PlayerForm), min_entries=0, max_entries=MAX_MATCH_PLAYERS)
    finish = RadioField(_l("How the hand ended"), choices=FINISH_CHOICES, validate_choice=False)
    winner = SelectField(_l("Finisher"), choices=[], validate_choice=False)

    # Set by ``ledger.forms.hand_setup`` for the match (or checker) the form is drawn for.
    fixed_names: list[str] | None
    sit_outs: bool
    max_rows: int
    layout: HandLayout


# Overridable settings in the dispute checker. match_length and deal_passes do not
# change one hand, so they are not offered there.
IMPORTANT_SETTINGS = (
    "unseen_maal",
    "fee_seen",
    "fee_seen_dublee",
    "fee_unseen",
    "dublee_finish_bonus",
    "dublee_finish_bonus_mode",
    "void_hand",
    "tiplu",
    "poplu",
    "jhiplu",
    "alter",
    "printed_joker",
    "marriage",
    "marriage_grouping",
    "foul",
    "foul_penalty",
)
NOT_FOR_ONE_HAND = ("profile", "match_length", "deal_passes")
#: Every other setting of the engine, in the engine's order (a new one shows up by itself).
OTHER_SETTINGS = tuple(
    f.name
    for f in dataclasses.fields(HouseRules)
    if f.name not in IMPORTANT_SETTINGS and f.name not in NOT_FOR_ONE_HAND
)
OVERRIDABLE = IMPORTANT_SETTINGS + OTHER_SETTINGS


class Shown:
    """A choice's label read when shown, in the page's language (as a lazy string is):
    a profile's title, or a number in the page's digits."""

    def __init__(self, show: Callable[[], str]):
        self.show = show

    def __str__(self) -> str:
        return self.show()

    def __html__(self) -> str:
        return str(escape(str(self)))


def few_values(name: str) -> list[int]:
    """The values a count setting takes when they are a few (packs: 3 or 4), else []."""
    return list(SETTING_KINDS[name].schema().get("enum", ()))


def _rules_form_class() -> type[Form]:
    """The rules chooser: a profile and one blank-means-the-profile field per setting."""
    from ledger.engine.rules import BOOLS, COUNTS

    attrs: dict[str, object] = {
        "profile": SelectField(
            SETTING_LABELS["profile"],
            choices=[
                SelectChoice(pid, Shown(partial(PROFILE_NAMES.__getitem__, pid)))
                for pid in PROFILES
            ],
            default=next(iter(PROFILES)),
            validate_choice=False,
        )
    }
    for name in OVERRIDABLE:
        label = SETTING_LABELS[name]
        if name in CHOICES:
            choices = [SelectChoice("", AS_THE_PROFILE)] + [
                SelectChoice(c, CHOICE_WORDS.get(c, c.replace("_", " "))) for c in CHOICES[name]
            ]
            attrs[name] = SelectField(label, choices=choices, validate_choice=False)
        elif name in BOOLS:
            choices = [SelectChoice(v, label) for v, label in BOOL_CHOICES]
            attrs[name] = SelectField(label, choices=choices, validate_choice=False)
        elif few_values(name):
            # A choice, not a box to type 3 or 4 in. What is posted is read as a typed
            # count is (``ledger.forms.rules.parse_setting``): another value, sent by
            # hand, gets the same message naming the setting and what it takes.
            choices = [SelectChoice("", AS_THE_PROFILE)] + [
                SelectChoice(str(v), Shown(partial(digits, v))) for v in few_values(name)
            ]
            attrs[name] = SelectField(label, choices=choices, validate_choice=False)
        elif name in COUNTS:
            attrs[name] = StringField(
                label,
                filters=[stripped],
                widget=WholeNumberInput(min=0, max=1000),
            )
        else:  # a table of totals, or a tunnela bonus (a number or a table)
            attrs[name] = text_field(label, widget=NumbersInput(), spellcheck="false")
    return type("RulesForm", (Form,), attrs)


RulesForm = _rules_form_class()


class CheckForm(HandForm):
    """The dispute checker: a hand plus the house rules to settle it by."""

    rules = FormField(RulesForm)
    #: The rules the form was drawn for (compact JSON); a preview under other rules
    #: redraws the whole form, since the fields shown depend on the rules.
    drawn_for = HiddenField()


class MatchHandForm(HandForm):
    """A hand of a match: the shared hand form, its dealer and the version being edited;
    a new hand also carries its idempotency key (made when the form is first shown, so
    that Back, a double tap or a resend store it once) and the number it adds."""

    dealer = SelectField(_l("Dealer"), choices=[], validate_choice=False)
    version = HiddenField()
    hand_key = HiddenField()
    hand_number = HiddenField()
    #: Who sat out the last hand and sits out this one by default (the row says so).
    sat_out_last: frozenset[str] = frozenset()
    #: Who sits out this hand in turn (more players than a hand deals to).
    in_turn: frozenset[str] = frozenset()
