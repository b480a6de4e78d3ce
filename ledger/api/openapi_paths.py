"""The OpenAPI document's paths, as a table (``ledger.api.openapi`` puts them in).

Each operation starts with a line ``method path tag``, then its summary; its error
statuses (or a word of ``PHRASES`` for them), ``in=`` (its parameters), ``body=`` (its
request body) and ``key=`` (who may call it) go on the first line or a line of their own;
its answers are ``status schema[+header]: description`` (``-``: no body); its description
is ``> `` lines, joined by spaces. ``paths`` expands the table.
"""

from __future__ import annotations

import re

from ledger.api.openapi import TEXT, Schema, whole
from ledger.engine.declare import ref
from ledger.matches.export import IMPORT_MAX_BYTES

#: The parameters: ``word name in schema description`` (a line that starts with spaces
#: goes on the one before).
PARAMETER_TABLE = """
match public_id path id The match's unguessable id: whoever has it may read the match.
number number path hand A hand number (a larger one than 2147483647 is no hand: 404).
if-match If-Match header text The hand's version loaded (its ETag): 409 when it changed since.
if-none-match If-None-Match header text The ETag of the version the client has: 304 while it
  is the current one.
idem Idempotency-Key header idem 1 to 200 printable ASCII characters: a repeat with the same
  key and body stores nothing and answers the first answer again.
payment-key Idempotency-Key header idem 1 to 200 printable ASCII characters, per table: a
  repeat with the same key and body records nothing and answers the first answer again; the
  same key with another request: 422.
table public_id path id The table's unguessable id: whoever has it may read the table.
player name path name A player on the roster (matched ignoring case); a / in the name is
  sent as it is, or as %2F.
payment payment_id path whole A payment's id.
season-id season_id path id A season's id.
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


def parameters() -> dict[str, Schema]:
    """The parameters' table, each by its word."""
    out: dict[str, Schema] = {}
    for line in PARAMETER_TABLE.strip().replace("\n  ", " ").splitlines():
        word, name, where, schema, description = line.split(" ", 4)
        out[word] = {
            "name": name,
            "in": where,
            "required": where == "path",
            "description": description,
            "schema": PARAMETER_SCHEMAS[schema],
        }
    return out


PARAMETERS = parameters()
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
CONTENTS: dict[str, Schema] = {
    "json": {"application/json": {}},
    "csv": {"text/csv": {"schema": TEXT}},
}
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

