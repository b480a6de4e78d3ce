"""Match pages: a new match, the match page (read-only link, live), sharing, joining.

- ``GET/POST /matches/new`` creates a match; the creating browser gets edit rights.
  ``POST /matches/import`` (from the same page) loads a saved match: its summary PDF
  or export.json becomes a new match, which this browser may edit.
- ``GET /matches/<id>`` is the match for anyone with its id; editors also see the
  controls. ``GET /matches/<id>/live?v=<version>`` is what the page polls: 204 while the
  match's version is still ``v``, else the fresh standings, table and chart. Both are
  served from parts rendered once per match version (see "the match page" below).
- ``POST /matches/<id>/stake``: an editor sets, changes or drops the match's stake.
- ``GET /matches/<id>/qr.svg``: the QR code of the read-only link.
- ``GET /matches/<id>/join/<key>``: an edit link; the key goes into the session and
  the browser is sent on to the match page (so the key leaves the address bar).
- ``GET/POST /matches/<id>/length``: play on after the end, or stop here (editors).

Hand pages are in ``ledger.web.hands``; reading and writing is ``ledger.matches``.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Hashable, Iterable, Sequence
from typing import Any, TypeVar

from flask import (
    Blueprint,
    Response,
    current_app,
    flash,
    g,
    get_template_attribute,
    redirect,
    render_template,
    request,
    session,
    url_for,
)
from flask.typing import ResponseReturnValue
from flask_wtf import FlaskForm
from markupsafe import Markup

from ledger import matches
from ledger.engine import FieldError, Invalid, SettleUp
from ledger.engine.names import tidy_name
from ledger.extensions import csrf
from ledger.forms.length import MAX_COUNT, LengthForm, length_unit, suggest_length
from ledger.forms.new_match import (
    NewMatchCheck,
    NewMatchForm,
    default_name,
    error_field,
    prepare_new_match_form,
    read_length,
    rules_spec,
)
from ledger.forms.numbers import read_whole
from ledger.forms.problems import Problem, attach, place_errors, plain_message
from ledger.forms.rules import RulesChoice
from ledger.forms.saved_files import MATCH as SAVED_MATCH
from ledger.forms.saved_files import ImportMatchForm
from ledger.forms.stake import (
    StakeForm,
    prepare_stake_fields,
    read_stake_fields,
    stake_field,
)
from ledger.http.edit_keys import held_keys, remember_key
from ledger.http.imports import one_import_at_a_time
from ledger.http.no_store import NO_STORE, may_keep_copy, unkept
from ledger.http.pace import poll_seconds
from ledger.i18n import current_language, digit_style, money, tr, translate, trn
from ledger.i18n.numbers import length_words
from ledger.i18n.switches import here
from ledger.matches import create_match
from ledger.matches.chart import running_chart
from ledger.matches.models import Match
from ledger.matches.page_cache import fragment_cache
from ledger.matches.reading import read_match, read_whole_number, rules_from_record
from ledger.matches.view import HandView, MatchView, stake_of
from ledger.tables.models import Table
from ledger.tables.player_stats import match_stats
from ledger.tables.service import (
    check_match_stake,
    leaving_with,
    table_name_of,
    table_of,
)
from ledger.tables.service import delete_match as delete_table_match
from ledger.web.edit_rights import MATCH_PAGES, can_edit, edit_key, keeps_table
from ledger.web.saved_files import load_posted
from ledger.web.score_table import RECENT_HANDS, ScoreCell, deleted_hands, score_rows
from ledger.web.undo import take_put_back_offer, take_undo_offer

bp = Blueprint("matches", __name__, url_prefix="/matches")

# --- a new match ---------------------------------------------------------------------


@bp.route("/new", methods=["GET", "POST"])
def new() -> ResponseReturnValue:
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
        flash(
            tr(
                "The match is ready. Its edit link is under “Share” at the foot of the "
                "match page: keep a copy of it to keep score from another phone, or from "
                "this one if its browsing data is cleared."
            ),
            "success",
        )
        return redirect(url_for("matches.show", public_id=match.public_id), 303)
    return _new_page(form, choice, outcome, status=422)


def submit_new_match(form: NewMatchForm, choice: RulesChoice) -> tuple[Match, str] | NewMatchCheck:
    """Create the match the form describes, or its problems (placed on the fields)."""
    problems: list[Problem] = []
    names, rows = [], []
    for row, entry in enumerate(form.players):
        name = tidy_name(entry.data or "")
        if name:
            names.append(name)
            rows.append(row)
    length = read_length(form, problems)
    dealer = None
    chosen = read_whole(form.first_dealer.data or "0")
    if chosen is not None and chosen in rows:
        dealer = names[rows.index(chosen)]
    elif names:
        problems.append(
            Problem(
                tr("Choose a player with a name to deal first."),
                form.first_dealer,
                tr("Deals first"),
            )
        )
    stake = read_stake_fields(form.stake.form)
    args = (
        form.name.data or default_name(among=held_keys()),
        names,
        rules_spec(form, choice),
        length,
        dealer,
        stake,
    )
    try:
        if problems or choice.problems:
            read_match(*args)  # only to find the other problems; stores nothing
        else:
            return create_match(*args)
    except Invalid as invalid:
        # one message per field is enough: a field with a problem of the form keeps it
        errors = [e for e in invalid.errors if not getattr(error_field(form, e, rows), "errors", 0)]
        problems += place_errors(errors, lambda e: (error_field(form, e, rows), e.field))
    attach(problems)
    return NewMatchCheck(choice, [*choice.problems, *problems])


@bp.post("/new/rules")
def new_rules() -> str:
    """The house rules and length part of the new-match form, redrawn (htmx) when the
    profile or an override changes: the values shown follow the choice."""
    form = NewMatchForm(formdata=request.form)
    choice = prepare_new_match_form(form)
    return render_template("match/_rules_length.html", form=form, choice=choice)


@bp.post("/import")
@csrf.exempt  # type: ignore[untyped-decorator]  # load_posted checks it, under an import's limit
@one_import_at_a_time
def import_saved() -> ResponseReturnValue:
    """A new match from a saved one (summary PDF or export.json); this browser edits it."""
    form, loaded, status = load_posted(SAVED_MATCH)
    if loaded is None:
        return _new_page(None, None, import_form=form, status=status)
    match, key = loaded
    remember_key(match.public_id, key)
    flash(
        tr("The match “{name}” is loaded: a new copy that this browser can edit.", name=match.name),
        "success",
    )
    return redirect(url_for("matches.show", public_id=match.public_id), 303)


def _new_page(
    form: NewMatchForm | None,
    choice: RulesChoice | None,
    check: NewMatchCheck | None = None,
    status: int = 200,
    import_form: FlaskForm | None = None,
) -> tuple[str, int]:
    """The new-match page; ``import_form`` when a saved match could not be loaded."""
    if form is None:
        form = NewMatchForm(formdata=None)
        choice = prepare_new_match_form(form)
    import_form = import_form or ImportMatchForm(formdata=None)
    body = render_template(
        "match/new.html", form=form, choice=choice, check=check, import_form=import_form
    )
    return body, status


# --- parts that follow only the house rules and the language ---------------------------
#
# The match page and its printed report show the rules' summary and the game's words at
# every version of the match: they depend on the rules (a HouseRules is hashable) and
# the page's language and digits only, so each is rendered once and kept.

KEPT_PARTS = "ledger.kept_parts"
KEPT_PARTS_SIZE = 256


@bp.app_template_global()
def kept_macro(template: str, macro: str, *args: Hashable) -> Markup:
    """The ``macro`` of ``template`` called with ``args`` (hashable: the key), kept."""
    return _kept(
        ("macro", template, macro, args), lambda: get_template_attribute(template, macro)(*args)
    )


@bp.app_template_global()
def kept_include(template: str, **context: Hashable) -> Markup:
    """``template`` rendered with ``context`` alone (hashable values: the key), kept. A
    part with links is given ``root=request.script_root``: a ledger served under two
    paths keeps its links for each."""
    key = ("include", template, tuple(sorted(context.items())))
    return _kept(key, lambda: render_template(template, **context))


#: A hand's row of the printed report is kept by what it shows: a new hand, or an edit
#: elsewhere that changes no figure of it, draws it no more.
REPORT_HAND_ROWS = "ledger.report_hand_rows"
REPORT_HAND_ROWS_KEPT = 4096


@bp.app_template_global()
def report_hand_row(hand: HandView, players: Sequence[str]) -> Markup:
    """``hand``'s row of the report's table of hands (partials/_report_hand_row.html),
    a cell for each of ``players``, kept by its figures, language and digits."""
    seats = hand.in_seats(players)
    key = (
        "report-hand-row",
        hand.number,
        hand.dealer,
        hand.finish,
        hand.winner,
        tuple((name, p["net"], p["foul"]) if p else (name,) for name, p in seats),
        tuple(sorted(hand.carried_penalties.items())),
    )
    return _kept(
        key, lambda: render_report_hand_row(hand, seats), REPORT_HAND_ROWS, REPORT_HAND_ROWS_KEPT
    )


def render_report_hand_row(
    hand: HandView, seats: Sequence[tuple[str, dict[str, Any] | None]]
) -> Markup:
    macros = current_app.jinja_env.get_template("partials/_report_hand_row.html").module
    row: Markup = getattr(macros, "hand_row")(hand, seats)  # noqa: B009  # a template's macro
    return row


#: A cell of the score table is kept by what it shows: a new hand draws its own cells.
SCORE_CELLS = "ledger_score_cells"
SCORE_CELLS_KEPT = 4096


@bp.app_template_global()
def score_cells(cells: Sequence[ScoreCell]) -> Markup:
    """A player's cells of the score table (match/_score_cell.html), each kept by its
    figures, language and digits."""
    language, digits = current_language(), digit_style()
    return _each_kept(
        SCORE_CELLS,
        SCORE_CELLS_KEPT,
        cells,
        lambda cell: (cell.net, cell.finished, cell.carried, cell.running, language, digits),
        render_score_cell,
    )


Part = TypeVar("Part")


def _each_kept(
    name: str,
    size: int,
    parts: Iterable[Part],
    key: Callable[[Part], Hashable],
    render: Callable[[Part], Markup],
) -> Markup:
    """Each of ``parts`` drawn by ``render``, kept in the cache ``name`` by its ``key``."""
    kept = fragment_cache(name=name, size=size)
    drawn = []
    for part in parts:
        known = key(part)
        found = kept.get(known)
        if found is None:
            found = render(part)
            kept.put(known, found)
        drawn.append(found)
    return Markup("".join(drawn))


def render_score_cell(cell: ScoreCell) -> Markup:
    macros = current_app.jinja_env.get_template("match/_score_cell.html").module
    drawn: Markup = getattr(macros, "score_cell")(cell)  # noqa: B009  # a template's macro
    return drawn


bp.add_app_template_global(deleted_hands, "deleted_hands")


#: A hand's column head of the score table is kept by the match and the hand's number: a
#: new hand draws its own.
SCORE_HEADS = "ledger_score_heads"
SCORE_HEADS_KEPT = 1024


@bp.app_template_global()
def score_heads(public_id: str, hands: Sequence[HandView]) -> Markup:
    """The score table's column heads of ``hands`` (match/_score_head.html), each kept
    by the match, its number, the language, digits and the links' script root."""
    language, digits, root = current_language(), digit_style(), request.script_root
    return _each_kept(
        SCORE_HEADS,
        SCORE_HEADS_KEPT,
        [hand.number for hand in hands],
        lambda number: (public_id, number, language, digits, root),
        lambda number: render_score_head(public_id, number),
    )


