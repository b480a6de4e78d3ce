"""Rate limits (Flask-Limiter) on what costs the server: creating and importing matches,
the PDFs and the settle API. A table at play never meets them; a script hammering the
server does, and gets 429 with ``Retry-After`` (JSON under /api/, a page elsewhere).

Requests are counted per client address. Everything is configuration (``instance/
config.py`` or ``create_app``'s mapping), with these defaults:

- ``RATELIMIT_MATCH_CREATE``: new matches, from the page and the API together;
  ``RATELIMIT_IMPORT``: imports; ``RATELIMIT_PDF``: the summaries and every slip together;
  ``RATELIMIT_SETTLE``: ``POST /api/v1/settle``. Each is a limit string of Flask-Limiter
  (``"10 per minute; 100 per hour"``): see ``DEFAULT_LIMITS``.
- ``RATELIMIT_STORAGE_URI``: where the counts live: ``memory://`` (this process) by
  default; a shared backend (e.g. ``redis://host:6379``, with its client package
  installed) when several processes serve the app. Should that backend fail, counting
  goes on in memory and no request fails for it.
- ``RATELIMIT_ENABLED``: ``True``; the test suite turns it off.
"""

from __future__ import annotations

import math
import time

from flask import Flask, Response, current_app
from flask_limiter import Limiter, RateLimitExceeded
from flask_limiter.util import get_remote_address

from ledger.errors import error_response, is_api_request
from ledger.i18n import tr

DEFAULT_LIMITS = {
    "RATELIMIT_MATCH_CREATE": "10 per minute; 100 per hour",
    "RATELIMIT_IMPORT": "10 per minute; 100 per hour",
    "RATELIMIT_PDF": "30 per minute; 300 per hour",
    "RATELIMIT_SETTLE": "120 per minute; 2000 per hour",
}


def _created(response: Response) -> bool:
    """A new match was made (201 from the API, the page's redirect to it): only that
    counts, never a step of the form ("Add a player") or a form sent back with problems."""
    return response.status_code in (201, 303)


#: What each limit covers: its config key, the endpoints that share one count, the methods.
LIMITED = (
    ("RATELIMIT_MATCH_CREATE", ("api.create_match", "matches.new"), ("POST",)),
    ("RATELIMIT_IMPORT", ("api.import_match",), ("POST",)),
    (
        "RATELIMIT_PDF",
        (
            "reports.summary_pdf",
            "reports.hand_slip_pdf",
            "reports.settle_up_pdf",
            "reports.check_slip_pdf",
        ),
        ("GET", "HEAD"),  # HEAD renders the PDF too
    ),
    ("RATELIMIT_SETTLE", ("api.settle_hand",), ("POST",)),
)
EXTENSION = "ledger_limiter"


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
    for key, endpoints, methods in LIMITED:
        shared = limiter.shared_limit(
            lambda key=key: current_app.config[key],
            scope=key.lower(),
            methods=list(methods),
            deduct_when=_created if key == "RATELIMIT_MATCH_CREATE" else None,
        )
        for endpoint in endpoints:
            app.view_functions[endpoint] = shared(app.view_functions[endpoint])
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
