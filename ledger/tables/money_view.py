"""The season's money as the table page and the season's PDF show it: the balances and
the fewest transfers of ``service.season_settle_up``, as Decimals for the filters."""

from __future__ import annotations

from collections.abc import Sequence
from decimal import Decimal
from typing import Any

from msgspec import Struct

from ledger.tables import service
from ledger.tables.figures import Standings
from ledger.tables.models import PENDING, Season, Table, TablePayment
from ledger.tables.reading import PaymentSpec


class Transfer(Struct, frozen=True):
    payer: str
    payee: str
    amount: Decimal | None
    points: int | None


class Balance(Struct, frozen=True):
    name: str
    total: int
    amount: Decimal | None
    paid: Decimal
    received: Decimal
    guest: bool = False


def decimal_or_none(text: str | None) -> Decimal | None:
    return None if text is None else Decimal(text)


def money_view(
    table: Table,
    season: Season | None,
    read: Standings | None = None,
    paid: Sequence[TablePayment] | None = None,
) -> dict[str, Any]:
    """The season's balances and the fewest transfers, as Decimals for the filters
    (``read``: the season's standings, ``paid``: its payments, when already read), and
    what each payer said they paid each payee and is not yet confirmed (``said``)."""
    found = service.payments(table, season) if paid is None else paid
    settle = service.season_settle_up(table, season, read, found)
    return {
        "currency": table.stake_currency,
        "balances": [
            Balance(
                b["name"],
                b["total"],
                decimal_or_none(b["amount"]),
                Decimal(b["paid"]),
                Decimal(b["received"]),
                b["guest"],
            )
            for b in settle["balances"]
            if b["total"] or (b["amount"] not in (None, "0.00"))
        ],
        "transfers": [
            Transfer(t["from"], t["to"], decimal_or_none(t.get("amount")), t.get("points"))
            for t in settle["transfers"]
        ],
        #: How to pay each player, as they set it (None: nothing set).
        "pay_to": {b["name"]: b["pay_to"] for b in settle["balances"]},
        "said": said_paid(found),
    }


def earlier_owed(table: Table, season: Season | None) -> list[tuple[Season, list[Transfer]]]:
    """For the current season at a stake (the table's page and its PDF): each earlier
    season still owing, with its transfers. A debt outlives its season and is marked
    paid on its season's page; the new season's page and PDF said nothing of it."""
    if season is not table.current_season or table.stake_currency is None:
        return []
    owed = [(s, money_view(table, s)["transfers"]) for s in table.seasons[:-1]]
    return [(s, transfers) for s, transfers in owed if transfers]


def said_paid(payments: Sequence[TablePayment]) -> dict[tuple[str, str], Decimal]:
    """What each payer said they paid each payee with their own link, by (payer, payee):
    the pending payments, which count once the payee confirms them. The transfer between
    the two still shows the whole debt meanwhile, and marking all of it paid again
    would pay it twice once the payee confirms both."""
    said: dict[tuple[str, str], Decimal] = {}
    for p in payments:
        if p.state == PENDING:
            said[p.payer, p.payee] = said.get((p.payer, p.payee), Decimal(0)) + p.amount
    return said


def owed_now(table: Table, paying: PaymentSpec) -> Decimal:
    """What the payer owes the payee in the payment's season, as the page shows it: the
    transfer between them, less what the payer already said they paid them and is not
    yet confirmed (that counts once the payee confirms it)."""
    season = next((s for s in table.seasons if s.public_id == paying.season), None)
    view = money_view(table, season or table.current_season)
    pair = (paying.payer, paying.payee)
    owed = sum(
        (t.amount for t in view["transfers"] if (t.payer, t.payee) == pair and t.amount),
        Decimal(0),
    )
    said: Decimal = view["said"].get(pair, Decimal(0))
    return max(owed - said, Decimal(0))
