"""A renamed player's old address (a page or a record bookmarked, or shared in the family
chat) answered with a redirect to their address now: the API's and the pages' alike."""

from __future__ import annotations

from urllib.parse import quote

from flask import redirect, request, url_for
from werkzeug.wrappers import Response

from ledger.tables import service
from ledger.tables.models import Table

#: What a query may hold as it is (RFC 3986's query characters, and ``%`` of those
#: already percent-encoded); any other byte is percent-encoded.
QUERY_SAFE = "!$&'()*+,;=:@/?%~"


def to_renamed_player(table: Table, name: str, endpoint: str) -> Response | None:
    """302 to ``endpoint`` (the player's record or page) under the name now of the player
    once called ``name``, the query kept (``?season=``); None when ``name`` is no earlier
    name (``service.renamed_to``). Not a permanent redirect: the old name may be taken by
    a new player, or the rename put back."""
    now = service.renamed_to(table, name)
    if now is None:
        return None
    # The query is passed on as it came: given to url_for, a key such as ``_external`` or
    # ``_anchor`` would be taken as an instruction. Its bytes are kept, those a client
    # sent unencoded (a name's letters in UTF-8) percent-encoded: decoded, they were lost.
    query = quote(request.query_string, safe=QUERY_SAFE)
    address = url_for(endpoint, public_id=table.public_id, name=now)
    return redirect(f"{address}?{query}" if query else address, 302)
