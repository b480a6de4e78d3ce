"""Money at the end of the night: the players' match totals, in points and at a stake per
point, and the fewest payments that settle the table (docs/api.md#money).

Why a search: paying greedily (whoever owes most pays whoever is owed most) settles any
table in at most n - 1 payments, but not always in the fewest. Any set of payments links
the players into groups whose balances sum to zero, and a group of k players needs k - 1
payments, so the fewest payments is (players with a non-zero total) - (the most disjoint
zero-sum groups they split into). That split is found exactly by a search over subsets,
instant for a match's ten players.

A table where paying greedily takes five payments and four are enough (Esha's 4 squares
Asha's; the other four settle among themselves):

>>> totals = {"Asha": 4, "Bikash": 3, "Chandra": 3, "Dipa": -5, "Esha": -4, "Firoz": -1}
>>> result = settle_up(totals, parse_stake({"per_point": "0.50", "currency": "NPR"}))
>>> for t in result.transfers:
...     print(t.payer, "pays", t.payee, t.points, "points,", t.amount, result.stake.currency)
Dipa pays Bikash 3 points, 1.50 NPR
Dipa pays Chandra 2 points, 1.00 NPR
Esha pays Asha 4 points, 2.00 NPR
Firoz pays Chandra 1 points, 0.50 NPR
>>> result.balances[3]
Balance(name='Dipa', total=-5, amount=Decimal('-2.50'))
>>> result.to_json()["balances"][3]
{'name': 'Dipa', 'total': -5, 'amount': '-2.50'}

Without a stake the amounts are None:

>>> settle_up({"Asha": 2, "Bikash": -2}).to_json()["transfers"]
[{'from': 'Bikash', 'to': 'Asha', 'points': 2, 'amount': None}]
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from decimal import Context, Decimal, Inexact, localcontext
from typing import NamedTuple

from .declare import REFUSED, Body, Field, Kind, Reading, Schema
from .errors import N_, FieldError, Invalid
from .values import is_int

#: The exact search doubles its work with each player who has a non-zero total: a match's
#: 10 players take about 2 ms, 12 about 10 ms.
MAX_PLAYERS = 12

_AMOUNT = re.compile(r"(-?)([0-9]+)(?:\.([0-9]+))?", re.ASCII)
_CURRENCY = re.compile(r"[A-Z]{3}", re.ASCII)


@dataclass(frozen=True)
class Stake:
    """Money per point (exact, > 0, kept with 2 decimal places) and an ISO 4217 currency
    code (checked against the list of codes outside the engine)."""

    per_point: Decimal
    currency: str

    def __post_init__(self) -> None:
        value = self.per_point
        if not isinstance(value, Decimal) or not value.is_finite() or value <= 0:
            raise ValueError(f"per_point must be a Decimal greater than 0, not {value!r}")
        # Written again with exactly 2 places ("0.5" -> "0.50") from its digits: quantize()
        # would round to the context's precision.
        sign, digits, exponent = value.as_tuple()
        extra = -2 - int(exponent)  # digits past the second decimal place
        if extra > 0:
            if any(digits[-extra:]):
                raise ValueError(f"per_point has more than 2 decimal places: {value}")
            digits = digits[:-extra]
        else:
            digits += (0,) * -extra
        object.__setattr__(self, "per_point", Decimal((sign, digits, -2)))

    def to_json(self) -> dict[str, object]:
        return {"per_point": amount_text(self.per_point), "currency": self.currency}


class Balance(NamedTuple):
    name: str
    total: int  # the match total in points
    amount: Decimal | None  # total × per_point; None without a stake

    def to_json(self) -> dict[str, object]:
        return {"name": self.name, "total": self.total, "amount": amount_text(self.amount)}


class Transfer(NamedTuple):
    payer: str
    payee: str
    points: int  # > 0
    amount: Decimal | None  # points × per_point; None without a stake

    def to_json(self) -> dict[str, object]:
        return {
            "from": self.payer,
            "to": self.payee,
            "points": self.points,
            "amount": amount_text(self.amount),
        }


@dataclass(frozen=True)
class SettleUp:
    stake: Stake | None
    balances: tuple[Balance, ...]  # every player, in seat order
    transfers: tuple[Transfer, ...]  # the fewest that settle every balance

    def to_json(self) -> dict[str, object]:
        """The body of ``GET /api/v1/matches/<id>/settle-up`` (docs/api.md)."""
        return {
            "stake": self.stake.to_json() if self.stake else None,
            "balances": [b.to_json() for b in self.balances],
            "transfers": [t.to_json() for t in self.transfers],
        }


#: Money's smallest step: amounts are kept with exactly 2 decimal places.
CENT = Decimal("0.01")


def amount_text(amount: Decimal | None) -> str | None:
    """Money as the API writes it: a decimal string with its 2 places ("-12.50")."""
    return None if amount is None else format(amount, "f")


class PerPoint(Kind):
    """Money per point: a decimal string (a JSON number may have lost cents before it got
    here), more than 0, with at most 2 decimal places."""

    def read(self, value: object, parent: str, key: str | int, reading: Reading) -> object:
        match = _AMOUNT.fullmatch(value) if isinstance(value, str) else None
        if not isinstance(value, str):
            template = N_(
                'per_point must be the money per point as a decimal string, like "0.50" (a '
                "JSON number could lose cents)."
            )
        elif match is None:
            template = N_('per_point must be written in digits, like "0.50" or "5".')
        elif match[1] or not Decimal(value):
            template = N_("per_point must be more than 0.")
        elif len(match[3] or "") > 2:
            template = N_("per_point can have at most 2 decimal places.")
        else:
            return Decimal(value)
        reading.refuse(parent, key, template)
        return REFUSED

    def schema(self) -> Schema:
        return {"type": "string"}


class CurrencyCode(Kind):
    """A currency code's form: 3 capital letters (whether ISO 4217 lists it is for the
    caller, which has Babel's list)."""

    def read(self, value: object, parent: str, key: str | int, reading: Reading) -> object:
        if isinstance(value, str) and _CURRENCY.fullmatch(value):
            return value
        reading.refuse(
            parent, key, 'currency must be a 3-letter ISO 4217 code in capitals, like "NPR".'
        )
        return REFUSED

    def schema(self) -> Schema:
        return {"type": "string", "pattern": "^[A-Z]{3}$"}


