"""Table pages: a new table, the table's page, its writes, each player's record.

- ``GET/POST /tables/new``: a new table (name, roster, rules, stake); the creating
  browser gets edit rights (the table's key, sealed in the session as a match's is).
  ``POST /tables/import`` (from the same page) loads a saved table: its export.json or
  a season PDF becomes a new table, which this browser may edit.
- ``GET /tables/<id>?season=<id>|all``: anyone with the id: the roster, seasons, the
  standings, the charts, money across nights, the matches; editors also see the
  forms (a new match from the roster, a match moved in, a new season, mark paid,
  rename and merge) and the share links.
- ``GET /tables/<id>/join/<key>``: the table's edit link; ``GET /tables/<id>/qr.svg``
  the read-only link as a QR code.
- ``POST /tables/<id>/...``: each write (CSRF, the table's edit rights: else 403),
  done through ``ledger.tables.service``; its problems go beside their fields on the
  page answered with 422, and nothing is stored then.
- ``GET /tables/<id>/players/<name>``: a player's record (a ``/`` is part of the name).
"""

from __future__ import annotations

from collections.abc import Callable
from decimal import Decimal
from functools import lru_cache
from typing import Any

from flask import (
    Blueprint,
    abort,
    flash,
    get_template_attribute,
    redirect,
    render_template,
    request,
    url_for,
)
from flask.typing import ResponseReturnValue
from flask_wtf import FlaskForm
from markupsafe import Markup
from werkzeug.datastructures import MultiDict
from werkzeug.exceptions import Conflict, Forbidden, NotFound
from werkzeug.wrappers import Response
from wtforms import SelectChoice

from ledger import matches
from ledger.engine import FieldError, Invalid
from ledger.engine.game import HAND_PLAYERS, MAX_MATCH_PLAYERS, PACKS
from ledger.engine.player_figures import place_among
from ledger.extensions import csrf
from ledger.forms.length import MAX_COUNT
from ledger.forms.new_match import default_name
from ledger.forms.problems import Problem
from ledger.forms.rules import (
    RulesChoice,
    keep_unoffered,
    prepare_rules_form,
    read_rules_form,
    rules_formdata,
)
from ledger.forms.saved_files import TABLE as SAVED_TABLE
from ledger.forms.saved_files import ImportTableForm
from ledger.forms.stake import prepare_stake_fields, read_stake_fields
from ledger.forms.table import (
    MergeForm,
    MoveMatchForm,
    NewTableForm,
    PaymentForm,
    PlainForm,
    RenameForm,
    SeasonForm,
    SeasonRenameForm,
    TableChangeForm,
    TableMatchForm,
    key_spent,
    new_payment_key,
    place,
    roster_names,
    said_once,
    season_taken_back,
    typed_amount,
)
from ledger.http.edit_keys import held_keys, remember_key
from ledger.http.imports import one_import_at_a_time
from ledger.http.no_store import may_keep_copy, unkept
from ledger.http.renamed import to_renamed_player
from ledger.http.seasons import season_or_404
from ledger.i18n import N_, current_language, digit_style, money, signed, tr, translate
from ledger.matches.chart import Chart, build_chart
from ledger.matches.forgettable import holds_names
from ledger.matches.models import Match
from ledger.matches.page_cache import fragment_cache
from ledger.matches.reading import read_whole_number, rules_from_record
from ledger.tables import figures, people, player_stats, service
from ledger.tables.figures import Game, MatchFigures, Standings
from ledger.tables.guests import guest_names
from ledger.tables.models import Season, Table
from ledger.tables.money_view import decimal_or_none, earlier_owed, money_view
from ledger.tables.payment_keys import KeyReused
from ledger.tables.reading import read_table, read_table_changes
from ledger.web import overpaying
from ledger.web.edit_rights import TABLE_PAGES, table_edit_key
from ledger.web.filters import season_name
from ledger.web.people import ANSWERED, moved_on
from ledger.web.qr import qr_inline
from ledger.web.saved_files import load_posted

bp = Blueprint("tables", __name__, url_prefix="/tables")


#: A table's page lists every match of its season, and a match's line changes only with
#: the match (its version): each line is rendered once per version, language and digits
#: and kept, so that a hand added tonight draws tonight's line alone.
MATCH_LINES = "ledger.table_match_lines"
MATCH_LINES_KEPT = 4096


@bp.app_template_global()
def match_line(match: MatchFigures) -> Markup:
    """The match's line in the table's list of matches ("table/_match_line.html")."""
    lines = fragment_cache(name=MATCH_LINES, size=MATCH_LINES_KEPT)
    key = (match.public_id, match.version, current_language(), digit_style())
    found = lines.get(key)
    if found is None:
        found = render_match_line(match)
        lines.put(key, found)
    return Markup(found)


