"""Match pages: a new match, the match page (read-only link, live), sharing, joining.

- ``GET/POST /matches/new`` creates a match; the creating browser gets edit rights.
- ``GET /matches/<id>`` is the match for anyone with its id; editors also see the
  controls. ``GET /matches/<id>/live?v=<version>`` is what the page polls: 204 while the
  match's version is still ``v``, else the fresh standings, table and chart.
- ``GET /matches/<id>/qr.svg``: the QR code of the read-only link.
- ``GET /matches/<id>/join/<key>``: an edit link; the key goes into the session and
  the browser is sent on to the match page (so the key leaves the address bar).

Hand pages are in ``ledger.views.hands``; reading and writing is ``ledger.matches``.
"""

from __future__ import annotations

import io

import segno
from flask import Blueprint, abort, make_response, redirect, render_template, request, url_for
from sqlalchemy import select
from werkzeug.exceptions import NotFound

from ledger import matches
from ledger.chart import build_chart
from ledger.extensions import db
from ledger.match_view import MatchView
from ledger.models import Match
from ledger.new_match_form import NewMatchForm, prepare_new_match_form, submit_new_match
from ledger.views.edit_rights import can_edit, edit_key, remember_key
from ledger.views.score_table import score_rows

bp = Blueprint("matches", __name__, url_prefix="/matches")

POLL_SECONDS = 3
WRONG_KEY_MESSAGE = (
    "This edit link is not valid for this match. Ask the scorekeeper for a new copy of "
    "the link; the read-only page still works."
)


# --- a new match ---------------------------------------------------------------------


@bp.route("/new", methods=["GET", "POST"])
def new():
    if request.method == "GET":
        form = NewMatchForm(formdata=None)
        return _new_page(form, prepare_new_match_form(form))
    form = NewMatchForm(formdata=request.form)
    add_row = request.form.get("action") == "add_player"
    choice = prepare_new_match_form(form, add_row=add_row)
    if add_row:
        return _new_page(form, choice)
    outcome = submit_new_match(form, choice)
    if isinstance(outcome, tuple):
        match, key = outcome
        remember_key(match.public_id, key)
        return redirect(url_for("matches.show", public_id=match.public_id), 303)
    return _new_page(form, choice, outcome, status=422)


@bp.post("/new/rules")
def new_rules():
    """The house rules and length part of the new-match form, redrawn (htmx) when the
    profile or an override changes: the values shown follow the choice."""
    form = NewMatchForm(formdata=request.form)
    choice = prepare_new_match_form(form)
    return render_template("match/_rules_length.html", form=form, choice=choice)


def _new_page(form, choice, check=None, status=200):
    body = render_template("match/new.html", form=form, choice=choice, check=check)
    return body, status


# --- the match page --------------------------------------------------------------------


def match_context(match: Match) -> dict:
    """What the match page and its live part show (no query per hand)."""
    view: MatchView = matches.match_view(match)
    chart = None
    if view.hands:
        chart = build_chart(view.players, [h.number for h in view.hands], view.state.cumulative)
    last = view.hands[-1] if view.hands else None
    return {
        "view": view,
        "rows": score_rows(view),
        "chart": chart,
        "last_hand": last,
        "editor": can_edit(match),
        "poll_seconds": POLL_SECONDS,
    }


@bp.get("/<public_id>")
def show(public_id: str):
    match = matches.get_match(public_id)
    context = match_context(match)
    key = edit_key(match) if context["editor"] else None
    share = None
    if key is not None:
        share = {
            "read_url": url_for("matches.show", public_id=public_id, _external=True),
            "edit_url": url_for("matches.join", public_id=public_id, key=key, _external=True),
        }
    response = make_response(render_template("match/show.html", share=share, **context))
    response.headers["Cache-Control"] = "no-store"
    return response


def current_version(public_id: str) -> int:
    """The match's version (one small query), or 404."""
    version = db.session.scalar(select(Match.version).where(Match.public_id == public_id))
    if version is None:
        raise NotFound("There is no match at this address. Check the link.")
    return version


@bp.get("/<public_id>/live")
def live(public_id: str):
    """The standings, table and chart, when they changed since version ``v``; else 204."""
    seen = request.args.get("v", type=int)
    if seen is not None and seen == current_version(public_id):
        return "", 204, {"Cache-Control": "no-store"}
    match = matches.get_match(public_id)
    response = make_response(render_template("match/_live.html", **match_context(match)))
    response.headers["Cache-Control"] = "no-store"
    return response


# --- sharing -----------------------------------------------------------------------------


@bp.get("/<public_id>/qr.svg")
def qr(public_id: str):
    """The read-only link as a QR code (never the edit key)."""
    matches.get_match(public_id)
    url = url_for("matches.show", public_id=public_id, _external=True)
    out = io.BytesIO()
    segno.make(url, error="m").save(
        out,
        kind="svg",
        scale=5,
        border=2,
        xmldecl=False,
        svgclass=None,
        lineclass=None,
        dark="#000",
        light="#fff",
        title="QR code of the match's read-only link",
        omitsize=True,
    )
    response = make_response(out.getvalue())
    response.mimetype = "image/svg+xml"
    response.headers["Cache-Control"] = "private, max-age=3600"
    return response


@bp.get("/<public_id>/join/<key>")
def join(public_id: str, key: str):
    """Edit rights through an edit link: the key is checked, kept, and dropped from the URL."""
    match = matches.get_match(public_id)
    if not matches.check_edit_key(match, key):
        abort(403, WRONG_KEY_MESSAGE)
    remember_key(match.public_id, key)
    response = redirect(url_for("matches.show", public_id=public_id), 303)
    response.headers["Cache-Control"] = "no-store"
    return response
