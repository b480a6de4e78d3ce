"""The digest an idempotent write keeps of its request (a hand, a payment): the same
request sent again is recognised by it, whatever its key order and spacing."""

from __future__ import annotations

import hashlib
import json
from collections.abc import Mapping


def request_digest(request: Mapping[str, object]) -> str:
    """SHA-256 of ``request`` written canonically (sorted keys, no spaces)."""
    text = json.dumps(
        request,
        sort_keys=True,
        separators=(",", ":"),
        ensure_ascii=False,
        default=str,
    )
    return hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest()
