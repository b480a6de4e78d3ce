"""The matches of docs/api.md: create, read, change, add/replace/delete hands, the
settle-up, export, import.

Thin: reading the request, edit rights and status codes live here; everything else
is ``ledger.matches``. A write needs ``Authorization: Bearer <edit key>``: none →
401, a wrong key (another match's included) → 403; an unknown match is 404 first.
"""

from __future__ import annotations

import json
from typing import Any

from flask import Response, jsonify, request, url_for
from flask.typing import ResponseReturnValue

from ledger import matches
from ledger.api import bp
from ledger.api.errors import ApiError, errors_json, json_object
from ledger.api.keys import EditKeys
from ledger.api.operations import WRITES, described
from ledger.engine import FieldError, Invalid
from ledger.http.imports import one_import_at_a_time
from ledger.http.no_store import unkept
from ledger.http.owned import MATCH
from ledger.matches.answers import HandWithHistory
from ledger.matches.export import IMPORT_MAX_BYTES, export_filename
from ledger.matches.models import Match
from ledger.matches.page_cache import fragment_cache
from ledger.matches.pdf_export import HEADER, MATCH_PDF, NotAPdf, PdfWords, read_pdf_export
from ledger.matches.reading import MATCH as NEW_MATCH
from ledger.matches.reading import read_whole_number
from ledger.matches.rescore import read_rescore_rules, rescore_match
from ledger.matches.view import history_json
from ledger.tables import service as table_service
from ledger.tables.player_stats import match_stats_json

#: A match's writes: its own edit key, or its table's.
MATCH_KEYS = EditKeys(
    MATCH,
    "matches",
    "This needs the match's edit key: send it as Authorization: Bearer <edit key>.",
    "This is not the edit key of this match or of its table.",
)
NO_SETTLE_UP = (
    "This match is a points race: each player keeps their own points and nobody pays "
    "anyone, so there is nothing to settle up. Only a zero-sum match has a settle-up."
)


@bp.post("/matches")
@described(
    "matches",
    "400 413 422 429",
    "201 CreatedMatch+location: The match and its edit key.",
    body="NewMatch",
)
def create_match() -> ResponseReturnValue:
    """Create a match"""
    data = json_object()
    match, key = matches.create_match(**NEW_MATCH.given(data))
    return _created(match, key)


@bp.post("/matches/import")
@described(
    "matches",
    "400 413 422 429 503",
    "201 CreatedMatch+location: The new match (new id, new edit key).",
    body="import",
)
@one_import_at_a_time
def import_match() -> ResponseReturnValue:
    """Create a match from an export (JSON, or a summary.pdf with it embedded)

    Every hand is checked and settled again under the match's rules; numbers, dealers,
    versions, times and history are kept.
    """
    match, key = matches.import_match(import_body())
    return _created(match, key)


@bp.get("/matches/<id:public_id>")
@described(
    "matches",
    "404",
    "200 Match+match-etag: The match.",
    "304 -+match-etag: Unchanged since the version named in If-None-Match.",
    also="if-none-match",
)
def get_match(public_id: str) -> ResponseReturnValue:
    """A match: players, totals, every hand, standings"""
    # Kept per version (an ETag of it answers 304 while nothing changed).
    match = matches.get_match(public_id)
    key = ("json", match.public_id, match.version)
    body = fragment_cache().get(key)
    if body is None:
        body = matches.match_json(match)
        fragment_cache().put(key, body)
    response = Response(body, mimetype="application/json")
    response.set_etag(f"match-{match.version}")
    return response.make_conditional(request)


@bp.patch("/matches/<id:public_id>")
@described("matches", WRITES, "200 Match: The match, changed.", body="MatchChange", key="edit")
def update_match(public_id: str) -> Response:
    """Change a match's name, length, stake or rules, or end it (End the night)

    A length below the hands already played is refused (422), and so are rules that
    refuse a hand played (422 on `rules`, naming the hands). `finished: true` on a match
    with no hand, or `finished: false` on one whose length is reached, is refused (409).
    """
    # ``length``: to play on, or to stop early; ``stake``: an object, or null for points
    # only; ``rules``: every hand settled again under them.
    match = MATCH_KEYS.editable(public_id)
    data = json_object()
    table_service.check_match_stake(match, data)
    matches.change_match(match, data)
    return Response(matches.match_json(match), mimetype="application/json")


