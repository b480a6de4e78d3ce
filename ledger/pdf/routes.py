"""Printable summaries as PDF: the end-of-match summary and the dispute slips.

- ``GET /matches/<id>/summary.pdf``: the whole match (anyone with the id may read it),
  every hand in a few lines (``_hand_lines.html``); ``?hands=full``: the table of every
  hand and every hand's settlement step by step (an appendix that takes WeasyPrint
  several times as long).
- ``GET /matches/<id>/hands/<n>/slip.pdf``: one stored hand, every step of its settlement.
- ``GET /matches/<id>/settle-up.pdf``: the settle-up slip, who pays whom (one page; a
  points race has none: 404).
- ``GET /matches/<id>/what-if.pdf?rules-profile=...``: the comparison of "What if…?"
  (the match's hands under other rules) on one page.
- ``GET /check/slip.pdf?h=<share-link payload>``: the slip of the hand the dispute
  checker shows (``h`` as in the checker's share links, ``ledger.web.checker``).

``?paper=letter`` gives US Letter instead of A4. Unknown matches and hands answer the
404 page; a damaged ``h`` the 400 page. Every figure comes from the engine's results.

A match's PDFs are kept per match version (``ledger.pdf.printer``): asking again reads
the match's row and a file; only a new version builds the view and lays the PDF out, in
a child process, while holding one of a few render slots (503 when none frees).
"""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any
from urllib.parse import parse_qs, urlsplit

from flask import Blueprint, abort, jsonify, render_template, request, url_for
from flask.blueprints import BlueprintSetupState
from flask.typing import ResponseReturnValue
from flask_babel import lazy_gettext as _l

from ledger import matches
from ledger.engine import (
    PROFILES,
    CardError,
    HouseRules,
    Invalid,
    parse_card,
    parse_hand,
    resolve_rules,
    settle,
    settlement_json,
)
from ledger.engine.rules import DEFAULT_PROFILE
from ledger.forms.what_if import WhatIfForm, chosen, comparison, rules_title
from ledger.http.errors import error_response
from ledger.http.seasons import season_or_404
from ledger.i18n import N_, Msg, format_day, num, tr
from ledger.i18n.words import KIND_NAMES, NO_BONUS_WHY, TUNNELA_GROUP_NAMES, shown_cards
from ledger.matches.chart import SHAPES, Chart, marker_path, running_chart
from ledger.matches.export import export_filename
from ledger.matches.pdf_export import EXPORT_NAME
from ledger.matches.reading import rules_from_record
from ledger.matches.share_link import ShareLinkError, decode_hand_link
from ledger.matches.view import MatchView
from ledger.pdf.archive import export_attachment
from ledger.pdf.jobs import DEFAULT_PAPER, RenderJob, paper_size, pdf_response
from ledger.pdf.page_css import pdf_page_css
from ledger.pdf.printer import PdfBusy, init_printer, kept_pdf, new_pdf, request_key
from ledger.tables import service as tables
from ledger.tables.player_stats import match_stats
from ledger.tables.rescore import rescore_season

bp = Blueprint("reports", __name__)

NO_SETTLE_UP_SLIP = N_(
    "This match is a points race: each player keeps their own points and nobody pays "
    "anyone, so it has no settle-up slip."
)


# --- what the templates get ------------------------------------------------------------


def day(moment: datetime | None) -> str:
    """A date for people on a printed page: ``29 Nov 2026`` on the table's clock, in the
    page's language and digits; in Nepali by Bikram Sambat with the Gregorian date beside."""
    return format_day(moment, both=True) if moment else ""


def match_dates(view: MatchView) -> dict[str, str]:
    """When the match was created and when its hands were played (first to last)."""
    first, last = view.played
    return {
        "created": day(view.created_at),
        "first_hand": day(first),
        "last_hand": day(last),
        "updated": day(view.updated_at),
    }


#: Settings the printed rules say apart: the profile by name, and the match's own length
#: rather than the profile's usual one.
SAID_APART = ("profile", "match_length")


def rules_settings(rules: HouseRules) -> list[dict[str, Any]]:
    """Every setting of the rules (the printed page is an archive: the profiles may change,
    the PDF must still say how the hands were scored): name, value, the profile's value
    and whether the rules changed it."""
    base = PROFILES[rules.profile].to_json()
    changed = rules.overrides()
    return [
        {"name": name, "value": value, "profile_value": base.get(name), "changed": name in changed}
        for name, value in rules.to_json().items()
        if name not in SAID_APART
    ]


