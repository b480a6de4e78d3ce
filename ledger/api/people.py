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
from werkzeug.exceptions import RequestEntityTooLarge

from ledger.api import bp
from ledger.api.errors import ApiError, json_object
from ledger.api.keys import bearer_key
from ledger.api.operations import LINK_WRITES, described
from ledger.api.tables import TABLE_KEYS
from ledger.http.forgetting import forget_kept_pages
from ledger.http.no_store import unkept
from ledger.http.wrong_keys import PERSON_LINKS, count_wrong_key
from ledger.tables import people, service
from ledger.tables.models import TablePlayer
from ledger.tables.people_answers import PersonLink, Qr
from ledger.tables.qr_image import MAX_BYTES, TooLarge, read_qr


@bp.post("/tables/<public_id>/players/<name:name>/link", merge_slashes=False)
@described("people", LINK_WRITES, "201 PersonLink: The key, shown once, and the link.", key="edit")
def give_person_link(public_id: str, name: str) -> ResponseReturnValue:
    """Give a player their own link (revokes the one before, clears their handles)

    A guest or a former player gets none (422 on the name).
    """
    table = TABLE_KEYS.editable(public_id)
    player, key = people.give_link(table, name)
    return _link_created(player, key)


@bp.delete("/tables/<public_id>/players/<name:name>/link", merge_slashes=False)
@described("people", LINK_WRITES, "204 -: Revoked.", key="edit")
def revoke_person_link(public_id: str, name: str) -> ResponseReturnValue:
    """Revoke a player's own link"""
    people.revoke_link(TABLE_KEYS.editable(public_id), name)
    return "", 204


@bp.delete("/tables/<public_id>/players/<name:name>/handles", merge_slashes=False)
@described("people", LINK_WRITES, "204 -: Taken down.", key="edit")
def take_down_handles(public_id: str, name: str) -> ResponseReturnValue:
    """Take a player's handles and QR down (the table key can never set them)"""
    people.take_down(TABLE_KEYS.editable(public_id), name)
    return "", 204


@bp.post("/me/link")
@described("people", "401 429", "201 PersonLink: The new key, shown once.", key="person")
def renew_person_link() -> ResponseReturnValue:
    """Replace the holder's own key (handles kept)"""
    player = _me()
    with _still_yours():
        key = people.renew_link(player)
    return _link_created(player, key)


@bp.get("/me")
@described("people", "401 429", "200 Me: The player's own view.", key="person")
def me() -> ResponseReturnValue:
    """The holder's money, transfers, payments, handles and nights in their table"""
    return unkept(jsonify(people.me_json(_me())))


@bp.put("/me/handles")
@described(
    "people", "400 413 422 401 429", "200 Handles: The handles kept.", body="Handles", key="person"
)
def set_handles() -> Response:
    """Set how to pay the holder (replaces their handles)"""
    player = _me()
    handles = people.read_handles(json_object())
    with _still_yours():
        people.set_handles(player, handles)
    return jsonify({"handles": service.handles_of(player)})


@bp.post("/me/qr")
@described("people", "413 422 401 429", "200 Qr: What the code says.", body="image", key="person")
def set_qr() -> Response:
    """Read the holder's wallet QR code from an image; keep only its text

    At most 1 MB and 16 megapixels (413). Not a PNG or JPEG, no code, several codes, or
    a text over 512 characters or with control characters: 422. The image is never kept.
    """
    player = _me()
    request.max_content_length = MAX_BYTES
    try:
        text = read_qr(request.get_data(cache=False))
    except (TooLarge, RequestEntityTooLarge):  # the body over the limit: the same sentence
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
@described("people", "401 429", "204 -: Gone.", key="person")
def clear_qr() -> ResponseReturnValue:
    """Take the holder's QR down"""
    player = _me()
    with _still_yours():
        people.clear_qr(player)
    return "", 204


@bp.delete("/me")
@described(
    "people",
    "401 429",
    "204 -: Forgotten: totals unchanged, handles, QR and link gone.",
    key="person",
)
def forget_me() -> ResponseReturnValue:
    """Forget me: the holder becomes "Former player N" everywhere in the table"""
    # The kept pages and PDFs go with their handles, QR and link.
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
