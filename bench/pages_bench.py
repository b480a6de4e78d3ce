"""Pages served by a real WSGI server (waitress) on loopback: the match page with 100
hands and a hand submission, against a trivial route in the same run."""

from __future__ import annotations

import http.client
import json
import random
import statistics
import time

from bench.serving import served


class Client:
    """One keep-alive HTTP connection to the server under test."""

    def __init__(self, port: int):
        self.conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)

    def request(self, method: str, path: str, body: object = None, headers=None):
        data = json.dumps(body).encode() if body is not None else None
        hdrs = {"Content-Type": "application/json", **(headers or {})}
        start = time.perf_counter()
        self.conn.request(method, path, body=data, headers=hdrs)
        response = self.conn.getresponse()
        payload = response.read()
        return time.perf_counter() - start, response.status, payload


def hand_body(rng: random.Random, players: list[str]) -> dict:
    seen = ["sequences"] + [rng.choice(["sequences", "unseen", "dublees"]) for _ in players[1:]]
    rng.shuffle(seen)
    winner = players[seen.index("sequences")]
    return {
        "finish": "sequences",
        "winner": winner,
        "players": [
            {
                "name": name,
                "seen": s,
                "maal_counts": {"tiplu": int(i < 2), "poplu": rng.randint(0, int(i < 3))},
            }
            for i, (name, s) in enumerate(zip(players, seen, strict=True))
        ],
    }


def _timed(client: Client, method: str, path: str, runs: int, body=None, headers=None):
    times = []
    for i in range(runs):
        elapsed, status, payload = client.request(
            method, path, body(i) if callable(body) else body, headers
        )
        assert status < 300, (path, status, payload[:300])
        times.append(elapsed)
    times.sort()
    return {
        "median_ms": statistics.median(times) * 1000,
        "p95_ms": times[int(len(times) * 0.95) - 1] * 1000,
    }


PLAYERS = ["Asha", "Bikash", "Chandra", "Dipa"]


def seed_match(client: Client, hands: int, rng: random.Random) -> dict:
    """A four-player match with ``hands`` random hands, through the API; its JSON (with
    ``edit_key``)."""
    _, status, payload = client.request(
        "POST",
        "/api/v1/matches",
        {
            "name": "Friday at Asha's",
            "players": PLAYERS,
            "rules": "amarnepal",
            "length": None,
            "first_dealer": "Asha",
        },
    )
    assert status == 201, payload
    match = json.loads(payload)
    auth = {"Authorization": f"Bearer {match['edit_key']}"}
    for _ in range(hands):
        _, status, payload = client.request(
            "POST", f"/api/v1/matches/{match['id']}/hands", hand_body(rng, PLAYERS), auth
        )
        assert status == 201, payload
    return match


def run(hands: int = 100, runs: int = 60) -> dict[str, dict[str, float]]:
    with served(threads=2) as port:
        client = Client(port)
        try:
            rng = random.Random(5)
            match = seed_match(client, hands, rng)
            auth = {"Authorization": f"Bearer {match['edit_key']}"}
            out = {
                "trivial route": _timed(client, "GET", "/healthz", runs),
                f"match page, {hands} hands": _timed(
                    client, "GET", f"/matches/{match['id']}", runs
                ),
                "hand submission (API)": _timed(
                    client,
                    "POST",
                    f"/api/v1/matches/{match['id']}/hands",
                    runs,
                    body=lambda i: hand_body(rng, PLAYERS),
                    headers=auth,
                ),
            }
        finally:
            client.conn.close()
    base = out["trivial route"]["median_ms"]
    for figures in out.values():
        figures["x_trivial"] = figures["median_ms"] / base
    return out