def render_score_head(public_id: str, number: int) -> Markup:
    macros = current_app.jinja_env.get_template("match/_score_head.html").module
    drawn: Markup = getattr(macros, "score_head")(public_id, number)  # noqa: B009  # a macro
    return drawn


#: Where a request keeps the settle-up's figures it drew (``flask.g``).
SETTLE_UP_DRAWN = "settle_up_figures"


@bp.app_template_global()
def settle_up_figures(
    view: Any, result: SettleUp, slip: bool, balances: bool, give_way: bool = False
) -> Markup:
    """The figures of ``view``'s settle-up ``result`` (match/_settle_up_figures.html),
    drawn once a request: the match page shows them on the screen and again in its
    printed report. Kept by everything they show (a what-if's comparison shares the
    match's public id and version, not its figures). ``give_way``: the big screens'
    payments, the smallest of which give way when they do not all fit."""
    drawn: dict[Hashable, Markup] = g.setdefault(SETTLE_UP_DRAWN, {})
    key = (
        result,
        view.public_id,
        getattr(view, "version", None),
        getattr(view, "table_id", None),  # how to pay each payee: a table's players'
        view.finished,
        slip,
        balances,
        give_way,
    )
    found = drawn.get(key)
    if found is None:
        found = drawn[key] = Markup(
            render_template(
                "match/_settle_up_figures.html",
                view=view,
                result=result,
                settle_slip=slip,
                settle_balances=balances,
                settle_give_way=give_way,
            )
        )
    return found