def render_match_line(match: MatchFigures) -> Markup:
    line: Markup = get_template_attribute("table/_match_line.html", "match_line")(match)
    return line


# --- a new table ---------------------------------------------------------------------


@bp.route("/new", methods=["GET", "POST"])
def new() -> ResponseReturnValue:
    form, choice = _new_table_form(request.form if request.method == "POST" else None)
    if request.method == "GET":
        return _new_page(form, choice, [])
    spec = choice.spec if choice.spec is not None else form.rules.form.profile.data
    data = {
        "name": form.name.data or "",
        "players": roster_names(form.players.data),
        "rules": spec,
        "stake": read_stake_fields(form.stake.form),
    }
    try:
        if choice.problems:
            read_table(data)  # only to find the other problems; stores nothing
            raise Invalid([])
        table, key = service.create_table(data)
    except Invalid as invalid:
        top = place(invalid, {"name": form.name, "players": form.players}, form.stake.form)
        problems = [*choice.problems, *top]
        return _new_page(form, choice, problems, status=422)
    remember_key(table.public_id, key)
    flash(
        tr(
            "The table is ready. Its edit link is under “Share” at the foot of the page: "
            "keep a copy of it to keep score from another phone."
        ),
        "success",
    )
    return redirect(url_for("tables.show", public_id=table.public_id), 303)


@bp.post("/import")
@csrf.exempt  # type: ignore[untyped-decorator]  # load_posted checks it, under an import's limit
@one_import_at_a_time
def import_saved() -> ResponseReturnValue:
    """A new table from a saved one (a season PDF or export.json), as the API's import
    makes it; this browser edits it, and is told where its edit link is, as a new
    table's creator is."""
    form, loaded, status = load_posted(SAVED_TABLE)
    if loaded is None:
        return _new_page(None, None, [], import_form=form, status=status)
    table, key = loaded
    remember_key(table.public_id, key)
    flash(
        tr(
            "The table “{name}” is loaded: a new copy that this browser can edit. Its edit "
            "link is under “Share” at the foot of the page: keep a copy of it to keep "
            "score from another phone.",
            name=table.name,
        ),
        "success",
    )
    return redirect(url_for("tables.show", public_id=table.public_id), 303)


def _new_page(
    form: NewTableForm | None,
    choice: RulesChoice | None,
    problems: list[Problem],
    import_form: FlaskForm | None = None,
    status: int = 200,
) -> tuple[str, int]:
    """The new-table page (empty when ``form`` is None); ``import_form`` when a saved
    table could not be loaded."""
    if form is None or choice is None:
        form, choice = _new_table_form(None)
    import_form = import_form or ImportTableForm(formdata=None)
    body = render_template(
        "table/new.html", form=form, choice=choice, problems=problems, import_form=import_form
    )
    return body, status


def _new_table_form(formdata: MultiDict[str, str] | None) -> tuple[NewTableForm, RulesChoice]:
    """The new-table form on ``formdata`` (None: empty), ready to show, and its rules."""
    form = NewTableForm(formdata=formdata)
    prepare_rules_form(form.rules.form)
    choice = read_rules_form(form.rules.form)
    prepare_stake_fields(form.stake.form)
    return form, choice


@bp.route("/<public_id>/change", methods=["GET", "POST"])
def change(public_id: str) -> ResponseReturnValue:
    """The table's name, and the rules and stake of its next nights (the API's PATCH);
    players who join its roster. Its nights played keep their own."""
    table = TABLE_PAGES.editable(public_id)
    posted = request.method == "POST"
    form = TableChangeForm(formdata=request.form if posted else _table_formdata(table))
    prepare_rules_form(form.rules.form)
    choice = read_rules_form(form.rules.form)
    prepare_stake_fields(form.stake.form)
    if not posted:
        return render_template("table/change.html", table=table, form=form, choice=choice)
    spec = choice.spec if choice.spec is not None else form.rules.form.profile.data
    data: dict[str, object] = {
        "name": form.name.data or "",
        "rules": keep_unoffered(spec, service.rules_spec(table)),
        "stake": read_stake_fields(form.stake.form),
    }
    if joining := roster_names(form.players.data):
        data["players"] = joining
    try:
        if choice.problems:
            read_table_changes(data, service.roster(table))  # the other problems; stores nothing
            raise Invalid([])
        service.change_table(table, data)
    except Invalid as invalid:
        top = place(invalid, {"name": form.name, "players": form.players}, form.stake.form)
        body = render_template(
            "table/change.html",
            table=table,
            form=form,
            choice=choice,
            problems=[*choice.problems, *top],
        )
        return body, 422
    return _back(table, tr("The table is changed: its next nights play by what it says now."))


