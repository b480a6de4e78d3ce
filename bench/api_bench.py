"""The settle API's round trip through Flask's test client."""

from __future__ import annotations

import random
import statistics
import tempfile
import time

from bench.engine_bench import random_hand
from ledger import create_app
from ledger.engine import PROFILES


def run(requests: int = 500) -> dict[str, float]:
    with tempfile.TemporaryDirectory() as tmp:
        app = create_app(
            {
                "TESTING": True,
                "INSTANCE_PATH": tmp,
                "SQLALCHEMY_DATABASE_URI": "sqlite://",
                "SECRET_KEY": "bench",
                "RATELIMIT_ENABLED": False,  # a benchmark measures the work, not the limits
            }
        )
        client = app.test_client()
        rng = random.Random(3)
        bodies = [
            {"rules": "amarnepal", **random_hand(rng, PROFILES["amarnepal"])}
            for _ in range(requests)
        ]
        times = []
        for body in bodies:
            start = time.perf_counter()
            response = client.post("/api/v1/settle", json=body)
            times.append(time.perf_counter() - start)
            assert response.status_code == 200, response.get_json()
    times.sort()
    return {
        "requests": requests,
        "median_ms": statistics.median(times) * 1000,
        "p95_ms": times[int(len(times) * 0.95)] * 1000,
        "requests_per_second": requests / sum(times),
    }
