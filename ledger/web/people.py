"""A player's own pages (docs/api.md, "People"; the trust model is docs/security.md).

- ``GET /me/join/<key>``: a player's own link; the key goes into this browser's sealed
  session (as an edit link's does; ``ledger.http.edit_keys``) and leaves the address
  bar. The browser keeps one own link per table: that is its "Me" across tables (the
  server keeps no identity across tables).
- ``GET /me``: every table this browser holds an own link of, with the balance there.
- ``GET /me/<table id>``: the player's own page in that table: what they owe or are
  owed this season, the transfers and payments that name them, their nights; "I paid",
  "Received" / "Not received", how to pay them (handles, their wallet's QR), a new link.
- ``POST /me/<table id>/...``: each write (CSRF), with the player's own key, through
  ``ledger.tables.service`` and ``ledger.tables.people``.
"""

from __future__ import annotations

from decimal import Decimal
from typing import Any

from flask import (
    Blueprint,
    abort,
    current_app,
    flash,
    redirect,
    render_template,
    request,
    url_for,
)
from flask.typing import ResponseReturnValue
from werkzeug.exceptions import (
    Conflict,
    Forbidden,
    HTTPException,
    NotFound,
    RequestEntityTooLarge,
)
from werkzeug.wrappers import Response
from wtforms import SelectChoice

from ledger.engine import Invalid
from ledger.extensions import csrf
from ledger.forms.person import KIND_NAMES, HandlesForm, IPaidForm, QrForm
from ledger.forms.table import (
    PlainForm,
    key_spent,
    new_payment_key,
    place,
    said_once,
    typed_amount,
)
from ledger.http.edit_keys import forget_person_key, held_person_keys, remember_person_key
from ledger.http.forgetting import forget_kept_pages
from ledger.http.no_store import may_keep_copy, unkept
from ledger.http.wrong_keys import PERSON_LINKS, count_wrong_key
from ledger.i18n import N_, tr, translate
from ledger.tables import people, service
from ledger.tables.answers import TablePayment
from ledger.tables.models import PENDING, UNCONFIRMED, TablePlayer
from ledger.tables.payment_keys import KeyReused
from ledger.tables.people_answers import MeEarlier
from ledger.tables.qr_image import MAX_BYTES, TooLarge, read_qr
from ledger.web import overpaying
from ledger.web.edit_rights import key_taken
from ledger.web.qr import qr_inline

bp = Blueprint("people", __name__, url_prefix="/me")

#: A payment's state as the pages name it.
STATE_NAMES = {
    "unconfirmed": N_("not yet confirmed"),
    "pending": N_("waiting for the one paid to confirm"),
    "confirmed": N_("confirmed"),
    "rejected": N_("not received"),
}

#: What the page says once a payee (or the table's key, for a payee without a link) has
#: said whether a payment reached them.
ANSWERED = {
    "confirm": N_("Thank you: the payment is confirmed."),
    "reject": N_("The payment is marked as not received; it does not count."),
}

#: What the page says when a payment answered or taken back from a page opened before
#: was taken back meanwhile.
TAKEN_BACK_MEANWHILE = N_(
    "This payment was taken back meanwhile: the page shows your payments as they are now."
)

#: What the page says when "Take back" was tapped on a payment its payee confirmed
#: meanwhile (a page opened before).
CONFIRMED_MEANWHILE = N_(
    "This payment was confirmed meanwhile: only the scorekeeper can take it back now."
)

WRONG_LINK = N_(
    "This is not a player's own link, or it was replaced by a newer one: ask the table's "
    "scorekeeper for a new link."
)


@bp.app_template_global("state_name")
def state_name(state: str) -> str:
    return tr(STATE_NAMES[state])


@bp.app_template_global("kind_name")
def kind_name(kind: str) -> str:
    return str(KIND_NAMES.get(kind, kind))


bp.add_app_template_global(qr_inline, "pay_qr")
bp.add_app_template_global(service.pay_to_in_table, "pay_to_in_table")


@bp.get("/join/<key>")
def join(key: str) -> ResponseReturnValue:
    """Keep the player's own link in this browser, and drop it from the URL."""
    player = people.person_of(key)
    if player is None:
        count_wrong_key(PERSON_LINKS)  # 429 past the guesses' budget
        abort(403, WRONG_LINK)
    remember_person_key(player.table.public_id, key)
    return key_taken(url_for("people.page", public_id=player.table.public_id))


