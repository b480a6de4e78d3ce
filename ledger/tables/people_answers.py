"""The answers of a player's figures and of the people's API (own links, how to pay a
player), declared as ``ledger.matches.answers`` says: ``TypedDict``s that the code
building each answer returns and the OpenAPI document's schemas are made from."""

from __future__ import annotations

from typing import Annotated, NotRequired, TypedDict

from msgspec import Meta

from ledger.matches.answers import Time
from ledger.tables.models import MAX_QR_TEXT
from ledger.tables.people import MAX_HANDLE, MAX_LABEL, HandleKind

PRINTABLE = "printable: control, invisible and direction characters are refused (422 on the field)"


class Handle(TypedDict):
    """One way to pay a player: a wallet or a bank and their id there."""

    kind: HandleKind
    handle: Annotated[
        str,
        Meta(
            min_length=1,
            max_length=MAX_HANDLE,
            description=f"The wallet's id, number or account; {PRINTABLE}.",
        ),
    ]
    label: NotRequired[Annotated[str, Meta(max_length=MAX_LABEL, description=PRINTABLE)]]


class PayTo(TypedDict):
    """How to pay this player, as they set it with their own link."""

    handles: list[Handle]
    qr: Annotated[str, Meta(max_length=MAX_QR_TEXT)] | None
    set_at: Time


#: The answers that are components of the document (a class they use is one too).
ANSWERS: tuple[type, ...] = (PayTo,)
