"""The tables of docs/api.md: a roster, its matches and seasons, the standings, money
across nights, export and import.

Thin, as the match routes: reading the request, edit rights and status codes live here;
everything else is ``ledger.tables.service``. A write needs ``Authorization: Bearer
<table edit key>``: none → 401, a wrong key → 403; an unknown table is 404 first.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from decimal import Decimal

from flask import Response, jsonify, make_response, request, url_for
from flask.typing import ResponseReturnValue

from ledger import matches
from ledger.api import bp
from ledger.api.errors import ApiError, json_object
from ledger.api.keys import EditKeys, bearer_key
from ledger.api.matches import _attachment, _created, import_body
from ledger.engine import FieldError, Invalid
from ledger.http.imports import one_import_at_a_time
from ledger.http.no_store import unkept
from ledger.http.owned import TABLE
from ledger.http.renamed import to_renamed_player
from ledger.http.wrong_keys import count_wrong_key
from ledger.matches.export import export_filename
from ledger.matches.pdf_export import TABLE_PDF
from ledger.matches.rescore import read_rescore_rules
from ledger.tables import answers, people, player_stats, service
from ledger.tables import export as table_export
from ledger.tables.models import Season, Table
from ledger.tables.money_view import owed_now
from ledger.tables.payment_keys import Answered
from ledger.tables.reading import PaymentSpec
from ledger.tables.rescore import rescore_season

#: A table's writes: its edit key.
TABLE_KEYS = EditKeys(
    TABLE,
    "tables",
    "This needs the table's edit key: send it as Authorization: Bearer <edit key>.",
    "This is not the edit key of this table.",
)


@bp.post("/tables")
def create_table() -> ResponseReturnValue:
    table, key = service.create_table(json_object())
    return _table_created(table, key)


@bp.post("/tables/import")
@one_import_at_a_time
def import_table() -> ResponseReturnValue:
    """The table's export, or (``Content-Type: application/pdf``) a season summary PDF
    carrying it."""
    table, key = table_export.import_table(import_body(TABLE_PDF))
    return _table_created(table, key)


@bp.get("/tables/<id:public_id>")
def get_table(public_id: str) -> Response:
    return jsonify(service.table_json(service.get_table(public_id)))


@bp.patch("/tables/<id:public_id>")
def update_table(public_id: str) -> Response:
    """The table's ``name``, ``rules``, ``stake``, and ``players`` to add to the roster."""
    table = TABLE_KEYS.editable(public_id)
    service.change_table(table, json_object())
    return jsonify(service.table_json(table))


@bp.post("/tables/<id:public_id>/matches")
def table_new_match(public_id: str) -> ResponseReturnValue:
    """A new match in the table (the body of ``POST /matches``; 201 with its edit key), or
    ``{"match", "match_edit_key"}``: a match played before moved in (200)."""
    table = TABLE_KEYS.editable(public_id)
    data = json_object()
    if "match" in data or "match_edit_key" in data:
        match = service.move_match(table, data)
        return Response(matches.match_json(match), mimetype="application/json")
    match, key = service.new_match(table, data)
    return _created(match, key)


@bp.get("/tables/<id:public_id>/next-dealer")
def table_next_dealer(public_id: str) -> Response:
    """Who deals first if ``?players=A,B,C`` sit down again (null: the first player)."""
    table = service.get_table(public_id)
    names = [n for n in request.args.get("players", "").split(",") if n]
    answer: answers.NextDealer = {"next_dealer": service.next_dealer(table, names)}
    return jsonify(answer)


@bp.patch("/tables/<id:public_id>/players/<name:name>", merge_slashes=False)
def table_change_player(public_id: str, name: str) -> Response:
    """``{"name": new}`` renames a player; ``{"merge_into": other}`` merges them."""
    table = TABLE_KEYS.editable(public_id)
    service.change_player(table, name, json_object())
    return jsonify(service.table_json(table))


@bp.get("/tables/<id:public_id>/players/<name:name>", merge_slashes=False)
def table_player_record(public_id: str, name: str) -> ResponseReturnValue:
    """A player's record; their old name's address (a rename, a merge) answers 302 to it."""
    table, season = _table_and_season(public_id)
    moved = to_renamed_player(table, name, "api.table_player_record")
    return moved or jsonify(service.player_record(table, name, season))


