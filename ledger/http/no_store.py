"""Answers no cache may keep (``Cache-Control: no-store``): a page or part that changes
with every hand (a stale copy would show old scores, or stay on a TV all evening), an
answer that carries a key, a "try again" error. Said once here for the pages, the API
and the per-request plumbing alike."""

from __future__ import annotations

from flask import Response, make_response, request
from werkzeug.wrappers import Response as BaseResponse

#: The header, for an answer given as a tuple or made without Flask (the followers' polls).
NO_STORE = {"Cache-Control": "no-store"}


def unkept(body: str | BaseResponse, status: int | None = None) -> Response:
    """``body`` (a text, or a response already made: a redirect too) as an answer no
    cache may keep; ``status`` when given, else the body's own (200 for a text)."""
    response = make_response(body) if status is None else make_response(body, status)
    response.headers.update(NO_STORE)
    return response


#: Said to the service worker (static/js/offline-worker.js), which keeps nothing else: this
#: answer may be kept on the phone as the page's copy for a visit with no connection
#: ("page": the match page, the landing page, a table's page and its players' records, a
#: big screen, a player's own page and "All my tables"), or as the new-hand form the
#: match page fetches in the background for "Enter hand" with no connection ("form").
OFFLINE_COPY = "X-Ledger-Offline-Copy"


def may_keep_copy(response: Response) -> Response:
    """``response``, a page, marked as one whose copy the phone may keep: only a 200 to a
    GET (never an answer to a write, a form sent back with its problems, an error). What
    the page shows once is marked in its template and cut out of the copy."""
    if response.status_code == 200 and request.method == "GET":
        response.headers[OFFLINE_COPY] = "page"
    return response
