"""A table on the big screen: tonight's match (the table's newest) beside the season's
standings (issue 27), built on the match's screen (``ledger.web.screen``): its standings
include, its poll, its wake lock and its colour schemes.

- ``GET /tables/<id>/screen``: anyone with the table's id; no control, no key.
  ``?scheme=light|dark`` as the match's screen.
- ``GET /tables/<id>/screen/live?v=<stamp>``: what the screen polls: 204 while the
  table and its matches are as they were at ``stamp``, else the fresh part.

The stamp is the table's version with the sum and count of its matches' versions (one
query): a hand in tonight's match, a new match or a new season all move it.
"""

from __future__ import annotations

from flask import Blueprint, render_template, request
from flask.typing import ResponseReturnValue
from markupsafe import Markup

from ledger import matches
from ledger.http.no_store import NO_STORE, unkept
from ledger.http.pace import POLL_SECONDS
from ledger.matches.chart import running_chart
from ledger.tables import service
from ledger.tables.models import Table
from ledger.web.screen import screen_page

bp = Blueprint("table_screen", __name__, url_prefix="/tables")


def stamp(table: Table) -> str:
    total, count = service.matches_version(table)
    return f"{table.version}.{total}.{count}"


def screen_part(table: Table, now: str) -> Markup:
    """The part that follows the table: tonight's match and the season's standings."""
    newest = service.newest_match(table)
    view = matches.match_view(newest, newest=1) if newest is not None else None
    season = table.current_season
    html = render_template(
        "table/_screen_live.html",
        table=table,
        season=season,
        standings=service.standings(table, season),
        view=view,
        chart=running_chart(view.players, view.running) if view is not None else None,
        last_hand=view.hands[-1] if view is not None and view.hands else None,
        stamp=now,
        poll_seconds=POLL_SECONDS,
    )
    return Markup(html)


@bp.get("/<public_id>/screen")
def show(public_id: str) -> ResponseReturnValue:
    table = service.get_table(public_id)
    return screen_page("table/screen.html", table=table, part=screen_part(table, stamp(table)))


@bp.get("/<public_id>/screen/live")
def live(public_id: str) -> ResponseReturnValue:
    table = service.get_table(public_id)
    now = stamp(table)
    if request.args.get("v") == now:
        return "", 204, NO_STORE
    return unkept(screen_part(table, now))
