"""Make docs/screen.png: the big screen of a match (issue 27) at 1920 × 1080, as a TV
shows it, with six hands of four players at a stake. Rerun it when the screen changes:

    .venv/bin/python scripts/screen_shot.py [--scheme dark] [--lang ne] [--size 1280x720]
                                            [--out FILE]

The app is served on 127.0.0.1 at a free port over a throwaway SQLite database; the
match and its hands go in through the JSON API, as a scorekeeper's phone sends them;
headless Chromium (/usr/bin/chromium, driven by Playwright) takes the picture.
"""

from __future__ import annotations

import argparse
import logging
import sys
import tempfile
import threading
from pathlib import Path

from werkzeug.serving import make_server

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from ledger import create_app  # noqa: E402
from ledger.extensions import db  # noqa: E402

PLAYERS = ["Asha", "Bikash", "Chandra", "Dipa"]
STAKE = {"per_point": "0.50", "currency": "NPR"}
#: (finisher, how, each player's (seen, maal) in seat order) for the six hands.
HANDS = [
    ("Asha", "sequences", [("sequences", 10), ("sequences", 5), ("sequences", 0), ("unseen", 8)]),
    ("Bikash", "sequences", [("sequences", 3), ("sequences", 12), ("unseen", 0), ("sequences", 4)]),
    ("Dipa", "dublees", [("sequences", 3), ("dublees", 2), ("unseen", 0), ("dublees", 6)]),
    ("Chandra", "sequences", [("sequences", 2), ("unseen", 0), ("sequences", 9), ("sequences", 1)]),
    ("Asha", "sequences", [("sequences", 7), ("sequences", 0), ("sequences", 4), ("sequences", 3)]),
    ("Bikash", "sequences", [("unseen", 0), ("sequences", 8), ("sequences", 2), ("sequences", 5)]),
]
CHROMIUM = "/usr/bin/chromium"


def hand(winner: str, finish: str, rows: list[tuple[str, int]]) -> dict:
    players = [
        {"name": name, "seen": seen, "maal": maal}
        for name, (seen, maal) in zip(PLAYERS, rows, strict=True)
    ]
    return {"finish": finish, "winner": winner, "players": players}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--scheme", choices=["light", "dark"], default="light")
    parser.add_argument("--lang", choices=["en", "ne"], default="en")
    parser.add_argument("--size", default="1920x1080", help="the window, WIDTHxHEIGHT")
    parser.add_argument("--out", type=Path, default=ROOT / "docs" / "screen.png")
    args = parser.parse_args()
    from playwright.sync_api import sync_playwright

    logging.getLogger("werkzeug").setLevel(logging.WARNING)  # not a line per request

    with tempfile.TemporaryDirectory() as folder:
        app = create_app(
            {
                "INSTANCE_PATH": folder,
                "SECRET_KEY": "screenshot",
                "SQLALCHEMY_DATABASE_URI": f"sqlite:///{folder}/ledger.sqlite",
                "RATELIMIT_ENABLED": False,
            }
        )
        with app.app_context():
            db.create_all()
        server = make_server("127.0.0.1", 0, app, threaded=True)
        thread = threading.Thread(target=server.serve_forever, daemon=True)
        thread.start()
        base = f"http://127.0.0.1:{server.server_port}"
        try:
            with sync_playwright() as pw:
                browser = pw.chromium.launch(executable_path=CHROMIUM, args=["--headless"])
                width, height = (int(n) for n in args.size.split("x"))
                context = browser.new_context(viewport={"width": width, "height": height})
                page = context.new_page()
                made = page.request.post(
                    f"{base}/api/v1/matches",
                    data={
                        "name": "Tihar at Asha's",
                        "players": PLAYERS,
                        "rules": "sparkai",
                        "length": {"hands": 12},
                        "stake": STAKE,
                    },
                ).json()
                auth = {"Authorization": f"Bearer {made['edit_key']}"}
                for winner, finish, rows in HANDS:
                    url = f"{base}/api/v1/matches/{made['id']}/hands"
                    stored = page.request.post(url, data=hand(winner, finish, rows), headers=auth)
                    assert stored.status == 201, stored.text()
                screen = f"/matches/{made['id']}/screen?scheme={args.scheme}"
                page.goto(f"{base}/lang/{args.lang}?next={screen}")
                page.evaluate("() => document.fonts.ready")
                page.screenshot(path=str(args.out), full_page=True)
                browser.close()
        finally:
            server.shutdown()
            server.server_close()
            thread.join(timeout=5)
    print(args.out)


if __name__ == "__main__":
    main()
