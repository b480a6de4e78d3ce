"""The serving process never loads the PDF libraries: a child process lays PDFs out
(``ledger.pdf.child``) and pypdf is imported only to read an imported PDF, so a server
starts without them (a second of imports and tens of MB it would keep for nothing).
Pillow and zxing-cpp wait for the first wallet QR image read (``ledger.tables.qr_image``).
``marriage-ledger serve`` answers without Alembic (``ledger.migrating``: only where
migrations run), Rich (Flask-Limiter's command, a Flask plugin ``serve`` never loads) or
cryptography, segno, openskill or nepali-datetime (the first sealed edit key, QR code,
rating and Nepali date load them), on 127.0.0.1 (no QR code in the terminal), and leaves
SQLAlchemy's configuration of the mappers to the first query, as SQLAlchemy does unless
asked for it."""

from __future__ import annotations

import json
import subprocess
import sys

from postgres_cluster import free_port

SERVING = """
import json, sys
from ledger import create_app
import ledger.cli, ledger.serving.server
app = create_app({
    "INSTANCE_PATH": sys.argv[1],
    "SECRET_KEY": "lean",
    "SQLALCHEMY_DATABASE_URI": "sqlite:///" + sys.argv[1] + "/lean.sqlite3",
})
from ledger.extensions import db
with app.app_context():
    db.create_all()
client = app.test_client()
answers = [client.get(path).status_code for path in ("/", "/healthz", "/check", "/rules")]
held_back = ("weasyprint", "pypdf", "PIL", "zxingcpp")
loaded = sorted(m for m in sys.modules if m.split(".")[0] in held_back)
print(json.dumps({"answers": answers, "loaded": loaded}))
"""


def test_serving_the_app_imports_no_pdf_or_image_library(tmp_path):
    done = subprocess.run(
        [sys.executable, "-c", SERVING, str(tmp_path)],
        capture_output=True,
        text=True,
        check=True,
        timeout=120,
    )
    seen = json.loads(done.stdout.strip().splitlines()[-1])
    assert seen["answers"] == [200, 200, 200, 200]
    assert seen["loaded"] == []


#: ``marriage-ledger serve`` in this process; a thread asks for the pages once it answers,
#: says which modules were loaded, and stops it as SIGTERM does.
SERVE = """
import json, os, signal, sys, threading, time, urllib.error, urllib.request
from ledger.cli import main

def status(path):
    try:
        with urllib.request.urlopen(f"http://127.0.0.1:{sys.argv[1]}{path}", timeout=30) as r:
            return r.status
    except urllib.error.HTTPError as error:
        return error.code

def first_requests():
    while True:
        try:
            status("/healthz")
            break
        except OSError:
            time.sleep(0.05)
    from ledger.matches.models import Match
    configured = Match.__mapper__.configured  # SQLAlchemy's work for the first query
    answers = [status(path) for path in ("/healthz", "/readyz", "/", "/rules")]
    held_back = (
        "alembic", "flask_migrate", "mako", "rich", "cryptography", "segno", "openskill",
        "nepali_datetime",
    )
    loaded = sorted(m for m in sys.modules if m.split(".")[0] in held_back)
    print(json.dumps({"answers": answers, "loaded": loaded, "configured": configured}), flush=True)
    os.kill(os.getpid(), signal.SIGTERM)

threading.Thread(target=first_requests, daemon=True).start()
main(["serve", "--host", "127.0.0.1", "--port", sys.argv[1], "--quiet"])
"""


def test_serve_answers_without_alembic_or_rich(ledger_env, init_db, tmp_path):
    init_db(ledger_env)
    done = subprocess.run(
        [sys.executable, "-c", SERVE, str(free_port())],
        env=ledger_env,
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr
    seen = json.loads(done.stdout.strip().splitlines()[-1])
    assert seen["answers"] == [200, 200, 200, 200]  # /readyz: at this code's migration
    assert seen["loaded"] == []
    assert not seen["configured"]  # the mappers are configured by the first query


#: ``import ledger`` in a fresh process: the collections it set off, and the collector after.
IMPORTING = """
import gc, json
collections = [generation["collections"] for generation in gc.get_stats()]
import ledger
print(json.dumps({
    "collections": [g["collections"] - c for g, c in zip(gc.get_stats(), collections)],
    "enabled": gc.isenabled(),
    "frozen": gc.get_freeze_count(),
    "tracked": len(gc.get_objects()),
}))
"""


def test_the_apps_import_sets_off_no_collection_and_freezes_what_it_made():
    done = subprocess.run(
        [sys.executable, "-c", IMPORTING], capture_output=True, text=True, check=True, timeout=120
    )
    seen = json.loads(done.stdout.strip().splitlines()[-1])
    # Before: some 200 young collections, 19 middle, 2 full. Now only the few that loading
    # the package's code and ledger.collector sets off, before the pause.
    young, middle, full = seen["collections"]
    assert young < 10 and middle == full == 0
    assert seen["enabled"]
    # The collector's later passes walk a few thousand objects, not the import's 140,000.
    assert seen["tracked"] * 10 < seen["frozen"]
