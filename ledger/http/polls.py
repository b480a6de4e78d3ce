"""The followers' poll, answered before Flask while the match has not changed.

Every phone that follows a match asks ``GET /matches/<id>/live?v=<version>`` every
3 s (``ledger.web.matches.live``; a big screen asks ``/matches/<id>/screen/live``,
``ledger.web.screen.live``), and nearly always hears 204: nothing new. Through Flask
that answer cost 2.6 times ``/healthz`` (the session, the language, the ORM row,
the after-request hooks), so 1,000 phones kept the server busy saying nothing.
``UnchangedPolls`` answers it in front of the app with one indexed query, ``SELECT
version FROM matches WHERE public_id = ?``, and hands every other request to the app
untouched: a poll whose version differs, an id that is not a match's (the app's 404),
any other method or route. It reads one column of the one match named in the address:
no key is needed to follow a match, and nothing is written.

When the database cannot be reached (PostgreSQL restarting, SQLite locked past its
busy timeout), a poll is answered 503 with ``Retry-After`` and a line of text, in front
of the app when its version cannot be read, and also when the app's answer to a poll
fails outside the app's own error handling (its teardown): never the server's bare 500.
A follower's page keeps what it shows and polls again.

Its 204 carries the headers the app's would (``Cache-Control: no-store`` and the
security headers, HSTS over https); not the app's ``Vary`` and ``Content-Type``, which
mean nothing on an answer without a body that no cache keeps. The session cookie of
an editor's phone is not re-sent on each poll (a request that changes nothing in the
session sets it once a day at most: ``ledger.http.security``).

A changed poll without cookies (a follower: no session, so no edit rights and the
language of its ``Accept-Language``) is answered by the app once per match version,
pace, language and encoding; the next followers who ask the same get those bytes again
(``_keep``, the last ``KEPT_ANSWERS``), without Flask: after a hand, a thousand
followers cost one render and a thousand dictionary look-ups.

A version read from the database is believed for ``VERSION_SECONDS`` (1 s) by the
polls of this process, so that a thousand followers cost about one query a second, not
one each: a write through this process forgets them at once (its followers see it on
their next poll), a write through another process is seen within that second, and a
poll that has seen a newer version than the one believed asks the database again.

Polls are spread by the number of followers (``poll_seconds``): each process counts
the connections that polled a match lately (``Followers``; a phone keeps one), and the
live part it renders tells the phones to poll every ``POLL_SECONDS`` (3 s) up to
``POLLS_PER_SECOND`` polls a second in all, more slowly beyond (1,000 followers: every
15 s), at most every ``MAX_POLL_SECONDS``. A big table's followers then see a new hand a
few seconds later, and the scorekeeper's saves do not queue behind their polls.
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable, Iterable
from typing import Any

from flask import Flask
from sqlalchemy import bindparam, select
from sqlalchemy.engine import Engine
from sqlalchemy.exc import SQLAlchemyError
from werkzeug.exceptions import HTTPException
from werkzeug.wrappers import Request

from ledger.extensions import db
from ledger.http.errors import RETRY_AFTER, UNAVAILABLE
from ledger.http.no_store import NO_STORE
from ledger.http.pace import FOLLOWERS, Followers, poll_seconds
from ledger.http.security import HSTS, SECURITY_HEADERS
from ledger.matches import is_public_id
from ledger.matches.models import Match

#: The match page's live part, and the big screen's (``ledger.web.screen``).
ENDPOINTS = ("matches.live", "screen.live")
#: What a changed poll's answer depends on besides the match, its version and the pace,
#: for a poll without cookies (a follower: no session, no edit rights): the language,
#: the encoding, htmx's header, the scheme (HSTS), the path (a page's or a screen's).
ANSWER_VARIES = (
    "HTTP_ACCEPT_LANGUAGE",
    "HTTP_ACCEPT_ENCODING",
    "HTTP_HX_REQUEST",
    "wsgi.url_scheme",
    "HTTP_HOST",
    "PATH_INFO",
)
KEPT_ANSWERS = 64
VERSION_SECONDS = 1.0
KEPT_VERSIONS = 1024
#: How long a changed poll waits for the render another thread is making of its answer.
RENDER_WAIT_SECONDS = 5.0
READING = frozenset({"GET", "HEAD", "OPTIONS"})
VERSION = select(Match.version).where(Match.public_id == bindparam("public_id"))
UNCHANGED = [*NO_STORE.items(), *SECURITY_HEADERS.items()]
#: The database could not be reached: nothing to read, try again (``Retry-After``).
UNREACHABLE_BODY = (UNAVAILABLE["unavailable"]["api"] + "\n").encode()
#: A kept answer: its status, headers and body.
Kept = tuple[str, tuple[tuple[str, str], ...], bytes]
log = logging.getLogger(__name__)


class UnchangedPolls:
    """WSGI middleware around the Flask app's ``wsgi_app``: 204 for a poll of an
    unchanged match, without the app; every poll counted (``Followers``)."""

    def __init__(self, app: Flask, wsgi_app: Callable[..., Iterable[bytes]]):
        self.app = app
        self.wsgi_app = wsgi_app
        self._engine: Engine | None = None
        self.followers = app.extensions[FOLLOWERS] = Followers()
        #: The answers to changed polls, newest last (``_keep``).
        self.answers: dict[tuple[object, ...], Kept] = {}
        self.versions = Versions(VERSION_SECONDS)
        self._rendering: dict[tuple[object, ...], threading.Event] = {}
        self._lock = threading.Lock()

    def __call__(
        self, environ: dict[str, Any], start_response: Callable[..., Any]
    ) -> Iterable[bytes]:
        method = environ.get("REQUEST_METHOD")
        if method not in READING:  # a write, maybe: the versions believed may be old
            try:
                return self.wsgi_app(environ, start_response)
            finally:
                self.versions.forget()
        try:
            poll = self._poll(environ) if method == "GET" else None
        except (SQLAlchemyError, OSError):
            log.warning("a poll could not read the match's version", exc_info=True)
            return self._unreachable(environ, start_response)
        if poll is None:
            return self.wsgi_app(environ, start_response)
        public_id, version, seen = poll
        if version == seen:
            start_response("204 NO CONTENT", _headers(environ))
            return []
        if "HTTP_COOKIE" in environ:  # a session: its language, its edit rights
            return self._apps(environ, start_response)
        key = (
            public_id,
            version,
            poll_seconds(self.app, public_id),
            *(environ.get(name) for name in ANSWER_VARIES),
        )
        kept = self.answers.get(key)
        if kept is not None:
            start_response(kept[0], list(kept[1]))
            return [kept[2]]
        return self._keep(key, environ, start_response)

    def _keep(
        self,
        key: tuple[object, ...],
        environ: dict[str, Any],
        start_response: Callable[..., Any],
    ) -> Iterable[bytes]:
        """The app's answer to a changed poll, kept for the next followers who ask the
        same (a 200 that sets no cookie). One thread renders it; the followers who ask
        meanwhile wait for those bytes rather than render them again."""
        with self._lock:
            rendering = self._rendering.get(key)
            if rendering is None:
                self._rendering[key] = threading.Event()
        if rendering is not None:
            rendering.wait(RENDER_WAIT_SECONDS)
            kept = self.answers.get(key)
            if kept is not None:
                start_response(kept[0], list(kept[1]))
                return [kept[2]]
            return self._apps(environ, start_response)  # not kept: the app answers
        try:
            return self._render(key, environ, start_response)
        finally:
            with self._lock:
                self._rendering.pop(key).set()

    def _render(
        self,
        key: tuple[object, ...],
        environ: dict[str, Any],
        start_response: Callable[..., Any],
    ) -> Iterable[bytes]:
        answer = self._answer(environ)
        if answer is None:
            return self._unreachable(environ, start_response)
        status, headers, body = answer
        if status.startswith("200"):
            if not any(name.lower() == "set-cookie" for name, _ in headers):
                with self._lock:
                    self.answers[key] = (status, tuple(headers), body)
                    while len(self.answers) > KEPT_ANSWERS:
                        del self.answers[next(iter(self.answers))]
        start_response(status, headers)
        return [body]

    def _apps(self, environ: dict[str, Any], start_response: Callable[..., Any]) -> Iterable[bytes]:
        """The app's answer to a poll (``_answer``)."""
        answer = self._answer(environ)
        if answer is None:
            return self._unreachable(environ, start_response)
        start_response(*answer[:2])
        return [answer[2]]

    def _answer(self, environ: dict[str, Any]) -> tuple[str, list[tuple[str, str]], bytes] | None:
        """The app's whole answer to a poll (a small part of a page), before any of it is
        sent; None when it failed for the database outside the app's own error handling
        (its teardown), which the server would answer with a bare 500."""
        answer: list[Any] = []  # the status, the headers, then what write() was given

        def keeping_start_response(
            status: str, headers: list[tuple[str, str]], exc_info: Any = None
        ) -> Callable[[bytes], None]:
            answer[:] = [status, headers]
            return lambda data: answer.append(data)  # the write() of WSGI: unused by Flask

        try:
            parts = self.wsgi_app(environ, keeping_start_response)
            try:
                body = b"".join(parts)
            finally:
                close = getattr(parts, "close", None)
                if close is not None:
                    close()
        except (SQLAlchemyError, OSError):
            log.warning("a poll failed for the database", exc_info=True)
            return None
        return answer[0], answer[1], b"".join(answer[2:]) + body

    def _unreachable(
        self, environ: dict[str, Any], start_response: Callable[..., Any]
    ) -> Iterable[bytes]:
        headers = [
            *_headers(environ),
            ("Retry-After", str(RETRY_AFTER)),
            ("Content-Type", "text/plain; charset=utf-8"),
            ("Content-Length", str(len(UNREACHABLE_BODY))),
        ]
        start_response("503 SERVICE UNAVAILABLE", headers)
        return [UNREACHABLE_BODY]

    def _poll(self, environ: dict[str, Any]) -> tuple[str, int | None, int | None] | None:
        """A follower's poll (counted): the match, its version now, the version seen;
        None when this is no poll of a match (the app answers). Raises what the database
        raised when the version cannot be read."""
        if not environ.get("PATH_INFO", "").endswith("/live"):
            return None
        routes = self.app.url_map.bind_to_environ(environ, self.app.config["SERVER_NAME"])
        try:
            endpoint, arguments = routes.match()
        except HTTPException:  # no route, or a redirect to one: the app answers
            return None
        public_id = arguments.get("public_id")
        if endpoint not in ENDPOINTS or not is_public_id(public_id):
            return None
        seen = Request(environ).args.get("v", type=int)  # read as the view reads it
        version = self.versions.get(public_id)
        if version is None or (seen is not None and seen > version):
            with self.engine().connect() as connection:
                version = connection.execute(VERSION, {"public_id": public_id}).scalar()
            if version is None:
                return None  # the app's 404 (and no follower counted for a match that is not)
            self.versions.put(public_id, version)
        follower = (str(environ.get("REMOTE_ADDR")), str(environ.get("REMOTE_PORT")))
        self.followers.polled(public_id, follower)
        return public_id, version, seen

    def engine(self) -> Engine:
        """The app's database engine (looked up once: it needs an app context)."""
        if self._engine is None:
            with self.app.app_context():
                self._engine = db.engine
        return self._engine


def _headers(environ: dict[str, Any]) -> list[tuple[str, str]]:
    """The headers of an answer given in front of the app (the app's would carry them)."""
    headers = list(UNCHANGED)
    if environ.get("wsgi.url_scheme") in ("https", "wss"):  # request.is_secure
        headers.append(("Strict-Transport-Security", HSTS))
    return headers


class Versions:
    """The matches' versions as last read, each believed for ``seconds``."""

    def __init__(self, seconds: float):
        self.seconds = seconds
        self._read: dict[str, tuple[int, float]] = {}
        self._lock = threading.Lock()

    def get(self, public_id: str) -> int | None:
        found = self._read.get(public_id)
        if found is None or time.monotonic() - found[1] > self.seconds:
            return None
        return found[0]

    def put(self, public_id: str, version: int) -> None:
        with self._lock:
            self._read.pop(public_id, None)  # to the end: the newest read
            self._read[public_id] = (version, time.monotonic())
            if len(self._read) > KEPT_VERSIONS:  # the oldest reads go first
                del self._read[next(iter(self._read))]

    def forget(self) -> None:
        with self._lock:
            self._read.clear()
