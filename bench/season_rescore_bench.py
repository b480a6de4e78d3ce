"""What a season's rescore costs: a table of 50 matches of 100 hands (5,000 hands, the
season of the tables' cost figures) rescored under other rules through
``POST /api/v1/tables/<id>/rescore`` (test client: the app's work, not the network's).
Each hand is settled again by the engine: the figure to compare is the engine's own
time for the same hands (each stored input read and settled under the other rules, each
match folded: ``engine_seconds``, the inputs already in memory), measured in turn with
the route. ``python -m bench.season_rescore_bench`` prints both and their ratio, and the
same season's summary PDF: its first answer (target: 2 s) and the server's part of it."""

from __future__ import annotations

import random
import statistics
import time
from pathlib import Path

from sqlalchemy import select

from bench.scale_bench import export_document
from bench.serving import bench_app
from ledger.engine import HandRecord, Invalid, parse_hand, resolve_rules, run_match, settle
from ledger.matches.models import Match
from ledger.matches.rescore import stored_inputs
from ledger.pdf import printer

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


def engine_seconds(app, profile: str) -> float:
    """The engine alone on every stored hand: read under ``profile``, settled, folded."""
    with app.app_context():
        matches = [
            (match.player_names, match.first_dealer, match.id)
            for match in app.extensions["sqlalchemy"].session.scalars(select(Match))
        ]
        stored = stored_inputs([match_id for *_, match_id in matches])
        rules = resolve_rules(profile)
        start = time.process_time()
        for players, first_dealer, match_id in matches:
            records = []
            for kept in stored[match_id]:
                try:
                    hand = parse_hand(dict(kept.input), rules)
                except Invalid:
                    continue
                result = settle(hand, rules)
                seen = {p.name: p.seen for p in result.players}
                records.append(
                    HandRecord(
                        kept.number,
                        kept.dealer,
                        result.winner,
                        result.nets(),
                        seen,
                        result.fouls_carried,
                    )
                )
            run_match(players, first_dealer, rules, None, records)
        return time.process_time() - start


def season_pdf(app, client, table: str, runs: int = RUNS) -> tuple[float, float]:
    """The season PDF's first answer (its cache emptied each time, as a new hand leaves
    it), after one that starts the render child: the median wall seconds, and the
    serving thread's CPU seconds (the rest is WeasyPrint in the child)."""
    cache = Path(app.instance_path) / printer.FOLDER
    walls, cpus = [], []
    for turn in range(runs + 1):
        for kept in cache.glob("*.pdf"):
            kept.unlink()
        start, cpu = time.perf_counter(), time.thread_time()
        response = client.get(f"/tables/{table}/season.pdf?season=all")
        assert response.status_code == 200, response.data[:300]
        if turn:  # the first started the render child
            walls.append(time.perf_counter() - start)
            cpus.append(time.thread_time() - cpu)
    return statistics.median(walls), statistics.median(cpus)


def run(matches: int = MATCHES, hands: int = HANDS) -> dict[str, float]:
    with bench_app() as app:
        client = app.test_client()
        table = season(client, matches, hands)
        pdf_s, pdf_cpu_s = season_pdf(app, client, table)
        seconds, engine = [], []
        for profile in ("everestbuzz", "sparkai", "classic")[:RUNS]:
            start = time.process_time()
            response = client.post(f"/api/v1/tables/{table}/rescore", json={"rules": profile})
            seconds.append(time.process_time() - start)
            assert response.status_code == 200, response.get_json()
            assert sum(m["hands"] for m in response.get_json()["matches"]) == matches * hands
            engine.append(engine_seconds(app, profile))
    return {
        "hands": matches * hands,
        "median_s": statistics.median(seconds),
        "max_s": max(seconds),
        "engine_s": statistics.median(engine),
        "x_engine": statistics.median(seconds) / statistics.median(engine),
        "season_pdf_s": pdf_s,
        "season_pdf_server_cpu_s": pdf_cpu_s,
    }


if __name__ == "__main__":
    figures = run()
    print(
        f"season rescore, {figures['hands']} hands: median {figures['median_s']:.2f} s, "
        f"slowest {figures['max_s']:.2f} s; the engine alone {figures['engine_s']:.2f} s: "
        f"x {figures['x_engine']:.2f}; its season PDF's first answer "
        f"{figures['season_pdf_s']:.2f} s "
        f"(the server's CPU {figures['season_pdf_server_cpu_s']:.2f} s)"
    )