@bp.get("")
def tables() -> ResponseReturnValue:
    """The tables this browser holds an own link of, with the balance in each (and what
    is still owed from earlier seasons there). Its copy is kept on the phone as the own
    pages' are (no key is on it: each row links to an own page by the table's id), so
    "All my tables" on a kept own page opens with no connection too."""
    rows = []
    for public_id, key in reversed(held_person_keys().items()):
        player = people.person_of(key)
        if player is None or player.table.public_id != public_id:
            # Which table's link stopped working (its name, while the table is there):
            # the row said only that a link no longer worked, and a player of two
            # tables could not tell whose scorekeeper to ask.
            rows.append({"public_id": public_id, "revoked": True, "table": _table_name(public_id)})
            continue
        mine = people.me_json(player)
        rows.append(
            {
                "public_id": public_id,
                "revoked": False,
                "table": player.table.name,
                "name": player.name,
                "currency": mine["currency"],
                "balance": _decimal(mine["balance"]),
                "earlier": sum((Decimal(e["balance"]) for e in mine["earlier"]), Decimal(0)),
            }
        )
    return may_keep_copy(unkept(render_template("person/tables.html", rows=rows)))


@bp.get("/<public_id>")
def page(public_id: str) -> ResponseReturnValue:
    return _page(_holder(public_id))


@bp.post("/<public_id>/pay")
def pay(public_id: str) -> ResponseReturnValue:
    """ "I paid Asha 150": a pending payment from this player, counted once Asha
    confirms it."""
    player = _holder(public_id)
    form = IPaidForm()
    if not form.validate_on_submit():
        abort(400)
    data = {"from": player.name, "to": form.payee.data, "amount": typed_amount(form)}
    season = form.season.data or people.season_owed(player, form.payee.data)
    if season:
        data["season"] = season
    ask = overpaying.ask_first(player.table, you=player.name)
    try:
        answered = service.add_payment(
            player.table,
            data,
            service.Caller.holding(player),
            key=form.payment_key.data or None,
            ask=ask,
        )
    except overpaying.Asked as asked:
        form.amount.errors = [asked.question.sentence]
        return _page(player, pay_form=form, overpaying=asked.question)
    except KeyReused:
        return _page(player, 409, pay_form=form, top_problems=key_spent(form))
    except Invalid as invalid:
        top = place(invalid, {"to": form.payee, "amount": form.amount})
        return _page(player, 422, pay_form=form, top_problems=top)
    payee = answered.body["to"]
    words = (
        tr("Recorded. It counts once {name} says it reached them.", name=payee)
        if payee in service.linked_players(player.table)
        else tr(
            "Recorded. {name} has no own link: it counts once the scorekeeper says it "
            "reached them.",
            name=payee,
        )
    )
    flash(said_once(words, answered.replayed))
    return _back(player)


@bp.post("/<public_id>/payments/<int:payment_id>/<any(confirm, reject, delete):what>")
def answer(public_id: str, payment_id: int, what: str) -> ResponseReturnValue:
    """Received (confirm), Not received (reject), or take back a payment one recorded."""
    player = _holder(public_id)
    if not PlainForm().validate_on_submit():
        abort(400)
    caller = service.Caller.holding(player)
    try:
        if what == "delete":
            service.delete_payment(player.table, payment_id, caller)
            flash(tr("The payment is taken back."))
        else:
            service.answer_payment(player.table, payment_id, what == "confirm", caller)
            flash(tr(ANSWERED[what]))
    # Tapped on a page opened before, the payment moved on meanwhile (taken back,
    # answered on another phone): the page as it is now, saying so, where the player
    # was left on an error page whose only way on was "Back to the start".
    except (NotFound, Conflict) as problem:
        flash(moved_on(problem, TAKEN_BACK_MEANWHILE))
    except Forbidden as refused:
        # Only the payee answers: no page offers it to another. A link replaced or
        # revoked meanwhile is told as such, not as the payment confirmed.
        if what != "delete" or isinstance(refused, service.LinkGone):
            raise
        # "Take back" is offered on a payment while it waits for its payee: they
        # confirmed it meanwhile.
        flash(tr(CONFIRMED_MEANWHILE))
    return _back(player)


@bp.post("/<public_id>/handles")
def handles(public_id: str) -> ResponseReturnValue:
    player = _holder(public_id)
    form = HandlesForm()
    if not form.validate_on_submit():
        abort(400)
    try:
        people.set_handles(player, people.read_handles({"handles": form.handles()}))
    except Invalid as invalid:
        return _page(player, 422, handles_form=form, handle_problems=_problems(invalid))
    flash(tr("Saved: everyone who settles up with you sees how to pay you."))
    return _back(player)