def rules_differences(played: HouseRules, other: HouseRules) -> list[dict[str, Any]]:
    """Every setting (but the profile and its usual length) on which ``other`` differs
    from the rules as ``played``: what a What if…? changes, named on its printed page."""
    mine, theirs = played.to_json(), other.to_json()
    return [
        {"name": name, "played": value, "other": theirs.get(name)}
        for name, value in mine.items()
        if name not in SAID_APART and theirs.get(name) != value
    ]


# --- the summary's appendix: each settlement in a few lines of text ----------------------
#
# A hand's full settlement (the partial templates/partials/settlement.html, as on the
# slips) costs WeasyPrint about 0.3 s of layout; a 100-hand summary would take half a
# minute. The appendix says the same things (maal items, E, n × E − T, fees, nets,
# who pays whom) as a few lines of plain text per hand, which lay out 20-30 times faster.

#: The maal items' words (the engine's ids), in lower case as in the appendix's lines.
ITEM_WORDS = {
    **{kind: word for kind, word in KIND_NAMES.items() if kind != "ordinary"},
    "marriage": _l("marriage"),
    "marriage_shown": _l("marriage shown"),
    "not_maal": _l("not maal"),
    "dealt_tunnela_no_bonus": _l("dealt tunnela, no bonus"),
}


def card_text(code: object) -> str:
    """A card code as plain text: ``8H`` → ``8♥`` (the code itself if it is no card)."""
    try:
        return parse_card(code).label
    except CardError:
        return str(code)


def maal_item_text(item: dict[str, Any]) -> str:
    """One item of a player's maal breakdown: ``marriage (7♥ 8♥ 9♥) 10``."""
    kind, count = item["item"], item.get("count", 0)
    points = num(item["points"])
    if kind == "entered" and item.get("note") == "rest_of_entered":
        # the number less its dealt tunnelas' bonus, listed before it
        return tr("the rest of the number entered {points}", points=item["points"])
    if kind == "entered":
        return tr("entered as one number {points}", points=item["points"])
    if kind == "dublee_finish_bonus":
        return tr("dublee-finish bonus {points}", points=item["points"])
    word = str(ITEM_WORDS[kind]) if kind in ITEM_WORDS else kind.replace("_", " ")
    if kind == "dealt_tunnela":
        of = item.get("kind")
        of = str(TUNNELA_GROUP_NAMES.get(str(of), of))
        if count == 1:
            label = tr("dealt tunnela of {kind}", kind=of)
        else:
            label = tr("{count} dealt tunnelas of {kind}", count=count, kind=of)
    elif kind in ("marriage", "marriage_shown"):
        label = word if count == 1 else f"{num(count)} × {word}"
    else:
        label = word if count <= 1 else f"{word} × {num(count)}"
    if item.get("reason") in NO_BONUS_WHY:
        label = f"{label}: {NO_BONUS_WHY[item['reason']]}"
    cards = " ".join(card_text(c) for c in shown_cards(item))
    return f"{label} ({cards}) {points}" if cards else f"{label} {points}"


def maal_text(player: dict[str, Any]) -> str:
    """A player's maal breakdown in one line: ``marriage (7♥ 8♥ 9♥) 10 + alter (8♦) 5``."""
    items = [maal_item_text(i) for i in player["breakdown"]]
    return " + ".join(items) if items else tr("no maal")


def match_report(view: MatchView, chart: Chart | None = None) -> dict[str, Any]:
    """What partials/match_report.html shows besides the view: the dates and the chart of
    cumulative totals (None before any hand; ``chart``: the one the page already drew of
    them)."""
    chart = chart or running_chart(view.players, view.running)
    return {
        "dates": match_dates(view),
        "chart": chart,
        # The legend's marker of each player, drawn in a small SVG of its own.
        "chart_legend": [
            {"marker": marker_path(SHAPES[n % len(SHAPES)], 17, 5, r=3)}
            for n in range(len(view.players))
        ],
    }


def _slug(name: str) -> str:
    return export_filename(name, "pdf").removesuffix(".pdf")


# --- routes ----------------------------------------------------------------------------


