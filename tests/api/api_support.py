"""Helpers for the match API tests: a match with an edit key, hands, auth headers."""

PLAYERS = ["Asha", "Bikash", "Chandra", "Dipa", "Esha", "Gopal"]


def bearer(key: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {key}"}


def hand(winner="Asha", players=None, finish="sequences", **extra) -> dict:
    """A hand by counts: ``players`` maps name -> (seen, maal)."""
    players = players or {
        "Asha": ("sequences", 10),
        "Bikash": ("sequences", 5),
        "Chandra": ("sequences", 0),
        "Dipa": ("unseen", 8),
    }
    return {
        "finish": finish,
        "winner": winner,
        "players": [{"name": n, "seen": s, "maal": m} for n, (s, m) in players.items()],
        **extra,
    }


#: A small hand of a three-player match, for tests that store one and export it.
THREE_PLAYER_HAND = hand(
    players={"Asha": ("sequences", 3), "Bikash": ("sequences", 1), "Chandra": ("unseen", 0)}
)


class MatchClient:
    """A test client bound to one match: ``post_hand``, ``put_hand``, ``get``..."""

    def __init__(self, client, body: dict):
        self.client = client
        self.body = body
        self.id = body["id"]
        self.key = body["edit_key"]
        self.url = f"/api/v1/matches/{self.id}"

    def get(self) -> dict:
        response = self.client.get(self.url)
        assert response.status_code == 200
        return response.get_json()

    def post_hand(self, data: dict, key: str | None = "own", **kw):
        headers = {**self._auth(key), **kw.pop("headers", {})}
        return self.client.post(f"{self.url}/hands", json=data, headers=headers, **kw)

    def patch(self, data: object, key: str | None = "own"):
        return self.client.patch(self.url, json=data, headers=self._auth(key))

    def put_hand(self, number: int, data: dict, key: str | None = "own", **kw):
        headers = {**self._auth(key), **kw.pop("headers", {})}
        return self.client.put(f"{self.url}/hands/{number}", json=data, headers=headers, **kw)

    def delete_hand(self, number: int, key: str | None = "own", **kw):
        headers = {**self._auth(key), **kw.pop("headers", {})}
        return self.client.delete(f"{self.url}/hands/{number}", headers=headers, **kw)

    def _auth(self, key):
        if key is None:
            return {}
        return bearer(self.key if key == "own" else key)
