"""A table's season named by a request's ``?season=``, or the 404 page (the table's pages
and its prints read it alike)."""

from __future__ import annotations

from flask import abort

from ledger.engine import Invalid
from ledger.i18n import tr
from ledger.tables import service
from ledger.tables.models import Season, Table


def season_or_404(table: Table, value: object) -> Season | None:
    """``?season=`` read (``service.read_season``); the 404 page for a season the table
    has not."""
    try:
        return service.read_season(table, value)
    except Invalid:
        abort(404, tr("This table has no such season. Choose one from the table's page."))