def _kept(
    key: tuple[Hashable, ...],
    render: Callable[[], str],
    name: str = KEPT_PARTS,
    size: int = KEPT_PARTS_SIZE,
) -> Markup:
    parts = fragment_cache(name=name, size=size)
    full = (*key, current_language(), digit_style())
    found = parts.get(full)
    if found is None:
        found = render()
        parts.put(full, found)
    return Markup(found)


# --- the match page --------------------------------------------------------------------
#
# The page's parts that follow the match (header, standings, table, chart) are rendered
# once per match version and kept (ledger.matches.page_cache): a page or a poll costs one
# small query while nothing changed, and four (the row, then the match with its players
# and hands) when something did, however many hands there are.


def match_context(match: Match, editor: bool, keeper: Table | None = None) -> dict[str, Any]:
    """What the match page and its live part show (no query per hand). ``keeper``: the
    match's table, when this browser holds its key: the night over, the page leads to
    the table's next night."""
    view: MatchView = matches.match_view(match, newest=RECENT_HANDS)
    chart = running_chart(view.players, view.running)
    return {
        "view": view,
        "awards": match_stats(match) if view.finished else None,
        "rows": score_rows(view),
        "chart": chart,
        "last_hand": view.hands[-1] if view.hands else None,
        "editor": editor,
        "next_night": keeper if view.finished else None,
        "poll_seconds": poll_seconds(current_app, match.public_id),
    }