def _table_formdata(table: Table) -> MultiDict[str, str]:
    """The change form as the table is: its name, rules and stake."""
    data, _ = rules_formdata(service.rules_spec(table))
    data["name"] = table.name
    table_stake = service.stake(table)
    if table_stake is not None:
        data["stake-per_point"] = format(table_stake.per_point, "f")
        data["stake-currency"] = table_stake.currency
    return data


# --- the table's page ----------------------------------------------------------------


@bp.get("/<public_id>")
def show(public_id: str) -> ResponseReturnValue:
    table = service.get_table(public_id)
    return _page(table, season_or_404(table, request.args.get("season")))


def season_chart(found: Standings) -> Chart | None:
    """Each player's running season total, night by night (one point a match; a points
    race leaves the totals as they were: they count the zero-sum matches, as the
    standings do)."""
    if not found.matches or not found.players:
        return None
    names = [line.name for line in found.players]
    running = dict.fromkeys(names, 0)
    columns = []
    for match in found.matches:
        for name, total in match.board.totals.items():
            if name in running and match.zero_sum:
                running[name] += total
        columns.append(dict(running))
    return build_chart(names, list(range(1, len(columns) + 1)), columns)


def rating_chart(found: Standings) -> Chart | None:
    """Each player's rating ordinal after each finished match (rounded to a point)."""
    names = tuple(line.name for line in found.players)
    return _rating_chart(names, figures.games(found.matches), digit_style())


@holds_names
@lru_cache(maxsize=64)
def _rating_chart(names: tuple[str, ...], games: tuple[Game, ...], digits: str) -> Chart | None:
    """Drawn once per players, finished matches and digits (its ticks' labels): a hand
    in tonight's open match changes no rating, so the chart is not drawn again."""
    steps = figures.rating_steps(games)
    if not steps or not names:
        return None
    columns = [{n: round(step[n].ordinal) if n in step else 0 for n in names} for step in steps]
    return build_chart(names, list(range(1, len(columns) + 1)), columns)


def chart_words(chart: Chart | None, template: str) -> str:
    if chart is None:
        return ""
    totals = ", ".join(f"{s.name} {signed(s.total)}" for s in chart.series)
    return tr(template, totals=totals)


def _page(table: Table, season: Season | None, status: int = 200, **forms: Any) -> Response:
    """The table's page; ``forms``: the forms as posted, with their problems."""
    key = table_edit_key(table)
    found = service.standings(table, season)
    chart = season_chart(found)
    ratings = rating_chart(found)
    on_roster = service.roster(table)
    # Taken-back confirmed payments too: the page lists them, marked (they count no more).
    paid = service.payments(table, season, deleted=True)
    context: dict[str, Any] = {
        "table": table,
        "season": season,
        "seasons": list(reversed(table.seasons)),
        "roster": on_roster,
        "standings": found,
        "matches": list(reversed(found.matches)),
        "chart": chart,
        "chart_desc": chart_words(
            chart, N_("Each player's season total after each night. Totals now: {totals}.")
        ),
        "rating_chart": ratings,
        "rating_desc": chart_words(
            ratings,
            N_("Each player's rating after each match that is over. Ratings now: {totals}."),
        ),
        "money": money_view(table, season, found, paid),
        "earlier_owed": earlier_owed(table, season),
        "pay_to": service.pay_to_of(table),
        # Who holds an own link: the scorekeeper's business, kept from a mere reader.
        "linked": service.linked_players(table) if key is not None else set(),
        "stats": player_stats.stats(table, found.matches),
        "match_names": {m.public_id: m.name for m in found.matches},
        "payments": paid,
        "rules": rules_from_record(table.rules),
        "stake": service.stake(table),
        "editor": key is not None,
        "top_problems": forms.pop("top_problems", []),
        "overpaying": forms.pop("overpaying", None),
        "season_value": _season_value(season),
    }
    if key is not None:
        context["share"] = {
            "read_url": url_for("tables.show", public_id=table.public_id, _external=True),
            "edit_url": url_for("tables.join", public_id=table.public_id, key=key, _external=True),
        }
        context.update(_forms(table, on_roster, forms))
        context["season_taken_back"] = service.season_to_take_back(table)
        context["deletable"] = not service.table_used(table)
    # Its copy is kept on the phone (the edit link and the messages left out of it).
    return may_keep_copy(unkept(render_template("table/show.html", **context), status))


def _season_value(season: Season | None) -> str:
    return service.ALL if season is None else season.public_id