@bp.post("/<public_id>/qr")
@csrf.exempt  # type: ignore[untyped-decorator]  # checked below, under the image's limit
def qr(public_id: str) -> ResponseReturnValue:
    """The player's wallet QR, read from a screenshot; only its text is kept."""
    player = _holder(public_id)
    request.max_content_length = MAX_BYTES + 64 * 1024  # the image and the form around it
    try:
        request.files  # noqa: B018  (reads the body, within the limit)
    except RequestEntityTooLarge:
        return _qr_problem(player, 413, tr("This image is larger than 1 MB."))
    if current_app.config["WTF_CSRF_ENABLED"]:  # as CSRFProtect checks every other form
        csrf.protect()
    form = QrForm()
    upload = form.image.data
    data = upload.read(MAX_BYTES + 1) if upload else b""
    try:
        people.set_qr(player, read_qr(data))
    except TooLarge:
        return _qr_problem(
            player, 413, tr("This image is too large: at most 1 MB and 16 megapixels.")
        )
    except Invalid as invalid:
        return _qr_problem(player, 422, *_problems(invalid))
    flash(tr("Your QR code is read and saved; the image itself is not kept."))
    return _back(player)


@bp.post("/<public_id>/qr/delete")
def qr_delete(public_id: str) -> ResponseReturnValue:
    player = _holder(public_id)
    if not PlainForm().validate_on_submit():
        abort(400)
    people.clear_qr(player)
    flash(tr("Your QR code is taken down."))
    return _back(player)


@bp.post("/<public_id>/link")
def new_link(public_id: str) -> ResponseReturnValue:
    """A new own link for this player: the old one stops working."""
    player = _holder(public_id)
    if not PlainForm().validate_on_submit():
        abort(400)
    key = people.renew_link(player)
    remember_person_key(public_id, key)
    return _page(player, new_link=url_for("people.join", key=key, _external=True))


@bp.post("/<public_id>/forget")
def forget(public_id: str) -> ResponseReturnValue:
    """Forget me: "Former player N" everywhere in the table; this browser forgets the
    link."""
    player = _holder(public_id)
    if not PlainForm().validate_on_submit():
        abort(400)
    people.forget(player)
    forget_kept_pages(current_app)
    forget_person_key(public_id)
    flash(tr("You are forgotten at this table: your name is gone from it, its totals stay."))
    return redirect(url_for("people.tables"), 303)


# --- inside --------------------------------------------------------------------------


def _holder(public_id: str) -> TablePlayer:
    """The player whose own link of this table this browser holds; 403 without one."""
    player = people.person_of(held_person_keys().get(public_id))
    if player is None or player.table.public_id != public_id:
        abort(403, WRONG_LINK)
    return player


def _page(player: TablePlayer, status: int = 200, **given: Any) -> Response:
    mine = people.me_json(player)
    table = player.table
    pay_form = given.pop("pay_form", None)
    if pay_form is None:
        pay_form = IPaidForm(formdata=None)
        pay_form.payment_key.data = new_payment_key()
    # Guests pay and are paid too: a debt to one is offered (and filled in) as any other.
    others = [n for n in service.known_players(table) if n != player.name]
    pay_form.payee.choices = [SelectChoice(n, n) for n in others]
    owed_to = [t for t in mine["transfers"] if t["from"] == player.name]
    owes_earlier = any(t["from"] == player.name for e in mine["earlier"] for t in e["transfers"])
    # Whoever they pay: how to pay them, beside the line, as on the table's page.
    pays = owed_to or owes_earlier
    payees = service.pay_to_in_table(table.id) if pays else {}
    said_paid = _said_paid(player.name, table.current_season.public_id, mine["payments"])
    earlier = [_earlier_owed(player.name, e, mine["payments"]) for e in mine["earlier"]]
    if not pay_form.is_submitted():
        offered = _first_left(owed_to, said_paid, earlier, player.name)
        if offered is not None:
            pay_form.payee.data, pay_form.amount.data = offered
    handles_form = given.pop("handles_form", None) or HandlesForm(formdata=None)
    if not handles_form.is_submitted():
        for row, handle in zip(handles_form.rows, mine["handles"], strict=False):
            row.form.kind.data, row.form.handle.data, row.form.label.data = (
                handle["kind"],
                handle["handle"],
                handle["label"],
            )
    context = {
        "player": player,
        "table": table,
        "me": mine,
        "currency": mine["currency"],
        "balance": _decimal(mine["balance"]),
        "transfers": [{**t, "amount": _decimal(t.get("amount"))} for t in mine["transfers"]],
        "payments": [
            {**p, "amount": Decimal(p["amount"])}
            for p in _with_taken_back(player, mine["payments"])
        ],
        "earlier": earlier,
        "payees": payees,
        "owes_earlier": owes_earlier,
        "linked": service.linked_players(table),
        "said_paid": said_paid,
        "waiting": (UNCONFIRMED, PENDING),
        "pay_form": pay_form,
        "handles_form": handles_form,
        "qr_form": QrForm(formdata=None),
        "plain_form": PlainForm(formdata=None),
        "kind_names": KIND_NAMES,
        "new_payment_key": new_payment_key,
        "top_problems": given.pop("top_problems", []),
        "overpaying": given.pop("overpaying", None),
        "handle_problems": given.pop("handle_problems", []),
        "qr_problems": given.pop("qr_problems", []),
        "new_link": given.pop("new_link", None),
    }
    # Its copy is kept on this phone, the player's own (docs/deployment.md): a new link
    # (a key) and the messages are left out of it, and its forms are off on the copy.
    return may_keep_copy(unkept(render_template("person/page.html", **context), status))


