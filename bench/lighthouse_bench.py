"""`make lighthouse`: Lighthouse's mobile performance and accessibility audits of the main
phone pages (home, match, new hand, the table, a player's own page, the dispute checker),
served by waitress on loopback from a temporary SQLite database with a seeded match and
table.

Lighthouse (the npm package, installed by `make lighthouse` into the git-ignored
``.lighthouse/``) drives Debian's Chromium headless. Each run is bounded in time; the
server stops when the runs are done. Prints one line per page: the performance score
and the metrics it is made of (FCP, LCP, CLS, TBT, Speed Index), the accessibility
score, and the accessibility audits that failed, if any.
"""

from __future__ import annotations

import argparse
import json
import logging
import os
import random
import shutil
import subprocess
import sys
from http.cookies import SimpleCookie
from pathlib import Path
from urllib.parse import urlsplit

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


from bench.pages_bench import PLAYERS, Client, hand_body, seed_match  # noqa: E402
from bench.serving import served  # noqa: E402
from ledger.i18n.language import LANG_COOKIE  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
LOCAL_CLI = ROOT / ".lighthouse" / "node_modules" / "lighthouse" / "cli" / "index.js"
CHROME = os.environ.get("CHROME_PATH", "/usr/bin/chromium")
RUN_TIMEOUT_S = 240
#: The seeded table: four players at a stake, so its pages show the money.
TABLE = {
    "name": "Friday table",
    "players": PLAYERS,
    "rules": "amarnepal",
    "stake": {"per_point": "1.00", "currency": "NPR"},
}
METRICS = {
    "FCP_s": "first-contentful-paint",
    "LCP_s": "largest-contentful-paint",
    "SI_s": "speed-index",
    "TBT_ms": "total-blocking-time",
    "CLS": "cumulative-layout-shift",
}


def lighthouse_command() -> list[str] | None:
    """How to run Lighthouse here: the local install, else one on PATH, else None."""
    if LOCAL_CLI.is_file() and shutil.which("node"):
        return [shutil.which("node") or "node", str(LOCAL_CLI)]
    found = shutil.which("lighthouse")
    return [found] if found else None


def audit(command: list[str], url: str, cookie: str) -> tuple[dict[str, float], list[str]]:
    """One mobile audit (Lighthouse's defaults: a simulated mid-range phone): the
    performance figures and the accessibility score, and the accessibility audits failed."""
    args = [
        *command,
        url,
        "--only-categories=performance,accessibility",
        "--output=json",
        "--output-path=stdout",
        "--quiet",
        "--chrome-flags=--headless=new --no-sandbox --disable-gpu",
        "--extra-headers=" + json.dumps({"Cookie": cookie}),
    ]
    done = subprocess.run(
        args,
        capture_output=True,
        text=True,
        timeout=RUN_TIMEOUT_S,
        check=False,
        env={**os.environ, "CHROME_PATH": CHROME},
    )
    if done.returncode != 0:
        raise RuntimeError(f"lighthouse failed on {url}: {done.stderr[-2000:]}")
    report = json.loads(done.stdout)
    if os.environ.get("LIGHTHOUSE_REPORTS"):  # keep the full reports, for a closer look
        folder = Path(os.environ["LIGHTHOUSE_REPORTS"])
        folder.mkdir(parents=True, exist_ok=True)
        name = urlsplit(url).path.strip("/").replace("/", "_") or "home"  # /tables/x, /me/x apart
        (folder / f"{name}.json").write_text(done.stdout, encoding="utf-8")
    if report.get("runtimeError"):
        raise RuntimeError(f"lighthouse on {url}: {report['runtimeError']}")
    audits = report["audits"]
    figures: dict[str, float] = {"score": round(report["categories"]["performance"]["score"] * 100)}
    for label, key in METRICS.items():
        value = audits[key]["numericValue"]
        figures[label] = value / 1000 if label.endswith("_s") else value
    accessibility = report["categories"]["accessibility"]
    figures["a11y"] = round(accessibility["score"] * 100)
    failed = [
        ref["id"]
        for ref in accessibility["auditRefs"]
        if ref["weight"]
        and audits[ref["id"]]["score"] is not None
        and audits[ref["id"]]["score"] < 1
    ]
    return figures, failed