OPERATIONS = """
get /api/v1/openapi.json meta
This document
200 json: OpenAPI 3.1
get /api/v1/rules rules
Every profile's values and what each setting means
200 RulesList: The profiles and the settings.
post /api/v1/settle rules 400 413 422 429 body=SettleRequest
Settle one hand and store nothing (the dispute checker)
200 Settlement: The hand as read, then its settlement.
post /api/v1/matches matches 400 413 422 429 body=NewMatch
Create a match
201 CreatedMatch+location: The match and its edit key.
post /api/v1/matches/import matches 400 413 422 429 503 body=import
Create a match from an export (JSON, or a summary.pdf with it embedded)
201 CreatedMatch+location: The new match (new id, new edit key).
> Every hand is checked and settled again under the match's rules; numbers, dealers,
> versions, times and history are kept.
get /api/v1/matches/{public_id} matches 404 in=match,if-none-match
A match: players, totals, every hand, standings
200 Match+match-etag: The match.
304 -+match-etag: Unchanged since the version named in If-None-Match.
patch /api/v1/matches/{public_id} matches WRITES in=match body=MatchChange key=edit
Change a match's name, length, stake or rules, or end it (End the night)
200 Match: The match, changed.
> A length below the hands already played is refused (422), and so are rules that refuse a
> hand played (422 on `rules`, naming the hands). `finished: true` on a match with no hand,
> or `finished: false` on one whose length is reached, is refused (409).
delete /api/v1/matches/{public_id} matches 401 403 404 409 429 in=match key=edit
Delete a match with no hand in it (one started by mistake)
204 -: Deleted, with its players and its deleted hands' records.
> A match with a hand in it is kept (409): its hands count in totals, money and figures.
post /api/v1/matches/{public_id}/hands hands WRITES in=match,idem body=HandInput key=edit
Add a hand
201 HandAnswer+replayed: The stored hand, its result, the match totals.
get /api/v1/matches/{public_id}/hands/{number} hands 404 in=match,number
A hand with its history
200 HandWithHistory+etag: The hand.
put /api/v1/matches/{public_id}/hands/{number} hands WRITES
Replace a hand (totals follow)
in=match,number,if-match body=HandInput key=edit
200 HandAnswer: The hand as replaced, the match totals.
delete /api/v1/matches/{public_id}/hands/{number} hands 401 403 404 409 429
Delete a hand (later hands keep their numbers)
in=match,number,if-match key=edit
200 Deleted: The number deleted and the match totals.
post /api/v1/matches/{public_id}/hands/{number}/restore hands 401 403 404 409 422 429
Put a deleted hand back as it was, in its place (totals follow)
in=match,number key=edit
200 HandAnswer: The hand put back, the match totals.
> Read and settled again against the match as it is now (422 when it no longer fits: its
> players or rules changed since); its history keeps the delete and the hand takes the next
> version. A hand in the match (not deleted, or put back already), or a match that is over:
> 409.
get /api/v1/matches/{public_id}/export.json matches 404 in=match
The whole match as JSON (the import takes it back)
200 Export: An attachment.
get /api/v1/matches/{public_id}/export.csv matches 404 in=match
The score table as CSV (formula-looking cells escaped)
200 csv: An attachment: a row per hand, a column per player.
post /api/v1/matches/{public_id}/rescore matches 400 413 422 404 429 in=match body=RescoreRequest
The match under other rules, beside the match as played (stores nothing)
200 Rescore: Totals, hands and the settle-up under the rules.
> Needs no key. Each hand is read again from its input and settled under the rules given,
> in the order played, with its sit-outs; the fouls carried to a later hand follow
> (docs/rules.md §8).
get /api/v1/matches/{public_id}/settle-up matches 404 422 in=match
Who pays whom to settle the match: the fewest transfers
200 SettleUp: Balances and transfers, in points and money.
> Only for zero-sum matches: a points race → 422.
post /api/v1/tables tables 400 413 422 429 body=NewTable
Create a table: a roster, the rules and stake of its matches
201 CreatedTable+table-location: The table and its edit key.
post /api/v1/tables/import tables 400 413 422 429 503 body=TableExport
Create a table from its export
201 CreatedTable+table-location: The new table (new ids, new edit key).
get /api/v1/tables/{public_id} tables 404 in=table
A table: roster, seasons, matches (newest first)
200 Table: The table.
patch /api/v1/tables/{public_id} tables TABLE_WRITES in=table body=TableChange key=edit
Change a table's name, rules, stake, or add players to its roster
200 Table: The table, changed.
post /api/v1/tables/{public_id}/matches tables TABLE_WRITES in=table body=TableMatchRequest key=edit
A new match in the table, or a match moved in
201 CreatedMatch+location: The new match and its edit key.
200 Match: The match moved in.
get /api/v1/tables/{public_id}/next-dealer tables 404 in=table,players
Who deals first if these players sit down again
200 NextDealer: A name, or null: the first player deals.
get /api/v1/tables/{public_id}/players/{name} tables 404 422 in=table,player,season
A player's record: nights, figures, head-to-head, rival and nemesis
200 PlayerRecord: The record.
302 -+renamed: An earlier name of a player renamed, or merged into another: their record.
patch /api/v1/tables/{public_id}/players/{name} tables TABLE_WRITES
Rename a player, or merge them into another, through every match and hand
in=table,player body=PlayerChange key=edit
200 Table: The table, changed.
post /api/v1/tables/{public_id}/seasons tables TABLE_WRITES in=table body=NewSeason key=edit
Start a new season (the current one is kept, closed)
201 Season: The new current season.
delete /api/v1/tables/{public_id} tables 401 403 404 409 429 in=table key=edit
Delete a table with no match and no payment in it (one made by mistake)
204 -: Deleted, with its roster, seasons and own links.
> A table with a match or a payment is kept (409).
patch /api/v1/tables/{public_id}/seasons/{season_id} tables TABLE_WRITES
Put a season's name right (the body of a new season)
in=table,season-id body=NewSeason key=edit
200 Season: The season, renamed.
delete /api/v1/tables/{public_id}/seasons/{season_id} tables 401 403 404 409 429
Take the current season back, started by mistake (the one before is current again)
in=table,season-id key=edit
200 Season: The season before it, current again.
> Only while no match and no payment is in it, and never the table's first (409).
get /api/v1/tables/{public_id}/standings tables 404 422 in=table,season
The standings of a season: figures, rating, head-to-head
200 Standings: Players by total, highest first.
get /api/v1/tables/{public_id}/stats tables 404 422 in=table,season
Each player's figures over a season, and the season's awards
200 Stats: A row per player with a hand; highest total first.
> Computed from the stored hands: hands, seen, unseen and what they cost, fouls, dublee
> finishes, best and worst hand and night, places, the longest winning run, form; awards to
> the holders of the largest value.
get /api/v1/matches/{public_id}/stats matches 404 in=match
Tonight's figures of each player and tonight's awards
200 Stats: As a table's stats, over this match alone.
get /api/v1/tables/{public_id}/rating-history tables 404 422 in=table,season
The ratings after each finished match of a season, in play order
200 RatingHistory: A chart's points.
post /api/v1/tables/{public_id}/rescore tables 400 413 422 404 429 in=table,season
A season under other rules, beside it as played (stores nothing)
body=RescoreRequest
200 SeasonRescore: The season's standings under the rules, each match's changes.
> Needs no key. Each match of the season is rescored as `POST /api/v1/matches/{id}/rescore`
> does (docs/rules.md §8) and the standings are summed over the rescored matches, each
> player's total and matches won beside those as played.
get /api/v1/tables/{public_id}/settle-up tables 404 422 in=table,season
Money across nights: balances net of payments, the fewest transfers
200 TableSettleUp: Balances and transfers.
post /api/v1/tables/{public_id}/payments tables TABLE_WRITES
Record money handed over (a table without a stake: 422)
in=table,payment-key,at-most-owed body=NewPayment key=either
201 TablePayment+replayed: The payment.
> With the table key: unconfirmed, counted. With the payer's own key: pending, counted once
> the payee confirms it (`from` must be the payer: 403). ONCE
get /api/v1/tables/{public_id}/payments tables 404 422 in=table,season-all,deleted
The payments recorded, rejected ones marked
200 TablePayments: Oldest first.
delete /api/v1/tables/{public_id}/payments/{payment_id} tables 401 403 404 409 422 429
Take a payment back
in=table,payment,payment-key key=either
204 -+replayed: Taken back.
> Unconfirmed: the table key; pending: the table key or the payer's own key; confirmed: the
> table key, and a record is kept (`?deleted=1`); rejected: 409 (kept, marked). ONCE
get /api/v1/tables/{public_id}/export.json tables 404 in=table
The whole table as JSON (the import takes it back)
200 TableExport: An attachment.
post /api/v1/tables/{public_id}/players/{name}/link people LINK_WRITES in=table,player key=edit
Give a player their own link (revokes the one before, clears their handles)
201 PersonLink: The key, shown once, and the link.
> A guest or a former player gets none (422 on the name).
delete /api/v1/tables/{public_id}/players/{name}/link people LINK_WRITES in=table,player key=edit
Revoke a player's own link
204 -: Revoked.
delete /api/v1/tables/{public_id}/players/{name}/handles people LINK_WRITES in=table,player key=edit
Take a player's handles and QR down (the table key can never set them)
204 -: Taken down.
post /api/v1/tables/{public_id}/payments/{payment_id}/confirm people 401 403 404 409 429
The payee says the money arrived
in=table,payment key=either
200 TablePayment: ANSWERED
post /api/v1/tables/{public_id}/payments/{payment_id}/reject people 401 403 404 409 429
The payee says the money did not arrive
in=table,payment key=either
200 TablePayment: ANSWERED
get /api/v1/me people 401 429 key=person
The holder's money, transfers, payments, handles and nights in their table
200 Me: The player's own view.
delete /api/v1/me people 401 429 key=person
Forget me: the holder becomes "Former player N" everywhere in the table
204 -: Forgotten: totals unchanged, handles, QR and link gone.
post /api/v1/me/link people 401 429 key=person
Replace the holder's own key (handles kept)
201 PersonLink: The new key, shown once.
put /api/v1/me/handles people 400 413 422 401 429 body=Handles key=person
Set how to pay the holder (replaces their handles)
200 Handles: The handles kept.
post /api/v1/me/qr people 413 422 401 429 body=image key=person
Read the holder's wallet QR code from an image; keep only its text
200 Qr: What the code says.
> At most 1 MB and 16 megapixels (413). Not a PNG or JPEG, no code, several codes, or a text
> over 512 characters or with control characters: 422. The image is never kept.
delete /api/v1/me/qr people 401 429 key=person
Take the holder's QR down
204 -: Gone.
"""
#: Words the table stands for, repeated in it.
PHRASES = {
    # The error statuses of a write: a table's, a player's own link's, a match's (409: not
    # the hand loaded, or the match is finished).
    "TABLE_WRITES": "400 401 403 404 413 422 429",
    "LINK_WRITES": "401 403 404 422 429",
    "WRITES": "400 401 403 404 409 413 422 429",
    "ONCE": "Done once per Idempotency-Key (as a hand is stored once); the key is kept as "
    "long as the payment it recorded.",
    "ANSWERED": "The payment (the same call again: no change).\n> With the payee's own key; a "
    "payee without one is answered for with the table key. Confirming a rejected payment or "
    "rejecting a confirmed one: 409.",
}


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


