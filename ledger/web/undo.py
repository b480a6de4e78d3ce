"""Undo: right after a hand is saved, the browser that saved it may take it back in one tap;
right after a hand is deleted (or undone), it may put it back in one tap.

The offer is remembered in the session of the browser that saved (``offer_undo``) and
shown once, on the match page it is sent to (``take_undo_offer``). Undoing is a delete
with its history kept (``ledger.matches.delete_hand``); it is allowed only while the hand
is as it was saved and younger than the setting ``UNDO_SECONDS`` (``LEDGER_UNDO_SECONDS``),
so that a page left open cannot delete a hand without the delete page's confirmation.
"""

from __future__ import annotations

from datetime import datetime

from flask import current_app, session
from msgspec import Struct

from ledger import matches
from ledger.matches.models import Match, utcnow

SESSION_KEY = "undo"
PUT_BACK_KEY = "put_back"


class UndoOffer(Struct, frozen=True):
    number: int
    version: int
    seconds_left: int


def undo_seconds() -> int:
    return int(current_app.config["UNDO_SECONDS"])  # checked at start (ledger.settings)


def seconds_left(created_at: datetime) -> int:
    """How long a hand saved at ``created_at`` can still be undone (0: no longer)."""
    return max(0, int(undo_seconds() - (utcnow() - created_at).total_seconds()))


def offer_undo(public_id: str, number: int, version: int) -> None:
    session[SESSION_KEY] = [public_id, number, version]


def take_undo_offer(match: Match) -> UndoOffer | None:
    """The undo this browser was offered for ``match`` (then forgotten), when the hand is
    still as it was saved and young enough."""
    offer = session.get(SESSION_KEY)
    if not (isinstance(offer, list) and len(offer) == 3 and offer[0] == match.public_id):
        return None
    session.pop(SESSION_KEY)
    _, number, version = offer
    hand = matches.find_hand(match, number)
    if hand is None or hand.version != version:
        return None
    left = seconds_left(hand.created_at)
    return UndoOffer(number, version, left) if left else None


def offer_put_back(public_id: str, number: int) -> None:
    session[PUT_BACK_KEY] = [public_id, number]


def take_put_back_offer(match: Match) -> int | None:
    """The deleted hand this browser may put back on ``match``'s page (then forgotten),
    while it is still deleted (``ledger.matches.restore_hand``; its page offers it too)."""
    offer = session.get(PUT_BACK_KEY)
    if not (isinstance(offer, list) and len(offer) == 2 and offer[0] == match.public_id):
        return None
    session.pop(PUT_BACK_KEY)
    number = offer[1]
    if not isinstance(number, int) or matches.find_hand(match, number) is not None:
        return None
    return number