@bp.delete("/matches/<id:public_id>")
@described(
    "matches",
    "401 403 404 409 429",
    "204 -: Deleted, with its players and its deleted hands' records.",
    key="edit",
)
def delete_match(public_id: str) -> Response:
    """Delete a match with no hand in it (one started by mistake)

    A match with a hand in it is kept (409): its hands count in totals, money and
    figures.
    """
    # An addition to docs/api.md.
    # In a table, with the players its start added to the roster (nothing else theirs).
    table_service.delete_match(MATCH_KEYS.editable(public_id))
    return Response(status=204)


@bp.get("/matches/<id:public_id>/settle-up")
@described("matches", "404 422", "200 SettleUp: Balances and transfers, in points and money.")
def settle_up(public_id: str) -> Response:
    """Who pays whom to settle the match: the fewest transfers

    Only for zero-sum matches: a points race → 422.
    """
    # Each balance row says how to pay that player (``pay_to``: set by them with their
    # own link, in the match's table; else null).
    match = matches.get_match(public_id)
    result = matches.match_view(match, newest=0).settle_up_json()
    if result is None:
        raise ApiError.one(422, NO_SETTLE_UP)
    return jsonify(table_service.with_pay_to(table_service.table_of(match), result))


@bp.get("/matches/<id:public_id>/stats")
@described("matches", "404", "200 Stats: As a table's stats, over this match alone.")
def match_stats(public_id: str) -> Response:
    """Tonight's figures of each player and tonight's awards"""
    return jsonify(match_stats_json(matches.get_match(public_id)))


@bp.post("/matches/<id:public_id>/rescore")
@described(
    "matches",
    "400 413 422 404 429",
    "200 Rescore: Totals, hands and the settle-up under the rules.",
    body="RescoreRequest",
)
def rescore(public_id: str) -> Response:
    """The match under other rules, beside the match as played (stores nothing)

    Needs no key. Each hand is read again from its input and settled under the rules
    given, in the order played, with its sit-outs; the fouls carried to a later hand
    follow (docs/rules.md §8).
    """
    # No key: anyone with the match's link may ask "what if".
    match = matches.get_match(public_id)
    rules = read_rescore_rules(json_object())
    return jsonify(rescore_match(match, rules).to_json())


@bp.post("/matches/<id:public_id>/hands")
@described(
    "hands",
    WRITES,
    "201 HandAnswer+replayed: The stored hand, its result, the match totals.",
    also="idem",
    body="HandInput",
    key="edit",
)
def add_hand(public_id: str) -> ResponseReturnValue:
    """Add a hand"""
    # Stored once per Idempotency-Key: the same request again gets the first answer
    # again, marked ``Idempotent-Replayed: true``.
    match = MATCH_KEYS.editable(public_id)
    data = json_object()
    receipt = matches.submit_hand(match, data, key=request.headers.get("Idempotency-Key"))
    response = jsonify(receipt.answer)
    response.status_code = 201
    if receipt.replayed:
        response.headers["Idempotent-Replayed"] = "true"
    return response


@bp.get("/matches/<id:public_id>/hands/<int:number>")
@described("hands", "404", "200 HandWithHistory+etag: The hand.")
def get_hand(public_id: str, number: int) -> ResponseReturnValue:
    """A hand with its history"""
    # An addition to docs/api.md.
    match = matches.get_match(public_id)
    matches.get_hand(match, number)  # 404
    hand = matches.match_view(match, newest=0, also=number).hand(number)
    assert hand is not None
    answer: HandWithHistory = {
        **hand.to_json(),
        "history": [history_json(old) for old in matches.hand_history(match, number)],
    }
    response = jsonify(answer)
    response.set_etag(str(hand.version))
    return response


@bp.put("/matches/<id:public_id>/hands/<int:number>")
@described(
    "hands",
    WRITES,
    "200 HandAnswer: The hand as replaced, the match totals.",
    also="if-match",
    body="HandInput",
    key="edit",
)
def replace_hand(public_id: str, number: int) -> ResponseReturnValue:
    """Replace a hand (totals follow)"""
    match = MATCH_KEYS.editable(public_id)
    data = json_object()
    stored = matches.get_hand(match, number)
    expected = _expected_version(data, number, stored.version)
    return jsonify(matches.replace_hand(match, number, data, expected_version=expected))


@bp.delete("/matches/<id:public_id>/hands/<int:number>")
@described(
    "hands",
    "401 403 404 409 429",
    "200 Deleted: The number deleted and the match totals.",
    also="if-match",
    key="edit",
)
def delete_hand(public_id: str, number: int) -> Response:
    """Delete a hand (later hands keep their numbers)"""
    match = MATCH_KEYS.editable(public_id)
    stored = matches.get_hand(match, number)
    expected = _expected_version({}, number, stored.version)
    return jsonify(matches.delete_hand(match, number, expected_version=expected))