def _forms(table: Table, on_roster: list[str], given: dict[str, Any]) -> dict[str, Any]:
    """The editor's forms: as posted (``given``), else fresh ones set up for this table."""
    last = service.last_match(table)
    # A player who left the table (forgot themselves) is on the roster with their
    # nights, but is offered for no new night, rename, merge or own link.
    playing = [n for n in on_roster if not service.left_the_table(n)]
    tonight = [n for n in (last.played if last else ()) if n in playing] or playing
    # The hint says the last night's players are ticked: its guests too.
    guests = guest_names(table.id)
    guests_tonight = [n for n in (last.played if last else ()) if n in guests]
    table_packs = rules_from_record(table.rules).packs
    match_form = given.get("match_form") or TableMatchForm(
        formdata=None, players=tonight, known_guests=guests_tonight, packs=str(table_packs)
    )
    match_form.players.choices = [SelectChoice(n, n) for n in playing]
    match_form.known_guests.choices = [SelectChoice(n, n) for n in guests]
    move_form = given.get("move_form") or MoveMatchForm(formdata=None)
    movable = _movable_matches()
    move_form.match.choices = [SelectChoice(m.public_id, m.name) for m in movable]
    payment_form = given.get("payment_form")
    if payment_form is None:
        payment_form = PaymentForm(formdata=None)
        payment_form.payment_key.data = new_payment_key()
    choices = [SelectChoice(n, n) for n in service.known_players(table)]  # guests pay too
    payment_form.payer.choices = payment_form.payee.choices = choices
    renames = given.get("rename_forms", {})
    merges = given.get("merge_forms", {})
    players: list[tuple[str, RenameForm | None, MergeForm | None]] = []
    for name in on_roster:
        if name not in playing:
            players.append((name, None, None))
            continue
        rename = renames.get(name) or RenameForm(formdata=None, player=name, prefix=_prefix(name))
        merge = merges.get(name) or MergeForm(formdata=None, player=name, prefix=_prefix(name))
        merge.merge_into.choices = [SelectChoice(n, n) for n in playing if n != name]
        players.append((name, rename, merge))
    return {
        "match_form": match_form,
        "seating": seating_notes(len(match_form.players.data or [])),
        "packs_now": match_form.packs.data or str(table_packs),
        "next_dealer": figures.next_dealer(last, tonight),
        "move_form": move_form,
        "movable": movable,
        "season_form": given.get("season_form") or SeasonForm(formdata=None),
        "season_renames": {
            s.public_id: given.get("season_renames", {}).get(s.public_id)
            or SeasonRenameForm(formdata=None, prefix=s.public_id, name=season_name(s.name))
            for s in table.seasons
        },
        "payment_form": payment_form,
        "new_payment_key": new_payment_key,
        "plain_form": PlainForm(formdata=None),
        "player_forms": players,
        "playing": playing,
    }


def seating_notes(ticked: int) -> dict[str, Any]:
    """What tonight's form says of the seats: per number of packs, for each number of
    people more than a hand deals to, who sits out (the page's script picks the sentence
    as boxes are ticked; ``now``: the sentences for the ``ticked`` people shown first)."""
    notes: dict[str, dict[int, str]] = {}
    for packs in PACKS:
        most = HAND_PLAYERS[packs]
        notes[str(packs)] = {
            n: tr(
                N_(
                    "{n} people ticked and {packs} packs deal to {most}: each hand the "
                    "dealer and the next sit out in turn, {out} a hand."
                )
                if n - most > 1
                else N_(
                    "{n} people ticked and {packs} packs deal to {most}: each hand the "
                    "dealer sits out in turn."
                ),
                n=n,
                packs=packs,
                most=most,
                out=n - most,
            )
            for n in range(most + 1, MAX_MATCH_PLAYERS + 1)
        }
    return {"notes": notes, "ticked": ticked}


def _prefix(name: str) -> str:
    """A roster entry's forms' prefix: its place in the roster is not stable, its name is."""
    return "p" + name.encode("utf-8").hex()


def _movable_matches() -> list[Match]:
    """The matches this browser edits (by their own key) that are in no table yet."""
    keys = held_keys()
    if not keys:
        return []
    found = service.lone_matches(list(keys))
    return [m for m in found if matches.check_edit_key(m, keys[m.public_id])]


# --- sharing -------------------------------------------------------------------------


TABLE_PAGES.share(bp)  # qr (the read-only link's QR code) and join (the edit link)


# --- writes --------------------------------------------------------------------------


#: The money section of the table's page (far down it on a phone): a payment marked or
#: taken back opens the page there, where the next one is marked, with its message
#: (flashed as ``MONEY``: the section shows it, not the page's top out of sight).
MONEY = "money"

