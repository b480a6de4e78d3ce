"""Table pages: a new table, the table's page, its writes, each player's record.

- ``GET/POST /tables/new``: a new table (name, roster, rules, stake); the creating
  browser gets edit rights (the table's key, sealed in the session as a match's is).
- ``GET /tables/<id>?season=<id>|all``: anyone with the id: the roster, seasons, the
  standings, the charts, money across nights, the matches; editors also see the
  forms (a new match from the roster, a match moved in, a new season, mark paid,
  rename and merge) and the share links.
- ``GET /tables/<id>/join/<key>``: the table's edit link; ``GET /tables/<id>/qr.svg``
  the read-only link as a QR code.
- ``POST /tables/<id>/...``: each write (CSRF, the table's edit rights: else 403),
  done through ``ledger.tables.service``; its problems go beside their fields on the
  page answered with 422, and nothing is stored then.
- ``GET /tables/<id>/players/<name>``: a player's record.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from flask import (
    Blueprint,
    abort,
    flash,
    make_response,
    redirect,
    render_template,
    request,
    url_for,
)
from wtforms import SelectChoice

from ledger import matches
from ledger.engine import FieldError, Invalid
from ledger.forms.new_match import default_name
from ledger.forms.rules import prepare_rules_form, read_rules_form
from ledger.forms.stake import prepare_stake_fields, read_stake_fields
from ledger.http.seasons import season_or_404
from ledger.i18n import N_, format_day, money, signed, tr
from ledger.matches.chart import Chart, build_chart
from ledger.matches.models import Match
from ledger.matches.reading import rules_from_record
from ledger.tables import figures, player_stats, service
from ledger.tables.figures import Standings
from ledger.tables.models import Season, Table
from ledger.tables.money_view import decimal_or_none, money_view
from ledger.web.edit_rights import (
    held_keys,
    remember_key,
    require_table_editor,
    table_edit_key,
)
from ledger.web.qr import qr_svg
from ledger.web.table_forms import (
    MergeForm,
    MoveMatchForm,
    NewTableForm,
    PaymentForm,
    PlainForm,
    RenameForm,
    SeasonForm,
    TableMatchForm,
    place,
    roster_names,
)

bp = Blueprint("tables", __name__, url_prefix="/tables")

WRONG_KEY_MESSAGE = N_(
    "This edit link is not valid for this table. Ask the scorekeeper for a new copy of "
    "the link; the read-only page still works."
)


@bp.app_template_filter("day")
def day(moment: datetime | str | None) -> str:
    """A stored moment (or its ISO text, as the service's JSON gives it) as a date in the
    page's language and digits (``ledger.i18n.format_day``)."""
    if moment is None:
        return ""
    if isinstance(moment, str):
        moment = datetime.fromisoformat(moment.replace("Z", "+00:00"))
    return format_day(moment)


# --- a new table ---------------------------------------------------------------------


@bp.route("/new", methods=["GET", "POST"])
def new():
    form = NewTableForm(formdata=request.form if request.method == "POST" else None)
    prepare_rules_form(form.rules.form)
    choice = read_rules_form(form.rules.form)
    prepare_stake_fields(form.stake.form)
    if request.method == "GET":
        return render_template("table/new.html", form=form, choice=choice, problems=[])
    spec = choice.spec if choice.spec is not None else form.rules.form.profile.data
    data = {
        "name": form.name.data or "",
        "players": roster_names(form.players.data),
        "rules": spec,
        "stake": read_stake_fields(form.stake.form),
    }
    try:
        if choice.problems:
            service.read_table(data)  # only to find the other problems; stores nothing
            raise Invalid([])
        table, key = service.create_table(data)
    except Invalid as invalid:
        top = place(invalid, {"name": form.name, "players": form.players}, form.stake.form)
        problems = [*choice.problems, *top]
        body = render_template("table/new.html", form=form, choice=choice, problems=problems)
        return body, 422
    remember_key(table.public_id, key)
    flash(
        tr(
            "The table is ready. Its edit link is under “Share” at the foot of the page: "
            "keep a copy of it to keep score from another phone."
        ),
        "success",
    )
    return redirect(url_for("tables.show", public_id=table.public_id), 303)


# --- the table's page ----------------------------------------------------------------


@bp.get("/<public_id>")
def show(public_id: str):
    table = service.get_table(public_id)
    return _page(table, season_or_404(table, request.args.get("season")))


def season_chart(found: Standings) -> Chart | None:
    """Each player's running season total, night by night (one point a match)."""
    if not found.matches or not found.players:
        return None
    names = [line.name for line in found.players]
    running = dict.fromkeys(names, 0)
    columns = []
    for match in found.matches:
        for name, total in match.board.totals.items():
            if name in running:
                running[name] += total
        columns.append(dict(running))
    return build_chart(names, list(range(1, len(columns) + 1)), columns)


def rating_chart(found: Standings, history: list[dict[str, Any]]) -> Chart | None:
    """Each player's rating ordinal after each finished match (rounded to a point)."""
    if not history or not found.players:
        return None
    names = [line.name for line in found.players]
    columns = [
        {n: round(step["ratings"].get(n, {"ordinal": 0.0})["ordinal"]) for n in names}
        for step in history
    ]
    return build_chart(names, list(range(1, len(columns) + 1)), columns)


def chart_words(chart: Chart | None, template: str) -> str:
    if chart is None:
        return ""
    totals = ", ".join(f"{s.name} {signed(s.total)}" for s in chart.series)
    return tr(template, totals=totals)


def _page(table: Table, season: Season | None, status: int = 200, **forms: Any):
    """The table's page; ``forms``: the forms as posted, with their problems."""
    key = table_edit_key(table)
    found = service.standings(table, season)
    history = service.rating_history(table, season, found)
    chart = season_chart(found)
    ratings = rating_chart(found, history)
    on_roster = service.roster(table)
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
        "money": money_view(table, season, found),
        "stats": player_stats.stats(table, found.matches),
        "match_names": {m.public_id: m.name for m in found.matches},
        "payments": service.payments(table, season),
        "rules": rules_from_record(table.rules),
        "stake": service.stake(table),
        "editor": key is not None,
        "top_problems": forms.pop("top_problems", []),
        "season_value": _season_value(season),
    }
    if key is not None:
        context["share"] = {
            "read_url": url_for("tables.show", public_id=table.public_id, _external=True),
            "edit_url": url_for("tables.join", public_id=table.public_id, key=key, _external=True),
        }
        context.update(_forms(table, on_roster, forms))
    response = make_response(render_template("table/show.html", **context), status)
    response.headers["Cache-Control"] = "no-store"
    return response