def _key(
    part: str, public_id: str, version: int, editor: bool, keeper: Table | None = None
) -> tuple[object, ...]:
    pace = poll_seconds(current_app, public_id)  # the live part says how often to poll
    # The table's keeper is led to its next night, by the table's name (renamed without
    # a new version of the match).
    table = (keeper.public_id, keeper.name) if keeper is not None else None
    return (part, public_id, version, editor, table, current_language(), digit_style(), pace)


def rendered_part(part: str, row: Match, editor: bool, keeper: Table | None = None) -> Markup:
    """``part`` ("live": standings, table, chart; "body": the header, the live part and
    the rules) of the match as it is now, from the cache or rendered and kept.
    ``keeper``: the match's table, when this browser holds its key."""
    cache = fragment_cache()
    found = cache.get(_key(part, row.public_id, row.version, editor, keeper))
    if found is not None:
        return Markup(found)
    context = match_context(row, editor, keeper)
    version = context["view"].version  # what was rendered, even if a write just landed
    live = Markup(render_template("match/_live.html", **context))
    cache.put(_key("live", row.public_id, version, editor, keeper), live)
    if part == "live":
        return live
    body = Markup(render_template("match/_body.html", live=live, **context))
    cache.put(_key("body", row.public_id, version, editor, keeper), body)
    return body


@bp.get("/<public_id>")
def show(public_id: str) -> ResponseReturnValue:
    return _show_page(matches.get_match(public_id))


