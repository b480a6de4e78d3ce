"""The documents an edit key owns (a match, a table), each described once: how it is
found from its public id and which keys may write to it. The API's bearer keys, the
pages' held keys and the join links check keys through these, counting each wrong one
(``ledger.http.wrong_keys``), so that a new kind of owned document is one more
description here, not a copy of the checks."""

from __future__ import annotations

from collections.abc import Callable
from typing import Generic, TypeVar

from msgspec import Struct

from ledger import matches
from ledger.http.wrong_keys import count_wrong_key
from ledger.matches.models import Match
from ledger.tables import service
from ledger.tables.models import Table

D = TypeVar("D")


class Owned(Struct, Generic[D], frozen=True):
    """A kind of document an edit key gives write rights on."""

    #: The kind's name: a wrong key is counted against ``"<name>:<public id>"``.
    name: str
    #: The document with this public id, or a 404.
    load: Callable[[str], D]
    #: Whether ``key`` may write to the document (constant time).
    may_write: Callable[[D, object], bool]

    def check(self, public_id: str, document: D, key: object) -> bool:
        """Whether ``key`` may write to ``document`` (``load(public_id)``); a wrong key is
        counted (429 past the guesses' budget)."""
        if self.may_write(document, key):
            return True
        count_wrong_key(f"{self.name}:{public_id}")
        return False


#: A match: its own edit key, or the key of the table it is played in.
MATCH: Owned[Match] = Owned("match", matches.get_match, service.may_write_match)
#: A table: its edit key.
TABLE: Owned[Table] = Owned("table", service.get_table, service.check_table_key)