@bp.get("/matches/<public_id>/summary.pdf")
def summary_pdf(public_id: str) -> ResponseReturnValue:
    """The summary, carrying the export of the version it prints (``ledger.pdf.archive``)."""
    match = matches.get_match(public_id)
    paper = paper_size(request.args.get("paper"))
    hands = "full" if request.args.get("hands") == "full" else "lines"
    now = datetime.now(UTC)

    def make() -> RenderJob:
        view = matches.match_view(match)
        export = jsonify(matches.export_json(match, view)).get_data()  # as the API answers it
        html = render_template(
            "pdf/summary.html",
            view=view,
            awards=match_stats(match) if view.finished else None,
            hands=hands,
            not_edits=matches.versions_not_edits(match),
            settlements=(
                [(h, h.settlement(view.rules)) for h in view.hands] if hands == "full" else []
            ),
            full_url=url_for(
                ".summary_pdf",
                public_id=public_id,
                hands="full",
                paper=None if paper == DEFAULT_PAPER else paper,
                _external=True,
            ),
            printed=day(now),
            paper=paper,
            export_name=EXPORT_NAME,
            import_url=url_for("matches.new", _external=True, _anchor="import"),
        )
        return RenderJob(
            html, paper, (pdf_page_css(),), (export_attachment(export, view.name, now),)
        )

    pdf = kept_pdf(request_key("summary", public_id, match.version, now, paper, hands), make)
    return pdf_response(pdf, f"{_slug(match.name)}-summary.pdf")


@bp.get("/matches/<public_id>/hands/<int:number>/slip.pdf")
def hand_slip_pdf(public_id: str, number: int) -> ResponseReturnValue:
    match = matches.get_match(public_id)
    paper = paper_size(request.args.get("paper"))
    now = datetime.now(UTC)

    def make() -> RenderJob:
        view = matches.match_view(match)
        hand = view.hand(number)
        if hand is None:
            abort(404, Msg("This match has no hand {number}.", number=number))
        html = render_template(
            "pdf/slip.html",
            view=view,
            hand=hand,
            not_edits=matches.versions_not_edits(match),
            settlement=hand.settlement(view.rules),
            printed=day(now),
            paper=paper,
        )
        return RenderJob(html, paper, (pdf_page_css(),))

    pdf = kept_pdf(request_key("slip", public_id, match.version, now, paper, number), make)
    return pdf_response(pdf, f"{_slug(match.name)}-hand-{number}.pdf")


@bp.get("/matches/<public_id>/settle-up.pdf")
def settle_up_pdf(public_id: str) -> ResponseReturnValue:
    match = matches.get_match(public_id)
    paper = paper_size(request.args.get("paper"))
    now = datetime.now(UTC)

    def make() -> RenderJob:
        view = matches.match_view(match)
        if not view.has_settle_up:
            abort(404, NO_SETTLE_UP_SLIP)
        html = render_template(
            "pdf/settle_up_slip.html",
            view=view,
            dates=match_dates(view),
            printed=day(now),
            paper=paper,
        )
        return RenderJob(html, paper, (pdf_page_css(),))

    pdf = kept_pdf(request_key("settle-up", public_id, match.version, now, paper), make)
    return pdf_response(pdf, f"{_slug(match.name)}-settle-up.pdf")


def _picked_rules(own: HouseRules) -> tuple[HouseRules, str]:
    """The rules a What if…? PDF's query picks (``own`` when it picks none) and their
    cache key; the 404 page while they are not valid rules."""
    _, choice = chosen(own, request.args, WhatIfForm)
    if choice.rules is None:
        abort(404, N_("These house rules are not valid: open What if…? to correct them."))
    return choice.rules, choice.spec_key


@bp.get("/matches/<public_id>/what-if.pdf")
def what_if_pdf(public_id: str) -> ResponseReturnValue:
    """The comparison of "What if…?" (``ledger.web.what_if``) on one page: the rules as
    the page's query picks them; 404 while they are not valid rules."""
    match = matches.get_match(public_id)
    rules, spec_key = _picked_rules(rules_from_record(match.rules))
    paper = paper_size(request.args.get("paper"))
    now = datetime.now(UTC)

    def make() -> RenderJob:
        view = matches.match_view(match, newest=0)
        compared = comparison(match, rules)
        html = render_template(
            "pdf/what_if.html",
            view=view,
            own_title=rules_title(view.rules),
            compared=compared,
            limit=compared.printed_hands,
            printed=day(now),
            paper=paper,
        )
        return RenderJob(html, paper, (pdf_page_css(),))

    key = request_key("what-if", public_id, match.version, now, paper, spec_key)
    return pdf_response(kept_pdf(key, make), f"{_slug(match.name)}-what-if.pdf")


