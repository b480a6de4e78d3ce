"""What a long season costs: one table of 50 matches of 100 hands (5,000 hands), beside
a lone match of 100 hands (test client, so the figures are the app's work).

- adding a hand to the table's open match, as a ratio to adding one to the lone match
  (the table's figures are kept with each match: a hand costs what it costs alone);
- the standings' first answer after a new hand, the players' figures (``/stats``, from
  the stored hands: only the changed match's are read again), the table's JSON, the
  table's page and a player's page (all time), as ratios to ``/healthz`` (the table's
  page also in the serving thread's CPU time, which other work on the machine does not
  swell).
"""

from __future__ import annotations

import random
import statistics
import time

from bench.pdf_bench import PLAYERS, hand_body
from bench.scale_bench import _ok, export_document
from bench.serving import bench_app

MATCHES = 50
HANDS = 100
RUNS = 15


def _imported(client, rng: random.Random, finished: bool) -> dict:
    document = export_document(HANDS, rng)
    if finished:
        document["length"] = {"hands": HANDS}
    return _ok(client.post("/api/v1/matches/import", json=document), 201).get_json()


def run() -> dict[str, float]:
    with bench_app() as app:
        client = app.test_client()
        rng = random.Random(21)
        for _ in range(50):  # warm up
            client.get("/healthz")
        table = _ok(
            client.post(
                "/api/v1/tables",
                json={"name": "A long season", "players": PLAYERS[:4], "rules": "amarnepal"},
            ),
            201,
        ).get_json()
        url = f"/api/v1/tables/{table['id']}"
        auth = {"Authorization": f"Bearer {table['edit_key']}"}
        for i in range(MATCHES):  # the newest one open: it takes the new hands
            match = _imported(client, rng, finished=i < MATCHES - 1)
            body = {"match": match["id"], "match_edit_key": match["edit_key"]}
            _ok(client.post(f"{url}/matches", json=body, headers=auth))
        in_table = f"/api/v1/matches/{match['id']}/hands"
        lone = _imported(client, rng, finished=False)
        lone_url = f"/api/v1/matches/{lone['id']}/hands"
        lone_auth = {"Authorization": f"Bearer {lone['edit_key']}"}
        _ok(client.get(f"{url}/standings?season=all"))  # the rating computed once
        _ok(client.get(f"{url}/stats?season=all"))  # every match's hands read once

        times: dict[str, list[float]] = {
            k: []
            for k in (
                "table_add",
                "lone_add",
                "standings",
                "stats",
                "table",
                "page",
                "player",
                "healthz",
            )
        }

        #: The serving thread's CPU time (ms): the test client serves in this thread, so
        #: it is the page's own work, whatever else the machine's cores are doing.
        cpu: dict[str, list[float]] = {k: [] for k in times}

        def timed(name: str, method: str, path: str, status: int = 200, **kwargs) -> None:
            start, thread = time.perf_counter(), time.thread_time()
            _ok(getattr(client, method)(path, **kwargs), status)
            cpu[name].append((time.thread_time() - thread) * 1000)
            times[name].append((time.perf_counter() - start) * 1000)

        players = PLAYERS[:4]
        for _ in range(RUNS):
            timed(
                "lone_add", "post", lone_url, 201, json=hand_body(rng, players), headers=lone_auth
            )
            # Each page is the first answer after a hand of its own: nothing read is kept
            # from the one before.
            for name, path in (
                ("standings", f"{url}/standings?season=all"),
                ("stats", f"{url}/stats?season=all"),
                ("table", url),
                ("page", f"/tables/{table['id']}?season=all"),
                ("player", f"/tables/{table['id']}/players/{players[0]}?season=all"),
            ):
                body = hand_body(rng, players)
                timed("table_add", "post", in_table, 201, json=body, headers=auth)
                timed(name, "get", path)
            for _ in range(4):
                timed("healthz", "get", "/healthz")
    m = {k: statistics.median(v) for k, v in times.items()}
    c = {k: statistics.median(v) for k, v in cpu.items()}
    return {
        "add_x_lone": m["table_add"] / m["lone_add"],
        "standings_x_healthz": m["standings"] / m["healthz"],
        "stats_x_healthz": m["stats"] / m["healthz"],
        "table_json_x_healthz": m["table"] / m["healthz"],
        "table_page_x_healthz": m["page"] / m["healthz"],
        "table_page_cpu_x_healthz": c["page"] / c["healthz"],
        "player_page_x_healthz": m["player"] / m["healthz"],
        "add_ms": m["table_add"],
        "standings_ms": m["standings"],
        "stats_ms": m["stats"],
        "healthz_ms": m["healthz"],
    }


if __name__ == "__main__":  # python -m bench.tables_bench
    print(", ".join(f"{k} {v:,.2f}" for k, v in run().items()), flush=True)
