"""The dispute checker: settle one hand under any house rules, store nothing.

``GET /check`` shows an empty hand (or, with ``?h=``, a shared one, settled);
``POST /check`` settles the posted form; ``POST /check/preview`` answers htmx with the
settlement or the problems (or, when the house rules changed, the whole form redrawn
for them). A shared link carries the settle request of docs/api.md as compact base64url JSON.
"""

from __future__ import annotations

from collections.abc import Iterable

from flask import Blueprint, make_response, render_template, request, url_for
from flask.typing import ResponseReturnValue
from werkzeug.datastructures import MultiDict

from ledger.engine import PROFILES, Invalid, resolve_rules
from ledger.engine.rules import DEFAULT_PROFILE
from ledger.forms.hand import CheckForm
from ledger.forms.hand_filling import hand_formdata
from ledger.forms.hand_reading import HandCheck, check_hand
from ledger.forms.hand_setup import prepare_hand_form
from ledger.forms.problems import clear_errors
from ledger.forms.rules import (
    RulesChoice,
    prepare_rules_form,
    read_rules_form,
    rules_formdata,
)
from ledger.i18n import translate
from ledger.matches.share_link import ShareLinkError, decode_hand_link, encode_hand_link

bp = Blueprint("checker", __name__)


def _checker_form(
    formdata: MultiDict[str, str] | None, *, add_row: bool = False
) -> tuple[CheckForm, RulesChoice]:
    """The checker's form read from ``formdata``, and its house rules.

    A row the form adds (all of a new form's, the one "Add a player" adds) opens as the
    match's hand form opens a plain hand: compact, its maal as a total, seen by
    sequences; a new form's hand is finished by sequences. A row left without a name or
    anything typed is no player (``hand_reading``): the defaults do not make it one."""
    form = CheckForm(formdata=formdata)
    prepare_rules_form(form.rules.form)
    choice = read_rules_form(form.rules.form)
    given = len(form.players)
    rows = given + 1 if add_row else None
    prepare_hand_form(form, choice.base, rows=rows)
    for entry in form.players.entries[given:]:
        entry.form.maal_mode.data = "number"
        entry.form.seen.data = "sequences"
    if formdata is None:
        form.finish.data = "sequences"
    return form, choice


def _most_players(spec: object) -> int:
    """The most players a hand has under a shared link's rules (those of the default
    profile when they are not valid: the rules' own problems are shown with them)."""
    try:
        return resolve_rules(spec).max_players
    except Invalid:
        return PROFILES[DEFAULT_PROFILE].max_players


def _share_url(choice: RulesChoice, check: HandCheck | None) -> str | None:
    if check is None or not check.ok or choice.spec is None:
        return None
    h = encode_hand_link({"rules": choice.spec, **check.data})
    # Whoever it is sent to lands on the steps, as "Settle and explain" does.
    return url_for("checker.check", h=h, _external=True, _anchor="hand-preview")


def _page(
    form: CheckForm,
    choice: RulesChoice,
    check: HandCheck | None = None,
    notes: Iterable[str] = (),
    status: int = 200,
) -> tuple[str, int]:
    form.drawn_for.data = choice.spec_key
    body = render_template(
        "check/page.html",
        form=form,
        choice=choice,
        check=check,
        notes=list(notes),
        share_url=_share_url(choice, check),
    )
    return body, status


@bp.route("/check", methods=["GET", "POST"])
def check() -> ResponseReturnValue:
    if request.method == "POST":
        add_row = request.form.get("action") == "add_player"
        form, choice = _checker_form(request.form, add_row=add_row)
        if add_row:
            return _page(form, choice)
        result = check_hand(form, choice.base, choice.problems, groupings=True)
        return _page(form, choice, result, status=200 if result.ok else 422)
    h = request.args.get("h")
    if h is None:
        return _page(*_checker_form(None))
    try:
        data = decode_hand_link(h)
    except ShareLinkError as problem:
        return _page(*_checker_form(None), notes=[translate(str(problem))], status=400)
    spec = data.get("rules", DEFAULT_PROFILE)
    formdata, notes = hand_formdata(data, most=_most_players(spec))
    rules_data, rules_notes = rules_formdata(spec)
    for key, value in rules_data.items(multi=True):
        formdata.add(key, value)
    form, choice = _checker_form(formdata)
    return _page(
        form,
        choice,
        check_hand(form, choice.base, choice.problems, groupings=True),
        notes + rules_notes,
    )


@bp.post("/check/preview")
def preview() -> ResponseReturnValue:
    form, choice = _checker_form(request.form)
    result = check_hand(form, choice.base, choice.problems, groupings=True)
    share_url = _share_url(choice, result)
    if choice.spec_key and choice.spec_key != form.drawn_for.data:
        # Other house rules need other fields: redraw the whole form around the preview.
        # Its problems show in the preview only, as they would without a redraw.
        form.drawn_for.data = choice.spec_key
        clear_errors(form)
        body = render_template(
            "check/_form.html",
            form=form,
            choice=choice,
            check=result,
            share_url=share_url,
            redraw=True,
        )
        response = make_response(body)
        response.headers["HX-Retarget"] = "#check-form"
        response.headers["HX-Reswap"] = "outerHTML"
        return response
    return render_template("hand/_preview.html", check=result, share_url=share_url, live=True)
