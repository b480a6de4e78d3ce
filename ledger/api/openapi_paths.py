"""The OpenAPI document's paths, read off the API's routes (``ledger.api.openapi`` puts
them in): each route's method, path and path parameters from the URL map, its summary
(first line) and description (the rest) from its view's docstring, and what neither can
say from the ``@described`` on the view (``ledger.api.operations``).
"""

from __future__ import annotations

import inspect
import re
from collections.abc import Callable
from typing import Any

from flask import current_app

from ledger.api.openapi import TEXT, Schema, whole
from ledger.api.operations import DECLARED, Operation
from ledger.engine.declare import ref
from ledger.matches.export import IMPORT_MAX_BYTES

#: The parameters: ``word name in schema description`` (a line that starts with spaces
#: goes on the one before). A path parameter's word is its name, or ``segment/name``
#: where its text depends on the path's first segment after /api/v1/.
PARAMETER_TABLE = """
matches/public_id public_id path id The match's unguessable id: whoever has it may read the match.
number number path hand A hand number (a larger one than 2147483647 is no hand: 404).
if-match If-Match header text The hand's version loaded (its ETag): 409 when it changed since.
if-none-match If-None-Match header text The ETag of the version the client has: 304 while it
  is the current one.
idem Idempotency-Key header idem 1 to 200 printable ASCII characters: a repeat with the same
  key and body stores nothing and answers the first answer again.
payment-key Idempotency-Key header idem 1 to 200 printable ASCII characters, per table and
  caller (the table key or a player's own): a repeat of a key and body by that caller
  records nothing and answers the first answer again; the key with another request: 422.
tables/public_id public_id path id The table's unguessable id: whoever has it may read the table.
name name path name A player on the roster (matched ignoring case); a / in the name is
  sent as it is, or as %2F.
payment_id payment_id path whole A payment's id.
season_id season_id path id A season's id.
season season query season A season's id, or `all`; absent: the current season (422 for an
  id the table has no season with).
season-all season query season A season's id; absent: all.
players players query text The names, comma-separated, in seat order.
deleted deleted query flag `1`: with the kept records of deleted confirmed payments.
at-most-owed at_most_owed query flag `1`: record it only if its payer still owes its payee
  at least this much (a payment of that debt recorded a moment before with another key
  counts): else 422 on `amount`, nothing recorded. `0` or absent: recorded as sent.
"""
PARAMETER_SCHEMAS: dict[str, Schema] = {
    "id": {"type": "string", "pattern": "^[A-Za-z0-9_-]{1,64}$"},
    "hand": {**whole(0), "examples": [1]},
    "text": TEXT,
    "idem": {"type": "string", "minLength": 1, "maxLength": 200, "pattern": "^[ -~]+$"},
    "name": {"type": "string", "minLength": 1, "maxLength": 200},
    "whole": whole(0),
    "season": {"type": "string", "maxLength": 200},
    "flag": {"enum": ["0", "1"]},
}


PARAMETERS: dict[str, Schema] = {
    word: {
        "name": name,
        "in": where,
        "required": where == "path",
        "description": text,
        "schema": PARAMETER_SCHEMAS[schema],
    }
    for word, name, where, schema, text in (
        line.split(" ", 4) for line in PARAMETER_TABLE.strip().replace("\n  ", " ").splitlines()
    )
}
BINARY = {"type": "string", "format": "binary"}
BODIES: dict[str, Schema] = {
    "import": {
        "required": True,
        "description": f"A match exported as JSON (at most {IMPORT_MAX_BYTES // 2**20} MiB).",
        "content": {
            "application/json": {"schema": ref("Export")},
            "application/pdf": {
                "schema": {
                    **BINARY,
                    "description": "A summary.pdf of the ledger: its embedded export.json is "
                    "imported (422 when it has none).",
                }
            },
        },
    },
    "image": {
        "required": True,
        "content": {"image/png": {"schema": BINARY}, "image/jpeg": {"schema": BINARY}},
    },
}
CONTENTS: dict[str, Any] = {"json": {"application/json": {}}, "csv": {"text/csv": {"schema": TEXT}}}
#: The answers' headers: ``word header description``.
HEADER_TABLE = """
location Location The new match's address.
table-location Location The new table's address.
renamed Location The player's record under their name now.
etag ETag The hand's version.
match-etag ETag The match's version.
replayed Idempotent-Replayed `true` when this is the first answer to the same Idempotency-Key.
"""
HEADERS: dict[str, Schema] = {
    word: {header: {"description": text, "schema": TEXT}}
    for word, header, text in (line.split(" ", 2) for line in HEADER_TABLE.strip().splitlines())
}
KEYS: dict[str, list[dict[str, list[str]]]] = {
    "edit": [{"editKey": []}],
    "person": [{"personKey": []}],
}
KEYS["either"] = [*KEYS["edit"], *KEYS["person"]]

#: A route's parameter, ``<converter:name>`` or ``<name>``.
PATH_PARAMETER = re.compile(r"<(?:[^:>]+:)?([^>]+)>")


def answer(line: str) -> tuple[str, Schema]:
    """``status schema[+header]: description`` as the status and its answer."""
    status, rest = line.split(" ", 1)
    spec, description = rest.split(": ", 1)
    schema, *headers = spec.split("+")
    out: Schema = {"description": description}
    if schema != "-":
        out["content"] = CONTENTS.get(schema, {"application/json": {"schema": ref(schema)}})
    for header in headers:
        out["headers"] = HEADERS[header]
    return status, out


def operation(path: str, view: Callable[..., Any], declared: Operation) -> Schema:
    """The operation of ``view`` at ``path`` (its ``{name}``s the path parameters)."""
    summary, _, rest = (inspect.getdoc(view) or "").partition("\n")
    if not summary:
        raise LookupError(f"{path}: its view {view.__name__} has no docstring (its summary)")
    out: Schema = {"summary": summary, "tags": [declared.tag]}
    description = " ".join([*rest.split(), *declared.note.split()])
    if description:
        out["description"] = description
    segment = path.split("/")[3]
    names = [
        f"{segment}/{name}" if f"{segment}/{name}" in PARAMETERS else name
        for name in re.findall(r"{(\w+)}", path)
    ]
    if names or declared.also:
        out["parameters"] = [PARAMETERS[name] for name in [*names, *declared.also.split()]]
    if declared.body:
        out["requestBody"] = BODIES.get(
            declared.body,
            {"required": True, "content": {"application/json": {"schema": ref(declared.body)}}},
        )
    if declared.key:
        out["security"] = KEYS[declared.key]
    out["responses"] = {
        **dict(answer(line) for line in declared.answers),
        **{code: {"$ref": f"#/components/responses/E{code}"} for code in declared.errors.split()},
    }
    return out


def paths() -> dict[str, Schema]:
    """Every path of the API with its operations, from the app's routes; an API route
    whose view has no ``@described`` is an error (it would be missing from the document)."""
    out: dict[str, Schema] = {}
    for rule in current_app.url_map.iter_rules():
        if rule.endpoint.partition(".")[0] != "api":
            continue
        # The view as declared, under the wrappers the app puts on it (its rate limits).
        view = inspect.unwrap(current_app.view_functions[rule.endpoint], stop=DECLARED.__contains__)
        if view not in DECLARED:
            raise LookupError(f"{rule.rule}: its view {rule.endpoint} has no @described")
        path = PATH_PARAMETER.sub(r"{\1}", rule.rule)
        for method in sorted((rule.methods or set()) - {"HEAD", "OPTIONS"}):
            out.setdefault(path, {})[method.lower()] = operation(path, view, DECLARED[view])
    return out