#: A stake, ``{"per_point": "0.50", "currency": "NPR"}`` (null: points only).
STAKE = Body(
    (
        Field("per_point", PerPoint(), required=True),
        Field("currency", CurrencyCode(), required=True),
    ),
    N_(
        'The stake must be {"per_point": "0.50", "currency": "NPR"}, or null to play '
        "for points only."
    ),
    nulls_absent=False,
)


def read_stake_body(body: Body, value: object, field: str) -> Stake | None:
    """A stake read as ``body`` declares it (``STAKE``, or a caller's stricter one), or
    None for null; ``Invalid`` with every problem, on ``<field>.per_point`` and
    ``<field>.currency``."""
    if value is None:
        return None
    read = body.read_all(value, parent=field)
    return Stake(read["per_point"], read["currency"])


def parse_stake(value: object, field: str = "stake") -> Stake | None:
    """The stake of JSON input, ``{"per_point": "0.50", "currency": "NPR"}``, or None (null:
    points only), as ``STAKE`` declares it."""
    return read_stake_body(STAKE, value, field)


def settle_up(
    totals: Mapping[str, int],
    stake: Stake | None = None,
    prefer: Sequence[tuple[str, str]] = (),
    keep: Sequence[tuple[str, str, int]] = (),
) -> SettleUp:
    """Each player's balance and the fewest transfers that settle them all.

    ``totals`` maps each player (in seat order) to their match total in points; the totals
    must sum to zero. Raises ``Invalid`` otherwise (field ``totals`` or ``totals.<name>``).
    ``prefer``: (payer, payee) pairs to keep where the fewest transfers allow it, first
    first (a table's settle-up passes the pairs of the payments already made: whoever
    paid part of a debt is asked to pay the rest to the same person, not to another).
    ``keep``: (payer, payee, at most) transfers to keep where the fewest transfers allow
    it (a table's settle-up passes what is left of the plan made before any payment:
    whoever paid exactly what the plan said finds the rest of the plan unchanged, rather
    than sent to the same person again and everyone else's payments reshuffled).

    Many sets of payments can be equally few; the one returned is fixed by these rules,
    so the same totals always give the same transfers:

    1. The groups are taken one at a time: each is the zero-sum group holding the first
       seated player not yet in a group, among those that leave the rest splittable
       into the most groups; of these, the one with the fewest players, then the one
       whose players sit earliest (their seats compared in order).
    2. Within a group, each pair of ``prefer`` in turn whose payer still owes and whose
       payee is still owed pays as much as squares one of them; then the player who owes
       most pays the player owed most (ties: the earlier seat) likewise, until all are
       square.
    3. The transfers are listed by the payer's seat, then the payee's.
    4. With ``keep``: first each of its transfers in turn whose payer still owes and
       whose payee is still owed pays as much as squares one of them or reaches its
       "at most", across the whole table; then rules 1 and 2 settle what is left (a
       pair paying in both steps pays once, the sum). That plan is the answer when it
       takes no more transfers than rules 1 to 3 alone; else theirs is (payments made
       off the plan can leave a shorter one, and the fewest always wins).

    Money is exact: a total or a payment in points is an integer and ``per_point`` has at
    most 2 decimal places, so each amount is its points × ``per_point`` with exactly 2
    places, and the amounts of a player's transfers add up to their balance's amount.
    """
    names = list(totals)
    _check_totals(totals)
    points = [totals[name] for name in names]
    seat_of = {name: i for i, name in enumerate(names)}
    pairs = [(seat_of[d], seat_of[c]) for d, c in prefer if d in seat_of and c in seat_of]
    found = _fewest(points, pairs)
    kept = [(seat_of[d], seat_of[c], most) for d, c, most in keep if d in seat_of and c in seat_of]
    if kept:
        planned = _keeping(points, kept, pairs)
        if len(planned) <= len(found):
            found = planned

    def money(p: int) -> Decimal | None:
        return None if stake is None else _times(p, stake.per_point)

    return SettleUp(
        stake,
        tuple(Balance(name, p, money(p)) for name, p in zip(names, points, strict=True)),
        tuple(Transfer(names[d], names[c], p, money(p)) for d, c, p in found),
    )


