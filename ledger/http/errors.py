"""Error handlers: JSON for /api/ paths, an HTML page for people everywhere else.

API errors have the shape of docs/api.md: {"errors": [{"field": "", "message": ...}]}.
A message passed to ``abort(code, "...")`` is shown as is (except for 500s); otherwise
the sentence below for the status code. Tracebacks are never shown.

The API answers in English. Pages answer in the visitor's language: the sentences below
are marked for translation, and a message given to ``abort`` is translated when it is a
``ledger.i18n.Msg`` or a sentence of the catalogue (``ledger.i18n.translate``).
"""

from flask import Flask, jsonify, make_response, render_template, request
from flask_babel import lazy_gettext as _l
from flask_wtf.csrf import CSRFError
from werkzeug.exceptions import HTTPException

from ledger.i18n import N_, tr, translate
from ledger.i18n.language import is_api_request

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


def error_response(error: HTTPException, message: str):
    code = error.code or 500
    if is_api_request():
        response = make_response(jsonify({"errors": [{"field": "", "message": message}]}), code)
    else:
        name = PAGE_TITLES.get(code) or PAGE_TITLES[500 if code >= 500 else 400]
        body = render_template("error.html", code=code, name=name, message=message)
        response = make_response(body, code)
    if code == 405:  # keep the Allow header that werkzeug computed
        for name, value in error.get_headers():
            if name.lower() == "allow":
                response.headers[name] = value
    return response


def handle_http_exception(error: HTTPException):
    if error.code is None or error.code < 400:  # redirects raised by routing
        return error
    return error_response(error, _message(error))


def handle_csrf_error(error: CSRFError):
    if is_api_request():
        return error_response(error, "The request is missing a valid CSRF token.")
    return error_response(error, str(CSRF_MESSAGE))


def init_errors(app: Flask) -> None:
    app.register_error_handler(CSRFError, handle_csrf_error)
    # Also receives unhandled exceptions, wrapped in InternalServerError.
    app.register_error_handler(HTTPException, handle_http_exception)