#: What the table's page says when a payment tapped on it was taken back meanwhile.
TAKEN_BACK_MEANWHILE = N_(
    "This payment was taken back meanwhile: the page shows the table's payments as they are now."
)


def _back(table: Table, message: str) -> Response:
    flash(message, "success")
    return redirect(url_for("tables.show", public_id=table.public_id), 303)


@bp.post("/<public_id>/matches")
def new_match(public_id: str) -> ResponseReturnValue:
    """Tonight's match: the players ticked (roster order) and anyone new; the table's
    rules and stake, the first dealer where the table left off."""
    table = TABLE_PAGES.editable(public_id)
    form = TableMatchForm(formdata=request.form)
    on_roster = service.roster(table)
    ticked = [n for n in on_roster if n in (form.players.data or [])]
    known = guest_names(table.id)
    guests = [n for n in known if n in (form.known_guests.data or [])]
    # A guest of earlier nights ticked (the last night's are, by default) and typed again,
    # as the week before, is one guest: taken twice, he was refused as "listed twice".
    ticked_guests = {n.casefold() for n in guests}
    guests += [n for n in roster_names(form.guests.data) if n.casefold() not in ticked_guests]
    players = [*ticked, *([form.newcomer.data] if form.newcomer.data else []), *guests]
    name = form.name.data or default_name(table_id=table.id)
    data = {"players": players, "guests": guests, "name": name}
    packs = next((p for p in PACKS if str(p) == form.packs.data), None)
    if packs is not None and packs != rules_from_record(table.rules).packs:
        data["rules"] = {**service.rules_spec(table), "packs": packs}  # one tap: four packs
    try:
        if form.hands.data:  # else an open night, ended from the match page
            data["length"] = {"hands": _hands_tonight(form.hands.data)}
        match, key = service.new_match(table, data)
    except Invalid as invalid:
        fields = {
            "name": form.name,
            "players": form.players,
            "first_dealer": form.players,
            "length": form.hands,
            "guests": form.guests,
        }
        top = place(invalid, fields)
        return _page(table, table.current_season, 422, match_form=form, top_problems=top)
    remember_key(match.public_id, key)
    # The table's key again, as the newest: the browser keeps at most MAX_KEYS keys, and a
    # weekly table's nights would otherwise push out the key they are all written with.
    remember_key(table.public_id, held_keys()[table.public_id])
    return redirect(url_for("matches.show", public_id=match.public_id), 303)


def _hands_tonight(text: str) -> int:
    """The hands typed for tonight's match; Invalid on ``length`` when no whole number."""
    try:
        return read_whole_number(text, "length", least=1, most=MAX_COUNT, text=True)
    except FieldError:
        message = N_("Enter how many hands: a whole number from 1 to 1000, or leave it empty.")
        raise Invalid([FieldError("length", message)]) from None


@bp.post("/<public_id>/move")
def move_match(public_id: str) -> ResponseReturnValue:
    """A match played before the table existed, moved in: this browser must edit it."""
    table = TABLE_PAGES.editable(public_id)
    form = MoveMatchForm(formdata=request.form)
    key = held_keys().get(form.match.data or "")
    try:
        if key is None:
            raise Invalid(
                [FieldError("match", N_("Choose one of the matches this browser keeps score for."))]
            )
        match = service.move_match(table, {"match": form.match.data, "match_edit_key": key})
    except Invalid as invalid:
        top = place(invalid, {"match": form.match, "match_edit_key": form.match})
        return _page(table, table.current_season, 422, move_form=form, top_problems=top)
    return _back(table, tr("“{name}” is now one of the table's matches.", name=match.name))


@bp.post("/<public_id>/seasons")
def new_season(public_id: str) -> ResponseReturnValue:
    table = TABLE_PAGES.editable(public_id)
    form = SeasonForm(formdata=request.form)
    try:
        season = service.start_season(table, {"name": form.name.data or ""})
    except Invalid as invalid:
        top = place(invalid, {"name": form.name})
        return _page(table, table.current_season, 422, season_form=form, top_problems=top)
    return _back(table, tr("The season “{name}” has begun.", name=season_name(season.name)))


@bp.route("/<public_id>/delete", methods=["GET", "POST"])
def delete_table(public_id: str) -> ResponseReturnValue:
    """A table made by mistake deleted, asked first: only one with no match and no
    payment (the API's DELETE); back to the start page."""
    table = TABLE_PAGES.editable(public_id)
    if request.method == "GET":
        return render_template("table/delete.html", table=table, used=service.table_used(table))
    name = table.name
    try:
        service.delete_table(table)
    except Conflict as kept:
        flash(translate(kept.description), "error")
        return redirect(url_for("tables.show", public_id=public_id), 303)
    flash(tr("The table “{name}” is deleted.", name=name), "success")
    return redirect(url_for("main.index"), 303)


