"""Hands added to a match through the JSON API with a Flask test client, as a
scorekeeper's phone adds them: for the page and PDF tests that need a played match."""

from __future__ import annotations


def play(client, match_id: str, key: str, hands: list[dict]) -> None:
    """``hands`` added to the match in turn with its edit ``key``; each must be stored."""
    for hand in hands:
        response = client.post(
            f"/api/v1/matches/{match_id}/hands",
            json=hand,
            headers={"Authorization": f"Bearer {key}"},
        )
        assert response.status_code == 201, response.get_json()
