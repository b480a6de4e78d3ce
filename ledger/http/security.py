"""Security headers on every response; over https, HSTS and a Secure session cookie.

"Over https" is ``request.is_secure``: TLS at this server, or at a proxy whose headers
the app trusts (``ledger.http.proxy``).

Flask-WTF's extra check over https, that a form's Referer is this site, cannot hold:
the pages send no Referer at all (the policy below), so it is off
(``WTF_CSRF_SSL_STRICT`` in ``ledger.settings``). The forms stay protected by their
CSRF token, which is bound to the signed session, and by the cookie's SameSite=Lax.
"""

from datetime import UTC, datetime, timedelta

from flask import Flask, Request, Response, request
from flask.sessions import SecureCookieSession, SecureCookieSessionInterface, SessionMixin
from itsdangerous import BadSignature

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


#: How often an unchanged session's cookie is sent again, its lifetime restarted.
REFRESH_AFTER = timedelta(days=1)


class StampedSession(SecureCookieSession):
    """A session that knows when its cookie was last sent (None: a new session)."""

    issued_at: datetime | None = None


class SessionCookie(SecureCookieSessionInterface):
    """Flask's signed-cookie session, marked Secure whenever the request came over https
    (or always, with ``SESSION_COOKIE_SECURE``), and sent again unchanged at most once a
    day.

    Every answer that sets the cookie sets the session as it was when its request began.
    Flask sends a permanent session's cookie with every answer, so one answered after a
    change made meanwhile (an own link opened, an edit link, an undo) took the change
    back: the offline worker fetching the page's static files as it first starts beside
    an own link opened lost that link. An unchanged session now sets no cookie, but once
    a day to restart its lifetime, and never from a background request."""

    session_class = StampedSession

    def get_cookie_secure(self, app: Flask) -> bool:
        return bool(app.config["SESSION_COOKIE_SECURE"]) or request.is_secure

    def open_session(self, app: Flask, request: Request) -> StampedSession | None:
        serializer = self.get_signing_serializer(app)
        if serializer is None:
            return None
        cookie = request.cookies.get(self.get_cookie_name(app))
        if not cookie:
            return StampedSession()
        max_age = int(app.permanent_session_lifetime.total_seconds())
        try:
            data, issued_at = serializer.loads(cookie, max_age=max_age, return_timestamp=True)
        except BadSignature:
            return StampedSession()
        session = StampedSession(data)
        session.issued_at = issued_at
        return session

    def should_set_cookie(self, app: Flask, session: SessionMixin) -> bool:
        if session.modified:
            return True
        if not (session.permanent and app.config["SESSION_REFRESH_EACH_REQUEST"]):
            return False
        if request.headers.get(BACKGROUND_HEADER):
            return False
        issued_at = getattr(session, "issued_at", None)
        return issued_at is None or datetime.now(UTC) - issued_at >= REFRESH_AFTER


def _set_security_headers(response: Response) -> Response:
    for name, value in SECURITY_HEADERS.items():
        response.headers.setdefault(name, value)
    if request.is_secure:
        response.headers.setdefault("Strict-Transport-Security", HSTS)
    return response


def init_security(app: Flask) -> None:
    app.session_interface = SessionCookie()
    app.after_request(_set_security_headers)
