"""The stake's fields (money per point and a currency): a part of the new-match form and
the match page's own small form, read into the API's ``{"per_point", "currency"}``.

An empty amount means no stake (points only). The amount may be typed in Devanagari
digits; the service (``ledger.matches.reading.read_stake``) checks the rest, and its errors
(fields ``stake.per_point`` / ``stake.currency``) land on these fields.
"""

from __future__ import annotations

from babel.core import get_global
from flask_babel import get_locale
from flask_babel import lazy_gettext as _l
from flask_wtf import FlaskForm
from wtforms import Field, Form, FormField, SelectField

from ledger.engine import FieldError, Stake
from ledger.forms import text_field
from ledger.forms.numbers import NumbersInput
from ledger.i18n import tr, western_digits
from ledger.i18n.numbers import currency_name

#: The currency offered first (the game is Nepal's).
DEFAULT_CURRENCY = "NPR"
#: Offered at the top of the list: where Marriage tables are often found.
COMMON_CURRENCIES = ("NPR", "INR", "USD", "GBP", "EUR", "AUD", "CAD", "AED", "QAR", "MYR")


def _current_currencies() -> tuple[str, ...]:
    """The codes some country uses as legal tender today (CLDR, through Babel): the list a
    person picks from. The API takes any ISO 4217 code."""
    spans = get_global("territory_currencies").values()
    return tuple(sorted({code for s in spans for code, _, end, tender in s if tender and not end}))


class StakeFields(Form):
    """Money per point and its currency (a ``FormField``: posted as ``stake-per_point``
    and ``stake-currency``)."""

    per_point = text_field(
        _l("Stake per point"),
        widget=NumbersInput(),
        inputmode="decimal",
        placeholder=_l("e.g. 0.50"),
    )
    currency = SelectField(_l("Currency"), choices=[], validate_choice=False)


class StakeForm(FlaskForm):
    """The match page's form that sets, changes or drops the stake (an editor's)."""

    stake = FormField(StakeFields)


def prepare_stake_fields(fields: StakeFields, stake: Stake | None = None) -> None:
    """The currency list in the page's language (common ones first, the chosen one
    always there), and the current stake as the fields' values when nothing was posted."""
    if fields.per_point.data is None and stake is not None:
        fields.per_point.data = format(stake.per_point, "f")
    chosen = fields.currency.data or (stake.currency if stake else DEFAULT_CURRENCY)
    fields.currency.data = chosen
    locale = get_locale()

    def option(code: str) -> tuple[str, str]:
        return code, f"{code} · {currency_name(code, locale)}"

    others = [c for c in _current_currencies() if c not in COMMON_CURRENCIES]
    if chosen not in COMMON_CURRENCIES and chosen not in others:
        others = sorted([*others, chosen])
    fields.currency.choices = {
        tr("Often used"): [option(c) for c in COMMON_CURRENCIES],
        tr("Every currency"): [option(c) for c in others],
    }


def read_stake_fields(fields: StakeFields) -> object:
    """The stake as the service reads it: None when the amount is empty."""
    amount = western_digits(fields.per_point.data or "")
    if not amount:
        return None
    return {"per_point": amount, "currency": fields.currency.data or ""}


def stake_field(fields: StakeFields, error: FieldError) -> Field | None:
    """The field a stake error (``stake``, ``stake.per_point``, ``stake.currency``) is on."""
    return fields.currency if error.field.endswith(".currency") else fields.per_point