def _season_value(season: Season | None) -> str:
    return service.ALL if season is None else season.public_id


def _forms(table: Table, on_roster: list[str], given: dict[str, Any]) -> dict[str, Any]:
    """The editor's forms: as posted (``given``), else fresh ones set up for this table."""
    last = service.last_match(table)
    tonight = [n for n in (last.played if last else ()) if n in on_roster] or on_roster
    match_form = given.get("match_form") or TableMatchForm(formdata=None, players=tonight)
    match_form.players.choices = [SelectChoice(n, n) for n in on_roster]
    move_form = given.get("move_form") or MoveMatchForm(formdata=None)
    movable = _movable_matches()
    move_form.match.choices = [SelectChoice(m.public_id, m.name) for m in movable]
    payment_form = given.get("payment_form") or PaymentForm(formdata=None)
    people = [SelectChoice(n, n) for n in on_roster]
    payment_form.payer.choices = payment_form.payee.choices = people
    renames = given.get("rename_forms", {})
    merges = given.get("merge_forms", {})
    players = []
    for name in on_roster:
        rename = renames.get(name) or RenameForm(formdata=None, player=name, prefix=_prefix(name))
        merge = merges.get(name) or MergeForm(formdata=None, player=name, prefix=_prefix(name))
        merge.merge_into.choices = [SelectChoice(n, n) for n in on_roster if n != name]
        players.append((name, rename, merge))
    return {
        "match_form": match_form,
        "next_dealer": figures.next_dealer(last, tonight),
        "move_form": move_form,
        "movable": movable,
        "season_form": given.get("season_form") or SeasonForm(formdata=None),
        "payment_form": payment_form,
        "plain_form": PlainForm(formdata=None),
        "player_forms": players,
    }


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


@bp.get("/<public_id>/qr.svg")
def qr(public_id: str):
    """The read-only link as a QR code (never the edit key)."""
    service.get_table(public_id)
    url = url_for("tables.show", public_id=public_id, _external=True)
    return qr_svg(url, tr("QR code of the table's read-only link"))


@bp.get("/<public_id>/join/<key>")
def join(public_id: str, key: str):
    """Edit rights through the table's edit link: kept, and dropped from the URL."""
    table = service.get_table(public_id)
    if not service.check_table_key(table, key):
        abort(403, WRONG_KEY_MESSAGE)
    remember_key(table.public_id, key)
    response = redirect(url_for("tables.show", public_id=public_id), 303)
    response.headers["Cache-Control"] = "no-store"
    return response


# --- writes --------------------------------------------------------------------------


def _editable(public_id: str) -> Table:
    table = service.get_table(public_id)
    require_table_editor(table)
    return table


def _back(table: Table, message: str):
    flash(message, "success")
    return redirect(url_for("tables.show", public_id=table.public_id), 303)


