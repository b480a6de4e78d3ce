"""The match on a big screen: a TV or a laptop at the end of the room that everyone reads
from their chair (issue 27).

- ``GET /matches/<id>/screen``: the standings with each player's change in the last
  hand, who finished it and how, who deals next, the chart of the running totals, the
  settle-up when the match has a stake, and the QR code of the read-only link. Anyone
  with the match's id may open it: it shows no edit link, no key, no control. ``?scheme=
  light|dark`` sets its colours (else the device's preference).
- ``GET /matches/<id>/screen/live?v=<version>``: what the screen polls, as the match
  page polls its live part: 204 while the match is still at ``v`` (answered in front of
  the app, ``ledger.http.polls``), else the screen's part that follows the match.

The part is rendered once per match version, language and digits, and kept
(``ledger.matches.page_cache``), so a room of screens and phones costs what one does.
``templates/screen/_standings.html`` takes a ``MatchView`` (and its chart, for each
line's sample of its player's line): a table's season screen can show tonight's match
with it.
"""

from __future__ import annotations

from flask import Blueprint, Response, current_app, render_template, request
from flask.typing import ResponseReturnValue
from markupsafe import Markup
from msgspec import Struct

from ledger import matches
from ledger.http.no_store import NO_STORE, may_keep_copy, unkept
from ledger.http.pace import poll_seconds
from ledger.i18n import current_language, digit_style
from ledger.matches.chart import Chart, Series, running_chart
from ledger.matches.models import Match
from ledger.matches.page_cache import fragment_cache
from ledger.matches.view import MatchView
from ledger.tables.player_stats import match_stats
from ledger.web.score_table import ScoreCell, score_rows

bp = Blueprint("screen", __name__, url_prefix="/matches")

#: The colour schemes one may choose; anything else follows the device.
SCHEMES = ("light", "dark")
#: The chart's x labels: at most this many fit the screen's larger text.
X_LABELS = 6
#: The legend sample of ``ledger.matches.chart``: a line of 28 from the legend's x, its
#: name 34 to the right of that x and 4 below its y; the box leaves 2 either side.
SWATCH_TEXT_GAP, SWATCH_BASELINE, SWATCH_MARGIN = 34, 4, 2
SWATCH_WIDTH, SWATCH_HEIGHT = 32, 12
#: Standings of more lines than these are set closer (static/css/screen.css): crowded,
#: then packed (each line 5.2 % of the height, the news under them in one paragraph on a
#: match's screen, beside them on a table's).
CROWDED_LINES, PACKED_LINES = 5, 8


class ScreenLine(Struct, frozen=True):
    """A standings line of the screen: the engine's standing, the player's cell of the
    last hand (None before the first hand) and their line on the chart."""

    place: int
    shared: bool  # another player has the same place
    name: str
    total: int
    last: ScoreCell | None
    series: Series | None
    seat: int  # the player's seat: the chart's n-th line style

    @property
    def swatch_box(self) -> str:
        """The viewBox around the legend sample of the player's line (the chart's)."""
        assert self.series is not None
        x = self.series.legend_x - SWATCH_TEXT_GAP - SWATCH_MARGIN
        y = self.series.legend_y - SWATCH_BASELINE - SWATCH_HEIGHT / 2
        return f"{x:g} {y:g} {SWATCH_WIDTH} {SWATCH_HEIGHT}"


def screen_lines(view: MatchView, chart: Chart | None = None) -> list[ScreenLine]:
    """The standings in place order, each with its last-hand cell (``score_rows``: the
    hand's net and any foul penalty carried into it, as the match page shows them)."""
    rows = {row.name: row for row in score_rows(view)}
    series = {s.name: s for s in chart.series} if chart else {}
    places = [s.place for s in view.standings]
    return [
        ScreenLine(
            place=s.place,
            shared=places.count(s.place) > 1,
            name=s.name,
            total=s.total,
            last=rows[s.name].cells[-1] if rows[s.name].cells else None,
            series=series.get(s.name),
            seat=view.players.index(s.name),
        )
        for s in view.standings
    ]


def density(lines: int) -> str:
    """How closely a big screen sets standings of ``lines`` lines: "" (as large as they
    come), "crowded" or "packed"."""
    if lines > PACKED_LINES:
        return "packed"
    return "crowded" if lines > CROWDED_LINES else ""


def x_labels(chart: Chart) -> list[int]:
    """Which of the chart's x ticks the screen labels: evenly, at most ``X_LABELS``, the
    last one always (the one before it goes when it would stand too near)."""
    count = len(chart.x_ticks)
    step = -(-count // X_LABELS)
    picked = list(range(0, count, step))
    if picked[-1] != count - 1:
        if len(picked) == X_LABELS or count - 1 - picked[-1] < step:
            picked.pop()
        picked.append(count - 1)
    return picked


def screen_part(row: Match) -> Markup:
    """The part of the screen that follows the match, as it is now (kept per version)."""
    cache = fragment_cache()
    pace = poll_seconds(current_app, row.public_id)  # as the match page's live part
    key = ("screen", row.public_id, row.version, current_language(), digit_style(), pace)
    found = cache.get(key)
    if found is not None:
        return Markup(found)
    view = matches.match_view(row, newest=1)
    chart = running_chart(view.players, view.running)
    part = Markup(
        render_template(
            "screen/_live.html",
            view=view,
            chart=chart,
            last_hand=view.hands[-1] if view.hands else None,
            awards=match_stats(row) if view.finished else None,
            poll_seconds=pace,
        )
    )
    # Kept under the version rendered, even if a write landed since the row was read.
    cache.put(("screen", row.public_id, view.version, *key[3:]), part)
    return part


@bp.get("/<public_id>/screen")
def show(public_id: str) -> ResponseReturnValue:
    row = matches.get_match(public_id)
    return screen_page(
        "screen/page.html", name=row.name, public_id=public_id, part=screen_part(row)
    )


@bp.get("/<public_id>/screen/live")
def live(public_id: str) -> ResponseReturnValue:
    """The screen's part when the match changed since version ``v``; else 204."""
    row = matches.get_match(public_id)
    if request.args.get("v", type=int) == row.version:
        return "", 204, NO_STORE
    return unkept(screen_part(row))


def screen_page(template: str, **context: object) -> Response:
    """A big screen's page (a match's, a table's, ...) in the colour scheme asked for
    (``?scheme=``), kept by no cache: its part follows the document. Its copy is kept on
    the device for a visit with no connection (a TV's browser reloaded while the Wi-Fi
    is down)."""
    scheme = request.args.get("scheme")
    page = render_template(template, scheme=scheme if scheme in SCHEMES else None, **context)
    return may_keep_copy(unkept(page))
