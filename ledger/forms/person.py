"""The forms of a player's own page (``ledger.web.people``): each carries its CSRF
token, as every form of the app does."""

from __future__ import annotations

from flask_babel import lazy_gettext as _l
from flask_wtf import FlaskForm
from flask_wtf.file import FileField
from wtforms import (
    FieldList,
    Form,
    FormField,
    HiddenField,
    SelectChoice,
    SelectField,
)

from ledger.forms import text_field
from ledger.forms.numbers import NumbersInput
from ledger.i18n import western_digits
from ledger.tables.people import HANDLE_KINDS, MAX_HANDLE, MAX_HANDLES, MAX_LABEL

#: The kinds of handle as the page names them (the wallets' own names are not
#: translated).
KIND_NAMES = {
    "esewa": "eSewa",
    "khalti": "Khalti",
    "fonepay": "Fonepay",
    "upi": "UPI",
    "bank": _l("Bank account"),
    "other": _l("Other"),
}


class IPaidForm(FlaskForm):
    """ "I paid Asha 150": the payer is the page's player; the form's own key
    (``new_payment_key``) records it once however often it is sent."""

    payment_key = HiddenField()
    #: The id of an earlier season whose debt it pays (empty: the current season).
    season = HiddenField()
    payee = SelectField(_l("To whom"), choices=[], validate_choice=False)
    amount = text_field(_l("Amount"), widget=NumbersInput(), inputmode="decimal")


class HandleRow(Form):
    kind = SelectField(
        _l("Kind"),
        choices=[SelectChoice(k, KIND_NAMES[k]) for k in HANDLE_KINDS],
        validate_choice=False,
    )
    handle = text_field(_l("Number or id"), maxlength=MAX_HANDLE)
    label = text_field(_l("Label (optional)"), maxlength=MAX_LABEL)


class HandlesForm(FlaskForm):
    """Up to MAX_HANDLES rows; a row with no handle is left out."""

    rows = FieldList(FormField(HandleRow), min_entries=MAX_HANDLES, max_entries=MAX_HANDLES)

    def handles(self) -> list[dict[str, str]]:
        """The rows filled in; a handle in Western digits (a Nepali keyboard types
        ९८४१…, which a payer copying it into a wallet app could not use)."""
        rows = [row.form for row in self.rows]  # row.label would be the row's own label
        return [
            {
                "kind": r.kind.data,
                "handle": western_digits(r.handle.data or ""),
                "label": r.label.data or "",
            }
            for r in rows
            if r.handle.data
        ]


class QrForm(FlaskForm):
    image = FileField(_l("A screenshot of your QR code (PNG or JPEG)"))
