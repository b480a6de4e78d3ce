"""The people's part of the OpenAPI document (``ledger.api.openapi`` puts it in): each
player's own link, how to pay them and payments that close (docs/api.md, "People")."""

from __future__ import annotations

from typing import Any

from ledger.api.openapi import (
    BODY_ERRORS,
    TEXT,
    TIME,
    Schema,
    answer,
    array,
    json_body,
    nullable,
    obj,
    operation,
    ref,
    whole,
)
from ledger.api.openapi_tables import MONEY, PAYMENT_ID, PLAYER, TABLE_ID
from ledger.tables.models import MAX_QR_TEXT
from ledger.tables.people import HANDLE_KINDS, MAX_HANDLE, MAX_HANDLES, MAX_LABEL

#: Writes with a player's own key.
PERSON: list[dict[str, list[str]]] = [{"personKey": []}]
#: Payment writes: the table key or the payer's / payee's own key.
TABLE_OR_PERSON: list[dict[str, list[str]]] = [{"editKey": []}, {"personKey": []}]

PRINTABLE = "printable: control, invisible and direction characters are refused (422 on the field)"


def people_schemas() -> dict[str, Schema]:
    handle = obj(
        {
            "kind": {"enum": list(HANDLE_KINDS)},
            "handle": {
                "type": "string",
                "minLength": 1,
                "maxLength": MAX_HANDLE,
                "description": f"The wallet's id, number or account; {PRINTABLE}.",
            },
            "label": {"type": "string", "maxLength": MAX_LABEL, "description": PRINTABLE},
        },
        ("kind", "handle"),
        additionalProperties=False,
    )
    qr = nullable({"type": "string", "maxLength": MAX_QR_TEXT})
    return {
        "Handle": handle,
        "Handles": obj(
            {"handles": array(ref("Handle"), maxItems=MAX_HANDLES)},
            ("handles",),
            additionalProperties=False,
        ),
        "PayTo": nullable(
            obj(
                {"handles": array(ref("Handle")), "qr": qr, "set_at": TIME},
                ("handles", "qr", "set_at"),
                description="How to pay this player, as they set it with their own link.",
            )
        ),
        "PersonLink": obj(
            {
                "person_key": {"type": "string", "description": "Shown once; stored hashed."},
                "url": {"type": "string", "description": "The link to hand over."},
            },
            ("person_key", "url"),
        ),
        "Me": obj(
            {
                "table": obj({"id": TEXT, "name": TEXT}, ("id", "name")),
                "name": TEXT,
                "currency": nullable(TEXT),
                "balance": nullable(MONEY),
                "transfers": array(
                    obj({"from": TEXT, "to": TEXT, "amount": nullable(MONEY)}, ("from", "to"))
                ),
                "payments": array(ref("TablePayment")),
                "handles": array(ref("Handle")),
                "qr": qr,
                "nights": array(
                    obj(
                        {"match": TEXT, "name": TEXT, "total": whole(), "place": whole(1)},
                        ("match", "name", "total", "place"),
                    )
                ),
            },
            ("table", "name", "balance", "transfers", "payments", "handles", "qr", "nights"),
        ),
        "Qr": obj({"qr": {"type": "string", "maxLength": MAX_QR_TEXT}}, ("qr",)),
    }


def _no_content(description: str) -> Schema:
    return {"description": description}


def _person(
    summary: str, responses: dict[int, Schema], errors: tuple[int, ...], **kw: Any
) -> Schema:
    out = operation(summary, responses, (*errors, 401, 429), tag="people", **kw)
    out["security"] = PERSON
    return out


def people_paths() -> dict[str, Schema]:
    player = [TABLE_ID, PLAYER]
    table_key = (401, 403, 404, 422, 429)
    payment = [TABLE_ID, PAYMENT_ID]
    answer_errors = (401, 403, 404, 409, 429)

    def answered(what: str) -> Schema:
        out = operation(
            f"The payee says the money {what}",
            {200: answer("TablePayment", "The payment (the same call again: no change).")},
            answer_errors,
            tag="people",
            parameters=payment,
            description="With the payee's own key; a payee without one is answered for "
            "with the table key. Confirming a rejected payment or rejecting a confirmed "
            "one: 409.",
        )
        out["security"] = TABLE_OR_PERSON
        return out

    return {
        "/api/v1/tables/{public_id}/players/{name}/link": {
            "post": operation(
                "Give a player their own link (revokes the one before, clears their handles)",
                {201: answer("PersonLink", "The key, shown once, and the link.")},
                table_key,
                tag="people",
                parameters=player,
                write=True,
                description="A guest or a former player gets none (422 on the name).",
            ),
            "delete": operation(
                "Revoke a player's own link",
                {204: _no_content("Revoked.")},
                table_key,
                tag="people",
                parameters=player,
                write=True,
            ),
        },
        "/api/v1/tables/{public_id}/players/{name}/handles": {
            "delete": operation(
                "Take a player's handles and QR down (the table key can never set them)",
                {204: _no_content("Taken down.")},
                table_key,
                tag="people",
                parameters=player,
                write=True,
            )
        },
        "/api/v1/tables/{public_id}/payments/{payment_id}/confirm": {"post": answered("arrived")},
        "/api/v1/tables/{public_id}/payments/{payment_id}/reject": {
            "post": answered("did not arrive")
        },
        "/api/v1/me": {
            "get": _person(
                "The holder's money, transfers, payments, handles and nights in their table",
                {200: answer("Me", "The player's own view.")},
                (),
            ),
            "delete": _person(
                'Forget me: the holder becomes "Former player N" everywhere in the table',
                {204: _no_content("Forgotten: totals unchanged, handles, QR and link gone.")},
                (),
            ),
        },
        "/api/v1/me/link": {
            "post": _person(
                "Replace the holder's own key (handles kept)",
                {201: answer("PersonLink", "The new key, shown once.")},
                (),
            )
        },
        "/api/v1/me/handles": {
            "put": _person(
                "Set how to pay the holder (replaces their handles)",
                {200: answer("Handles", "The handles kept.")},
                BODY_ERRORS,
                body=json_body("Handles"),
            )
        },
        "/api/v1/me/qr": {
            "post": _person(
                "Read the holder's wallet QR code from an image; keep only its text",
                {200: answer("Qr", "What the code says.")},
                (413, 422),
                body={
                    "required": True,
                    "content": {
                        "image/png": {"schema": {"type": "string", "format": "binary"}},
                        "image/jpeg": {"schema": {"type": "string", "format": "binary"}},
                    },
                },
                description="At most 1 MB and 16 megapixels (413). Not a PNG or JPEG, no "
                "code, several codes, or a text over 512 characters or with control "
                "characters: 422. The image is never kept.",
            ),
            "delete": _person("Take the holder's QR down", {204: _no_content("Gone.")}, ()),
        },
    }
