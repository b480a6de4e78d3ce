"""Hands added to a match through the JSON API with a Flask test client, as a
scorekeeper's phone adds them: for the page and PDF tests that need a played match, and
for the tests of what is kept from one version of a match to the next."""

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


PLAYERS = ["Asha", "Bikash", "Chandra", "Dipa"]


def hand(winner: str, maal: int = 3, players: list[str] = PLAYERS) -> dict:
    """A hand that ``winner`` finishes, every player seen with ``maal``."""
    return {
        "finish": "sequences",
        "winner": winner,
        "players": [{"name": n, "seen": "sequences", "maal": maal} for n in players],
    }


def won_by(winner: str, players: list[str]) -> dict:
    """A hand that ``winner`` finishes with the most maal: every other player pays them
    (the others' maal is their seat's index, so each owes a different amount)."""
    return {
        "finish": "sequences",
        "winner": winner,
        "players": [
            {"name": n, "seen": "sequences", "maal": 12 if n == winner else i}
            for i, n in enumerate(players)
        ],
    }


def table_night(client, players: list[str], rules: str = "sparkai") -> tuple[str, dict, str]:
    """A table of ``players`` and tonight's match of them, made through the API: the
    table's id, the header that carries its key, and the match's id."""
    table = client.post(
        "/api/v1/tables", json={"name": "Friday table", "players": players, "rules": rules}
    ).get_json()
    auth = {"Authorization": f"Bearer {table['edit_key']}"}
    match = client.post(
        f"/api/v1/tables/{table['id']}/matches",
        json={"name": "Night", "players": players},
        headers=auth,
    ).get_json()
    return table["id"], auth, match["id"]


def add(client, public_id: str, auth: dict, body: dict) -> None:
    """One hand added with the ``Authorization`` header ``auth``; it must be stored."""
    response = client.post(f"/api/v1/matches/{public_id}/hands", json=body, headers=auth)
    assert response.status_code == 201, response.get_data(as_text=True)


def new_match(client, hands: int) -> tuple[str, dict]:
    """A match of PLAYERS, Asha dealing first, with ``hands`` hands (the finisher and the
    maal going round); its id and the header that carries its edit key."""
    made = client.post(
        "/api/v1/matches",
        json={"name": "Kept", "players": PLAYERS, "rules": "sparkai", "first_dealer": "Asha"},
    ).get_json()
    auth = {"Authorization": f"Bearer {made['edit_key']}"}
    for i in range(hands):
        add(client, made["id"], auth, hand(PLAYERS[i % 4], i % 5))
    return made["id"], auth
