"""The season's summary PDF: ``GET /tables/<id>/season.pdf?season=<id>|all``.

Standings, each night's result, each player's record, a page of the players' figures
and the season's awards, money and who pays whom, printed
through the bounded, cached renderer of the match summaries (``ledger.pdf.printer``:
a child process, a few render slots, a copy kept per version). It is an archive like
``summary.pdf``: PDF/A-3 carrying the table's ``export.json`` (the bytes
``GET /api/v1/tables/<id>/export.json`` answers), which ``POST /api/v1/tables/import``
reads back out of it.

A table's own version moves on its own writes only; the PDF is kept under it and the
sum and count of its matches' versions, so a new hand in any match makes a new copy.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import UTC, datetime
from typing import NamedTuple

from flask import Blueprint, jsonify, render_template, request, url_for
from flask.typing import ResponseReturnValue

from ledger.engine import HouseRules, Stake
from ledger.http.seasons import season_or_404
from ledger.i18n import format_day, tr
from ledger.matches.export import export_filename
from ledger.matches.pdf_export import EXPORT_NAME
from ledger.pdf.jobs import Attached, RenderJob, paper_size, pdf_response
from ledger.pdf.page_css import pdf_page_css
from ledger.pdf.printer import kept_pdf, request_key
from ledger.tables import export as table_export
from ledger.tables import player_stats, service
from ledger.tables.figures import RIVAL_MATCHES, MatchFigures
from ledger.tables.money_view import earlier_owed, money_view

bp = Blueprint("table_reports", __name__, url_prefix="/tables")


class RulesPlayed(NamedTuple):
    """A set of house rules and a stake the season's nights were played under, and those
    nights' names in play order."""

    rules: HouseRules
    stake: Stake | None
    nights: list[str]


def rules_played(nights: Sequence[MatchFigures]) -> list[RulesPlayed]:
    """Each set of rules and stake of ``nights``, in the order first played: a season whose
    rules changed prints each set with the nights played under it."""
    found: dict[tuple[HouseRules, Stake | None], list[str]] = {}
    for night in nights:
        if night.rules is not None:
            found.setdefault((night.rules, night.stake), []).append(night.name)
    return [RulesPlayed(rules, stake, names) for (rules, stake), names in found.items()]


@bp.get("/<public_id>/season.pdf")
def season_pdf(public_id: str) -> ResponseReturnValue:
    table = service.get_table(public_id)
    season = season_or_404(table, request.args.get("season"))
    paper = paper_size(request.args.get("paper"))
    now = datetime.now(UTC)
    which = service.ALL if season is None else season.public_id

    def make() -> RenderJob:
        found = service.standings(table, season)
        export = jsonify(table_export.export_table(table)).get_data()
        html = render_template(
            "table/season_pdf.html",
            table=table,
            season=season,
            standings=found,
            nights=list(found.matches),
            records=[service.player_record(table, line.name, season) for line in found.players],
            stats=player_stats.stats(table, found.matches),
            match_names={m.public_id: m.name for m in found.matches},
            money=money_view(table, season, found),
            earlier_owed=earlier_owed(table, season),
            payments=service.payments(table, season, deleted=True),  # as the table's page
            rules_played=rules_played(found.matches),
            rival_matches=RIVAL_MATCHES,
            printed=format_day(now, both=True),  # as every printed page: both calendars
            import_url=url_for("tables.new", _external=True, _anchor="import"),
            paper=paper,
        )
        attached = Attached(
            name=EXPORT_NAME,
            data=export,
            description=tr(
                "The table “{table}” as the Marriage ledger exports it, to import again.",
                table=table.name,
            ),
            moment=now,
        )
        return RenderJob(html, paper, (pdf_page_css(),), (attached,))

    key = request_key(
        "season", public_id, table.version, now, paper, which, *service.matches_version(table)
    )
    slug = export_filename(table.name, "pdf").removesuffix(".pdf")
    return pdf_response(kept_pdf(key, make), f"{slug}-season.pdf")