@bp.post("/<public_id>/seasons/<season_id>/rename")
def rename_season(public_id: str, season_id: str) -> ResponseReturnValue:
    """A season's name put right (the API's PATCH of the season)."""
    table = TABLE_PAGES.editable(public_id)
    if _season_gone(table, season_id):
        return _season_gone_back(table, SEASON_GONE_RENAME)
    form = SeasonRenameForm(formdata=request.form, prefix=season_id)
    try:
        season = service.rename_season(table, season_id, {"name": form.name.data or ""})
    except Invalid as invalid:
        top = place(invalid, {"name": form.name})
        return _page(
            table, table.current_season, 422, season_renames={season_id: form}, top_problems=top
        )
    return _back(table, tr("The season is now “{name}”.", name=season_name(season.name)))


@bp.post("/<public_id>/seasons/<season_id>/take-back")
def take_back_season(public_id: str, season_id: str) -> ResponseReturnValue:
    """A season started by mistake taken back (the API's DELETE of the season): the one
    before it is current again."""
    table = TABLE_PAGES.editable(public_id)
    if _season_gone(table, season_id):
        return _season_gone_back(table, SEASON_GONE_TAKE_BACK)
    name = next((s.name for s in table.seasons if s.public_id == season_id), None)
    try:
        service.take_back_season(table, season_id)
    except Conflict as kept:
        flash(translate(kept.description), "error")
        return redirect(url_for("tables.show", public_id=table.public_id), 303)
    return _back(
        table,
        tr(
            "The season “{name}” is taken back: the season before it is current again.",
            name=season_name(name or ""),
        ),
    )


#: A season's form sent again (a double tap, the back button) or from a tab left open,
#: after the season was taken back: the page said "Page not found" (404, the API's answer).
SEASON_GONE_TAKE_BACK = N_(
    "This season is no longer at the table: it was already taken back, so nothing more changed."
)
SEASON_GONE_RENAME = N_(
    "This season is no longer at the table: it was taken back meanwhile, so no name was changed."
)


def _season_gone(table: Table, season_id: str) -> bool:
    """Whether ``season_id`` is no season of the table: taken back (season ids are
    random, so a form's id of a season that is gone is what it meets), as the payment
    forms take it (``season_taken_back``)."""
    return all(season.public_id != season_id for season in table.seasons)


def _season_gone_back(table: Table, words: str) -> Response:
    """The table's page, saying that the season the form named is gone: nothing stored."""
    flash(tr(words), "error")
    return redirect(url_for("tables.show", public_id=table.public_id), 303)


@bp.post("/<public_id>/players/rename")
def rename_player(public_id: str) -> ResponseReturnValue:
    return _change_player(public_id, RenameForm, "name", "rename_forms", N_("{old} is now {new}."))


@bp.post("/<public_id>/players/merge")
def merge_player(public_id: str) -> ResponseReturnValue:
    return _change_player(
        public_id, MergeForm, "merge_into", "merge_forms", N_("{old} is merged into {new}.")
    )


def _change_player(
    public_id: str,
    form_class: type[RenameForm | MergeForm],
    field: str,
    forms: str,
    done: str,
) -> Response:
    """A roster entry renamed (``field`` "name") or merged ("merge_into"): back to the
    page saying ``done``, or the page again with the form (under ``forms``, by player)
    and its problems."""
    table = TABLE_PAGES.editable(public_id)
    name = request.form.get("player", "")
    if name not in service.roster(table):
        return _player_gone(table, name)
    form = form_class(formdata=request.form, prefix=_prefix(name))
    value = form[field].data
    # A merge revokes the merged entry's own link (docs/api.md): its holder's page
    # says "Not allowed" from then on, and the scorekeeper was not told.
    link_gone = field == "merge_into" and name in service.linked_players(table)
    try:
        service.change_player(table, name, {field: value or ""})
    except Invalid as invalid:
        top = place(invalid, {field: form[field]})
        return _page(table, table.current_season, 422, top_problems=top, **{forms: {name: form}})
    words = tr(done, old=name, new=value)
    if link_gone:
        words = f"{words} {tr(MERGED_LINK_GONE, old=name, new=value)}"
    return _back(table, words)


#: Said after a merge of an entry that held an own link.
MERGED_LINK_GONE = N_(
    "{old}'s own link no longer works, and how to pay them that was set there is gone: "
    "give {new} their own link from Share if they need one."
)


