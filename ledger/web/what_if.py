""" "What if…?": a match's hands under other rules, and changing its rules for good.

- ``GET /matches/<id>/what-if?rules-profile=...&rules-<setting>=...``: anyone with the
  match's link picks a profile or changes a setting (the new-match form's rules picker,
  a GET form: it works without JavaScript) and sees the comparison
  (``ledger.matches.rescore``): the totals side by side, the hands that change first
  and by how much, the hands rescored in part or not at all with the engine's reasons,
  the settle-up under the other rules. Nothing is stored.
- ``GET /matches/<id>/rules`` (editors): the picker as a form that changes the match's
  rules, set to the rules asked for (from "What if…?") or the match's own; ``POST``
  (CSRF, edit rights) settles every hand again under them (``matches.change_match``), or
  answers 422 naming the hands they refuse, nothing changed.

The picker and the comparison are read in ``ledger.forms.what_if``, which the one-page
PDF of the comparison (``reports.what_if_pdf``, ``ledger.pdf.routes``) reads too.
"""

from __future__ import annotations

from flask import Blueprint, flash, redirect, render_template, request, url_for
from flask.typing import ResponseReturnValue

from ledger import matches
from ledger.engine import Invalid
from ledger.forms.problems import Problem, attach, plain_message
from ledger.forms.rules import RulesChoice
from ledger.forms.what_if import (
    HandNote,
    MatchRulesForm,
    PickerForm,
    WhatIfForm,
    chosen,
    comparison,
    picked_query,
    read_picker,
    reason_text,
    rules_title,
)
from ledger.i18n import tr
from ledger.matches.models import Match
from ledger.matches.reading import rules_from_record
from ledger.matches.rescore import NO
from ledger.web.edit_rights import MATCH_PAGES, can_edit

bp = Blueprint("what_if", __name__, url_prefix="/matches")


@bp.get("/<public_id>/what-if")
def what_if(public_id: str) -> ResponseReturnValue:
    match = matches.get_match(public_id)
    form, choice = chosen(rules_from_record(match.rules), request.args, WhatIfForm)
    compared = comparison(match, choice.rules) if choice.rules is not None else None
    body = render_template(
        "match/what_if.html",
        match=match,
        form=form,
        choice=choice,
        compared=compared,
        query=picked_query(form),
        editor=can_edit(match),
    )
    return body, 200 if compared is not None else 422


@bp.route("/<public_id>/rules", methods=["GET", "POST"])
def change_rules(public_id: str) -> ResponseReturnValue:
    match = MATCH_PAGES.editable(public_id)
    if request.method == "GET":
        form, choice = chosen(rules_from_record(match.rules), request.args, MatchRulesForm)
        return _rules_page(match, form, choice)
    form = MatchRulesForm(formdata=request.form)
    choice = read_picker(form)
    if choice.rules is None:
        return _rules_page(match, form, choice, status=422)
    own = rules_from_record(match.rules)
    spec = choice.rules.spec()
    if own.deal_passes != choice.rules.deal_passes:  # the picker does not offer it: it stays
        spec["deal_passes"] = own.deal_passes
    try:
        matches.change_match(match, {"rules": spec})
    except matches.RulesRefused as refused:
        hands = [
            HandNote(number, NO, tuple(reason_text(r) for r in reasons))
            for number, reasons in refused.refused
        ]
        return _rules_page(match, form, choice, refused=hands, status=422)
    except Invalid as invalid:
        problems = [Problem(plain_message(e)) for e in invalid.errors]
        attach(problems)
        return _rules_page(match, form, choice, problems=problems, status=422)
    flash(
        tr(
            "The match now plays by {rules}: every hand is settled again under them, and "
            "each hand that changed keeps its earlier version in its history.",
            rules=rules_title(rules_from_record(match.rules)),
        ),
        "success",
    )
    return redirect(url_for("matches.show", public_id=public_id), 303)


def _rules_page(
    match: Match,
    form: PickerForm,
    choice: RulesChoice,
    *,
    refused: list[HandNote] | None = None,
    problems: list[Problem] | None = None,
    status: int = 200,
) -> tuple[str, int]:
    compared = comparison(match, choice.rules) if choice.rules is not None and not refused else None
    body = render_template(
        "match/rules.html",
        match=match,
        form=form,
        choice=choice,
        compared=compared,
        refused=refused or [],
        problems=problems or [],
        current=rules_title(rules_from_record(match.rules)),
    )
    return body, status
