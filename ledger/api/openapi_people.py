"""The people's part of the OpenAPI document (``ledger.api.openapi`` puts it in): each
player's own link, how to pay them and payments that close (docs/api.md, "People")."""

from __future__ import annotations

from ledger.api.openapi import (
    TEXT,
    TIME,
    Schema,
    array,
    nullable,
    obj,
    ref,
    whole,
)
from ledger.api.openapi_tables import MONEY
from ledger.tables.models import MAX_QR_TEXT
from ledger.tables.people import HANDLE_KINDS, MAX_HANDLE, MAX_HANDLES, MAX_LABEL

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
