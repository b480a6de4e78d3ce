"""What a season's rescore costs: a table of 50 matches of 100 hands (5,000 hands, the
season of the tables' cost figures) rescored under other rules through
``POST /api/v1/tables/<id>/rescore`` (test client: the app's work, not the network's).
Each hand is settled again by the engine: the figure to compare is the engine's own
time for the same hands (each stored input read and settled under the other rules, each
match folded: ``engine_seconds``, the inputs already in memory), measured in turn with
the route. ``python -m bench.season_rescore_bench`` prints both and their ratio."""

from __future__ import annotations

import random
import statistics
import time

from sqlalchemy import select

from bench.scale_bench import export_document
from bench.serving import bench_app
from ledger.engine import HandRecord, Invalid, parse_hand, resolve_rules, run_match, settle
from ledger.matches.models import Match
from ledger.matches.rescore import stored_inputs

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


def run(matches: int = MATCHES, hands: int = HANDS) -> dict[str, float]:
    with bench_app() as app:
        client = app.test_client()
        table = season(client, matches, hands)
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
    }


if __name__ == "__main__":
    figures = run()
    print(
        f"season rescore, {figures['hands']} hands: median {figures['median_s']:.2f} s, "
        f"slowest {figures['max_s']:.2f} s; the engine alone {figures['engine_s']:.2f} s: "
        f"x {figures['x_engine']:.2f}"
    )