@bp.post("/<public_id>/matches")
def new_match(public_id: str):
    """Tonight's match: the players ticked (roster order) and anyone new; the table's
    rules and stake, the first dealer where the table left off."""
    table = _editable(public_id)
    form = TableMatchForm(formdata=request.form)
    on_roster = service.roster(table)
    ticked = [n for n in on_roster if n in (form.players.data or [])]
    players = [*ticked, *([form.newcomer.data] if form.newcomer.data else [])]
    data = {"players": players, "name": form.name.data or default_name()}
    try:
        match, key = service.new_match(table, data)
    except Invalid as invalid:
        fields = {"name": form.name, "players": form.players, "first_dealer": form.players}
        top = place(invalid, fields)
        return _page(table, table.current_season, 422, match_form=form, top_problems=top)
    remember_key(match.public_id, key)
    return redirect(url_for("matches.show", public_id=match.public_id), 303)


@bp.post("/<public_id>/move")
def move_match(public_id: str):
    """A match played before the table existed, moved in: this browser must edit it."""
    table = _editable(public_id)
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
def new_season(public_id: str):
    table = _editable(public_id)
    form = SeasonForm(formdata=request.form)
    try:
        season = service.start_season(table, {"name": form.name.data or ""})
    except Invalid as invalid:
        top = place(invalid, {"name": form.name})
        return _page(table, table.current_season, 422, season_form=form, top_problems=top)
    return _back(table, tr("The season “{name}” has begun.", name=season.name))


@bp.post("/<public_id>/players/rename")
def rename_player(public_id: str):
    table = _editable(public_id)
    name = _posted_player(table)
    form = RenameForm(formdata=request.form, prefix=_prefix(name))
    try:
        service.change_player(table, name, {"name": form.name.data or ""})
    except Invalid as invalid:
        top = place(invalid, {"name": form.name})
        return _page(table, table.current_season, 422, rename_forms={name: form}, top_problems=top)
    return _back(table, tr("{old} is now {new}.", old=name, new=form.name.data))


@bp.post("/<public_id>/players/merge")
def merge_player(public_id: str):
    table = _editable(public_id)
    name = _posted_player(table)
    form = MergeForm(formdata=request.form, prefix=_prefix(name))
    try:
        service.change_player(table, name, {"merge_into": form.merge_into.data or ""})
    except Invalid as invalid:
        top = place(invalid, {"merge_into": form.merge_into})
        return _page(table, table.current_season, 422, merge_forms={name: form}, top_problems=top)
    return _back(table, tr("{old} is merged into {new}.", old=name, new=form.merge_into.data))


def _posted_player(table: Table) -> str:
    """The roster entry a rename or merge form is for (``player``); 404 if none."""
    name = request.form.get("player", "")
    if name not in service.roster(table):
        abort(404, tr("There is no such player on this table's roster."))
    return name


@bp.post("/<public_id>/payments")
def add_payment(public_id: str):
    """Mark paid: money handed over, recorded with who and when."""
    table = _editable(public_id)
    form = PaymentForm(formdata=request.form)
    data = {"from": form.payer.data, "to": form.payee.data, "amount": form.amount.data or ""}
    try:
        payment = service.add_payment(table, data)
    except Invalid as invalid:
        fields = {"from": form.payer, "to": form.payee, "amount": form.amount}
        top = place(invalid, fields)
        return _page(table, table.current_season, 422, payment_form=form, top_problems=top)
    assert table.stake_currency is not None  # a payment needs the table's stake
    amount = money(payment.amount, table.stake_currency)
    return _back(
        table,
        tr(
            "{payer} paid {payee} {amount}.",
            payer=payment.payer,
            payee=payment.payee,
            amount=amount,
        ),
    )


@bp.post("/<public_id>/payments/<int:payment_id>/delete")
def delete_payment(public_id: str, payment_id: int):
    """Take a payment back (marked paid by mistake)."""
    table = _editable(public_id)
    PlainForm()  # the token was checked by CSRFProtect
    service.delete_payment(table, payment_id)
    return _back(table, tr("The payment is taken back."))


# --- a player's record ---------------------------------------------------------------


@bp.get("/<public_id>/players/<name>")
def player(public_id: str, name: str):
    table = service.get_table(public_id)
    season = season_or_404(table, request.args.get("season"))
    found = service.standings(table, season)
    record = service.player_record(table, name, season, found)
    for part in ("figures", "all_time"):  # money as a Decimal, for the money filter
        if record[part] is not None:
            record[part]["amount"] = decimal_or_none(record[part]["amount"])
    played = found.matches
    stats = player_stats.stats(table, played)
    mine = stats.row(record["name"])
    body = render_template(
        "table/player.html",
        table=table,
        season=season,
        seasons=list(reversed(table.seasons)),
        season_value=_season_value(season),
        record=record,
        currency=table.stake_currency,
        mine=mine,
        place=1 + sum(row.total > mine.total for row in stats.players) if mine else None,
        players_placed=len(stats.players),
        match_names={m.public_id: m.name for m in played},
    )
    response = make_response(body)
    response.headers["Cache-Control"] = "no-store"
    return response
