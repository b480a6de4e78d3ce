"""Imports during a night: three clients import a 200-match table at once while a
scorekeeper saves hands (issue 35).

The ledger is served as ``marriage-ledger serve`` serves it (``bench.followers``: one
process on SQLite, or two on a PostgreSQL cluster the bench starts), with the imports'
rate limit raised so that the importers are not refused. A table of ``MATCHES`` matches
of ``HANDS`` hands each is exported once; three threads then post it to
``POST /api/v1/tables/import`` ``ROUNDS`` times each (to the serving processes in turn),
while the scorekeeper saves a hand every ``SAVE_GAP`` seconds through the JSON API, on
its own kept-alive connection, until every import has answered.

The figures: the imports (``imports``, their median seconds from the first try,
``import_errors``: any answer but 201, ``import_busy``: the 503s of an import that waited
for another's slot too long, each tried again after its Retry-After), and the
scorekeeper's saves while they ran: ``saves``, ``save_p50_ms``, ``save_p99_ms`` (the
goal: 300 ms or less), ``save_errors`` (any answer but 201: a 409 is a save that met an
import's write lock past the busy timeout).

Run alone: ``python -m bench.import_bench [--postgresql] [--matches N] [--hands N]
[--rounds N]``.
"""

from __future__ import annotations

import copy
import json
import random
import statistics
import sys
import tempfile
import threading
import time
from argparse import ArgumentParser
from pathlib import Path

if __name__ == "__main__":
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.followers import SETUPS, Setup, _percentile, served_ledger  # noqa: E402
from bench.pages_bench import PLAYERS, Client, hand_body  # noqa: E402

MATCHES = 200
HANDS = 12
ROUNDS = 1
IMPORTERS = 3
SAVE_GAP = 0.25
#: The imports' budget while the bench runs (the default would refuse its importers).
SETTINGS = {"LEDGER_RATELIMIT_IMPORT": "10000 per minute"}


def table_document(client: Client, matches: int, hands: int, rng: random.Random) -> bytes:
    """A table's export of ``matches`` matches of ``hands`` hands each (one match played
    through the API, its export repeated), as the body of an import."""
    body = {"name": "Friday table", "players": PLAYERS, "rules": "amarnepal", "stake": None}
    _, status, payload = client.request("POST", "/api/v1/tables", body)
    assert status == 201, payload
    table = json.loads(payload)
    auth = {"Authorization": f"Bearer {table['edit_key']}"}
    url = f"/api/v1/tables/{table['id']}"
    night = {"name": "Night", "players": PLAYERS, "length": None, "first_dealer": PLAYERS[0]}
    _, status, payload = client.request("POST", f"{url}/matches", night, auth)
    assert status == 201, payload
    match = json.loads(payload)
    for _ in range(hands):
        path = f"/api/v1/matches/{match['id']}/hands"
        _, status, payload = client.request("POST", path, hand_body(rng, PLAYERS), auth)
        assert status == 201, payload
    _, status, payload = client.request("GET", f"{url}/export.json")
    assert status == 200, payload
    document = json.loads(payload)
    played = document["matches"][0]
    document["matches"] = [
        dict(copy.deepcopy(played), name=f"Night {n + 1}") for n in range(matches)
    ]
    return json.dumps(document).encode()


def run(
    setup: Setup | None = None,
    matches: int = MATCHES,
    hands: int = HANDS,
    rounds: int = ROUNDS,
) -> dict[str, float]:
    rng = random.Random(35)
    setup = setup or Setup()
    with tempfile.TemporaryDirectory() as folder, served_ledger(folder, setup, SETTINGS) as served:
        scorekeeper = Client(served.ports[0])
        document = table_document(scorekeeper, matches, hands, rng)
        _, status, payload = scorekeeper.request(
            "POST",
            "/api/v1/matches",
            {"name": "Tonight", "players": PLAYERS, "rules": "amarnepal", "length": None},
        )
        assert status == 201, payload
        match = json.loads(payload)
        hands_url = f"/api/v1/matches/{match['id']}/hands"
        auth = {"Authorization": f"Bearer {match['edit_key']}"}
        imports: list[tuple[float, int]] = []
        busy: list[int] = []

        def importer(n: int) -> None:
            client = Client(served.ports[n % len(served.ports)])
            client.conn.timeout = 600
            try:
                for _ in range(rounds):
                    start = time.perf_counter()
                    while True:  # a 503 (another import held the slot too long) is tried again
                        client.conn.request(
                            "POST",
                            "/api/v1/tables/import",
                            body=document,
                            headers={"Content-Type": "application/json"},
                        )
                        answer = client.conn.getresponse()
                        answer.read()
                        if answer.status != 503:
                            break
                        busy.append(n)
                        time.sleep(int(answer.headers["Retry-After"]))
                    imports.append((time.perf_counter() - start, answer.status))
            finally:
                client.conn.close()

        threads = [threading.Thread(target=importer, args=(n,)) for n in range(IMPORTERS)]
        for thread in threads:
            thread.start()
        saves: list[tuple[float, int]] = []
        try:
            while any(thread.is_alive() for thread in threads):
                elapsed, status, _ = scorekeeper.request(
                    "POST", hands_url, hand_body(rng, PLAYERS), auth
                )
                saves.append((elapsed, status))
                time.sleep(max(0.0, SAVE_GAP - elapsed))
        finally:
            for thread in threads:
                thread.join()
            scorekeeper.conn.close()
    times = [took for took, _ in saves]
    return {
        "imports": len(imports),
        "import_median_s": statistics.median(took for took, _ in imports),
        "import_errors": sum(status != 201 for _, status in imports),
        "import_busy": len(busy),
        "saves": len(saves),
        "save_p50_ms": _percentile(times, 0.50) * 1000,
        "save_p99_ms": _percentile(times, 0.99) * 1000,
        "save_errors": sum(status != 201 for _, status in saves),
    }


def main(setups: tuple[Setup, ...] = SETUPS, **sizes: int) -> None:
    """The lines of ``make bench``: one per setup."""
    from bench.run import line

    matches = sizes.get("matches", MATCHES)
    for setup in setups:
        line(
            f"{setup}: {IMPORTERS} imports of {matches} matches, a scorekeeper",
            run(setup, **sizes),
        )


if __name__ == "__main__":
    parser = ArgumentParser(description="Imports during a night (see the module's docstring).")
    parser.add_argument("--postgresql", action="store_true")
    parser.add_argument("--matches", type=int, default=MATCHES)
    parser.add_argument("--hands", type=int, default=HANDS)
    parser.add_argument("--rounds", type=int, default=ROUNDS)
    given = parser.parse_args()
    setup = Setup(postgresql=True, processes=2) if given.postgresql else Setup()
    main((setup,), matches=given.matches, hands=given.hands, rounds=given.rounds)
