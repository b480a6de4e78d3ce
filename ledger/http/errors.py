"""Error handlers: JSON for /api/ paths, an HTML page for people everywhere else.

API errors have the shape of docs/api.md: {"errors": [{"field": "", "message": ...}]}.
A message passed to ``abort(code, "...")`` is shown as is (except for 500s); otherwise
the sentence below for the status code. Tracebacks are never shown.

The API answers in English. Pages answer in the visitor's language: the sentences below
are marked for translation, and a message given to ``abort`` is translated when it is a
``ledger.i18n.Msg`` or a sentence of the catalogue (``ledger.i18n.translate``).
"""

import errno
import logging
import time

from flask import Flask, Response, current_app, jsonify, make_response, render_template, request
from flask_babel import lazy_gettext as _l
from flask_wtf.csrf import CSRFError
from sqlalchemy.exc import DisconnectionError, InterfaceError, OperationalError
from sqlalchemy.exc import TimeoutError as PoolTimeout
from werkzeug.exceptions import HTTPException, ServiceUnavailable

from ledger.extensions import db
from ledger.http.expired_forms import kept_fields, sent_to
from ledger.http.no_store import unkept
from ledger.i18n import N_, tr, translate
from ledger.i18n.language import is_api_request
from ledger.matches.answers import Errors

log = logging.getLogger(__name__)

API_MESSAGES = {
    400: "The request body is not valid JSON.",
    401: "This needs the match's edit key.",
    403: "This edit key does not allow that.",
    404: "There is nothing at this address.",
    500: "Something went wrong on the server; please try again.",
}

PAGE_MESSAGES = {
    400: _l("The page could not understand what was sent. Go back and try again."),
    403: _l("You may not do this here. Check that you used the right link."),
    404: _l("There is no page at this address. Check the link, or start again from the home page."),
    405: _l("This page cannot be used that way. Start again from the home page."),
    500: _l("Something went wrong on our side. Please try again in a moment."),
}
#: The page's heading for each status (werkzeug's names are English only).
PAGE_TITLES = {
    400: _l("Bad request"),
    403: _l("Not allowed"),
    404: _l("Page not found"),
    405: _l("Not this way"),
    409: _l("Changed meanwhile"),
    413: _l("Too large"),
    429: _l("Too many requests"),
    500: _l("Something went wrong"),
    503: _l("Busy just now"),
}

CSRF_MESSAGE = _l("This form has expired. Reload the page and fill it in again.")
#: A form of this browser's own, only too old (ledger.http.expired_forms): kept to send again.
CSRF_KEPT_MESSAGE = _l(
    "This form was open for too long, so nothing was saved. What you typed is kept: send it again."
)
#: 413: the size limit that applied (the app's, or a route's own, like the import's);
#: within it, werkzeug's limit on the parts of a multipart form.
TOO_LARGE = {
    "api": "The request is larger than {size} {unit}",
    "page": N_("What you sent is larger than {size} {unit}."),
}
TOO_MANY_PARTS = {
    "api": "The request has too many parts.",
    "page": N_("What you sent has too many parts."),
}
KIB, MIB = 1024, 1024 * 1024

#: The database cannot be reached (PostgreSQL down, SQLite locked past its busy timeout
#: or failing to read its file), or the disk is full: a 503 that says to try again,
#: since nothing was stored (the phone's offline queue keeps the hand and resends it).
UNAVAILABLE_ERRORS = (OperationalError, InterfaceError, DisconnectionError, PoolTimeout, OSError)
#: A full disk, as the system and the databases say it (PostgreSQL's disk_full is 53100;
#: SQLite says "database or disk is full").
FULL_ERRNOS = frozenset({errno.ENOSPC, errno.EDQUOT})
FULL_WORDS = ("disk is full", "no space left", "53100")
#: Seconds to wait before trying again (``Retry-After``).
RETRY_AFTER = 5
UNAVAILABLE = {
    "unavailable": {
        "api": "The ledger cannot reach its database just now, so nothing was changed. "
        "Try again in a few seconds.",
        "page": N_(
            "The ledger cannot reach its database just now, so nothing was changed. "
            "Try again in a few seconds."
        ),
    },
    "full": {
        "api": "The server's disk is full, so nothing was changed. Try again once space is freed.",
        "page": N_(
            "The server's disk is full, so nothing was changed. Try again once space is freed."
        ),
    },
}
#: ``app.extensions`` key of the last such failure: ``(time.monotonic(), reason)``,
#: which ``/readyz`` reports for a while (``ledger.http.readiness``).
LAST_FAILURE = "ledger_last_unavailable"


