"""The landing page (with the matches and tables this browser can edit), the health
check, and the service worker that keeps the match pages' copies for no connection."""

import hashlib
import os

from flask import Blueprint, Response, current_app, render_template, request
from flask.typing import ResponseReturnValue

from ledger.http.no_store import may_keep_copy
from ledger.web.edit_rights import editable_matches, editable_tables

bp = Blueprint("main", __name__)

#: The service worker's source, among the static files (static/js/offline-worker.js).
WORKER = os.path.join("js", "offline-worker.js")


@bp.get("/")
def index() -> Response:
    """The landing page; its copy is kept on the phone too (no key is on it): it is where
    the ledger kept on the home screen opens, and it leads to the matches' copies."""
    page = render_template("index.html", my_matches=editable_matches(), my_tables=editable_tables())
    return may_keep_copy(Response(page))


@bp.get("/healthz")
def healthz() -> ResponseReturnValue:
    """A trivial route: load balancers' check, and the benchmark's baseline."""
    return "ok", 200, {"Content-Type": "text/plain; charset=utf-8"}


@bp.get("/offline-worker.js")
def offline_worker() -> ResponseReturnValue:
    """The service worker (static/js/offline-worker.js), from the ledger's root: a
    worker's scope is at most the folder it is served from, and it must cover the match
    pages. Its caches are named after its content's hash (a changed worker drops the
    copies of the one before); ``no-cache``, so that the browser asks again (by its ETag)
    whenever it checks for a new worker."""
    folder = current_app.static_folder or ""
    with open(os.path.join(folder, WORKER), "rb") as source:
        text = source.read()
    version = hashlib.sha256(text).hexdigest()[:12]
    response = Response(
        text.replace(b"__VERSION__", version.encode()),
        content_type="text/javascript; charset=utf-8",
        headers={"Cache-Control": "no-cache"},
    )
    response.set_etag(version)
    return response.make_conditional(request)
