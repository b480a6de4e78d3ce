"""PDF figures: the match summary (GET /matches/<id>/summary.pdf through the test client)
of 8, 100 and 500 hands, each as a ratio measured in the same run.

- Cold: the first request of a match version (the PDF cache emptied first, as a new
  hand leaves it for that version): the database read, the view, the templates, and
  WeasyPrint in the render child. Against WeasyPrint rendering a one-line page in this
  process. Targets: 100 hands within 80 ×.
- Warm: the second request of the same version (a file read), against ``/healthz``.
  Target: within 5 ×.
- Memory: this process's resident memory (it serves the requests) before and after the
  first 500-hand summary, in MB. Target: at most 120 MB kept.
- The archive copy (PDF/A-3, tagged, carrying the match's export: ``ledger.pdf.archive``)
  against a plain PDF of the same 100-hand summary, in CPU seconds of this process
  (steadier than the wall clock on a shared machine), each with the collection of the
  garbage it left: "plain" lays the page out and writes a plain PDF; "archive" builds
  the export as the route does, lays out and writes the archive copy. Target: 1.10.

The 500-hand match is the 100-hand one five times over, loaded by the import (quick to
set up); the one-line page and the render child are warmed up first.
"""

from __future__ import annotations

import copy
import gc
import random
import re
import shutil
import statistics
import time
from datetime import UTC, datetime
from pathlib import Path

from flask import jsonify
from weasyprint import HTML

from bench.serving import bench_app
from ledger import matches
from ledger.pdf import printer, render
from ledger.pdf.archive import export_attachment

PLAYERS = ["Asha", "Bikash", "Chandra", "Dipa", "Esha"]
RANKS = ["A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K"]
SAME_COLOUR = {"S": "C", "C": "S", "H": "D", "D": "H"}


def hand_body(rng: random.Random, players: list[str]) -> dict:
    """A hand with a tiplu and maal cards from its family (within a pack's copies), mostly
    entered as cards, some as counts or one number; a few hands are void."""
    rank, suit = rng.randrange(13), rng.choice("SHDC")
    family = (
        [f"{RANKS[rank]}{suit}"] * 2
        + [f"{RANKS[(rank + 1) % 13]}{suit}"] * 3
        + [f"{RANKS[(rank - 1) % 13]}{suit}"] * 3
        + [f"{RANKS[rank]}{SAME_COLOUR[suit]}"] * 3
    )
    rng.shuffle(family)
    seen = ["sequences"] + [rng.choice(["sequences", "sequences", "unseen"]) for _ in players[1:]]
    rng.shuffle(seen)
    void = rng.random() < 0.05
    winner = (
        None
        if void
        else rng.choice([p for p, s in zip(players, seen, strict=True) if s != "unseen"])
    )
    entries = []
    for name, status in zip(players, seen, strict=True):
        take = rng.randint(0, 3)
        cards, family = family[:take], family[take:]
        entry: dict = {"name": name, "seen": status}
        if rng.random() < 0.8:
            entry["maal_cards"] = cards
        else:
            entry["maal"] = rng.randint(0, 12)
        entries.append(entry)
    return {
        "tiplu": f"{RANKS[rank]}{suit}",
        "finish": "void" if void else "sequences",
        "winner": winner,
        "players": entries,
    }


def seed(hands: int, rng: random.Random) -> str:
    """A match of ``hands`` hands (5 players, one sitting out in turn); its public id."""
    match, _key = matches.create_match(f"Bench {hands}", PLAYERS, "amarnepal", None, PLAYERS[0])
    for number in range(hands):
        seated = [p for i, p in enumerate(PLAYERS) if i != number % len(PLAYERS)]
        matches.add_hand(match, hand_body(rng, seated))
    return match.public_id


def repeated(public_id: str, times: int) -> str:
    """A new match of the hands of ``public_id`` ``times`` over (imported); its id."""
    document = matches.export_json(matches.get_match(public_id))
    hands = document["hands"]
    document["hands"] = [
        {**copy.deepcopy(hand), "number": hand["number"] + block * len(hands)}
        for block in range(times)
        for hand in hands
    ]
    document["last_hand_number"] = len(document["hands"])
    document["history"] = []
    match, _key = matches.import_match(document)
    return match.public_id


def rss_mb() -> float:
    """This process's resident memory now (Linux), in MB."""
    status = Path("/proc/self/status").read_text()
    return int(re.search(r"VmRSS:\s+(\d+) kB", status).group(1)) / 1024


