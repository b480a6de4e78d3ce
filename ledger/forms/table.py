"""The table pages' forms, and the service's errors placed on their fields.

Each form posts what the API's body holds (``ledger.tables.service`` reads and checks
it); ``place`` puts each ``FieldError`` of an ``Invalid`` beside the field it names, or
at the top of the form when no field of the form says it.
"""

from __future__ import annotations

import re
import secrets
from collections.abc import Mapping

from flask_babel import lazy_gettext as _l
from flask_wtf import FlaskForm
from wtforms import (
    Field,
    FormField,
    HiddenField,
    RadioField,
    SelectChoice,
    SelectField,
    SelectMultipleField,
    TextAreaField,
)
from wtforms.widgets import CheckboxInput, ListWidget

from ledger.engine import FieldError, Invalid
from ledger.engine.game import MAX_MATCH_NAME, MAX_NAME
from ledger.forms import text_field
from ledger.forms.hand import RulesForm
from ledger.forms.numbers import NumbersInput, WholeNumberInput
from ledger.forms.problems import Problem, attach, place_errors
from ledger.forms.stake import StakeFields, stake_field
from ledger.i18n import N_, tr, western_digits

_SPLIT = re.compile(r"[\n,،]+")


def roster_names(text: str | None) -> list[str]:
    """The names of a roster typed one a line (or with commas), empty lines left out."""
    return [n.strip() for n in _SPLIT.split(text or "") if n.strip()]


class NewTableForm(FlaskForm):
    """A new table: its name, its roster, the rules and stake of its matches."""

    name = text_field(_l("Name of the table"), maxlength=MAX_MATCH_NAME)
    players = TextAreaField(
        _l("Players, one a line"),
        render_kw={"rows": 5, "autocomplete": "off", "autocapitalize": "words"},
    )
    rules = FormField(RulesForm)
    stake = FormField(StakeFields)


class TableChangeForm(NewTableForm):
    """A table's name, and the rules and stake of its next nights, changed; players who
    join its roster."""

    players = TextAreaField(
        _l("Players who join the roster, one a line"),
        render_kw={"rows": 2, "autocomplete": "off", "autocapitalize": "words"},
    )


class CheckboxesField(SelectMultipleField):
    """Several choices as check boxes (who plays tonight)."""

    widget = ListWidget(prefix_label=False)
    option_widget = CheckboxInput()


class TableMatchForm(FlaskForm):
    """Tonight's match from the roster: who plays (in roster order), and anyone new."""

    name = text_field(_l("Name of the match"), maxlength=MAX_MATCH_NAME)
    players = CheckboxesField(_l("Who plays tonight"), choices=[], validate_choice=False)
    newcomer = text_field(_l("Someone new"), maxlength=MAX_NAME, autocapitalize="words")
    known_guests = CheckboxesField(
        _l("Guests of earlier nights"), choices=[], validate_choice=False
    )
    guests = text_field(_l("Guests tonight"), autocapitalize="words")
    packs = RadioField(
        _l("Packs"),
        choices=[
            SelectChoice("3", _l("Three packs: up to 5 a hand")),
            SelectChoice("4", _l("Four packs: up to 8 a hand")),
        ],
        validate_choice=False,
    )
    hands = text_field(_l("Hands tonight"), widget=WholeNumberInput(), size=4)


class MoveMatchForm(FlaskForm):
    """A match played before the table existed, moved in (its edit rights are needed)."""

    match = SelectField(_l("Match"), choices=[], validate_choice=False)


class SeasonForm(FlaskForm):
    #: Its own id: the table's page has tonight's match's ``name`` too.
    name = text_field(
        _l("Name of the new season"), field_id="season-name", maxlength=MAX_MATCH_NAME
    )


class SeasonRenameForm(FlaskForm):
    """A season's name put right (a typo): the same body as a new season's."""

    name = text_field(_l("The season's name"), maxlength=MAX_MATCH_NAME)


