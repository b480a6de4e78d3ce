"""Helpers of the own-link tests: a staked table with a night played, links given."""

from __future__ import annotations

from api_support import bearer
from tables_support import TableClient, create_table

STAKE = {"per_point": "1.00", "currency": "NPR"}


def staked_table(client) -> TableClient:
    return create_table(client, stake=STAKE)


def give_link(table: TableClient, name: str) -> str:
    response = table.client.post(f"{table.url}/players/{name}/link", headers=table.auth)
    assert response.status_code == 201, response.get_json()
    return response.get_json()["person_key"]


def pay(table: TableClient, key: str, payer: str, payee: str, amount: str, status: int = 201):
    response = table.client.post(
        f"{table.url}/payments",
        json={"from": payer, "to": payee, "amount": amount},
        headers=bearer(key),
    )
    assert response.status_code == status, response.get_json()
    return response.get_json()


def answer(table: TableClient, key: str | None, pid: int, what: str, status: int = 200):
    headers = bearer(key) if key else {}
    response = table.client.post(f"{table.url}/payments/{pid}/{what}", headers=headers)
    assert response.status_code == status, response.get_json()
    return response.get_json()


def me(client, key: str, status: int = 200):
    response = client.get("/api/v1/me", headers=bearer(key))
    assert response.status_code == status, response.get_json()
    return response.get_json()