def body_limit() -> tuple[int, str] | None:
    """The size limit of this request's body (the app's, or the route's own) for
    people: ``(256, "KiB")``, ``(4, "MiB")``; None when there is none."""
    limit = request.max_content_length
    if limit is None:
        return None
    if limit % MIB == 0:
        return limit // MIB, "MiB"
    return -(-limit // KIB), "KiB"


def _too_large(api: bool) -> str:
    """The 413 sentence: the limit that applied, or too many parts within it."""
    limit = body_limit()
    length = request.content_length
    most = request.max_content_length
    if limit is None or (length is not None and most is not None and length <= most):
        return TOO_MANY_PARTS["api"] if api else tr(TOO_MANY_PARTS["page"])
    size, unit = limit
    if api:
        return TOO_LARGE["api"].format(size=size, unit=unit)
    return tr(TOO_LARGE["page"], size=size, unit=unit)


def _message(error: HTTPException) -> str:
    code = error.code or 500
    api = is_api_request()
    messages = API_MESSAGES if api else PAGE_MESSAGES
    if code >= 500:
        return str(messages[500])
    if code == 413:
        return _too_large(api)
    if code == 405 and api:
        return f"This address does not accept {request.method} requests."
    if error.description and error.description != type(error).description:
        return str(error.description) if api else translate(error.description)
    return str(messages.get(code) or error.description or messages[400])


def error_response(error: HTTPException, message: str) -> Response:
    code = error.code or 500
    if is_api_request():
        errors: Errors = {"errors": [{"field": "", "message": message}]}
        response = make_response(jsonify(errors), code)
    else:
        name = PAGE_TITLES.get(code) or PAGE_TITLES[500 if code >= 500 else 400]
        body = render_template("error.html", code=code, name=name, message=message)
        response = make_response(body, code)
    if code == 405:  # keep the Allow header that werkzeug computed
        for name, value in error.get_headers():
            if name.lower() == "allow":
                response.headers[name] = value
    return response


def handle_http_exception(error: HTTPException) -> HTTPException | Response:
    if error.code is None or error.code < 400:  # redirects raised by routing
        return error
    return error_response(error, _message(error))


def handle_csrf_error(error: CSRFError) -> Response:
    if is_api_request():
        return error_response(error, "The request is missing a valid CSRF token.")
    kept = kept_fields(error)
    if kept is None:
        return error_response(error, str(CSRF_MESSAGE))
    body = render_template(
        "error.html",
        code=400,
        name=PAGE_TITLES[400],
        message=CSRF_KEPT_MESSAGE,
        kept=kept,
        kept_action=sent_to(),
    )
    return make_response(body, 400)


def unavailable_reason(error: BaseException) -> str | None:
    """``"full"`` (the disk), ``"unavailable"`` (the database) or None (another error)."""
    if isinstance(error, OSError):
        return "full" if error.errno in FULL_ERRNOS else None
    if not isinstance(error, UNAVAILABLE_ERRORS):
        return None
    cause = getattr(error, "orig", None) or error
    text = f"{getattr(cause, 'sqlstate', '')} {cause}".lower()
    return "full" if any(word in text for word in FULL_WORDS) else "unavailable"


def last_failure(app: Flask) -> tuple[float, str] | None:
    """When (``time.monotonic()``) and why the last request met ``UNAVAILABLE_ERRORS``."""
    return app.extensions.get(LAST_FAILURE)


def handle_unavailable(error: Exception) -> Response:
    """503 with ``Retry-After`` and a sentence; any other OSError stays a 500."""
    reason = unavailable_reason(error)
    if reason is None:
        raise error
    current_app.extensions[LAST_FAILURE] = (time.monotonic(), reason)
    log.warning("503 (%s): %s: %s", reason, type(error).__name__, error)
    try:
        db.session.rollback()
    except Exception:  # the connection itself is gone: the session is removed anyway
        log.debug("rollback after a failure failed", exc_info=True)
    api = is_api_request()
    words = UNAVAILABLE[reason]
    message = words["api"] if api else tr(words["page"])
    response = unkept(error_response(ServiceUnavailable(), message))
    response.headers["Retry-After"] = str(RETRY_AFTER)
    return response


def init_errors(app: Flask) -> None:
    app.register_error_handler(CSRFError, handle_csrf_error)
    for kind in UNAVAILABLE_ERRORS:
        app.register_error_handler(kind, handle_unavailable)
    # Also receives unhandled exceptions, wrapped in InternalServerError.
    app.register_error_handler(HTTPException, handle_http_exception)
