"""A payment larger than the debt, asked about before it is recorded ("Mark paid" on the
table's page, "I paid" on a player's own page).

4400 typed for a debt of 440 is a slip of the finger far more often than a gift; once
the payee confirms without looking, the table's money is off by it. The pages' forms
come back once, saying what is owed and what was typed, with a button that records the
amount as typed. The JSON API records what it is sent, as it always has, unless asked
to refuse more than is owed (``?at_most_owed=1``, docs/api.md): the same ``owed_now``.
"""

from __future__ import annotations

from collections.abc import Callable
from decimal import Decimal, InvalidOperation
from typing import NamedTuple

from flask import request

from ledger.i18n import money, tr, western_digits
from ledger.tables.models import Table
from ledger.tables.money_view import owed_now
from ledger.tables.reading import PaymentSpec

#: The form's button that records the amount anyway; its value is the amount it was
#: asked about, so an amount changed after the question is asked about again.
CONFIRM = "confirmed"


class Question(NamedTuple):
    sentence: str  #: what is owed and what was typed, shown under the amount
    button: str  #: "Yes, record NPR 4,400.00"
    amount: str  #: the button's value: the amount asked about


class Asked(Exception):  # noqa: N818  (a question, not an error)
    """The payment was not recorded: the page asks first."""

    def __init__(self, question: Question) -> None:
        super().__init__(question.sentence)
        self.question = question


def ask_first(table: Table, you: str | None = None) -> Callable[[PaymentSpec], None]:
    """The service's ``ask`` for a page's payment form: raises Asked when the payment is
    more than its payer owes its payee and the form's confirmation was not for this
    amount. ``you``: the player whose own page asks (it speaks to them: "You owe …")."""

    def ask(paying: PaymentSpec) -> None:
        if _confirmed() == paying.amount:
            return
        owed = owed_now(table, paying)
        if paying.amount <= owed:
            return
        amount = money(paying.amount, paying.currency)
        if paying.payer == you:
            sentence = tr(
                "You owe {payee} {owed} now, and the amount you typed is {amount}. Check "
                "the amount; if it is right, record it as it is.",
                payee=paying.payee,
                owed=money(owed, paying.currency),
                amount=amount,
            )
        else:
            sentence = tr(
                "{payer} owes {payee} {owed} now, and the amount typed is {amount}. Check "
                "the amount; if it is right, record it as it is.",
                payer=paying.payer,
                payee=paying.payee,
                owed=money(owed, paying.currency),
                amount=amount,
            )
        button = tr("Yes, record {amount}", amount=amount)
        raise Asked(Question(sentence, button, str(paying.amount)))

    return ask


def _confirmed() -> Decimal | None:
    """The amount the form's "Yes, record" button was for (None: not pressed)."""
    try:
        sent = Decimal(western_digits(request.form.get(CONFIRM, "")))
    except InvalidOperation:
        return None
    return sent if sent.is_finite() else None  # NaN compares as no amount, or raises


__all__ = ["CONFIRM", "Asked", "Question", "ask_first"]