def _qr_problem(player: TablePlayer, status: int, *problems: str) -> Response:
    return _page(player, status, qr_problems=list(problems))


def _problems(invalid: Invalid) -> list[str]:
    return [tr(e.template, **e.values) for e in invalid.errors]


def _back(player: TablePlayer) -> Response:
    return redirect(url_for("people.page", public_id=player.table.public_id), 303)


def moved_on(problem: HTTPException, taken_back: str) -> str:
    """What a page says when a payment tapped on it moved on meanwhile (a page opened
    before, or a form held with no connection and sent once back): ``taken_back`` (a
    message id) when it is no longer there, else the service's own sentence (answered
    already, or a payee who now answers for themselves)."""
    if isinstance(problem, NotFound):
        return tr(taken_back)
    return translate(problem.description)


def _table_name(public_id: str) -> str | None:
    """The name of the table at ``public_id``, or None when it was deleted."""
    try:
        return service.get_table(public_id).name
    except NotFound:
        return None


def _with_taken_back(player: TablePlayer, payments: list[TablePayment]) -> list[TablePayment]:
    """The player's payments, and the kept records of their confirmed payments the table
    took back, in the order they were made: the table's page lists those, marked, and
    a payee who said the money reached them saw it gone from their own page without a
    word. (``GET /api/v1/me`` leaves them out, as the table's payments do without
    ``?deleted=1``.)"""
    table = player.table
    taken_back = [
        service.payment_json(table, p)
        for p in service.payments(table, None, deleted=True)
        if p.deleted_at is not None and player.name in (p.payer, p.payee)
    ]
    if not taken_back:
        return payments
    return sorted([*payments, *taken_back], key=lambda p: (p["at"], p["id"]))


def _said_paid(name: str, season: str, payments: list[TablePayment]) -> dict[str, Decimal]:
    """What ``name`` said they paid each payee in ``season`` (its public id), by payee:
    their own pending payments, which count in the balance only once the payee confirms
    them (one the table marked counts at once, so the debt left already shows it)."""
    found: dict[str, Decimal] = {}
    for p in payments:
        if p["state"] == PENDING and p["from"] == name and p["season"] == season:
            found[p["to"]] = found.get(p["to"], Decimal(0)) + Decimal(p["amount"])
    return found


def _first_left(
    owed_to: list[Any], said_paid: dict[str, Decimal], earlier: list[dict[str, Any]], name: str
) -> tuple[str, str] | None:
    """What "I paid" offers, payee and amount: the first debt of this season not already
    said to be paid ("I paid" again, ready for the same payment, invites paying twice),
    else the first left from an earlier season (where a payment naming no season goes,
    ``people.season_owed``); None when nothing is owed in money."""
    seasons = [_with_left(name, owed_to, said_paid), *(e["transfers"] for e in earlier)]
    return next(
        (
            (t["to"], str(t["left"]))
            for transfers in seasons
            for t in transfers
            if t["from"] == name and t["left"] > 0
        ),
        None,
    )


def _earlier_owed(name: str, earlier: MeEarlier, payments: list[TablePayment]) -> dict[str, Any]:
    """An earlier season still owing, for the page: each transfer ``name`` owes there
    with what they said they paid its payee in that season (``said``) and what is left
    (``left``), as this season's "I paid" is offered."""
    said = _said_paid(name, earlier["season"]["id"], payments)
    transfers = _with_left(name, earlier["transfers"], said)
    return {**earlier, "balance": Decimal(earlier["balance"]), "transfers": transfers}


def _with_left(name: str, transfers: list[Any], said: dict[str, Decimal]) -> list[dict[str, Any]]:
    """``transfers`` with what ``name`` said they paid each payee (``said``) and what is
    left of the debt (``left``, in the currency's places; none played for points only)."""
    out = []
    for t in transfers:
        owed = Decimal(t["amount"] or 0)
        paid = said.get(t["to"], Decimal(0)) if t["from"] == name else Decimal(0)
        left = max(owed - paid, Decimal(0)).quantize(owed)
        out.append({**t, "amount": owed, "said": paid, "left": left})
    return out


def _decimal(text: str | None) -> Decimal | None:
    return None if text is None else Decimal(text)
