"""A fast, lean start, as ratios measured in the same run.

- First answer: ``marriage-ledger serve`` (SQLite, its database made first by
  ``init-db``) from the start of its process to its first answer of ``/healthz``,
  against a one-line waitress app started the same way (a Python process serving on a
  free port of 127.0.0.1). The two take turns, ``RUNS`` starts each after one not
  counted; the medians' ratio. The stack alone (``bench/stack_app.py``: Flask with the
  ledger's extensions and one route, started the same way) is measured in the same turns:
  what of the start is the libraries', and what is the ledger's own. All run from
  compiled modules, as an installed ledger does (``PYTHONDONTWRITEBYTECODE`` would
  have the ledger compiled from source at every start: a second of its start here).
- Memory: the serving process's resident memory after ``gc.collect()``, measured in
  this process serving through the test client (as ``bench.pdf_bench`` measures it):
  after the first page, then after 50 summary PDFs (each of a new version of a match,
  so each is laid out, in the render child as served) and a 5,000-hand season rescore;
  and the PDF renderer's (this process's children) after the first and the last PDF.
"""

from __future__ import annotations

import gc
import os
import random
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request
from pathlib import Path

from bench.pdf_bench import PLAYERS, hand_body, rss_mb
from bench.scale_bench import _ok, export_document
from bench.season_rescore_bench import season
from bench.serving import bench_app, free_port

RUNS = 5
PDFS = 50
#: The one-line app: waitress serving a WSGI function that answers "ok".
ONE_LINE = (
    "import sys; from waitress import serve; "
    "serve(lambda e, r: (r('200 OK', [('Content-Type', 'text/plain')]), [b'ok'])[1], "
    "host='127.0.0.1', port=int(sys.argv[1]))"
)
SCRIPT = Path(sys.executable).parent / "marriage-ledger"
STACK = Path(__file__).with_name("stack_app.py")


def _first_answer(command: list[str], port: int, env: dict[str, str]) -> float:
    """Seconds from starting ``command`` to its first 200 on ``/healthz``; then stopped."""
    start = time.perf_counter()
    process = subprocess.Popen(
        command, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL
    )
    try:
        while True:
            try:
                with urllib.request.urlopen(f"http://127.0.0.1:{port}/healthz", timeout=5) as r:
                    if r.status == 200:
                        return time.perf_counter() - start
            except (urllib.error.URLError, ConnectionError):
                if process.poll() is not None:
                    raise RuntimeError(f"{command[0]} ended with {process.returncode}") from None
                time.sleep(0.005)
    finally:
        process.terminate()
        process.wait(30)


def first_answers(runs: int = RUNS) -> dict[str, float]:
    with tempfile.TemporaryDirectory() as folder:
        env = {
            **{k: v for k, v in os.environ.items() if not k.startswith("LEDGER_")},
            "LEDGER_DATABASE_URL": f"sqlite:///{folder}/start.sqlite3",
            "LEDGER_INSTANCE_PATH": f"{folder}/instance",
            "LEDGER_SECRET_KEY": "bench",
            # Both start as installed programs do, from compiled modules (a wheel's are
            # compiled as it installs), kept here by the warm-up start: not from source.
            "PYTHONPYCACHEPREFIX": f"{folder}/pycache",
        }
        env.pop("PYTHONDONTWRITEBYTECODE", None)
        subprocess.run([str(SCRIPT), "init-db"], env=env, check=True, capture_output=True)
        commands = {
            "serve": [str(SCRIPT), "serve", "--host", "127.0.0.1", "--port"],
            "stack": [sys.executable, str(STACK)],
            "one_line": [sys.executable, "-c", ONE_LINE],
        }
        times: dict[str, list[float]] = {name: [] for name in commands}
        for run in range(runs + 1):  # the first writes the compiled modules: not counted
            for name, command in commands.items():
                port = free_port()
                answered = _first_answer([*command, str(port)], port, env)
                if run:
                    times[name].append(answered)
    m = {k: statistics.median(v) for k, v in times.items()}
    return {
        "x_one_line": m["serve"] / m["one_line"],
        "serve_s": m["serve"],
        "one_line_s": m["one_line"],
        "stack_x_one_line": m["stack"] / m["one_line"],
        "stack_s": m["stack"],
        # What of the start is the ledger's own (its modules, building the app, the
        # database check), the part its code decides.
        "own_ms": (m["serve"] - m["stack"]) * 1000,
    }


def _settled_rss() -> float:
    gc.collect()
    return rss_mb()


def _children_rss() -> float:
    """The resident memory of this process's children (the PDF renderer), in MB."""
    total = 0
    for children in Path(f"/proc/{os.getpid()}/task").glob("*/children"):
        for pid in children.read_text().split():
            status = Path(f"/proc/{pid}/status").read_text()
            total += int(status.split("VmRSS:")[1].split()[0])
    return total / 1024


def memory(pdfs: int = PDFS) -> dict[str, float]:
    with bench_app() as app:
        client = app.test_client()
        _ok(client.get("/"))
        first_page = _settled_rss()
        rng = random.Random(9)
        document = export_document(20, rng)
        match = _ok(client.post("/api/v1/matches/import", json=document), 201).get_json()
        auth = {"Authorization": f"Bearer {match['edit_key']}"}
        renderer = []
        for _ in range(pdfs):  # a new version each time: laid out, not read from the cache
            body = hand_body(rng, PLAYERS[:4])
            _ok(client.post(f"/api/v1/matches/{match['id']}/hands", json=body, headers=auth), 201)
            _ok(client.get(f"/matches/{match['id']}/summary.pdf"))
            renderer.append(_children_rss())
        after_pdfs = _settled_rss()
        table = season(client, 50, 100)
        _ok(client.post(f"/api/v1/tables/{table}/rescore", json={"rules": "everestbuzz"}))
        after_rescore = _settled_rss()
    return {
        "first_page_mb": first_page,
        "after_pdfs_mb": after_pdfs,
        "after_rescore_mb": after_rescore,
        "grown_mb": after_rescore - first_page,
        "renderer_first_pdf_mb": renderer[0],
        "renderer_last_pdf_mb": renderer[-1],
    }


def run() -> dict[str, float]:
    return {**first_answers(), **memory()}


if __name__ == "__main__":  # python -m bench.start_bench
    print(", ".join(f"{k} {v:,.2f}" for k, v in run().items()), flush=True)
