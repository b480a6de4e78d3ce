"""Each player's own link (docs/api.md, "People"): the table key gives and revokes a
player's link and may take their handles down; the player's own key (``Authorization:
Bearer <person key>``) reads ``/me``, renews itself, sets how to pay them and forgets
them. A wrong or revoked person key on ``/me`` is 401 (counted as a wrong key, as edit
keys are); the routes under a table answer 401 without a key, 403 with a wrong one.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from contextlib import contextmanager

from flask import Response, current_app, jsonify, request, url_for
from flask.typing import ResponseReturnValue

from ledger.api import bp
from ledger.api.errors import ApiError, json_object
from ledger.api.keys import bearer_key
from ledger.api.tables import TABLE_KEYS
from ledger.http.forgetting import forget_kept_pages
from ledger.http.no_store import unkept
from ledger.http.wrong_keys import PERSON_LINKS, count_wrong_key
from ledger.tables import people, service
from ledger.tables.models import TablePlayer
from ledger.tables.people_answers import PersonLink, Qr
from ledger.tables.qr_image import MAX_BYTES, TooLarge, read_qr


@bp.post("/tables/<public_id>/players/<name:name>/link", merge_slashes=False)
def give_person_link(public_id: str, name: str) -> ResponseReturnValue:
    table = TABLE_KEYS.editable(public_id)
    player, key = people.give_link(table, name)
    return _link_created(player, key)


@bp.delete("/tables/<public_id>/players/<name:name>/link", merge_slashes=False)
def revoke_person_link(public_id: str, name: str) -> ResponseReturnValue:
    people.revoke_link(TABLE_KEYS.editable(public_id), name)
    return "", 204


@bp.delete("/tables/<public_id>/players/<name:name>/handles", merge_slashes=False)
def take_down_handles(public_id: str, name: str) -> ResponseReturnValue:
    """The table key takes a player's handles and QR down (it can never set them)."""
    people.take_down(TABLE_KEYS.editable(public_id), name)
    return "", 204


@bp.post("/me/link")
def renew_person_link() -> ResponseReturnValue:
    player = _me()
    with _still_yours():
        key = people.renew_link(player)
    return _link_created(player, key)


@bp.get("/me")
def me() -> ResponseReturnValue:
    return unkept(jsonify(people.me_json(_me())))


@bp.put("/me/handles")
def set_handles() -> Response:
    player = _me()
    handles = people.read_handles(json_object())
    with _still_yours():
        people.set_handles(player, handles)
    return jsonify({"handles": people.handles_of(player)})


@bp.post("/me/qr")
def set_qr() -> Response:
    """The body: a PNG or JPEG image holding the player's wallet QR code; only what
    the code says is kept."""
    player = _me()
    request.max_content_length = MAX_BYTES
    try:
        text = read_qr(request.get_data(cache=False))
    except TooLarge:
        raise ApiError.one(
            413,
            "The image is too large: send at most 1 MB and 16 megapixels (a screenshot of "
            "your QR code is far less).",
            "image",
        ) from None
    with _still_yours():
        kept: Qr = {"qr": people.set_qr(player, text)}
    return jsonify(kept)


@bp.delete("/me/qr")
def clear_qr() -> ResponseReturnValue:
    player = _me()
    with _still_yours():
        people.clear_qr(player)
    return "", 204


@bp.delete("/me")
def forget_me() -> ResponseReturnValue:
    """The holder leaves the table: "Former player N" everywhere in it, totals unchanged;
    their handles, QR and link are gone, and the kept pages and PDFs with them."""
    player = _me()
    with _still_yours():
        people.forget(player)
    forget_kept_pages(current_app)
    return "", 204


# --- inside --------------------------------------------------------------------------


def _me() -> TablePlayer:
    """The player whose own link the request carries; 401 without one, or with a wrong
    or revoked one."""
    key = bearer_key(
        "people", "This needs your own link's key: send it as Authorization: Bearer <person key>."
    )
    player = people.person_of(key)
    if player is None:
        count_wrong_key(PERSON_LINKS)  # 429 past the guesses' budget
        raise _revoked()
    return player


def _revoked() -> ApiError:
    return ApiError.one(
        401,
        "This is not a player's own link, or it was revoked: ask the table's scorekeeper "
        "for a new one.",
        headers={"WWW-Authenticate": 'Bearer realm="people", error="invalid_token"'},
    )


@contextmanager
def _still_yours() -> Iterator[None]:
    """A write of the holder's: their link revoked, renewed or forgotten on another phone
    while it was on its way is found once the write holds the table, and answered 401 as
    a revoked key is (nothing changed)."""
    try:
        yield
    except service.LinkGone:
        raise _revoked() from None


def _link_created(player: TablePlayer, key: str) -> Response:
    body: PersonLink = {"person_key": key, "url": url_for("people.join", key=key, _external=True)}
    # Kept by no cache: the key is in the body.
    return unkept(Response(json.dumps(body), status=201, mimetype="application/json"))