#: A rename or merge sent again (a double tap, the back button) or from a tab left open,
#: after the player was renamed or merged: the page said "Page not found".
PLAYER_GONE = N_(
    "{old} is no longer on the roster: renamed or merged, they are {now} now, so nothing "
    "more changed."
)


def _player_gone(table: Table, name: str) -> Response:
    """The answer to a rename or merge of ``name``, no roster entry: the table's page
    saying who they are now when they were renamed or merged; else a 404."""
    now = service.renamed_to(table, name)
    if now is None:
        abort(404, tr("There is no such player on this table's roster."))
    flash(tr(PLAYER_GONE, old=name, now=now), "error")
    return redirect(url_for("tables.show", public_id=table.public_id), 303)


@bp.post("/<public_id>/payments")
def add_payment(public_id: str) -> ResponseReturnValue:
    """Mark paid: money handed over, recorded with who and when, once per the form's key
    (the same form sent again records nothing and says so). Nothing is read after the
    commit: the message and the redirect are made from the answer."""
    table = TABLE_PAGES.editable(public_id)
    form = PaymentForm(formdata=request.form)
    data = {"from": form.payer.data, "to": form.payee.data, "amount": typed_amount(form)}
    if form.season.data:
        data["season"] = form.season.data
    shown = next((s for s in table.seasons if s.public_id == form.season.data), None)
    if form.season.data and shown is None:  # another phone took the season back
        top = season_taken_back()
        return _page(table, table.current_season, 409, payment_form=form, top_problems=top)
    earlier = _earlier_season(table)
    ask = overpaying.ask_first(table)
    try:
        answered = service.add_payment(table, data, key=form.payment_key.data or None, ask=ask)
    except overpaying.Asked as asked:
        form.amount.errors = [asked.question.sentence]
        page = shown or table.current_season
        return _page(table, page, payment_form=form, overpaying=asked.question)
    except KeyReused:
        top = key_spent(form)
        return _page(table, shown or table.current_season, 409, payment_form=form, top_problems=top)
    except Invalid as invalid:
        fields = {"from": form.payer, "to": form.payee, "amount": form.amount}
        top = place(invalid, fields)
        return _page(table, shown or table.current_season, 422, payment_form=form, top_problems=top)
    paid = answered.body
    words = tr(
        "{payer} paid {payee} {amount}.",
        payer=paid["from"],
        payee=paid["to"],
        amount=money(Decimal(paid["amount"]), paid["currency"]),
    )
    flash(said_once(words, answered.replayed), MONEY)
    return _back_to_money(public_id, earlier)


def _back_to_money(public_id: str, earlier: str | None) -> Response:
    """The table's money, of the season ``earlier`` (its id: the form was on an earlier
    season's page) or the current one, where the next payment is marked: a payment taken
    back or answered on an earlier season's page landed on the current season's, where it
    is not listed. Made from what was read before the write: nothing after its commit."""
    return redirect(url_for("tables.show", public_id=public_id, season=earlier, _anchor=MONEY), 303)


def _earlier_season(table: Table) -> str | None:
    """The id of the season a money form was sent from (its ``season`` field), when it
    is one of the table's before the current one; read before the write."""
    sent = request.form.get("season")
    earlier = [s.public_id for s in table.seasons if s is not table.current_season]
    return sent if sent in earlier else None


@bp.post("/<public_id>/own-link")
def give_own_link(public_id: str) -> ResponseReturnValue:
    """Hand a roster player their own link: shown once, as a link and a QR code to scan
    from this phone (a new link revokes the one before and clears their handles)."""
    table = TABLE_PAGES.editable(public_id)
    PlainForm()  # the token was checked by CSRFProtect
    try:
        player, key = people.give_link(table, request.form.get("player", ""))
    except Invalid as invalid:
        return _page(table, table.current_season, 422, top_problems=place(invalid, {}))
    url = url_for("people.join", key=key, _external=True)
    title = tr("QR code of {name}'s own link", name=player.name)
    body = render_template(
        "table/own_link.html", table=table, name=player.name, url=url, qr=qr_inline(url, title)
    )
    return unkept(body)


@bp.post("/<public_id>/own-link/revoke")
def revoke_own_link(public_id: str) -> ResponseReturnValue:
    return _for_player(public_id, people.revoke_link, N_("{name}'s own link no longer works."))


@bp.post("/<public_id>/pay-to/take-down")
def take_down_pay_to(public_id: str) -> ResponseReturnValue:
    """Take a player's handles and QR down (the table key never sets them)."""
    return _for_player(
        public_id, people.take_down, N_("{name}'s handles and QR code are taken down.")
    )


