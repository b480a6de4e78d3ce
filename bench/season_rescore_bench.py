"""What a season's rescore costs: a table of 50 matches of 100 hands (5,000 hands, the
season of the tables' cost figures) rescored under other rules through
``POST /api/v1/tables/<id>/rescore`` (test client: the app's work, not the network's).
Each hand is settled again by the engine: the figure to compare is the engine's own
speed, 5,000 settles. ``python -m bench.season_rescore_bench`` prints it."""

from __future__ import annotations

import random
import statistics
import time

from bench.scale_bench import export_document
from bench.serving import bench_app

MATCHES, HANDS, RUNS = 50, 100, 3


def season(client, matches: int = MATCHES, hands: int = HANDS, seed: int = 7) -> str:
    """A table holding ``matches`` imported matches of ``hands`` hands; its id."""
    rng = random.Random(seed)
    table = client.post(
        "/api/v1/tables", json={"name": "Season", "players": [], "rules": "amarnepal"}
    ).get_json()
    auth = {"Authorization": f"Bearer {table['edit_key']}"}
    for _ in range(matches):
        match = client.post("/api/v1/matches/import", json=export_document(hands, rng))
        body = match.get_json()
        moved = client.post(
            f"/api/v1/tables/{table['id']}/matches",
            json={"match": body["id"], "match_edit_key": body["edit_key"]},
            headers=auth,
        )
        assert moved.status_code == 200, moved.get_json()
    return table["id"]


def run(matches: int = MATCHES, hands: int = HANDS) -> dict[str, float]:
    with bench_app() as app:
        client = app.test_client()
        table = season(client, matches, hands)
        seconds = []
        for profile in ("everestbuzz", "sparkai", "classic")[:RUNS]:
            start = time.perf_counter()
            response = client.post(f"/api/v1/tables/{table}/rescore", json={"rules": profile})
            seconds.append(time.perf_counter() - start)
            assert response.status_code == 200, response.get_json()
            assert sum(m["hands"] for m in response.get_json()["matches"]) == matches * hands
    return {"hands": matches * hands, "median_s": statistics.median(seconds), "max_s": max(seconds)}


if __name__ == "__main__":
    figures = run()
    print(
        f"season rescore, {figures['hands']} hands: median {figures['median_s']:.2f} s, "
        f"slowest {figures['max_s']:.2f} s"
    )
