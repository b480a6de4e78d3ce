"""The API's keys: ``Authorization: Bearer <key>`` read, and checked for a document a
key owns (``ledger.http.owned``): none → 401, a wrong one → 403 (counted), an unknown
document 404 first. Each kind says its words once (``EditKeys``)."""

from __future__ import annotations

from typing import Generic, TypeVar

from flask import request
from msgspec import Struct

from ledger.api.errors import ApiError
from ledger.http.owned import Owned

D = TypeVar("D")


def bearer_key(realm: str, needed: str) -> str:
    """The key of ``Authorization: Bearer <key>``; 401 saying ``needed`` without one."""
    header = request.headers.get("Authorization", "").strip()
    scheme, _, key = header.partition(" ")
    if scheme.lower() != "bearer" or not key.strip():
        raise ApiError.one(401, needed, headers={"WWW-Authenticate": f'Bearer realm="{realm}"'})
    return key.strip()


class EditKeys(Struct, Generic[D], frozen=True):
    """A kind of owned document as the API checks its writes."""

    kind: Owned[D]
    #: The ``WWW-Authenticate`` realm of a 401.
    realm: str
    #: The 401's sentence (no key sent).
    needed: str
    #: The 403's sentence (a key that may not write to this document).
    wrong: str

    def editable(self, public_id: str) -> D:
        """The document, when the request carries a key that may write to it."""
        document = self.kind.load(public_id)
        key = bearer_key(self.realm, self.needed)
        if not self.kind.check(public_id, document, key):
            raise ApiError.one(403, self.wrong)
        return document