def _for_player(
    public_id: str, act: Callable[[Table, str], object], done: str
) -> ResponseReturnValue:
    """``act`` on the roster player the button names (``player``), then the page saying
    ``done``; the page again saying why for a guest or a player who left the table, as
    "Own link" does (a form sent by hand: the page offers neither)."""
    table = TABLE_PAGES.editable(public_id)
    PlainForm()
    name = request.form.get("player", "")
    try:
        act(table, name)
    except Invalid as invalid:
        return _page(table, table.current_season, 422, top_problems=place(invalid, {}))
    return _back(table, tr(done, name=name))


@bp.post("/<public_id>/payments/<int:payment_id>/delete")
def delete_payment(public_id: str, payment_id: int) -> ResponseReturnValue:
    """Take a payment back (marked paid by mistake)."""
    table = TABLE_PAGES.editable(public_id)
    PlainForm()  # the token was checked by CSRFProtect
    earlier = _earlier_season(table)
    try:
        service.delete_payment(table, payment_id, key=request.form.get("payment_key") or None)
    except Invalid as invalid:  # a key that is no key: the form was not the page's
        shown = next((s for s in table.seasons if s.public_id == earlier), table.current_season)
        return _page(table, shown, 422, top_problems=place(invalid, {}))
    except (NotFound, Conflict) as problem:  # taken back or answered meanwhile
        flash(moved_on(problem, TAKEN_BACK_MEANWHILE), MONEY)
    else:
        flash(tr("The payment is taken back."), MONEY)  # the same form again: the same words
    return _back_to_money(public_id, earlier)


@bp.post("/<public_id>/payments/<int:payment_id>/<any(confirm, reject):what>")
def answer_payment(public_id: str, payment_id: int, what: str) -> ResponseReturnValue:
    """Received / Not received for a payee who holds no own link (a guest, or a player
    never given one): the table's key answers for them (the service refuses it for a
    payee with a link, who answers on their own page)."""
    table = TABLE_PAGES.editable(public_id)
    PlainForm()  # the token was checked by CSRFProtect
    earlier = _earlier_season(table)
    try:
        service.answer_payment(table, payment_id, what == "confirm", service.TABLE_KEY)
    # Tapped on a page opened before (or held with no connection and sent once back),
    # the payment moved on meanwhile: taken back by its payer, answered on another
    # phone, or its payee was given an own link and answers it now. The table's money
    # as it is now, saying so, where the scorekeeper was left on an error page.
    except (NotFound, Conflict, Forbidden) as problem:
        flash(moved_on(problem, TAKEN_BACK_MEANWHILE), MONEY)
    else:
        flash(tr(ANSWERED[what]), MONEY)
    return _back_to_money(public_id, earlier)


# --- a player's record ---------------------------------------------------------------


@bp.get("/<public_id>/players/<name:name>", merge_slashes=False)
def player(public_id: str, name: str) -> ResponseReturnValue:
    table = service.get_table(public_id)
    season = season_or_404(table, request.args.get("season"))
    moved = to_renamed_player(table, name, "tables.player")
    if moved is not None:
        return moved
    found = service.standings(table, season)
    record = service.player_record(table, name, season, found)
    shown: dict[str, Any] = dict(record)
    for part in ("figures", "all_time"):  # money as a Decimal, for the money filter
        if (line := record[part]) is not None:
            shown[part] = {**line, "amount": decimal_or_none(line["amount"])}
    played = found.matches
    stats = player_stats.stats(table, played)
    mine = stats.row(record["name"])
    body = render_template(
        "table/player.html",
        table=table,
        season=season,
        seasons=list(reversed(table.seasons)),
        season_value=_season_value(season),
        record=shown,
        money=player_money(table, season, record["name"], found),
        currency=table.stake_currency,
        mine=mine,
        place=place_among(mine.total, [row.total for row in stats.players]) if mine else None,
        players_placed=len(stats.players),
        match_names={m.public_id: m.name for m in played},
    )
    return may_keep_copy(unkept(body))  # its copy is kept on the phone (no key is on it)


def player_money(
    table: Table, season: Season | None, name: str, found: figures.Standings
) -> dict[str, Decimal | None]:
    """A player's money on their page: ``won`` in the season's staked matches, and what
    is still ``owed`` them (negative: they owe) once the payments that count are in."""
    line = found.line(name)
    owed = None
    if table.stake_currency is not None:
        balances = service.season_settle_up(table, season, found)["balances"]
        row = next((b for b in balances if b["name"] == name), None)
        owed = decimal_or_none(row["amount"]) if row else None
    return {"won": decimal_or_none(line.to_json()["amount"]) if line else None, "owed": owed}