class RenameForm(FlaskForm):
    player = HiddenField()
    name = text_field(_l("New spelling"), maxlength=MAX_NAME)


class MergeForm(FlaskForm):
    player = HiddenField()
    merge_into = SelectField(_l("Is the same person as"), choices=[], validate_choice=False)


class PaymentForm(FlaskForm):
    """Money handed over ("mark paid"): who paid whom, how much, in the season of the page
    it is on; and the form's own key (``new_payment_key``, made when the form is shown),
    so that the same form sent twice, or four times at once, records one payment."""

    payment_key = HiddenField()
    #: The id of the season whose page the form is on (empty: the current season).
    season = HiddenField()
    payer = SelectField(_l("Who paid"), choices=[], validate_choice=False)
    payee = SelectField(_l("To whom"), choices=[], validate_choice=False)
    amount = text_field(_l("Amount"), widget=NumbersInput(), inputmode="decimal")


#: A payment form's key sent again with other values (409: nothing more recorded).
PAYMENT_KEY_REUSED = N_(
    "This form was already recorded as a payment, with other values; nothing more was "
    "recorded. Check the payments below, then send it again to record this one too."
)


def new_payment_key() -> str:
    """The idempotency key of one payment form ("Mark paid", "I paid") as it is shown."""
    return secrets.token_urlsafe(16)


def typed_amount(form: FlaskForm) -> str:
    """A payment form's amount as typed, in Western digits (a Nepali keyboard types
    १५०.५०)."""
    return western_digits(form.amount.data or "")


def key_spent(form: FlaskForm) -> list[Problem]:
    """A payment form whose key was recorded with other values (409): a new key for the
    form shown again, and what to say above it."""
    form.payment_key.data = new_payment_key()
    return [Problem(tr(PAYMENT_KEY_REUSED))]


#: A payment form of a season another phone took back meanwhile (started by mistake).
SEASON_TAKEN_BACK = N_(
    "The season this form was on was taken back on another phone meanwhile, so nothing "
    "was recorded. Check the money below, then mark the payment again."
)


def season_taken_back() -> list[Problem]:
    """What to say above a payment form whose season is no longer the table's (taken
    back meanwhile), shown again on the current season: the page said only that the
    season must be the id of one of the table's seasons, as the API says it."""
    return [Problem(tr(SEASON_TAKEN_BACK))]


def said_once(words: str, replayed: bool) -> str:
    """What a payment form's answer says; when the same form was recorded before, that
    it was recorded once."""
    if not replayed:
        return words
    return tr(
        "This payment had already been recorded from this form; it is recorded once: {paid}",
        paid=words,
    )


class PlainForm(FlaskForm):
    """A button's form: the CSRF token alone (taking a payment back)."""


def place(
    invalid: Invalid, fields: Mapping[str, Field], stake: StakeFields | None = None
) -> list[Problem]:
    """The service's errors on the form's fields (by the error's first part) and the
    ones no field says, returned to show at the top."""

    def locate(error: FieldError) -> tuple[Field | None, str]:
        head = error.field.split(".")[0]
        if head == "stake" and stake is not None:
            return stake_field(stake, error), error.field
        if head == "rules" and "rules" in fields:
            rules = fields["rules"].form
            part = error.field.split(".")[1] if "." in error.field else "profile"
            return getattr(rules, part, rules.profile), error.field
        return fields.get(head), error.field

    problems = place_errors(invalid.errors, locate)
    attach(problems)
    return [p for p in problems if p.field is None]


__all__ = [
    "PAYMENT_KEY_REUSED",
    "MergeForm",
    "MoveMatchForm",
    "NewTableForm",
    "PaymentForm",
    "PlainForm",
    "Problem",
    "RenameForm",
    "SeasonForm",
    "TableMatchForm",
    "key_spent",
    "season_taken_back",
    "new_payment_key",
    "place",
    "roster_names",
    "said_once",
    "typed_amount",
]