def seed(client: Client, hands: int) -> tuple[str, str]:
    """A four-player match with ``hands`` hands; its id and the editor's session cookie."""
    match = seed_match(client, hands, random.Random(11))
    return match["id"], _cookie(client, f"/matches/{match['id']}/join/{match['edit_key']}")


def seed_table(client: Client) -> tuple[str, str, str, str]:
    """A table at a stake with a night of ten hands and a payment: its id and the
    editor's session cookie, the path of Dipa's own page and her phone's cookie."""
    table = _made(client, "/api/v1/tables", TABLE)
    auth = {"Authorization": f"Bearer {table['edit_key']}"}
    night = {"name": "Friday", "players": PLAYERS, "rules": "amarnepal"}
    match = _made(client, f"/api/v1/tables/{table['id']}/matches", night, auth)["id"]
    rng = random.Random(13)
    for _ in range(10):
        _made(client, f"/api/v1/matches/{match}/hands", hand_body(rng, PLAYERS), auth)
    paid = {"from": "Bikash", "to": "Asha", "amount": "5.00"}
    _made(client, f"/api/v1/tables/{table['id']}/payments", paid, auth)
    link = _made(client, f"/api/v1/tables/{table['id']}/players/Dipa/link", None, auth)
    editor = _cookie(client, f"/tables/{table['id']}/join/{table['edit_key']}")
    dipa = _cookie(client, urlsplit(link["url"]).path)
    return table["id"], editor, f"/me/{table['id']}", dipa


def _made(client: Client, path: str, body: object, headers=None) -> dict:
    """POST ``body`` to the API: made (201); the answer's JSON."""
    _, status, payload = client.request("POST", path, body, headers)
    assert status == 201, payload
    return json.loads(payload)


def _cookie(client: Client, path: str) -> str:
    """The session cookie a visit to ``path`` (a join link) gives."""
    client.conn.request("GET", path)
    response = client.conn.getresponse()
    response.read()
    cookies = SimpleCookie(response.headers["Set-Cookie"])
    return "; ".join(f"{name}={morsel.value}" for name, morsel in cookies.items())


def run(hands: int = 40, language: str = "en") -> dict[str, tuple[dict[str, float], list[str]]]:
    command = lighthouse_command()
    if command is None:
        return {}
    logging.getLogger("waitress").setLevel(logging.ERROR)  # its queue-depth warnings
    with served() as port:
        client = Client(port)
        try:
            public_id, editor = seed(client, hands)
            table_id, keeper, own_page, dipa = seed_table(client)
            reader = f"{LANG_COOKIE}={language}"
            base = f"http://127.0.0.1:{port}"
            pages = {
                "home": (f"{base}/", reader),
                f"match page, {hands} hands (a follower)": (f"{base}/matches/{public_id}", reader),
                "new-hand page (the scorekeeper)": (
                    f"{base}/matches/{public_id}/hands/new",
                    f"{editor}; {reader}",
                ),
                "table page (the scorekeeper)": (
                    f"{base}/tables/{table_id}",
                    f"{keeper}; {reader}",
                ),
                "a player's own page": (f"{base}{own_page}", f"{dipa}; {reader}"),
                "dispute checker": (f"{base}/check", reader),
            }
            return {label: audit(command, url, c) for label, (url, c) in pages.items()}
        finally:
            client.conn.close()


def main() -> None:
    parser = argparse.ArgumentParser(description="Lighthouse's mobile audits")
    parser.add_argument("--hands", type=int, default=40, help="hands in the seeded match")
    parser.add_argument("--lang", default="en", choices=("en", "ne"), help="the pages' language")
    args = parser.parse_args()
    results = run(args.hands, args.lang)
    if not results:
        print("lighthouse: not installed (`make lighthouse` installs it into .lighthouse/)")
        return
    for label, (figures, failed) in results.items():
        shown = ", ".join(
            f"{k} {v:.0f}"
            if k in ("score", "TBT_ms", "a11y")
            else f"{k} {v:.3f}"
            if k == "CLS"
            else f"{k} {v:.2f}"
            for k, v in figures.items()
        )
        if failed:
            shown += " (failed: " + ", ".join(failed) + ")"
        print(f"lighthouse (mobile, {args.lang}): {label:<40} {shown}", flush=True)


if __name__ == "__main__":
    main()
