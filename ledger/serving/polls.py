"""The followers' poll, answered before Flask while the match has not changed.

Every phone that follows a match asks ``GET /matches/<id>/live?v=<version>`` every
3 s (``ledger.web.matches.live``; a big screen asks ``/matches/<id>/screen/live``,
``ledger.web.screen.live``), and nearly always hears 204: nothing new. Through Flask
that answer cost 2.6 times ``/healthz`` (the session, the language, the ORM row,
the after-request hooks), so 1,000 phones kept the server busy saying nothing.
``UnchangedPolls`` answers it in front of the app with one indexed query, ``SELECT
version FROM matches WHERE public_id = ?``, and hands every other request to the app
untouched: a poll whose version differs, an id that is not a match's (the app's 404),
a database error (the app's error page), any other method or route. It reads one
column of the one match named in the address: no key is needed to follow a match, and
nothing is written.

Its 204 carries the headers the app's would (``Cache-Control: no-store`` and the
security headers, HSTS over https); not the app's ``Vary`` and ``Content-Type``, which
mean nothing on an answer without a body that no cache keeps. The session cookie of
an editor's phone is not re-sent on each poll: every other request still refreshes it.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any

from flask import Flask
from sqlalchemy import bindparam, select
from sqlalchemy.engine import Engine
from sqlalchemy.exc import SQLAlchemyError
from werkzeug.exceptions import HTTPException
from werkzeug.wrappers import Request

from ledger.extensions import db
from ledger.matches import is_public_id
from ledger.matches.models import Match
from ledger.security import HSTS, SECURITY_HEADERS

#: The match page's live part, and the big screen's (``ledger.web.screen``).
ENDPOINTS = ("matches.live", "screen.live")
VERSION = select(Match.version).where(Match.public_id == bindparam("public_id"))
UNCHANGED = [("Cache-Control", "no-store"), *SECURITY_HEADERS.items()]


class UnchangedPolls:
    """WSGI middleware around the Flask app's ``wsgi_app``: 204 for a poll of an
    unchanged match, without the app."""

    def __init__(self, app: Flask, wsgi_app: Callable[..., Iterable[bytes]]):
        self.app = app
        self.wsgi_app = wsgi_app
        self._engine: Engine | None = None

    def __call__(self, environ: dict[str, Any], start_response: Callable[..., Any]):
        if environ.get("REQUEST_METHOD") == "GET" and self._unchanged(environ):
            headers = list(UNCHANGED)
            if environ.get("wsgi.url_scheme") in ("https", "wss"):  # request.is_secure
                headers.append(("Strict-Transport-Security", HSTS))
            start_response("204 NO CONTENT", headers)
            return []
        return self.wsgi_app(environ, start_response)

    def _unchanged(self, environ: dict[str, Any]) -> bool:
        """Whether this is the poll of a match still at the version it names."""
        if not environ.get("PATH_INFO", "").endswith("/live"):
            return False
        routes = self.app.url_map.bind_to_environ(environ, self.app.config["SERVER_NAME"])
        try:
            endpoint, arguments = routes.match()
        except HTTPException:  # no route, or a redirect to one: the app answers
            return False
        public_id = arguments.get("public_id")
        if endpoint not in ENDPOINTS or not is_public_id(public_id):
            return False
        seen = Request(environ).args.get("v", type=int)  # read as the view reads it
        if seen is None:
            return False
        try:
            with self.engine().connect() as connection:
                version = connection.execute(VERSION, {"public_id": public_id}).scalar()
        except SQLAlchemyError:
            return False
        return version is not None and version == seen

    def engine(self) -> Engine:
        """The app's database engine (looked up once: it needs an app context)."""
        if self._engine is None:
            with self.app.app_context():
                self._engine = db.engine
        return self._engine
