"""A write of a payment done once per ``Idempotency-Key`` (docs/api.md), as a hand is.

Money handed over must never be recorded twice: not by a double tap on "Mark paid", a
retry after a lost answer, or four phones sending one form. A write sent with a key
keeps it with a digest of the request and its first answer (``PaymentRequest``); the
same request again is answered from them, another request with the key is refused.
The table service calls these inside its write, which holds the table's row, and the
key is unique in the database: two requests at the same instant, in any process,
cannot both be carried out.

A key is its caller's (``by``: the id of the player whose own link sent it, None for
the table key): the scorekeeper and a player who happen to send the same key are two
requests, neither given the other's answer nor refused for the other's use of it.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from msgspec import Struct
from sqlalchemy import select

from ledger.engine import FieldError, Invalid
from ledger.extensions import db
from ledger.matches.digests import request_digest
from ledger.matches.reading import read_idempotency_key
from ledger.tables.models import PaymentRequest, Table


class Answered(Struct, frozen=True):
    """A payment write's answer (status and JSON body); ``replayed``: an earlier request
    with the same key was answered so, and nothing was done now."""

    status: int
    body: Mapping[str, Any]  # a payment (``answers.TablePayment``; {} for a 204)
    replayed: bool = False


class KeyReused(Invalid):
    """The key was sent before with another request (422): a key names one request."""

    def __init__(self) -> None:
        super().__init__(
            [
                FieldError(
                    "Idempotency-Key",
                    "This Idempotency-Key was already used for another write of this "
                    "table's payments. Send a new key with a new request, or the very same "
                    "request to get its answer again.",
                )
            ]
        )


def read_key(value: object) -> str | None:
    """The request's key (None: sent without one); Invalid on ``Idempotency-Key``."""
    if value is None:
        return None
    try:
        return read_idempotency_key(value)
    except FieldError as problem:
        raise Invalid([problem]) from None


def digest(method: str, payment_id: int | None, body: object) -> str:
    """The digest of a payment write (``request_digest``)."""
    return request_digest({"method": method, "payment": payment_id, "body": body})


def answered_before(
    table: Table, by: int | None, key: str | None, request_digest: str
) -> Answered | None:
    """The first answer to this request when its caller (``by``) used the key before
    (None: they did not, or no key); ``KeyReused`` when they used it with another
    request."""
    if key is None:
        return None
    earlier = db.session.scalars(
        select(PaymentRequest).where(
            PaymentRequest.table_id == table.id,
            PaymentRequest.player_id.is_(None) if by is None else PaymentRequest.player_id == by,
            PaymentRequest.idempotency_key == key,
        )
    ).one_or_none()
    if earlier is None:
        return None
    if earlier.request_digest != request_digest:
        raise KeyReused()
    return Answered(earlier.status, earlier.answer, replayed=True)


def remember(
    table: Table,
    by: int | None,
    key: str | None,
    request_digest: str,
    answer: Answered,
    payment_id: int | None,
) -> None:
    """Inside the write: keep the caller's key with the answer it got (nothing without
    a key)."""
    if key is None:
        return
    db.session.add(
        PaymentRequest(
            table_id=table.id,
            player_id=by,
            idempotency_key=key,
            request_digest=request_digest,
            payment_id=payment_id,
            status=answer.status,
            answer=dict(answer.body),
        )
    )


def rename_in_answers(table: Table, old: str, new: str) -> None:
    """Inside a rename or merge: the kept answers name the player as the roster now
    does, so that no stored row names someone who is not there."""
    for kept in db.session.scalars(
        select(PaymentRequest).where(
            PaymentRequest.table_id == table.id, PaymentRequest.payment_id.is_not(None)
        )
    ):
        body = kept.answer
        if old in (body.get("from"), body.get("to")):
            kept.answer = {
                **body,
                **{side: new for side in ("from", "to") if body.get(side) == old},
            }
