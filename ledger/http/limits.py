"""Rate limits (Flask-Limiter) on what costs the server: creating and importing matches,
the PDFs, the settle API and the rescores. A table at play never meets them; a script
hammering the server does, and gets 429 with ``Retry-After`` (JSON under /api/, a page
elsewhere). Wrong edit keys have a budget of their own, counted once the key is checked
(``ledger.http.wrong_keys``).

Who a request counts for (``client_key``): the holder of the edit key of the match or
table it names (its sealed session, or a Bearer key) on a budget of that match's or
table's own; anyone else by address, and within a match or a table, by the address and
that match or table. So phones behind one address (a home router, a club's NAT) share a
count, but they can neither lock the scorekeeper out of the PDFs, the What if…? and the
table's new matches, nor each other out of another match's. Imports count per address,
on a budget of their own: importing does not use up the new matches', nor the reverse.

Everything is configuration (``instance/config.py`` or ``create_app``'s mapping), with
these defaults:

- ``RATELIMIT_MATCH_CREATE``: new matches and tables, from the page and the API together;
  ``RATELIMIT_IMPORT``: imports of a match or a table, from the page and the API
  together; ``RATELIMIT_PDF``: the summaries, every slip and the What if…? PDFs
  together; ``RATELIMIT_SETTLE``: ``POST /api/v1/settle``; ``RATELIMIT_RESCORE``: a
  match's or a season's rescore (each settles every hand again), from the API and the
  pages together; ``RATELIMIT_EDIT_KEY``: wrong edit keys, per address and target.
  Each is a limit string of Flask-Limiter (``"10 per minute; 100 per hour"``): see
  ``DEFAULT_LIMITS``.
- ``RATELIMIT_STORAGE_URI``: where the counts live: ``memory://`` (this process) by
  default; ``redis://host:6379`` (the ``redis`` extra: ``pip install
  marriage-ledger[redis]``) when several processes serve the app, so that they share one
  count (else each process counts alone and N processes allow N times each limit).
  Should that backend fail, counting goes on in memory and no request fails for it.
- ``RATELIMIT_ENABLED``: ``True``; the test suite turns it off.
"""

from __future__ import annotations

import math
import re
import time
from collections.abc import Callable

from flask import Flask, Response, current_app, request
from flask_limiter import Limiter, RateLimitExceeded
from flask_limiter.util import get_remote_address
from limits import parse_many
from limits.errors import ConfigurationError
from werkzeug.exceptions import NotFound

from ledger import matches
from ledger.http.edit_keys import held_keys
from ledger.http.errors import error_response
from ledger.http.wrong_keys import LIMITER as EXTENSION
from ledger.http.wrong_keys import TooManyWrongKeys
from ledger.i18n import tr
from ledger.i18n.language import is_api_request
from ledger.tables.service import check_table_key, get_table, may_write_match

DEFAULT_LIMITS = {
    "RATELIMIT_MATCH_CREATE": "10 per minute; 100 per hour",
    "RATELIMIT_IMPORT": "10 per minute; 100 per hour",
    "RATELIMIT_PDF": "30 per minute; 300 per hour",
    "RATELIMIT_SETTLE": "120 per minute; 2000 per hour",
    "RATELIMIT_RESCORE": "30 per minute; 300 per hour",
    "RATELIMIT_EDIT_KEY": "20 per minute; 100 per hour",
}


#: ``<public_id>`` or ``<id:public_id>`` in a route.
PUBLIC_ID_PART = re.compile(r"<(?:\w+:)?public_id>")


def client_key() -> str:
    """Who this request counts for: the edit-key holder of the match or table it names (a
    budget of its own), else its address and that match or table (or its address)."""
    named = _named()
    if named is None:
        return get_remote_address()
    return _holder(*named) or f"{get_remote_address()}:{named[1]}"


def holder_or_address() -> str:
    """The edit-key holder of the match or table the request names, else its address."""
    named = _named()
    return (_holder(*named) if named else None) or get_remote_address()


def _named() -> tuple[str, str] | None:
    """The match or table this request's address names: ``("match" | "table", id)``."""
    public_id = (request.view_args or {}).get("public_id")
    if not isinstance(public_id, str) or request.url_rule is None:
        return None
    before = PUBLIC_ID_PART.split(request.url_rule.rule)[0].rstrip("/")
    return ("table" if before.endswith("/tables") else "match"), public_id


def _holder(kind: str, public_id: str) -> str | None:
    """``"editor:<kind>:<id>"`` when the request carries the edit key of that match or
    table (checked, as every write checks it), in its sealed session or as
    ``Authorization: Bearer``; else None."""
    header = request.headers.get("Authorization", "")
    scheme, _, bearer = header.partition(" ")
    keys = [held_keys().get(public_id), bearer.strip() if scheme.lower() == "bearer" else None]
    keys = [key for key in keys if key]
    if not keys:
        return None
    try:
        if kind == "table":
            table = get_table(public_id)
            right = any(check_table_key(table, key) for key in keys)
        else:
            match = matches.get_match(public_id)
            right = any(may_write_match(match, key) for key in keys)  # its own or its table's
    except NotFound:
        return None
    return f"editor:{kind}:{public_id}" if right else None


def _created(response: Response) -> bool:
    """A new match or table was made (201 from the API, the page's redirect to it): only
    that counts, never a step of the form ("Add a player") or a form sent back with
    problems."""
    return response.status_code in (201, 303)


