""" "What if…?" for a table's season: its standings as played and under other rules.

``GET /tables/<id>/what-if?season=...&rules-profile=...&rules-<setting>=...``: the
new-match rules picker as a GET form (it changes nothing; anyone with the table's link),
and the season rescored (``ledger.tables.rescore``): each player's total as played and
under the other rules, the matches they would have won, each match's hands that change.
"""

from __future__ import annotations

from flask import Blueprint, render_template, request
from flask.typing import ResponseReturnValue

from ledger.forms.what_if import WhatIfForm, chosen, picked_query, rules_title
from ledger.http.seasons import season_or_404
from ledger.matches.reading import rules_from_record
from ledger.tables import service
from ledger.tables.rescore import rescore_season

bp = Blueprint("table_what_if", __name__, url_prefix="/tables")


@bp.get("/<public_id>/what-if")
def what_if(public_id: str) -> ResponseReturnValue:
    table = service.get_table(public_id)
    season = season_or_404(table, request.args.get("season"))
    own = rules_from_record(table.rules)
    form, choice = chosen(own, request.args, WhatIfForm)
    compared = rescore_season(table, season, choice.rules) if choice.rules is not None else None
    body = render_template(
        "table/what_if.html",
        table=table,
        season=season,
        season_value=service.ALL if season is None else season.public_id,
        form=form,
        choice=choice,
        compared=compared,
        title=rules_title(choice.rules) if choice.rules is not None else "",
        own=choice.rules == own,
        query=picked_query(form),
    )
    return body, 200 if compared is not None else 422