def _check_totals(totals: Mapping[str, int]) -> None:
    errors = [
        FieldError(f"totals.{name}", "A total must be a whole number of points.")
        for name, p in totals.items()
        if not is_int(p)
    ]
    if not errors and sum(totals.values()) != 0:
        errors.append(
            FieldError(
                "totals",
                "The totals must add up to 0 to be settled; these add up to {total}.",
                total=sum(totals.values()),
            )
        )
    if len(totals) > MAX_PLAYERS:
        errors.append(
            FieldError("totals", "A settle-up is for at most {most} players.", most=MAX_PLAYERS)
        )
    if errors:
        raise Invalid(errors)


def _fewest(points: list[int], prefer: list[tuple[int, int]]) -> list[tuple[int, int, int]]:
    """The fewest payments (payer seat, payee seat, points) that settle ``points`` (by
    seat), by rules 1 to 3 of ``settle_up``."""
    seats = [i for i, p in enumerate(points) if p]
    found: list[tuple[int, int, int]] = []
    for group in _groups([points[i] for i in seats]):
        found += _pay_within([seats[i] for i in group], points, prefer)
    return sorted(found)


def _keeping(
    points: list[int], keep: list[tuple[int, int, int]], prefer: list[tuple[int, int]]
) -> list[tuple[int, int, int]]:
    """The payments of rule 4 of ``settle_up``: the ``keep`` transfers (seats) first, as
    far as they go, then the fewest for what is left.

    A kept payment never turns a balance's sign (it stops when either player is
    square), so what is left is settled by debtors paying creditors as before and a
    pair met again in that step pays the same way: it is added to the kept payment."""
    owed = list(points)
    paid: dict[tuple[int, int], int] = {}
    for payer, payee, most in keep:
        amount = min(most, -owed[payer], owed[payee])
        if amount > 0:
            owed[payer] += amount
            owed[payee] -= amount
            paid[payer, payee] = paid.get((payer, payee), 0) + amount
    for payer, payee, amount in _fewest(owed, prefer):
        paid[payer, payee] = paid.get((payer, payee), 0) + amount
    return sorted((payer, payee, amount) for (payer, payee), amount in paid.items())


