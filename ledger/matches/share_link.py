"""A hand in a link: the settle request of docs/api.md as compact base64url JSON (``?h=``), so
the dispute checker and its slip can be opened by anyone the link is sent to."""

from __future__ import annotations

import base64
import binascii
import json
import re
from typing import Any

from ledger.engine import HouseRules
from ledger.i18n import N_

MAX_LINK_CHARS = 8000
_BASE64URL = re.compile(r"[A-Za-z0-9_-]*")


class ShareLinkError(ValueError):
    """A shared link that does not hold a hand."""


def encode_hand_link(request_json: dict[str, Any]) -> str:
    """The ``h`` of a shared link: the settle request as compact base64url JSON."""
    compact = {k: v for k, v in request_json.items() if v is not None}
    text = json.dumps(compact, separators=(",", ":"), ensure_ascii=False)
    return base64.urlsafe_b64encode(text.encode("utf-8")).rstrip(b"=").decode("ascii")


def stored_hand_link(hand_json: dict[str, Any], rules: HouseRules) -> str:
    """The ``h`` that opens a match's stored hand (``Hand.to_json()``) in the dispute
    checker under the match's rules: the same hand, to change and settle again."""
    spec: str | dict[str, Any] = rules.spec() if rules.overrides() else rules.profile
    return encode_hand_link({"rules": spec, **hand_json})


def decode_hand_link(h: str) -> dict[str, Any]:
    """The settle request in ``h``; ShareLinkError with a sentence for people."""
    broken = N_("This link to a hand is damaged: it may have been cut short when it was copied.")
    h = h.strip().rstrip("=")
    if len(h) > MAX_LINK_CHARS:
        raise ShareLinkError(N_("This link to a hand is too long to be one of ours."))
    if not h or not _BASE64URL.fullmatch(h):
        raise ShareLinkError(broken)
    try:
        raw = base64.urlsafe_b64decode(h + "=" * (-len(h) % 4))
        data = json.loads(raw.decode("utf-8"))
        # A lone surrogate ("\ud800") is valid JSON but no text: no page could show it.
        json.dumps(data, ensure_ascii=False).encode("utf-8")
    except (binascii.Error, ValueError, RecursionError):
        raise ShareLinkError(broken) from None
    if not isinstance(data, dict):
        raise ShareLinkError(N_("This link does not hold a hand."))
    return data
