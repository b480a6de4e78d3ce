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
from ledger.api.operations import ANSWERED, ONCE, TABLE_WRITES, View, described
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


def of_a_season(*answers: str) -> Callable[[View], View]:
    """Declare a GET of the table and the season its ``?season=`` names
    (``_table_and_season``): 404 for no such table, 422 for a season it does not have."""
    return described("tables", "404 422", *answers, also="season")


@bp.post("/tables")
@described(
    "tables",
    "400 413 422 429",
    "201 CreatedTable+table-location: The table and its edit key.",
    body="NewTable",
)
def create_table() -> ResponseReturnValue:
    """Create a table: a roster, the rules and stake of its matches"""
    table, key = service.create_table(json_object())
    return _table_created(table, key)


@bp.post("/tables/import")
@described(
    "tables",
    "400 413 422 429 503",
    "201 CreatedTable+table-location: The new table (new ids, new edit key).",
    body="TableExport",
)
@one_import_at_a_time
def import_table() -> ResponseReturnValue:
    """Create a table from its export"""
    # The table's export, or (``Content-Type: application/pdf``) a season summary PDF
    # carrying it.
    table, key = table_export.import_table(import_body(TABLE_PDF))
    return _table_created(table, key)


@bp.get("/tables/<id:public_id>")
@described("tables", "404", "200 Table: The table.")
def get_table(public_id: str) -> Response:
    """A table: roster, seasons, matches (newest first)"""
    return jsonify(service.table_json(service.get_table(public_id)))


@bp.patch("/tables/<id:public_id>")
@described("tables", TABLE_WRITES, "200 Table: The table, changed.", body="TableChange", key="edit")
def update_table(public_id: str) -> Response:
    """Change a table's name, rules, stake, or add players to its roster"""
    table = TABLE_KEYS.editable(public_id)
    service.change_table(table, json_object())
    return jsonify(service.table_json(table))


@bp.post("/tables/<id:public_id>/matches")
@described(
    "tables",
    TABLE_WRITES,
    "201 CreatedMatch+location: The new match and its edit key.",
    "200 Match: The match moved in.",
    body="TableMatchRequest",
    key="edit",
)
def table_new_match(public_id: str) -> ResponseReturnValue:
    """A new match in the table, or a match moved in"""
    # The body of ``POST /matches`` (201 with its edit key), or
    # ``{"match", "match_edit_key"}``: a match played before moved in (200).
    table = TABLE_KEYS.editable(public_id)
    data = json_object()
    if "match" in data or "match_edit_key" in data:
        match = service.move_match(table, data)
        return Response(matches.match_json(match), mimetype="application/json")
    match, key = service.new_match(table, data)
    return _created(match, key)


@bp.get("/tables/<id:public_id>/next-dealer")
@described(
    "tables", "404", "200 NextDealer: A name, or null: the first player deals.", also="players"
)
def table_next_dealer(public_id: str) -> Response:
    """Who deals first if these players sit down again"""
    # ``?players=A,B,C``; null: the first player.
    table = service.get_table(public_id)
    names = [n for n in request.args.get("players", "").split(",") if n]
    answer: answers.NextDealer = {"next_dealer": service.next_dealer(table, names)}
    return jsonify(answer)


@bp.patch("/tables/<id:public_id>/players/<name:name>", merge_slashes=False)
@described(
    "tables", TABLE_WRITES, "200 Table: The table, changed.", body="PlayerChange", key="edit"
)
def table_change_player(public_id: str, name: str) -> Response:
    """Rename a player, or merge them into another, through every match and hand"""
    # ``{"name": new}`` renames a player; ``{"merge_into": other}`` merges them.
    table = TABLE_KEYS.editable(public_id)
    service.change_player(table, name, json_object())
    return jsonify(service.table_json(table))


@bp.get("/tables/<id:public_id>/players/<name:name>", merge_slashes=False)
@of_a_season(
    "200 PlayerRecord: The record.",
    "302 -+renamed: An earlier name of a player renamed, or merged into another: their record.",
)
def table_player_record(public_id: str, name: str) -> ResponseReturnValue:
    """A player's record: nights, figures, head-to-head, rival and nemesis"""
    # Their old name's address (a rename, a merge) answers 302 to it.
    table, season = _table_and_season(public_id)
    moved = to_renamed_player(table, name, "api.table_player_record")
    return moved or jsonify(service.player_record(table, name, season))


@bp.post("/tables/<id:public_id>/seasons")
@described(
    "tables", TABLE_WRITES, "201 Season: The new current season.", body="NewSeason", key="edit"
)
def table_start_season(public_id: str) -> ResponseReturnValue:
    """Start a new season (the current one is kept, closed)"""
    table = TABLE_KEYS.editable(public_id)
    season = service.start_season(table, json_object())
    return jsonify(service.season_json(table, season)), 201


@bp.delete("/tables/<id:public_id>")
@described(
    "tables",
    "401 403 404 409 429",
    "204 -: Deleted, with its roster, seasons and own links.",
    key="edit",
)
def delete_table(public_id: str) -> Response:
    """Delete a table with no match and no payment in it (one made by mistake)

    A table with a match or a payment is kept (409).
    """
    # An addition to docs/api.md.
    service.delete_table(TABLE_KEYS.editable(public_id))
    return Response(status=204)


@bp.patch("/tables/<id:public_id>/seasons/<season_id>")
@described("tables", TABLE_WRITES, "200 Season: The season, renamed.", body="NewSeason", key="edit")
def table_rename_season(public_id: str, season_id: str) -> Response:
    """Put a season's name right (the body of a new season)"""
    # An addition to docs/api.md.
    table = TABLE_KEYS.editable(public_id)
    season = service.rename_season(table, season_id, json_object())
    return jsonify(service.season_json(table, season))


