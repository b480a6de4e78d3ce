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

The one-page PDF of the comparison is ``reports.what_if_pdf`` (``ledger.pdf.routes``).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from flask import Blueprint, flash, redirect, render_template, request, url_for
from flask_babel import ngettext
from flask_wtf import FlaskForm
from werkzeug.datastructures import MultiDict
from wtforms import Form, FormField

from ledger import matches
from ledger.engine import FieldError, HouseRules, Invalid, SettleUp
from ledger.i18n import num, tr, translate
from ledger.i18n.words import PROFILE_NAMES
from ledger.matches.models import Match
from ledger.matches.reading import rules_from_record
from ledger.matches.rescore import NO, Reason, Rescore, rescore_match
from ledger.web.edit_rights import can_edit, require_editor
from ledger.web.forms.hand import OVERRIDABLE, RulesForm
from ledger.web.forms.problems import Problem, attach, plain_message
from ledger.web.forms.rules import RulesChoice, prepare_rules_form, read_rules_form, rules_formdata

bp = Blueprint("what_if", __name__, url_prefix="/matches")

#: The changed hands a printed comparison lists (it is one page); the page lists all.
PRINTED_HANDS = 6


class WhatIfForm(Form):
    """The rules to compare with (a GET form: it changes nothing, so it needs no token)."""

    rules = FormField(RulesForm)


class MatchRulesForm(FlaskForm):
    """The match's new rules, for good (CSRFProtect checks the token)."""

    rules = FormField(RulesForm)


@dataclass(frozen=True)
class TotalRow:
    name: str
    as_played: int
    rescored: int

    @property
    def change(self) -> int:
        return self.rescored - self.as_played


@dataclass(frozen=True)
class HandNote:
    """A hand rescored in part or not at all, and why, in the page's language."""

    number: int
    rescored: str  # partly | no
    reasons: tuple[str, ...]


@dataclass(frozen=True)
class Comparison:
    """What the page and the PDF show of a rescore (also what ``match/_settle_up.html``
    reads as its ``view``: ``settle_up()``, ``finished``, ``public_id``)."""

    rescore: Rescore
    public_id: str
    title: str  # the other rules, in words
    own: bool  # the other rules are the match's own
    finished: bool

    @property
    def totals(self) -> list[TotalRow]:
        r = self.rescore
        return [TotalRow(n, r.totals_as_played[n], r.totals[n]) for n in r.players]

    @property
    def changed(self) -> list[tuple[int, dict[str, int]]]:
        """(hand number, each player's change) for the hands that change, in order."""
        return [(h.number, h.changes(self.rescore.players)) for h in self.rescore.changed]

    @property
    def notes(self) -> list[HandNote]:
        return [
            HandNote(h.number, h.rescored, tuple(reason_text(r) for r in h.reasons))
            for h in self.rescore.not_in_full
        ]

    @property
    def unchanged(self) -> int:
        """The hands rescored (in full or in part) that come out as played."""
        changed = {h.number for h in self.rescore.changed}
        return sum(h.number not in changed and h.rescored != NO for h in self.rescore.hands)

    @property
    def refused(self) -> int:
        return sum(h.rescored == NO for h in self.rescore.hands)

    def settle_up(self) -> SettleUp | None:
        return self.rescore.settle_up()


def reason_text(reason: Reason) -> str:
    """A reason in the page's language and the table's words: whose, then what."""
    message = reason.message
    text = plain_message(message) if isinstance(message, FieldError) else translate(message)
    return tr("{player}: {reason}", player=reason.who, reason=text) if reason.who else text


def rules_title(rules: HouseRules) -> str:
    """The rules in words: the profile's title, and how many settings differ from it."""
    title = str(PROFILE_NAMES.get(rules.profile, rules.profile))
    changed = len(rules.overrides())
    if not changed:
        return title
    return ngettext(
        "%(profile)s with %(count)s setting changed",
        "%(profile)s with %(count)s settings changed",
        changed,
        profile=title,
        count=num(changed),
    )


def own_formdata(rules: HouseRules) -> MultiDict:
    """The picker's data showing ``rules`` (the settings it offers)."""
    spec = {"profile": rules.profile}
    spec.update({k: v for k, v in rules.overrides().items() if k in OVERRIDABLE})
    return rules_formdata(spec)[0]


#: The two forms holding the rules picker.
PickerForm = WhatIfForm | MatchRulesForm


def read_picker(form: PickerForm) -> RulesChoice:
    prepare_rules_form(form.rules.form)
    return read_rules_form(form.rules.form)


def comparison(match: Match, rules: HouseRules) -> Comparison:
    own = rules_from_record(match.rules)
    view = matches.match_view(match, newest=0)
    return Comparison(
        rescore_match(match, rules),
        match.public_id,
        rules_title(rules),
        own == rules,
        view.finished,
    )


def chosen(
    own: HouseRules,
    args: Mapping[str, Any],
    form_class: type[WhatIfForm] | type[MatchRulesForm],
) -> tuple[PickerForm, RulesChoice]:
    """The picker from the query (``rules-profile`` and the rest), else set to ``own``
    (the match's or the table's rules), and what it chose."""
    asked = "rules-profile" in args
    formdata = MultiDict(args) if asked else own_formdata(own)
    form = form_class(formdata=formdata)
    return form, read_picker(form)


def picked_query(form: PickerForm) -> dict[str, str]:
    """The picker's fields as a query (for the PDF's and the change page's links)."""
    out: dict[str, str] = {}
    for f in form.rules.form:
        if isinstance(f.data, str) and f.data.strip():
            out[f.name] = f.data.strip()
    return out


@bp.get("/<public_id>/what-if")
def what_if(public_id: str):
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
def change_rules(public_id: str):
    match = matches.get_match(public_id)
    require_editor(match)
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
):
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
