"""Security headers on every response; over https, HSTS and a Secure session cookie.

"Over https" is ``request.is_secure``: TLS at this server, or at a proxy whose headers
the app trusts (``ledger.http.proxy``).

Flask-WTF's extra check over https, that a form's Referer is this site, cannot hold:
the pages send no Referer at all (the policy below), so it is off
(``WTF_CSRF_SSL_STRICT`` in ``ledger.settings``). The forms stay protected by their
CSRF token, which is bound to the signed session, and by the cookie's SameSite=Lax.
"""

import copy
from datetime import UTC, datetime, timedelta
from typing import Any

from flask import Flask, Request, Response, get_flashed_messages, request
from flask.sessions import SecureCookieSession, SecureCookieSessionInterface, SessionMixin
from itsdangerous import BadSignature, URLSafeTimedSerializer

from ledger.http.edit_keys import PERSON_SESSION_KEY
from ledger.http.edit_keys import SESSION_KEY as EDIT_RIGHTS_KEY

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


#: The session's values kept in cookies of their own, by cookie name: the edit keys and
#: the own links this browser holds. Each of the session's cookies is set only by an
#: answer whose request changed what it holds, so that a match's key or an own link a
#: request adds is not taken back by another request of the same browser answered after
#: it, which changed something else (a message, an undo offer, a form's token) and set
#: the session as it was when it began.
OWN_COOKIES = {"edit_rights": EDIT_RIGHTS_KEY, "own_links": PERSON_SESSION_KEY}
#: The cookie of the rest of the session (``SESSION_COOKIE_NAME``, "session").
REST = ""

Parts = dict[str, dict[str, Any]]


def _parts(data: dict[str, Any]) -> Parts:
    """The session's values by the cookie that holds them (``REST``: the session's own)."""
    own = set(OWN_COOKIES.values())
    parts: Parts = {REST: {k: v for k, v in data.items() if k not in own}}
    for cookie, key in OWN_COOKIES.items():
        parts[cookie] = {key: data[key]} if key in data else {}
    return parts


class StampedSession(SecureCookieSession):
    """A session that knows what each of its cookies held when its request began, and
    when each was last sent (absent: not yet)."""

    loaded: Parts | None = None
    stamps: dict[str, datetime] | None = None


class SessionCookie(SecureCookieSessionInterface):
    """Flask's signed-cookie session, marked Secure whenever the request came over https
    (or always, with ``SESSION_COOKIE_SECURE``), kept in a few cookies (``OWN_COOKIES``
    and the rest), each set by an answer only when its request changed what it holds,
    or once a day, unchanged, to restart its lifetime.

    Every answer that sets a cookie sets it as it was when its request began. Flask
    sends a permanent session's cookie with every answer, so one answered after a change
    made meanwhile (an own link opened, an edit link, an undo) took the change back: the
    offline worker fetching the page's static files as it first starts beside an own
    link opened lost that link. An unchanged session now sets no cookie but once a day,
    never from a background request; and a request that changed the session sets only
    the cookie of what it changed: a message or an undo offer (the rest) no longer takes
    back an own link or a match's key another tab added meanwhile."""

    session_class = StampedSession

    def get_cookie_secure(self, app: Flask) -> bool:
        return bool(app.config["SESSION_COOKIE_SECURE"]) or request.is_secure

    def open_session(self, app: Flask, request: Request) -> StampedSession | None:
        serializer = self.get_signing_serializer(app)
        if serializer is None:
            return None
        max_age = int(app.permanent_session_lifetime.total_seconds())
        loaded: Parts = {}
        stamps: dict[str, datetime] = {}
        for cookie in (REST, *OWN_COOKIES):
            name = cookie or self.get_cookie_name(app)
            loaded[cookie], stamp = _read(serializer, request.cookies.get(name), max_age)
            if stamp is not None:
                stamps[cookie] = stamp
        # A cookie set before the own cookies were split off holds their values itself:
        # read there until an own cookie is set, and left out when the rest is set again.
        data = dict(loaded[REST])
        for cookie, key in OWN_COOKIES.items():
            loaded[cookie] = {key: loaded[cookie][key]} if key in loaded[cookie] else {}
            data.update(loaded[cookie])
        session = StampedSession(data)
        session.loaded = copy.deepcopy(loaded)  # flash() appends to the list it finds
        session.stamps = stamps
        return session

    def save_session(self, app: Flask, session: SessionMixin, response: Response) -> None:
        """Set each cookie whose values the request changed, or that is due to be sent
        again (``_due``); delete one the request emptied."""
        if session.accessed:
            response.vary.add("Cookie")
        loaded = getattr(session, "loaded", None) or {}
        for cookie, part in _parts(dict(session)).items():
            changed = session.modified and part != loaded.get(cookie, {})
            if not (changed or (part and self._due(app, session, cookie))):
                continue
            name = cookie or self.get_cookie_name(app)
            if part:
                serializer = self.get_signing_serializer(app)
                assert serializer is not None  # the session was opened with it
                expires = self.get_expiration_time(app, session)
                self._set(app, response, name, serializer.dumps(part), expires)
            elif loaded.get(cookie):
                self._set(app, response, name, "", 0)
            else:
                continue
            response.vary.add("Cookie")

    def _due(self, app: Flask, session: SessionMixin, cookie: str) -> bool:
        """Whether the cookie, unchanged, is sent again to restart its lifetime: a
        permanent session's, last sent a day ago or more, not from a background request."""
        if not (session.permanent and app.config["SESSION_REFRESH_EACH_REQUEST"]):
            return False
        if request.headers.get(BACKGROUND_HEADER):
            return False
        stamp = (getattr(session, "stamps", None) or {}).get(cookie)
        return stamp is None or datetime.now(UTC) - stamp >= REFRESH_AFTER

    def _set(self, app: Flask, response: Response, name: str, value: str, expires: Any) -> None:
        response.set_cookie(
            name,
            value,
            expires=expires,
            max_age=0 if expires == 0 else None,
            httponly=self.get_cookie_httponly(app),
            domain=self.get_cookie_domain(app),
            path=self.get_cookie_path(app),
            secure=self.get_cookie_secure(app),
            partitioned=self.get_cookie_partitioned(app),
            samesite=self.get_cookie_samesite(app),
        )


def _read(
    serializer: URLSafeTimedSerializer, cookie: str | None, max_age: int
) -> tuple[dict[str, Any], datetime | None]:
    """A cookie's values and when it was set; none for a missing, old or forged one."""
    if not cookie:
        return {}, None
    try:
        data, issued_at = serializer.loads(cookie, max_age=max_age, return_timestamp=True)
    except BadSignature:
        return {}, None
    return (data, issued_at) if isinstance(data, dict) else ({}, None)


def flashed_for_the_page(**options: Any) -> list[Any]:
    """The pages' ``get_flashed_messages``: none for a request a page's script makes in
    the background, which leaves them in the session for the page the person opens next.
    Taken by a background render (the new-hand form fetched for no connection, a kept
    hand's fresh form token), "Hand 2 sent and saved." was gone from the match page the
    hands sent led to."""
    if request.headers.get(BACKGROUND_HEADER):
        return []
    return get_flashed_messages(**options)


def _set_security_headers(response: Response) -> Response:
    for name, value in SECURITY_HEADERS.items():
        response.headers.setdefault(name, value)
    if request.is_secure:
        response.headers.setdefault("Strict-Transport-Security", HSTS)
    return response


def init_security(app: Flask) -> None:
    app.session_interface = SessionCookie()
    app.jinja_env.globals["get_flashed_messages"] = flashed_for_the_page
    app.after_request(_set_security_headers)
