"""Rate limits (Flask-Limiter) on what costs the server: creating and importing matches,
the PDFs and the settle API, and the guesses of an edit key. A table at play never meets
them; a script hammering the server does, and gets 429 with ``Retry-After`` (JSON under
/api/, a page elsewhere).

Who a request counts for (``client_key``): its address; within one match's PDFs, the
address and the match, and the holder of the match's edit key (its sealed session, or a
Bearer key) on a budget of its own. So phones behind one address (a club's NAT) following
one match share a count, but neither other matches' followers nor a match's own can lock
its scorekeeper out of the summary. Edit-key guesses (an API write with a wrong Bearer
key, an edit link with a wrong key: a 403) count per address, and only the 403s do; so
do the guesses of a player's own link (a wrong person key: 403 under a table, 401 on
``/me``, 403 on its join link).

Everything is configuration (``instance/config.py`` or ``create_app``'s mapping), with
these defaults:

- ``RATELIMIT_MATCH_CREATE``: new matches and tables, from the page and the API together;
  ``RATELIMIT_IMPORT``: imports; ``RATELIMIT_PDF``: the summaries and every slip together;
  ``RATELIMIT_SETTLE``: ``POST /api/v1/settle``; ``RATELIMIT_RESCORE``: a match's rescore
  (each settles every hand of the match again), from the API and the pages together;
  ``RATELIMIT_EDIT_KEY``: wrong edit keys.
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
import time
from collections.abc import Callable

from flask import Flask, Response, current_app, request
from flask_limiter import Limiter, RateLimitExceeded
from flask_limiter.util import get_remote_address
from werkzeug.exceptions import NotFound

from ledger import matches
from ledger.http.edit_keys import held_keys
from ledger.http.errors import error_response
from ledger.i18n import tr
from ledger.i18n.language import is_api_request
from ledger.tables.service import may_write_match

DEFAULT_LIMITS = {
    "RATELIMIT_MATCH_CREATE": "10 per minute; 100 per hour",
    "RATELIMIT_IMPORT": "10 per minute; 100 per hour",
    "RATELIMIT_PDF": "30 per minute; 300 per hour",
    "RATELIMIT_SETTLE": "120 per minute; 2000 per hour",
    "RATELIMIT_RESCORE": "30 per minute; 300 per hour",
    "RATELIMIT_EDIT_KEY": "20 per minute; 100 per hour",
}


def client_key() -> str:
    """Who this request counts for: its address, and within a match, the address and
    the match, or the match's edit-key holder (a budget of its own)."""
    address = get_remote_address()
    public_id = (request.view_args or {}).get("public_id")
    if not isinstance(public_id, str):
        return address
    if _holds_edit_key(public_id):
        return f"editor:{public_id}"
    return f"{address}:{public_id}"


def _holds_edit_key(public_id: str) -> bool:
    """Whether the request carries the match's edit key (checked, as every write checks
    it), in its sealed session or as ``Authorization: Bearer``."""

    header = request.headers.get("Authorization", "")
    scheme, _, bearer = header.partition(" ")
    keys = [held_keys().get(public_id), bearer.strip() if scheme.lower() == "bearer" else None]
    keys = [key for key in keys if key]
    if not keys:
        return False
    try:
        match = matches.get_match(public_id)
    except NotFound:
        return False
    return any(may_write_match(match, key) for key in keys)  # its own key or its table's


def _created(response: Response) -> bool:
    """A new match or table was made (201 from the API, the page's redirect to it): only
    that counts, never a step of the form ("Add a player") or a form sent back with
    problems."""
    return response.status_code in (201, 303)


def _refused_key(response: Response) -> bool:
    """A key was sent and refused: a wrong edit key (403), or a wrong or revoked own link
    on ``/me`` (401 with a key: a 401 without one is no guess)."""
    if response.status_code == 403:
        return True
    return response.status_code == 401 and "Authorization" in request.headers


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
        None,
        _created,
    ),
    ("RATELIMIT_IMPORT", ("api.import_match", "api.import_table"), ("POST",), None, None),
    (
        "RATELIMIT_PDF",
        (
            "reports.summary_pdf",
            "reports.hand_slip_pdf",
            "reports.settle_up_pdf",
            "reports.check_slip_pdf",
            "reports.what_if_pdf",
            "table_reports.season_pdf",
        ),
        ("GET", "HEAD"),  # HEAD renders the PDF too
        client_key,
        None,
    ),
    ("RATELIMIT_SETTLE", ("api.settle_hand",), ("POST",), None, None),
    (
        "RATELIMIT_EDIT_KEY",
        (
            "api.update_match",
            "api.add_hand",
            "api.replace_hand",
            "api.delete_hand",
            "matches.join",
            "api.update_table",
            "api.table_new_match",
            "api.table_change_player",
            "api.table_start_season",
            "api.table_add_payment",
            "api.table_delete_payment",
            "api.table_confirm_payment",
            "api.table_reject_payment",
            "api.give_person_link",
            "api.revoke_person_link",
            "api.take_down_handles",
            "api.renew_person_link",
            "api.me",
            "api.set_handles",
            "api.set_qr",
            "api.clear_qr",
            "api.forget_me",
            "people.join",
        ),
        ("GET", "POST", "PUT", "PATCH", "DELETE"),
        None,
        _refused_key,
    ),
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
        None,
        None,
    ),
)
EXTENSION = "ledger_limiter"


def _configured(key: str) -> Callable[[], str]:
    """The limit the setting ``key`` holds, read at each request."""
    return lambda: current_app.config[key]


def init_limits(app: Flask) -> None:
    """A limiter for this app and the limits on its costly routes; call after every
    blueprint is registered (it wraps their view functions)."""
    for key, value in DEFAULT_LIMITS.items():
        app.config.setdefault(key, value)
    app.config.setdefault("RATELIMIT_STORAGE_URI", "memory://")
    app.config.setdefault("RATELIMIT_SWALLOW_ERRORS", True)
    app.config.setdefault("RATELIMIT_IN_MEMORY_FALLBACK_ENABLED", True)
    limiter = Limiter(get_remote_address, app=app)
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


def retry_after() -> int:
    """Seconds until the limit that was hit lets this client in again (at least 1)."""
    limiter: Limiter = current_app.extensions[EXTENSION]
    current = limiter.current_limit
    if current is None:
        return 60
    return max(1, math.ceil(current.reset_at - time.time()))


def too_many_requests(error: RateLimitExceeded):
    seconds = retry_after()
    if is_api_request():
        message = (
            f"Too many requests of this kind from your address (at most {error.limit.limit}). "
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
