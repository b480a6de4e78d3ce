"""Each API operation's declaration, on its view: what its route and docstring cannot say.

A view's route gives the operation's method, path and path parameters, its docstring the
summary (first line) and description (the rest), and ``@described`` on it the rest.
``ledger.api.openapi_paths`` reads all three into the OpenAPI document, and refuses an
API route without it.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar

from msgspec import Struct

View = TypeVar("View", bound=Callable[..., Any])

#: The error statuses of a write: a match's (409: not the hand loaded, or the match is
#: finished), a table's, a player's own link's.
WRITES = "400 401 403 404 409 413 422 429"
TABLE_WRITES = "400 401 403 404 413 422 429"
LINK_WRITES = "401 403 404 422 429"
#: Descriptions' sentences that several operations share.
ONCE = (
    "Done once per Idempotency-Key (as a hand is stored once); the key is kept as long as "
    "the payment it recorded."
)
ANSWERED = (
    "With the payee's own key; a payee without one is answered for with the table key. "
    "Confirming a rejected payment or rejecting a confirmed one: 409."
)


class Operation(Struct, frozen=True):
    """An operation's declaration; its words are ``ledger.api.openapi_paths``'s."""

    tag: str
    #: Its error statuses, space-separated (a word above for the shared sets).
    errors: str
    #: Its answers, each ``status schema[+header]: description`` (``-``: no body).
    answers: tuple[str, ...]
    #: Its request body: a component's name, or a word of ``BODIES``.
    body: str = ""
    #: Who may call it: a word of ``KEYS`` (none: anyone).
    key: str = ""
    #: Its query and header parameters, after the path's: words of ``PARAMETERS``.
    also: str = ""
    #: A shared sentence its description ends with.
    note: str = ""


#: Every declared view.
DECLARED: dict[Callable[..., Any], Operation] = {}


def described(
    tag: str,
    errors: str,
    *answers: str,
    body: str = "",
    key: str = "",
    also: str = "",
    note: str = "",
) -> Callable[[View], View]:
    """Declare the operation of the view under it, in ``Operation``'s words (the view or
    any wrapper of it that ``functools.wraps`` it)."""

    def declare(view: View) -> View:
        DECLARED[view] = Operation(tag, errors, answers, body, key, also, note)
        return view

    return declare