#: What each limit covers: its config key, the endpoints that share one count, the
#: methods, who counts (None: the address) and which answers count (None: all).
LIMITED: tuple[
    tuple[
        str,
        tuple[str, ...],
        tuple[str, ...],
        Callable[[], str] | None,
        Callable[[Response], bool] | None,
    ],
    ...,
] = (
    (
        "RATELIMIT_MATCH_CREATE",
        (
            "api.create_match",
            "matches.new",
            "api.create_table",
            "api.table_new_match",
            "tables.new",
            "tables.new_match",
        ),
        ("POST",),
        holder_or_address,
        _created,
    ),
    (
        "RATELIMIT_IMPORT",
        ("api.import_match", "api.import_table", "matches.import_saved", "tables.import_saved"),
        ("POST",),
        None,
        None,
    ),
    (
        "RATELIMIT_PDF",
        (
            "reports.summary_pdf",
            "reports.hand_slip_pdf",
            "reports.settle_up_pdf",
            "reports.check_slip_pdf",
            "reports.what_if_pdf",
            "reports.season_what_if_pdf",
            "table_reports.season_pdf",
        ),
        ("GET", "HEAD"),  # HEAD renders the PDF too
        client_key,
        None,
    ),
    ("RATELIMIT_SETTLE", ("api.settle_hand",), ("POST",), None, None),
    (
        "RATELIMIT_RESCORE",
        (
            "api.rescore",
            "what_if.what_if",
            "what_if.change_rules",
            "api.table_rescore",
            "table_what_if.what_if",
        ),
        ("GET", "POST"),
        holder_or_address,
        None,
    ),
)


#: Said when Flask-Limiter cannot use ``RATELIMIT_STORAGE_URI``: a scheme it does not know
#: (``127.0.0.1:6379``), or Redis's without the ``redis`` package. The URI is not repeated:
#: it may hold Redis's password.
STORAGE_PROBLEM = (
    "LEDGER_RATELIMIT_STORAGE_URI cannot be used: it must be memory:// (this process's"
    " counts, the default) or redis://host:6379 (shared by every process), with the redis"
    " package installed (pip install 'marriage-ledger[redis]' in the ledger's virtualenv)."
)


def _check_limit(key: str, value: object) -> None:
    """ValueError unless ``value`` is a limit Flask-Limiter reads: one it cannot was logged
    at each request and not applied, so the host's limit was silently off."""
    try:
        if not isinstance(value, str):  # a number, read as JSON
            raise ValueError(value)
        parse_many(value)
    except ValueError:
        raise ValueError(
            f'LEDGER_{key} must be limits such as "10 per minute; 100 per hour": got {value!r}'
        ) from None


def _configured(key: str) -> Callable[[], str]:
    """The limit the setting ``key`` holds, read at each request."""
    return lambda: current_app.config[key]


def init_limits(app: Flask) -> None:
    """A limiter for this app and the limits on its costly routes; call after every
    blueprint is registered (it wraps their view functions)."""
    for key, value in DEFAULT_LIMITS.items():
        _check_limit(key, app.config.setdefault(key, value))
    app.config.setdefault("RATELIMIT_STORAGE_URI", "memory://")
    app.config.setdefault("RATELIMIT_SWALLOW_ERRORS", True)
    app.config.setdefault("RATELIMIT_IN_MEMORY_FALLBACK_ENABLED", True)
    try:
        limiter = Limiter(get_remote_address, app=app)
    except ConfigurationError:  # a traceback stopped init-db and serve: a sentence instead
        raise ValueError(STORAGE_PROBLEM) from None
    app.extensions[EXTENSION] = limiter
    for key, endpoints, methods, key_func, deduct_when in LIMITED:
        shared = limiter.shared_limit(
            _configured(key),
            scope=key.lower(),
            methods=list(methods),
            key_func=key_func,
            deduct_when=deduct_when,
        )
        for endpoint in endpoints:
            app.view_functions[endpoint] = shared(app.view_functions[endpoint])  # type: ignore[assignment]
    app.register_error_handler(RateLimitExceeded, too_many_requests)
    app.register_error_handler(TooManyWrongKeys, too_many_wrong_keys)


def retry_after() -> int:
    """Seconds until the limit that was hit lets this client in again (at least 1)."""
    limiter: Limiter = current_app.extensions[EXTENSION]
    current = limiter.current_limit
    if current is None:
        return 60
    return max(1, math.ceil(current.reset_at - time.time()))


def too_many_requests(error: RateLimitExceeded) -> Response:
    return limited_response(error, str(error.limit.limit), retry_after())


def too_many_wrong_keys(error: TooManyWrongKeys) -> Response:
    return limited_response(error, error.limit, error.seconds)


def limited_response(
    error: RateLimitExceeded | TooManyWrongKeys, limit: str, seconds: int
) -> Response:
    """The 429: JSON under /api/, a page in the visitor's language elsewhere."""
    if is_api_request():
        message = (
            f"Too many requests of this kind from your address (at most {limit}). "
            f"Try again in {seconds} seconds."
        )
    else:
        message = tr(
            "Too many requests from your address just now. "
            "Please wait {seconds} seconds and try again.",
            seconds=seconds,
        )
    response = error_response(error, message)
    response.headers["Retry-After"] = str(seconds)
    return response
