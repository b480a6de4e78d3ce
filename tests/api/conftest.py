"""Fixtures of the match API tests."""

import pytest
from api_support import PLAYERS, MatchClient


@pytest.fixture
def create_match(client):
    """``create_match(**fields)`` posts a new match (defaults: six players, sparkai,
    open length, Asha deals first) and returns a MatchClient."""

    def create(**fields) -> MatchClient:
        body = {
            "name": "Tihar 2026",
            "players": PLAYERS,
            "rules": "sparkai",
            "length": None,
            "first_dealer": "Asha",
            **fields,
        }
        response = client.post("/api/v1/matches", json=body)
        assert response.status_code == 201, response.get_json()
        return MatchClient(client, response.get_json())

    return create
