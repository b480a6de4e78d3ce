"""PDF times: the summary of an 8-hand and of a 100-hand match (GET /matches/<id>/summary.pdf
through the test client: the database read, the templates and WeasyPrint), against
WeasyPrint rendering a one-line page in the same run.

Targets on the project's machine: 8 hands under 1 s, 100 hands under 4 s.

The archive copy (PDF/A-3, tagged, carrying the match's export: ``ledger.pdf.archive``)
must not cost more than a tenth over the plain PDF the renderer wrote before. Both are
timed on the same summary, taking turns, in CPU seconds of this process (steadier than
the wall clock on a shared machine), each with the collection of the garbage it left (a
WeasyPrint document is freed by the cycle collector, which otherwise runs at random
moments of the next render): "plain" lays the page out and writes a plain PDF;
"archive" builds the export as the route does, lays out and writes the archive copy.
What both share (the database read, the templates) is left out, so the ratio is an
upper bound of what the route's time grows by.
"""

from __future__ import annotations

import gc
import random
import statistics
import tempfile
import time
from datetime import UTC, datetime
from unittest import mock

from flask import jsonify
from weasyprint import HTML

from ledger import create_app, matches
from ledger.pdf import render, routes
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


def _median_seconds(fn, runs: int) -> float:
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        fn()
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def _summary_render(client, public_id: str) -> tuple:
    """What the summary route hands the renderer (HTML, paper, CSS, attachments)."""
    seen = []

    def keep(*args):
        seen.append(args)
        return render.render_pdf(*args)

    with mock.patch.object(routes, "render_pdf", keep):
        assert client.get(f"/matches/{public_id}/summary.pdf").status_code == 200
    return seen[0]


def archive_cost(app, client, public_id: str, runs: int) -> tuple[float, float, float]:
    """Median CPU seconds of the plain PDF and of the archive copy of one summary, and the
    median ratio of the two in each turn (a turn's two runs see the same load)."""
    html, paper, css, _attachments = _summary_render(client, public_id)
    with app.test_request_context():
        match = matches.get_match(public_id)

        def plain() -> None:
            render.render_document(html, paper, css).write_pdf()

        def archive() -> None:
            view = matches.match_view(match)  # the route builds it once for both
            export = jsonify(matches.export_json(match, view)).get_data()
            attached = [export_attachment(export, view.name, datetime.now(UTC))]
            render.render_pdf(html, paper, css, attached)

        times: dict = {plain: [], archive: []}
        for _ in range(runs):
            for fn in times:
                gc.collect()  # each starts clean and pays for collecting its own garbage
                start = time.process_time()
                fn()
                gc.collect()
                times[fn].append(time.process_time() - start)
    ratios = [a / p for p, a in zip(times[plain], times[archive], strict=True)]
    return (
        statistics.median(times[plain]),
        statistics.median(times[archive]),
        statistics.median(ratios),
    )


def run(runs: int = 5, long_runs: int = 3) -> dict[str, float]:
    """Median milliseconds of each render, and each one's ratio to the one-line page."""
    with tempfile.TemporaryDirectory() as tmp:
        app = create_app(
            {
                "INSTANCE_PATH": tmp,
                "SECRET_KEY": "bench",
                "RATELIMIT_ENABLED": False,  # a benchmark measures the work, not the limits
                "SQLALCHEMY_DATABASE_URI": f"sqlite:///{tmp}/bench.sqlite3",
            }
        )
        ids = {}
        with app.app_context():
            from ledger.extensions import db

            db.create_all()
            rng = random.Random(4)
            for hands in (8, 100):
                match, _key = matches.create_match(
                    f"Bench {hands}", PLAYERS, "amarnepal", None, PLAYERS[0]
                )
                for number in range(hands):
                    seated = [p for i, p in enumerate(PLAYERS) if i != number % len(PLAYERS)]
                    matches.add_hand(match, hand_body(rng, seated))
                ids[hands] = match.public_id
        client = app.test_client()

        def summary(hands: int) -> None:
            response = client.get(f"/matches/{ids[hands]}/summary.pdf")
            assert response.status_code == 200, response.data[:300]

        summary(8)  # the first PDF of a thread parses the stylesheets and loads the fonts
        one_line = _median_seconds(lambda: HTML(string="<p>Hello</p>").write_pdf(), runs)
        short = _median_seconds(lambda: summary(8), runs)
        long = _median_seconds(lambda: summary(100), long_runs)
        figures = {
            "one-line page ms": one_line * 1000,
            "8 hands ms": short * 1000,
            "100 hands ms": long * 1000,
            "8 hands x one-line": short / one_line,
            "100 hands x one-line": long / one_line,
        }
        for hands, count in ((8, 2 * runs), (100, 2 * long_runs)):
            plain, archive, ratio = archive_cost(app, client, ids[hands], count)
            figures[f"{hands} hands plain cpu ms"] = plain * 1000
            figures[f"{hands} hands archive cpu ms"] = archive * 1000
            figures[f"{hands} hands archive x plain"] = ratio
    return figures


if __name__ == "__main__":
    for key, value in run().items():
        print(f"{key:<24} {value:,.1f}")