def _groups(balances: list[int]) -> list[list[int]]:
    """The most disjoint zero-sum groups the balances (none 0, summing to 0) split into,
    as lists of indices, chosen by rule 1 of ``settle_up``.

    ``most[mask]``, for a subset (bit i: balance i) summing to zero, is the most groups
    it splits into: order a subset's members so that as many prefixes as possible sum to
    zero; each such prefix closes a group. So ``most[mask]`` = the best of
    ``most[mask without i]`` over its members i, plus 1 when ``mask`` sums to zero.
    """
    n = len(balances)
    sums = [0] * (1 << n)
    most = [0] * (1 << n)
    for mask in range(1, 1 << n):
        low = mask & -mask
        sums[mask] = sums[mask ^ low] + balances[low.bit_length() - 1]
        best, bits = 0, mask
        while bits:  # each member in turn left out
            bit = bits & -bits
            best = max(best, most[mask ^ bit])
            bits ^= bit
        most[mask] = best + (sums[mask] == 0)

    def members(mask: int) -> list[int]:
        return [i for i in range(n) if mask >> i & 1]

    groups = []
    rest = (1 << n) - 1
    while rest:
        low = rest & -rest
        others = rest ^ low
        candidates = []
        sub = others
        while True:  # every subset of the others, each with the first seated player
            group = sub | low
            if sums[group] == 0 and most[rest ^ group] == most[rest] - 1:
                candidates.append((group.bit_count(), members(group), group))
            if sub == 0:
                break
            sub = (sub - 1) & others
        _, seats, group = min(candidates)
        groups.append(seats)
        rest ^= group
    return groups


def _pay_within(
    seats: list[int], points: list[int], prefer: list[tuple[int, int]]
) -> list[tuple[int, int, int]]:
    """Payments (payer seat, payee seat, points) that square one zero-sum group: the
    ``prefer`` pairs (seats) first, then the greedy rule.

    Each payment squares at least one of its two players, whoever they are, so a group
    of k takes at most k - 1; it takes exactly k - 1 because no smaller part of the group
    sums to zero (``_groups`` found the most groups), so the last payment alone squares
    two players. Preferring some pairs therefore never costs a payment.
    """
    owed = {seat: points[seat] for seat in seats}
    out = []

    def pay(payer: int, payee: int) -> None:
        paid = min(-owed[payer], owed[payee])
        owed[payer] += paid
        owed[payee] -= paid
        out.append((payer, payee, paid))

    for payer, payee in prefer:
        if owed.get(payer, 0) < 0 < owed.get(payee, 0):
            pay(payer, payee)
    while any(owed.values()):
        pay(min(seats, key=lambda s: (owed[s], s)), max(seats, key=lambda s: (owed[s], -s)))
    return out


def _times(points: int, per_point: Decimal) -> Decimal:
    """points × per_point, exactly: the precision is as wide as the product's digits can be
    (Decimal's default of 28 digits would round a very large stake), and rounding traps."""
    width = len(str(abs(points))) + len(per_point.as_tuple().digits)
    with localcontext(Context(prec=width, traps=[Inexact])):
        return points * per_point
