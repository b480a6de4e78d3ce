"""The landing page."""

from flask import Blueprint, render_template

bp = Blueprint("main", __name__)


@bp.get("/")
def index():
    return render_template("index.html")


@bp.get("/healthz")
def healthz():
    """A trivial route: load balancers' check, and the benchmark's baseline."""
    return "ok", 200, {"Content-Type": "text/plain; charset=utf-8"}
