"""The tables' answers are their declarations (``ledger.tables.answers``): each is a
component of the document exactly as msgspec makes it from its ``TypedDict`` (no hand-
written schema beside it), and the real answers the app gives, with every null and every
value of their kinds that a table night, a guest, a player's own link and payments in
each state reach, validate against those components with no key the declaration lacks."""

from __future__ import annotations

from collections.abc import Iterable

import pytest
from api_support import bearer, hand
from jsonschema import Draft202012Validator
from people_support import STAKE, answer, give_link, pay
from tables_support import create_table

from ledger.api.openapi import declared, document
from ledger.api.openapi_tables import table_schemas
from ledger.tables import answers

FOUR = ["Asha", "Bikash", "Chandra", "Ram"]
COUNTS = {
    "Asha": ("sequences", 10),
    "Bikash": ("sequences", 5),
    "Chandra": ("unseen", 0),
    "Ram": ("sequences", 8),
}
ESEWA = {"kind": "esewa", "handle": "9841000000", "label": "Personal"}


def test_each_answer_is_its_declaration_and_nothing_else(app):
    with app.app_context():
        made = declared(*answers.ANSWERS)
        schemas = document()["components"]["schemas"]
    assert {name: schemas[name] for name in made} == made
    assert "StandingsLine" in made and "TableSettleUpTransfer" in made  # the parts, named
    assert not set(made) & set(table_schemas())  # no hand-written schema left beside one


def strict_validator(app, name: str, closing: Iterable[str] = ()) -> Draft202012Validator:
    """The component ``name`` with every object of the tables' declared components (or
    of the components ``closing`` names) closed (``additionalProperties: false``): a key
    the code writes and the declaration lacks fails, as a key it lacks does."""
    with app.app_context():
        schemas = dict(document()["components"]["schemas"])

    def closed(schema: object) -> object:
        if isinstance(schema, list):
            return [closed(item) for item in schema]
        if not isinstance(schema, dict):
            return schema
        out = {key: closed(value) for key, value in schema.items()}
        if "properties" in out:
            out.setdefault("additionalProperties", False)
        return out

    for own in closing or declared(*answers.ANSWERS):
        schemas[own] = closed(schemas[own])
    root = {"$ref": f"#/components/schemas/{name}", "components": {"schemas": schemas}}
    return Draft202012Validator(root, format_checker=Draft202012Validator.FORMAT_CHECKER)


def conforms(app, name: str, body: object, closing: Iterable[str] = ()) -> None:
    problems = [
        f"{list(e.absolute_path)}: {e.message}"
        for e in strict_validator(app, name, closing).iter_errors(body)
    ]
    assert not problems, problems


def night(table, length: int = 2) -> dict:
    made = table.new_match(FOUR, guests=["Ram"], length={"hands": length})
    table.play(made, [hand("Ram" if i % 2 else "Asha", COUNTS) for i in range(length)])
    return made


@pytest.fixture
def staked(client):
    """A staked table: two finished nights with the guest Ram, Bikash's wallet set with
    his own link, and payments unconfirmed, pending, confirmed, rejected and taken back."""
    response = client.post(
        "/api/v1/tables",
        json={
            "name": "Friday",
            "players": ["Asha", "Bikash", "Chandra", "Dipa"],
            "rules": "sparkai",
            "stake": STAKE,
        },
    )
    assert response.status_code == 201
    created = response.get_json()
    table = create_table(client, stake=STAKE)
    night(table)
    night(table)
    key = give_link(table, "Bikash")
    put = client.put("/api/v1/me/handles", json={"handles": [ESEWA]}, headers=bearer(key))
    assert put.status_code == 200
    by_table = [
        table.post("/payments", {"from": "Chandra", "to": "Bikash", "amount": a})
        for a in ("1.00", "2.00", "3.00")
    ]
    answer(table, key, by_table[1]["id"], "confirm")
    answer(table, key, by_table[2]["id"], "reject")
    taken = table.post("/payments", {"from": "Asha", "to": "Bikash", "amount": "4.00"})
    answer(table, key, taken["id"], "confirm")
    gone = client.delete(f"{table.url}/payments/{taken['id']}", headers=table.auth)
    assert gone.status_code in (200, 204)
    pending = pay(table, key, "Bikash", "Asha", "0.50")
    return table, created, pending


def test_a_staked_tables_answers_keep_to_their_declarations(app, client, staked):
    table, created, pending = staked
    conforms(app, "CreatedTable", created)
    conforms(app, "Table", table.get())
    assert table.get()["stake"] is not None and created["stake"] is not None
    conforms(app, "Standings", table.get("/standings"))
    conforms(app, "Standings", table.get("/standings", season="all"))
    for name in ("Asha", "Ram", "Dipa"):  # a roster player, a guest, one who never played
        conforms(app, "PlayerRecord", table.get(f"/players/{name}"))
    assert table.get("/players/Dipa")["figures"] is None
    assert table.get("/players/Asha")["best_night"] is not None
    history = table.get("/rating-history")
    assert len(history["games"]) == 2
    conforms(app, "RatingHistory", history)
    settle = table.get("/settle-up")
    conforms(app, "TableSettleUp", settle)
    pay_to = {row["name"]: row["pay_to"] for row in settle["balances"]}
    assert pay_to["Bikash"]["handles"] == [ESEWA] and pay_to["Asha"] is None
    assert settle["unconfirmed"] and settle["pending"] == [pending["id"]]
    conforms(app, "TablePayment", pending)
    payments = table.get("/payments", season="all", deleted="1")
    assert {p["state"] for p in payments["payments"]} == {
        "unconfirmed",
        "pending",
        "confirmed",
        "rejected",
    }
    assert any(p["deleted_at"] for p in payments["payments"])
    conforms(app, "TablePayments", payments)
    for players in ("Asha,Bikash,Chandra,Ram", "Asha,Bikash"):
        conforms(app, "NextDealer", table.get("/next-dealer", players=players))
    rescored = client.post(f"{table.url}/rescore", json={"rules": "amarnepal"})
    assert rescored.status_code == 200
    conforms(app, "SeasonRescore", rescored.get_json())


def test_a_points_tables_settle_up_keeps_to_its_declaration(app, client):
    table = create_table(client)
    night(table, length=1)
    settle = table.get("/settle-up")
    assert settle["stake"] is None and settle["transfers"][0]["amount"] is None
    conforms(app, "TableSettleUp", settle)
    conforms(app, "Table", table.get())


def test_a_key_the_code_writes_and_the_declaration_lacks_is_caught(app, client):
    table = create_table(client)
    body = table.get()
    with pytest.raises(AssertionError):
        conforms(app, "Table", {**body, "colour": "green"})
    with pytest.raises(AssertionError):
        conforms(app, "Table", {key: value for key, value in body.items() if key != "version"})
