"""The landing page (with the matches and tables this browser can edit)."""

from flask import Blueprint, render_template
from flask.typing import ResponseReturnValue

from ledger.web.edit_rights import editable_matches, editable_tables

bp = Blueprint("main", __name__)


@bp.get("/")
def index() -> str:
    return render_template("index.html", my_matches=editable_matches(), my_tables=editable_tables())


@bp.get("/healthz")
def healthz() -> ResponseReturnValue:
    """A trivial route: load balancers' check, and the benchmark's baseline."""
    return "ok", 200, {"Content-Type": "text/plain; charset=utf-8"}