@bp.post("/tables/<id:public_id>/seasons")
def table_start_season(public_id: str) -> ResponseReturnValue:
    table = TABLE_KEYS.editable(public_id)
    season = service.start_season(table, json_object())
    return jsonify(service.season_json(table, season)), 201


@bp.delete("/tables/<id:public_id>")
def delete_table(public_id: str) -> Response:
    """A table made by mistake, with no match and no payment, deleted (an addition to
    docs/api.md); 409 for one with either."""
    service.delete_table(TABLE_KEYS.editable(public_id))
    return Response(status=204)


@bp.patch("/tables/<id:public_id>/seasons/<season_id>")
def table_rename_season(public_id: str, season_id: str) -> Response:
    """A season's name put right (an addition to docs/api.md)."""
    table = TABLE_KEYS.editable(public_id)
    season = service.rename_season(table, season_id, json_object())
    return jsonify(service.season_json(table, season))


@bp.delete("/tables/<id:public_id>/seasons/<season_id>")
def table_take_back_season(public_id: str, season_id: str) -> Response:
    """The current season taken back, started by mistake (an addition to docs/api.md):
    the season before it, current again."""
    table = TABLE_KEYS.editable(public_id)
    return jsonify(service.season_json(table, service.take_back_season(table, season_id)))


@bp.get("/tables/<id:public_id>/standings")
def table_standings(public_id: str) -> Response:
    return _season_json(public_id, service.standings_json)


@bp.get("/tables/<id:public_id>/stats")
def table_stats(public_id: str) -> Response:
    """Each player's figures over a season (or all time) and its awards."""
    return _season_json(public_id, player_stats.table_stats_json)


@bp.get("/tables/<id:public_id>/rating-history")
def table_rating_history(public_id: str) -> Response:
    return _season_json(public_id, service.rating_history_json)


@bp.get("/tables/<id:public_id>/settle-up")
def table_settle_up(public_id: str) -> Response:
    return _season_json(public_id, service.season_settle_up)


@bp.post("/tables/<id:public_id>/rescore")
def table_rescore(public_id: str) -> Response:
    """The season's standings under other rules beside them as played (no key needed;
    nothing is stored)."""
    table, season = _table_and_season(public_id)
    rules = read_rescore_rules(json_object())
    return jsonify(rescore_season(table, season, rules).to_json(table))


@bp.post("/tables/<id:public_id>/payments")
def table_add_payment(public_id: str) -> ResponseReturnValue:
    """With the table key: an unconfirmed payment; with the payer's own link: pending.
    Recorded once per ``Idempotency-Key`` (as a hand is stored), checked after the key."""
    table, caller = _payment_caller(public_id)
    at_most = _at_most_owed(table)
    data = json_object()
    return _answer(service.add_payment(table, data, caller, key=_idempotency_key(), ask=at_most))


@bp.get("/tables/<id:public_id>/payments")
def table_payments(public_id: str) -> Response:
    """``?deleted=1``: with the kept records of deleted confirmed payments."""
    table = service.get_table(public_id)
    season = service.read_season(table, request.args.get("season", service.ALL))
    deleted = request.args.get("deleted", "0")
    if deleted not in ("0", "1"):
        raise ApiError.one(
            422, "deleted must be 1 (with the records of deleted payments) or 0.", "deleted"
        )
    found = service.payments(table, season, deleted=deleted == "1")
    answer: answers.TablePayments = {"payments": [service.payment_json(table, p) for p in found]}
    return jsonify(answer)


@bp.post("/tables/<id:public_id>/payments/<int:payment_id>/confirm")
def table_confirm_payment(public_id: str, payment_id: int) -> ResponseReturnValue:
    table, caller = _payment_caller(public_id)
    return _answer(service.answer_payment(table, payment_id, True, caller))


@bp.post("/tables/<id:public_id>/payments/<int:payment_id>/reject")
def table_reject_payment(public_id: str, payment_id: int) -> ResponseReturnValue:
    table, caller = _payment_caller(public_id)
    return _answer(service.answer_payment(table, payment_id, False, caller))


