"""`make bench`: the figures the issues ask for, printed one line each."""

from __future__ import annotations

import os
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from bench import (  # noqa: E402
    api_bench,
    body_bench,
    engine_bench,
    followers,
    form_bench,
    hosted,
    import_bench,
    pages_bench,
    pdf_bench,
    scale_bench,
    season_rescore_bench,
    settle_up_bench,
    start_bench,
    tables_bench,
)


def line(label: str, figures: dict[str, float]) -> None:
    shown = ", ".join(
        f"{k} {v:,.2f}" if isinstance(v, float) else f"{k} {v:,}" for k, v in figures.items()
    )
    print(f"{label:<40} {shown}", flush=True)


def main() -> None:
    line("engine: 4-player hands, maal cards", engine_bench.run())
    line("engine: 4-player hands, all 21 cards", engine_bench.run(form="all_cards"))
    line("engine: 4-player hands, maal as numbers", engine_bench.run(form="numbers"))
    line("engine: settle-up of 10 players", settle_up_bench.run())
    for label, figures in body_bench.run().items():
        line(f"hand body read by {label}", figures)
    line("api: POST /api/v1/settle (test client)", api_bench.run())
    for label, figures in scale_bench.run().items():
        line(f"match of {label} (test client)", figures)
    line(f"table of {tables_bench.MATCHES} x {tables_bench.HANDS} hands", tables_bench.run())
    line("season rescore (CPU) x the engine; season PDF", season_rescore_bench.run())
    hosted.run()  # prints its ratio lines and the EXPLAIN of its queries
    for label, figures in pages_bench.run().items():
        line(f"waitress: {label}", figures)
    for label, figures in pdf_bench.run().items():
        line(f"pdf: {label}", figures)
    followers.main(setups=followers.SETUPS)
    line("start: first answer x one-line app; RSS MB", start_bench.run())
    import_bench.main()
    if form_bench.available():
        line("form: new hand, 4 players, 390x844", form_bench.run())
    else:
        print("form: new hand: skipped (no /usr/bin/chromium: run `make system-deps`)")


if __name__ == "__main__":
    main()
