"""Security headers on every response; over https, HSTS and a Secure session cookie.

"Over https" is ``request.is_secure``: TLS at this server, or at a proxy whose headers
the app trusts (``ledger.http.proxy``).

Flask-WTF's extra check over https, that a form's Referer is this site, cannot hold:
the pages send no Referer at all (the policy below), so it is off
(``WTF_CSRF_SSL_STRICT`` in ``ledger.settings``). The forms stay protected by their
CSRF token, which is bound to the signed session, and by the cookie's SameSite=Lax.
"""

from flask import Flask, Response, request
from flask.sessions import SecureCookieSessionInterface, SessionMixin

CONTENT_SECURITY_POLICY = "; ".join(
    [
        "default-src 'self'",
        "script-src 'self'",
        "style-src 'self'",
        "img-src 'self' data:",
        "font-src 'self'",
        "object-src 'none'",
        "base-uri 'none'",
        "frame-ancestors 'none'",
        "form-action 'self'",
    ]
)

SECURITY_HEADERS = {
    "Content-Security-Policy": CONTENT_SECURITY_POLICY,
    "X-Content-Type-Options": "nosniff",
    # Read-only match links are secrets: never leak them to other sites in Referer.
    "Referrer-Policy": "no-referrer",
    "X-Frame-Options": "DENY",
}
#: Browsers that saw the ledger over https keep to https for a year.
HSTS = "max-age=31536000"


#: Sent by a page's script with a request made in the background (the editor's match
#: page fetching the new-hand form it keeps for a tap with no connection,
#: static/js/offline-entry.js).
BACKGROUND_HEADER = "X-Ledger-Background"


class SessionCookie(SecureCookieSessionInterface):
    """Flask's signed-cookie session, marked Secure whenever the request came over https
    (or always, with ``SESSION_COOKIE_SECURE``)."""

    def get_cookie_secure(self, app: Flask) -> bool:
        return bool(app.config["SESSION_COOKIE_SECURE"]) or request.is_secure

    def should_set_cookie(self, app: Flask, session: SessionMixin) -> bool:
        """A background request that changed nothing in the session leaves the cookie
        alone: an editor's session is refreshed by every answer, and one answered after
        a write of the same page (an undo, with its "put back" offer) would set the
        session as it was before that write."""
        if request.headers.get(BACKGROUND_HEADER) and not session.modified:
            return False
        return super().should_set_cookie(app, session)


def _set_security_headers(response: Response) -> Response:
    for name, value in SECURITY_HEADERS.items():
        response.headers.setdefault(name, value)
    if request.is_secure:
        response.headers.setdefault("Strict-Transport-Security", HSTS)
    return response


def init_security(app: Flask) -> None:
    app.session_interface = SessionCookie()
    app.after_request(_set_security_headers)