@bp.delete("/tables/<id:public_id>/payments/<int:payment_id>")
def table_delete_payment(public_id: str, payment_id: int) -> ResponseReturnValue:
    table, caller = _payment_caller(public_id)
    return _answer(service.delete_payment(table, payment_id, caller, key=_idempotency_key()))


@bp.get("/tables/<id:public_id>/export.json")
def table_export_json(public_id: str) -> ResponseReturnValue:
    table = service.get_table(public_id)
    response = jsonify(table_export.export_table(table))
    return _attachment(response, export_filename(table.name, "json"))


# --- inside --------------------------------------------------------------------------


def _table_created(table: Table, key: str) -> Response:
    body: answers.CreatedTable = {**service.table_json(table), "edit_key": key}
    # Kept by no cache: the edit key is in the body.
    response = unkept(Response(json.dumps(body), status=201, mimetype="application/json"))
    response.headers["Location"] = url_for("api.get_table", public_id=table.public_id)
    return response


def _table_and_season(public_id: str) -> tuple[Table, Season | None]:
    """The table and the season its ``?season=`` names (``service.read_season``)."""
    table = service.get_table(public_id)
    return table, service.read_season(table, request.args.get("season"))


def _season_json(public_id: str, figures: Callable[[Table, Season | None], object]) -> Response:
    """``figures`` of the table and the season its ``?season=`` names, as JSON."""
    return jsonify(figures(*_table_and_season(public_id)))


def _at_most_owed(table: Table) -> Callable[[PaymentSpec], None] | None:
    """``?at_most_owed=1``: the service's ``ask`` that refuses a payment larger than what
    its payer still owes its payee (422 on ``amount``), checked while the write holds the
    table: the same debt recorded a moment before with another key (the payer's "I paid"
    and the table's "Mark paid" at once) is counted in it. Absent or 0: what is sent is
    recorded, as it always was (an overpayment comes back through the settle-up)."""
    flag = request.args.get("at_most_owed", "0")
    if flag not in ("0", "1"):
        raise ApiError.one(
            422,
            "at_most_owed must be 1 (record it only if it is owed) or 0.",
            "at_most_owed",
        )
    if flag == "0":
        return None

    def at_most_owed(paying: PaymentSpec) -> None:
        owed = owed_now(table, paying)
        if paying.amount > owed:
            raise Invalid(
                [
                    FieldError(
                        "amount",
                        "{payer} owes {payee} {currency} {owed} now, less than this payment "
                        "of {currency} {amount}: it was recorded a moment ago, or is not "
                        "owed. Nothing was recorded; send it without at_most_owed to record "
                        "it as it is.",
                        payer=paying.payer,
                        payee=paying.payee,
                        currency=paying.currency,
                        owed=format(owed.quantize(Decimal("0.01")), "f"),
                        amount=format(paying.amount, "f"),
                    )
                ]
            )

    return at_most_owed


def _idempotency_key() -> str | None:
    return request.headers.get("Idempotency-Key")


def _answer(answered: Answered) -> Response:
    """A write's answer as it was made (before its commit: nothing is read after it)."""
    response = jsonify(answered.body) if answered.status != 204 else make_response("", 204)
    response.status_code = answered.status
    if answered.replayed:
        response.headers["Idempotent-Replayed"] = "true"
    return response


def _payment_caller(public_id: str) -> tuple[Table, service.Caller]:
    """The table and who writes to its payments: the table key's holder, or one of its
    roster players with their own link. 401 without a key, 403 with any other."""
    table = service.get_table(public_id)
    key = bearer_key(
        "tables",
        "This needs the table's edit key, or your own link's key: send it as "
        "Authorization: Bearer <key>.",
    )
    if service.check_table_key(table, key):
        return table, service.TABLE_KEY
    player = people.person_of(key)
    if player is None or player.table_id != table.id:
        count_wrong_key(f"table:{table.public_id}")  # 429 past the guesses' budget
        raise ApiError.one(
            403,
            "This is neither the edit key of this table nor the own link of one of its players.",
        )
    return table, service.Caller.holding(player)