@bp.delete("/tables/<id:public_id>/seasons/<season_id>")
@described(
    "tables", "401 403 404 409 429", "200 Season: The season before it, current again.", key="edit"
)
def table_take_back_season(public_id: str, season_id: str) -> Response:
    """Take the current season back, started by mistake (the one before is current again)

    Only while no match and no payment is in it, and never the table's first (409).
    """
    # An addition to docs/api.md.
    table = TABLE_KEYS.editable(public_id)
    return jsonify(service.season_json(table, service.take_back_season(table, season_id)))


@bp.get("/tables/<id:public_id>/standings")
@of_a_season("200 Standings: Players by total, highest first.")
def table_standings(public_id: str) -> Response:
    """The standings of a season: figures, rating, head-to-head"""
    return _season_json(public_id, service.standings_json)


@bp.get("/tables/<id:public_id>/stats")
@of_a_season("200 Stats: A row per player with a hand; highest total first.")
def table_stats(public_id: str) -> Response:
    """Each player's figures over a season, and the season's awards

    Computed from the stored hands: hands, seen, unseen and what they cost, fouls,
    dublee finishes, best and worst hand and night, places, the longest winning run,
    form; awards to the holders of the largest value.
    """
    return _season_json(public_id, player_stats.table_stats_json)


@bp.get("/tables/<id:public_id>/rating-history")
@of_a_season("200 RatingHistory: A chart's points.")
def table_rating_history(public_id: str) -> Response:
    """The ratings after each finished match of a season, in play order"""
    return _season_json(public_id, service.rating_history_json)


@bp.get("/tables/<id:public_id>/settle-up")
@of_a_season("200 TableSettleUp: Balances and transfers.")
def table_settle_up(public_id: str) -> Response:
    """Money across nights: balances net of payments, the fewest transfers"""
    return _season_json(public_id, service.season_settle_up)


@bp.post("/tables/<id:public_id>/rescore")
@described(
    "tables",
    "400 413 422 404 429",
    "200 SeasonRescore: The season's standings under the rules, each match's changes.",
    also="season",
    body="RescoreRequest",
)
def table_rescore(public_id: str) -> Response:
    """A season under other rules, beside it as played (stores nothing)

    Needs no key. Each match of the season is rescored as `POST
    /api/v1/matches/{id}/rescore` does (docs/rules.md §8) and the standings are summed
    over the rescored matches, each player's total and matches won beside those as
    played.
    """
    table, season = _table_and_season(public_id)
    rules = read_rescore_rules(json_object())
    return jsonify(rescore_season(table, season, rules).to_json(table))


@bp.post("/tables/<id:public_id>/payments")
@described(
    "tables",
    TABLE_WRITES,
    "201 TablePayment+replayed: The payment.",
    also="payment-key at-most-owed",
    body="NewPayment",
    key="either",
    note=ONCE,
)
def table_add_payment(public_id: str) -> ResponseReturnValue:
    """Record money handed over (a table without a stake: 422)

    With the table key: unconfirmed, counted. With the payer's own key: pending, counted
    once the payee confirms it (`from` must be the payer: 403).
    """
    # Its Idempotency-Key is looked up once the caller's key is checked.
    table, caller = _payment_caller(public_id)
    at_most = _at_most_owed(table)
    data = json_object()
    return _answer(service.add_payment(table, data, caller, key=_idempotency_key(), ask=at_most))


@bp.get("/tables/<id:public_id>/payments")
@described("tables", "404 422", "200 TablePayments: Oldest first.", also="season-all deleted")
def table_payments(public_id: str) -> Response:
    """The payments recorded, rejected ones marked"""
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


#: The payee's answer to a payment, confirm or reject alike.
payee_answers = described(
    "people",
    "401 403 404 409 429",
    "200 TablePayment: The payment (the same call again: no change).",
    key="either",
    note=ANSWERED,
)


@bp.post("/tables/<id:public_id>/payments/<int:payment_id>/confirm")
@payee_answers
def table_confirm_payment(public_id: str, payment_id: int) -> ResponseReturnValue:
    """The payee says the money arrived"""
    table, caller = _payment_caller(public_id)
    return _answer(service.answer_payment(table, payment_id, True, caller))


@bp.post("/tables/<id:public_id>/payments/<int:payment_id>/reject")
@payee_answers
def table_reject_payment(public_id: str, payment_id: int) -> ResponseReturnValue:
    """The payee says the money did not arrive"""
    table, caller = _payment_caller(public_id)
    return _answer(service.answer_payment(table, payment_id, False, caller))


@bp.delete("/tables/<id:public_id>/payments/<int:payment_id>")
@described(
    "tables",
    "401 403 404 409 422 429",
    "204 -+replayed: Taken back.",
    also="payment-key",
    key="either",
    note=ONCE,
)
def table_delete_payment(public_id: str, payment_id: int) -> ResponseReturnValue:
    """Take a payment back

    Unconfirmed: the table key; pending: the table key or the payer's own key;
    confirmed: the table key, and a record is kept (`?deleted=1`); rejected: 409 (kept,
    marked).
    """
    table, caller = _payment_caller(public_id)
    return _answer(service.delete_payment(table, payment_id, caller, key=_idempotency_key()))


@bp.get("/tables/<id:public_id>/export.json")
@described("tables", "404", "200 TableExport: An attachment.")
def table_export_json(public_id: str) -> ResponseReturnValue:
    """The whole table as JSON (the import takes it back)"""
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
