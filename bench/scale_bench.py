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
import time

from bench.pdf_bench import PLAYERS, hand_body
from bench.serving import bench_app

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


def _ok(response, status: int = 200):
    assert response.status_code == status, (response.status_code, response.get_data()[:300])
    return response


class Sized:
    """One imported match of a given size, and what its requests took (ms)."""

    def __init__(self, client, hands: int, rng: random.Random):
        created = client.post("/api/v1/matches/import", json=export_document(hands, rng))
        match = _ok(created, 201).get_json()
        self.client, self.hands, self.rng = client, hands, rng
        self.url = f"/api/v1/matches/{match['id']}"
        self.page_url = f"/matches/{match['id']}"
        self.auth = {"Authorization": f"Bearer {match['edit_key']}"}
        self.times: dict[str, list[float]] = {
            k: [] for k in ("add", "edit", "delete", "page", "json", "poll", "healthz")
        }
        #: The serving thread's CPU time (ms): the test client serves in this thread.
        self.cpu: dict[str, list[float]] = {k: [] for k in self.times}
        self.page_bytes = 0

    def _time(self, name: str, method: str, url: str, status: int = 200, **kwargs):
        start, cpu = time.perf_counter(), time.thread_time()
        response = _ok(getattr(self.client, method)(url, **kwargs), status)
        self.cpu[name].append((time.thread_time() - cpu) * 1000)
        self.times[name].append((time.perf_counter() - start) * 1000)
        return response

    def round(self, i: int) -> None:
        """Each write once, each read first after a write, the poll and /healthz."""
        client, players = self.client, PLAYERS[:4]
        self._time(
            "add",
            "post",
            f"{self.url}/hands",
            201,
            json=hand_body(self.rng, players),
            headers=self.auth,
        )
        self.page_bytes = len(self._time("page", "get", self.page_url).get_data())
        number = self.hands // 2 + i
        self._time(
            "edit",
            "put",
            f"{self.url}/hands/{number}",
            json=hand_body(self.rng, players),
            headers=self.auth,
        )
        # The version from the ETag: parsing 3 MB of JSON here would leave garbage that
        # the next request's collection would pay for.
        etag = self._time("json", "get", self.url).headers["ETag"]  # "match-<version>"
        version = int(etag.strip('"').removeprefix("match-"))
        self._time("delete", "delete", f"{self.url}/hands/{number}", headers=self.auth)
        for _ in range(4):
            self._time("poll", "get", f"{self.page_url}/live?v={version + 1}", 204)
            self._time("healthz", "get", "/healthz")
        client.get(self.page_url)  # the version's page is kept: the poll has nothing new


def run(sizes: tuple[int, ...] = SIZES) -> dict[str, dict[str, float]]:
    """Per size: each write as × the smallest size's, reads and the poll as × /healthz.
    The sizes take turns, request by request, so that a busy moment of the machine
    weighs on all of them alike."""
    with bench_app() as app:
        client = app.test_client()
        rng = random.Random(11)
        for _ in range(50):  # warm up
            client.get("/healthz")
        matches = [Sized(client, n, rng) for n in sizes]
        for i in range(RUNS):
            for match in matches:
                match.round(i)
    median = {m.hands: {k: statistics.median(v) for k, v in m.times.items()} for m in matches}
    cpu = {m.hands: {k: statistics.median(v) for k, v in m.cpu.items()} for m in matches}
    first = median[sizes[0]]
    out = {}
    for match in matches:
        m = median[match.hands]
        out[f"{match.hands} hands"] = {
            "add_x": m["add"] / first["add"],
            "edit_x": m["edit"] / first["edit"],
            "delete_x": m["delete"] / first["delete"],
            "page_x_healthz": m["page"] / m["healthz"],
            "page_cpu_x_healthz": cpu[match.hands]["page"] / cpu[match.hands]["healthz"],
            "page_kB": match.page_bytes / 1024,
            "json_x_healthz": m["json"] / m["healthz"],
            "poll_x_healthz": m["poll"] / m["healthz"],
            "add_ms": m["add"],
            "healthz_ms": m["healthz"],
        }
    return out


if __name__ == "__main__":  # python -m bench.scale_bench
    for label, figures in run().items():
        print(label, ", ".join(f"{k} {v:,.2f}" for k, v in figures.items()), flush=True)