def _show_page(row: Match, stake_form: StakeForm | None = None, status: int = 200) -> Response:
    """The match page; an editor's has the share links and, in a zero-sum match, the
    stake form (``stake_form``: as posted, with its problems)."""
    public_id = row.public_id
    key = edit_key(row)
    share = None
    if key is not None:
        # A table's key opens every match of the table: it is never passed on as this
        # match's edit link. Its holder is sent to the table's page, which shares it as
        # the table's.
        table = None if matches.check_edit_key(row, key) else table_of(row)
        share = {
            "read_url": url_for("matches.show", public_id=public_id, _external=True),
            "edit_url": None
            if table
            else url_for("matches.join", public_id=public_id, key=key, _external=True),
            "table_url": url_for("tables.show", public_id=table.public_id) if table else None,
        }
        if stake_form is None and rules_from_record(row.rules).zero_sum:
            stake_form = StakeForm(formdata=None)
            prepare_stake_fields(stake_form.stake.form, stake_of(row))
    # A read-only visitor with no message waiting sees the same whole page as every other
    # one: keep it too, so that the people following a match on their phones cost little.
    undo = take_undo_offer(row) if key is not None else None
    put_back = take_put_back_offer(row) if key is not None else None
    whole = key is None and not session.get("_flashes")
    # Kept by the table's name too: "Change the table…" renames it without a new version
    # of the match, and the kept page went on leading back to the old name.
    kept_as = (*_key("page", public_id, row.version, False), table_name_of(row)) if whole else ()
    html = fragment_cache().get(kept_as) if whole else None
    if html is None:
        keeper = keeps_table(row) if key is not None else None
        body = rendered_part("body", row, key is not None, keeper)
        home = table_of(row)  # a table's night leads back to its table (its money)
        if whole:
            before, after = read_only_frame(row, home)
            html = "".join((before, body, after))  # as text: Markup would escape the frame
            fragment_cache().put(kept_as, html)
        else:
            html = render_template(
                "match/show.html",
                name=row.name,
                public_id=public_id,
                table=home,
                body=body,
                share=share,
                undo=undo,
                put_back=put_back,
                stake_form=stake_form if key is not None else None,
                staked=stake_of(row) is not None,
                read_only=key is None,
            )
    # Its copy is kept on the phone for a visit with no connection: what it shows once
    # (a message, the undo offer, the edit link) is marked and left out.
    return may_keep_copy(unkept(html, status))


#: The read-only match page around its body (match/show.html and base.html: the head,
#: the site's header and footer) is kept by what it shows: a new version of the match
#: draws only its body. Static files' URLs carry their content's hash, looked at again
#: once every ``STATIC_RECHECK_SECONDS`` (``ledger.http.assets``): a kept frame is kept
#: no longer (0: none is kept).
FRAMES = "ledger_match_frames"
FRAMES_KEPT = 256
BODY_HERE = "\x00body\x00"  # where the body goes: no page's text holds a NUL


