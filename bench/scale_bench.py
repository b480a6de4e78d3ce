"""What one request costs as a match grows: matches of 10, 100 and 1,000 hands are
imported, then each is written to and read as a table does (test client, so the figures
are the app's work, not the network's).

- a write (add, edit, delete a hand), as a ratio to the same write at the smallest size;
- the first match page and the first match JSON after a write (nothing cached for that
  version yet), as ratios to ``/healthz``, and the page's size;
- the followers' poll when nothing changed, as a ratio to ``/healthz``.
"""

from __future__ import annotations

import random
import statistics
import tempfile
import time
from collections.abc import Callable

from bench.pdf_bench import PLAYERS, hand_body
from ledger import create_app
from ledger.extensions import db

SIZES = (10, 100, 1000)
RUNS = 15


def export_document(hands: int, rng: random.Random) -> dict:
    """A match of ``hands`` random hands (dealers in turn), as the export format."""
    players = PLAYERS[:4]
    return {
        "format": "marriage-ledger/match",
        "format_version": 1,
        "name": f"A season of {hands} hands",
        "rules": "amarnepal",
        "length": None,
        "players": players,
        "first_dealer": players[0],
        "last_hand_number": hands,
        "hands": [
            {"number": n, "dealer": players[(n - 1) % 4], "version": 1, **hand_body(rng, players)}
            for n in range(1, hands + 1)
        ],
        "history": [],
    }


def _ms(fn: Callable[[], object]) -> float:
    start = time.perf_counter()
    fn()
    return (time.perf_counter() - start) * 1000


def _ok(response, status: int = 200):
    assert response.status_code == status, (response.status_code, response.get_data()[:300])
    return response


def measure(client, hands: int, rng: random.Random) -> dict[str, float]:
    """Medians in ms of each request at this size, and the page's size in kB."""
    created = _ok(client.post("/api/v1/matches/import", json=export_document(hands, rng)), 201)
    match = created.get_json()
    mid, auth = match["id"], {"Authorization": f"Bearer {match['edit_key']}"}
    players = PLAYERS[:4]
    times: dict[str, list[float]] = {k: [] for k in ("add", "edit", "delete", "page", "json")}
    size = 0
    for i in range(RUNS):
        body = hand_body(rng, players)
        times["add"].append(
            _ms(lambda b=body: _ok(client.post(f"/api/v1/matches/{mid}/hands", json=b,
                                               headers=auth), 201)))
        pages = []
        times["page"].append(_ms(lambda: pages.append(_ok(client.get(f"/matches/{mid}")))))
        size = len(pages[0].get_data())
        number = hands // 2 + i
        body = hand_body(rng, players)
        times["edit"].append(
            _ms(lambda b=body, n=number: _ok(client.put(f"/api/v1/matches/{mid}/hands/{n}",
                                                        json=b, headers=auth))))
        times["json"].append(_ms(lambda: _ok(client.get(f"/api/v1/matches/{mid}"))))
        times["delete"].append(
            _ms(lambda n=number: _ok(client.delete(f"/api/v1/matches/{mid}/hands/{n}",
                                                   headers=auth))))
    version = _ok(client.get(f"/api/v1/matches/{mid}")).get_json()["version"]
    poll = [_ms(lambda: _ok(client.get(f"/matches/{mid}/live?v={version}"), 204))
            for _ in range(RUNS * 4)]
    out = {k: statistics.median(v) for k, v in times.items()}
    out["poll"] = statistics.median(poll)
    out["page_kB"] = size / 1024
    return out


def run(sizes: tuple[int, ...] = SIZES) -> dict[str, dict[str, float]]:
    """Per size: each write as × the smallest size's, reads and the poll as × /healthz."""
    with tempfile.TemporaryDirectory() as tmp:
        app = create_app({"INSTANCE_PATH": tmp, "SECRET_KEY": "bench",
                          "SQLALCHEMY_DATABASE_URI": f"sqlite:///{tmp}/bench.sqlite3",
                          "RATELIMIT_ENABLED": False})
        with app.app_context():
            db.create_all()
        client = app.test_client()
        rng = random.Random(11)
        for _ in range(50):  # warm up
            client.get("/healthz")
        measured = {n: measure(client, n, rng) for n in sizes}
        healthz = statistics.median(_ms(lambda: client.get("/healthz")) for _ in range(300))
    first = measured[sizes[0]]
    out = {}
    for n, m in measured.items():
        out[f"{n} hands"] = {
            "add_x": m["add"] / first["add"],
            "edit_x": m["edit"] / first["edit"],
            "delete_x": m["delete"] / first["delete"],
            "page_x_healthz": m["page"] / healthz,
            "page_kB": m["page_kB"],
            "json_x_healthz": m["json"] / healthz,
            "poll_x_healthz": m["poll"] / healthz,
            "add_ms": m["add"],
        }
    out["healthz"] = {"ms": healthz}
    return out


if __name__ == "__main__":  # python -m bench.scale_bench
    for label, figures in run().items():
        print(label, ", ".join(f"{k} {v:,.2f}" for k, v in figures.items()), flush=True)