def _against_healthz(client, url: str, runs: int) -> tuple[float, float]:
    """Median seconds of ``url`` and of ``/healthz``, asked in turn (the same load)."""
    times: dict[str, list[float]] = {url: [], "/healthz": []}
    for _ in range(runs):
        for path, kept in times.items():
            start = time.perf_counter()
            assert client.get(path).status_code == 200
            kept.append(time.perf_counter() - start)
    return statistics.median(times[url]), statistics.median(times["/healthz"])


def _median_seconds(fn, runs: int) -> float:
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        fn()
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def archive_cost(app, client, public_id: str, runs: int, cache: Path) -> float:
    """The median ratio, turn by turn, of the CPU seconds of the archive copy of a summary
    to those of a plain PDF of the same pages (a turn's two runs see the same load)."""
    for kept in cache.glob("*.pdf"):
        kept.unlink()
    jobs = []
    made = printer.render_job

    def keep(job):
        jobs.append(job)
        return made(job)

    printer.render_job = keep
    try:
        assert client.get(f"/matches/{public_id}/summary.pdf").status_code == 200
    finally:
        printer.render_job = made
    job = jobs[0]
    with app.test_request_context():
        match = matches.get_match(public_id)

        def plain() -> None:
            render.render_document(job.html, job.paper, job.extra_css).write_pdf()

        def archive() -> None:
            view = matches.match_view(match)  # the route builds it once for both
            export = jsonify(matches.export_json(match, view)).get_data()
            attached = [export_attachment(export, view.name, datetime.now(UTC))]
            render.render_pdf(job.html, job.paper, job.extra_css, attached)

        times: dict = {plain: [], archive: []}
        for _ in range(runs):
            for fn in times:
                gc.collect()  # each starts clean and pays for collecting its own garbage
                start = time.process_time()
                fn()
                gc.collect()
                times[fn].append(time.process_time() - start)
    return statistics.median(a / p for p, a in zip(times[plain], times[archive], strict=True))


def run(runs: int = 3, warm_runs: int = 150) -> dict[str, dict[str, float]]:
    """The figure groups: one-line page, cold and warm summaries, memory, archive cost."""
    with bench_app() as app:
        with app.app_context():
            rng = random.Random(4)
            ids = {8: seed(8, rng), 100: seed(100, rng)}
            ids[500] = repeated(ids[100], 5)
        client = app.test_client()
        cache = Path(app.instance_path) / printer.FOLDER

        def summary(hands: int) -> None:
            response = client.get(f"/matches/{ids[hands]}/summary.pdf")
            assert response.status_code == 200, response.data[:300]

        def cold(hands: int) -> None:
            for kept in cache.glob("*.pdf"):
                kept.unlink()
            summary(hands)

        # Warm up: the render child starts and parses the stylesheets; templates compile.
        cold(8)
        one_line = _median_seconds(lambda: HTML(string="<p>Hello</p>").write_pdf(), 5 * runs)
        before = rss_mb()
        cold_500 = _median_seconds(lambda: cold(500), 1)
        after = rss_mb()
        colds = {hands: _median_seconds(lambda h=hands: cold(h), runs) for hands in (8, 100)}
        colds[500] = cold_500
        warms, healthz = {}, []
        for hands in (8, 100, 500):
            summary(hands)
            url = f"/matches/{ids[hands]}/summary.pdf"
            warm, against = _against_healthz(client, url, warm_runs)
            warms[hands] = warm / against
            healthz.append(against)
        archive = archive_cost(app, client, ids[100], 5, cache)  # a noisier figure: more turns
        shutil.rmtree(cache, ignore_errors=True)
    return {
        "one-line page (WeasyPrint)": {"ms": one_line * 1000},
        "summary cold x one-line": {
            **{f"{h} hands": t / one_line for h, t in colds.items()},
            **{f"{h} ms": t * 1000 for h, t in colds.items()},
        },
        "summary warm x /healthz": {
            **{f"{h} hands": ratio for h, ratio in warms.items()},
            "healthz ms": statistics.median(healthz) * 1000,
        },
        "server RSS MB, 500-hand summary": {
            "before": before,
            "after": after,
            "kept": after - before,
        },
        "archive x plain, 100 hands (cpu)": {"ratio": archive},
    }


if __name__ == "__main__":
    for group, figures in run().items():
        print(group, ", ".join(f"{k} {v:,.2f}" for k, v in figures.items()))