def read_only_frame(row: Match, table: Table | None) -> tuple[str, str]:
    """The read-only page of ``row`` (in ``table``, or None) before and after its body,
    with no message waiting."""
    seconds = current_app.config["STATIC_RECHECK_SECONDS"]
    key = (
        row.public_id,
        row.name,
        (table.public_id, table.name) if table else None,
        current_language(),
        digit_style(),
        here(),
        request.script_root,
        int(time.monotonic() // seconds) if seconds else None,
    )
    frames = fragment_cache(name=FRAMES, size=FRAMES_KEPT)
    found = frames.get(key) if seconds else None
    if found is None:
        found = render_template(
            "match/show.html",
            name=row.name,
            public_id=row.public_id,
            table=table,
            body=Markup(BODY_HERE),
            share=None,
            undo=None,
            put_back=None,
            stake_form=None,
            read_only=True,
        )
        if seconds:
            frames.put(key, found)
    before, _, after = found.rpartition(BODY_HERE)  # the last: nothing follows the body
    return before, after


@bp.post("/<public_id>/stake")
def stake(public_id: str) -> ResponseReturnValue:
    """Set, change (an amount) or drop (no amount) the stake; problems on their fields."""
    match = MATCH_PAGES.editable(public_id)
    form = StakeForm(formdata=request.form)
    fields = form.stake.form
    given = read_stake_fields(fields)
    try:
        check_match_stake(match, {"stake": given})
        matches.set_stake(match, given)
    except Invalid as invalid:
        prepare_stake_fields(fields)
        attach(place_errors(invalid.errors, lambda e: (stake_field(fields, e), e.field)))
        return _show_page(match, form, status=422)
    saved = stake_of(match)
    if saved is None:
        flash(tr("No stake: this match is played for points only."), "success")
    else:
        amount = money(saved.per_point, saved.currency)
        flash(tr("Stake saved: {amount} a point.", amount=amount), "success")
    return redirect(url_for("matches.show", public_id=public_id), 303)


@bp.get("/<public_id>/live")
def live(public_id: str) -> ResponseReturnValue:
    """The standings, table and chart, when they changed since version ``v``; else 204."""
    row = matches.get_match(public_id)
    if request.args.get("v", type=int) == row.version:
        return "", 204, NO_STORE
    editor = can_edit(row)
    keeper = keeps_table(row) if editor else None
    return unkept(rendered_part("live", row, editor, keeper))


# --- the length: play on, or stop here ----------------------------------------------------


def play_on(form: LengthForm, match: Match, view: MatchView) -> bool:
    """Set the length the form gives; False (the problem on the field) when it cannot be."""
    text = (form.count.data or "").strip()
    unit = length_unit(view)
    try:
        count = read_whole_number(text, "count", least=1, most=MAX_COUNT, text=True)
    except FieldError:
        if unit == "rotations":
            message = tr("Enter how many rotations: a whole number from 1 to 1000.")
        else:
            message = tr("Enter how many hands: a whole number from 1 to 1000.")
        form.count.errors = [message]
        return False
    try:
        matches.change_match(match, {"length": {unit: count}})
    except Invalid as invalid:
        form.count.errors = [plain_message(error) for error in invalid.errors]
        return False
    return True


@bp.route("/<public_id>/length", methods=["GET", "POST"])
def change_length(public_id: str) -> ResponseReturnValue:
    """Play on after the end (a new, longer length) or stop here (the length becomes the
    hands played): the match's length, changed as the API's PATCH changes it."""
    match = MATCH_PAGES.editable(public_id)
    view = matches.match_view(match, newest=0)
    can_stop = not view.finished and view.state.hands_played > 0
    if request.method == "GET":
        form = LengthForm(formdata=None)
        suggest_length(form, view)
        return render_template("match/length.html", view=view, form=form, can_stop=can_stop)
    form = LengthForm(formdata=request.form)
    if request.form.get("action") == "stop" and can_stop:
        if played := matches.stop_here(match):
            words = length_words("hands", played)
            flash(tr("The match ends here, after {played}.", played=words), "success")
        return redirect(url_for("matches.show", public_id=public_id), 303)
    if play_on(form, match, view):
        flash(tr("The match goes on."), "success")
        return redirect(url_for("matches.show", public_id=public_id), 303)
    body = render_template("match/length.html", view=view, form=form, can_stop=can_stop)
    return body, 422


@bp.post("/<public_id>/end")
def end_night(public_id: str) -> ResponseReturnValue:
    """End the night: the match ends after its last hand, whatever its length (the API's
    ``{"finished": true}``); the page offers to take it back."""
    match = MATCH_PAGES.editable(public_id)
    matches.change_match(match, {"finished": True})
    flash(tr("The night is over: the standings are final."), "success")
    return redirect(url_for("matches.show", public_id=public_id), 303)


@bp.post("/<public_id>/reopen")
def reopen_night(public_id: str) -> ResponseReturnValue:
    """Take "End the night" back (``{"finished": false}``): the match takes hands again."""
    match = MATCH_PAGES.editable(public_id)
    matches.change_match(match, {"finished": False})
    flash(tr("The night goes on."), "success")
    return redirect(url_for("matches.show", public_id=public_id), 303)


@bp.route("/<public_id>/delete", methods=["GET", "POST"])
def delete_match(public_id: str) -> ResponseReturnValue:
    """Delete a match started by mistake: only one with no hand in it (the API's DELETE);
    back to its table, or to the start page."""
    match = MATCH_PAGES.editable(public_id)
    view = matches.match_view(match, newest=0)
    if request.method == "GET":
        return render_template("match/delete.html", view=view, leaving=leaving_with(match))
    table = table_of(match)
    try:
        left = delete_table_match(match)  # with the players its start added to the roster
    except matches.MatchHasHands as kept:
        flash(translate(kept.description), "error")
        return redirect(url_for("matches.show", public_id=public_id), 303)
    flash(tr("The match “{name}” is deleted.", name=view.name), "success")
    if left:
        flash(
            trn(
                "{names} left the table's roster with it.",
                "{names} left the table's roster with it.",
                len(left),
                names=", ".join(left),
            ),
            "success",
        )
    if table is not None:
        return redirect(url_for("tables.show", public_id=table.public_id), 303)
    return redirect(url_for("main.index"), 303)


# --- sharing -----------------------------------------------------------------------------


MATCH_PAGES.share(bp)  # qr (the read-only link's QR code) and join (the edit link)
