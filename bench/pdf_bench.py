"""PDF times: the summary of an 8-hand and of a 100-hand match (GET /matches/<id>/summary.pdf
through the test client: the database read, the templates and WeasyPrint), against
WeasyPrint rendering a one-line page in the same run.

Targets on the project's machine: 8 hands under 1 s, 100 hands under 4 s.
"""

from __future__ import annotations

import random
import statistics
import tempfile
import time

from weasyprint import HTML

from ledger import create_app, matches

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


def run(runs: int = 5, long_runs: int = 3) -> dict[str, float]:
    """Median milliseconds of each render, and each one's ratio to the one-line page."""
    with tempfile.TemporaryDirectory() as tmp:
        app = create_app(
            {
                "INSTANCE_PATH": tmp,
                "SECRET_KEY": "bench",
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
    return {
        "one-line page ms": one_line * 1000,
        "8 hands ms": short * 1000,
        "100 hands ms": long * 1000,
        "8 hands x one-line": short / one_line,
        "100 hands x one-line": long / one_line,
    }


if __name__ == "__main__":
    for key, value in run().items():
        print(f"{key:<24} {value:,.1f}")