@bp.post("/matches/<id:public_id>/hands/<int:number>/restore")
@described(
    "hands",
    "401 403 404 409 422 429",
    "200 HandAnswer: The hand put back, the match totals.",
    key="edit",
)
def restore_hand(public_id: str, number: int) -> Response:
    """Put a deleted hand back as it was, in its place (totals follow)

    Read and settled again against the match as it is now (422 when it no longer fits:
    its players or rules changed since); its history keeps the delete and the hand takes
    the next version. A hand in the match (not deleted, or put back already), or a match
    that is over: 409.
    """
    # An addition to docs/api.md.
    match = MATCH_KEYS.editable(public_id)
    return jsonify(matches.restore_hand(match, number))


@bp.get("/matches/<id:public_id>/export.json")
@described("matches", "404", "200 Export: An attachment.")
def export_json(public_id: str) -> ResponseReturnValue:
    """The whole match as JSON (the import takes it back)"""
    match = matches.get_match(public_id)
    response = jsonify(matches.export_json(match))
    return _attachment(response, export_filename(match.name, "json"))


@bp.get("/matches/<id:public_id>/export.csv")
@described("matches", "404", "200 csv: An attachment: a row per hand, a column per player.")
def export_csv(public_id: str) -> ResponseReturnValue:
    """The score table as CSV (formula-looking cells escaped)"""
    match = matches.get_match(public_id)
    response = Response(matches.export_csv(match), mimetype="text/csv")
    return _attachment(response, export_filename(match.name, "csv"))


@bp.errorhandler(matches.MatchConflict)
def _conflict(error: matches.MatchConflict) -> ResponseReturnValue:
    return jsonify(errors_json([FieldError(error.field, error.description)])), 409


# --- inside --------------------------------------------------------------------------


def _attachment(response: Response, filename: str) -> Response:
    response.headers["Content-Disposition"] = f'attachment; filename="{filename}"'
    return response


def import_body(words: PdfWords = MATCH_PDF) -> object:
    """An import's body, read under the larger limit of an import: the export's JSON, or
    the export a posted PDF carries (``Content-Type: application/pdf``, or a body that
    begins as a PDF does whatever its type: ``curl --data-binary @summary.pdf`` sends it
    as a form, and it was told it was no valid JSON); ``words``: what that PDF is called
    in a problem (a match's summary, a table's season PDF)."""
    request.max_content_length = IMPORT_MAX_BYTES
    pdf = request.mimetype == "application/pdf" or request.get_data().startswith(HEADER)
    return _pdf_export(words) if pdf else json_object()


def _pdf_export(words: PdfWords) -> object:
    """The export a posted PDF carries: 400 when the body is no PDF, 422 (``Invalid``)
    when it carries no export."""
    try:
        return read_pdf_export(request.get_data(cache=False), IMPORT_MAX_BYTES, words)
    except NotAPdf as problem:
        raise ApiError.one(400, str(problem.args[0])) from None


def _created(match: Match, key: str) -> Response:
    # Kept by no cache: the edit key is in the body.
    response = unkept(Response(matches.match_json(match), status=201, mimetype="application/json"))
    response.set_data(response.get_data()[:-1] + f',"edit_key":{json.dumps(key)}}}'.encode())
    response.headers["Location"] = url_for("api.get_match", public_id=match.public_id)
    return response


def _expected_version(data: dict[str, Any], number: int, current: int) -> int | None:
    """The version the client loaded, from the body's ``version`` or ``If-Match``;
    409 (HandConflict) when either is not the hand's current version."""
    expected = data.get("version")
    if expected is not None:
        try:
            expected = read_whole_number(
                expected,
                "version",
                least=1,
                template="version must be the hand's version you loaded, a whole number "
                "from {least} to {most}.",
            )
        except FieldError as problem:
            raise Invalid([problem]) from None
        if expected != current:
            raise matches.HandConflict(number, current)
    if_match = request.headers.get("If-Match")
    if if_match is not None:
        tags = [_etag_value(tag) for tag in if_match.split(",")]
        if "*" not in tags and str(current) not in tags:
            raise matches.HandConflict(number, current)
        expected = current
    return expected


def _etag_value(tag: str) -> str:
    """``W/"3"``, ``"3"`` and ``3`` are all version 3."""
    tag = tag.strip()
    tag = tag.removeprefix("W/")
    return tag.strip('"')
