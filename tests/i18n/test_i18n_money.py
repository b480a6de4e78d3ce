"""Money as the pages and the PDFs write it (ledger.i18n.numbers.money)."""

from __future__ import annotations

from decimal import Decimal

import pytest

from ledger.i18n.numbers import money


@pytest.mark.parametrize(
    ("amount", "currency", "shown"),
    [
        # A currency of no minor unit at a stake with cents: a column of ¥6.05 and ¥1.1
        # (Babel drops the trailing zero down to the yen's 0 places).
        ("1.10", "JPY", "¥1.10"),
        ("6.05", "JPY", "¥6.05"),
        ("55.00", "JPY", "¥55"),  # a whole amount: the yen's own way
        ("12.50", "NPR", "NPR\N{NO-BREAK SPACE}12.50"),
        ("12.00", "USD", "$12.00"),
    ],
)
def test_an_amount_keeps_its_cents_whatever_the_currencys_places(app, amount, currency, shown):
    with app.test_request_context():
        assert money(Decimal(amount), currency) == shown