@bp.get("/tables/<public_id>/what-if.pdf")
def season_what_if_pdf(public_id: str) -> ResponseReturnValue:
    """The season's comparison of "What if…?" (``ledger.web.table_what_if``) on one page:
    the season and the rules as the page's query picks them; 404 while they are not valid
    rules."""
    table = tables.get_table(public_id)
    season = season_or_404(table, request.args.get("season"))
    own = rules_from_record(table.rules)
    rules, spec_key = _picked_rules(own)
    paper = paper_size(request.args.get("paper"))
    now = datetime.now(UTC)
    which = tables.ALL if season is None else season.public_id

    def make() -> RenderJob:
        html = render_template(
            "pdf/season_what_if.html",
            table=table,
            season=season,
            compared=rescore_season(table, season, rules),
            title=rules_title(rules),
            own_title=rules_title(own),
            own_rules=own,
            own=rules == own,
            printing=True,
            printed=day(now),
            paper=paper,
        )
        return RenderJob(html, paper, (pdf_page_css(),))

    parts = (paper, which, *tables.matches_version(table), spec_key)
    key = request_key("season-what-if", public_id, table.version, now, *parts)
    return pdf_response(kept_pdf(key, make), f"{_slug(table.name)}-what-if.pdf")


@bp.get("/check/slip.pdf")
def check_slip_pdf() -> ResponseReturnValue:
    h = request.args.get("h")
    if not h:
        abort(400, N_("This slip needs a hand: open it from the dispute checker."))
    try:
        data = decode_hand_link(h)
    except ShareLinkError as problem:
        abort(400, str(problem))
    try:
        rules = resolve_rules(data.get("rules", DEFAULT_PROFILE))
        hand = parse_hand(data, rules)
    except Invalid:
        abort(
            400,
            N_(
                "This link holds a hand that cannot be settled. Open it in the dispute checker "
                "to see what is wrong."
            ),
        )
    paper = paper_size(request.args.get("paper"))

    def make() -> RenderJob:
        html = render_template(
            "pdf/check_slip.html",
            settlement=settlement_json(hand, settle(hand, rules)),
            check_url=url_for("checker.check", h=h, _external=True),
            printed=day(datetime.now(UTC)),
            paper=paper,
        )
        return RenderJob(html, paper, (pdf_page_css(),))

    return pdf_response(new_pdf(make), "hand-slip.pdf")


@bp.errorhandler(PdfBusy)
def _busy(error: PdfBusy) -> ResponseReturnValue:
    """503 with Retry-After: every render slot stayed taken (``ledger.pdf.printer``)."""
    response = error_response(error, str(error.description))
    response.headers["Retry-After"] = str(error.retry_after)
    return response


@bp.record_once
def _init(state: BlueprintSetupState) -> None:
    init_printer(state.app)


@bp.app_template_global("match_report")
def _match_report_global(view: MatchView, chart: Chart | None = None) -> dict[str, Any]:
    return match_report(view, chart)


@bp.app_template_global("rules_settings")
def _rules_settings_global(rules: HouseRules) -> list[dict[str, Any]]:
    return rules_settings(rules)


@bp.app_template_global("rules_differences")
def _rules_differences_global(played: HouseRules, other: HouseRules) -> list[dict[str, Any]]:
    return rules_differences(played, other)


@bp.app_template_filter("card_text")
def _card_text_filter(code: object) -> str:
    return card_text(code)


@bp.app_template_filter("maal_text")
def _maal_text_filter(player: dict[str, Any]) -> str:
    return maal_text(player)


@bp.app_template_global("check_slip_url")
def check_slip_url(share_url: str | None) -> str | None:
    """The slip PDF of the hand a dispute checker share link holds (None without one)."""
    if not share_url:
        return None
    h = parse_qs(urlsplit(share_url).query).get("h")
    return url_for("reports.check_slip_pdf", h=h[0]) if h else None