def operation(block: str) -> tuple[str, str, Schema]:
    """One block of the table as its path, its method and its operation."""
    for word, text in PHRASES.items():
        block = block.replace(word, text)
    head, summary, *lines = block.splitlines()
    method, path, tag, *words = head.split()
    notes = [line[2:] for line in lines if line.startswith("> ")]
    words += [word for line in lines if "=" in line.split(" ")[0] for word in line.split()]
    out: Schema = {"summary": summary, "tags": [tag]}
    if notes:
        out["description"] = " ".join(notes)
    settings = dict(word.split("=") for word in words if "=" in word)
    if "in" in settings:
        out["parameters"] = [PARAMETERS[name] for name in settings["in"].split(",")]
    if "body" in settings:
        body = settings["body"]
        out["requestBody"] = BODIES.get(
            body, {"required": True, "content": {"application/json": {"schema": ref(body)}}}
        )
    if "key" in settings:
        out["security"] = KEYS[settings["key"]]
    answers = [answer(line) for line in lines if line[:1].isdigit()]
    errors = [word for word in words if word.isdigit()]
    out["responses"] = {
        **dict(answers),
        **{code: {"$ref": f"#/components/responses/E{code}"} for code in errors},
    }
    return path, method, out


def paths() -> dict[str, Schema]:
    """Every path of the API with its operations, from the table."""
    out: dict[str, Schema] = {}
    for block in re.split(r"\n(?=(?:get|post|put|patch|delete) /)", OPERATIONS.strip()):
        path, method, op = operation(block)
        out.setdefault(path, {})[method] = op
    return out
