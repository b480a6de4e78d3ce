"""``marriage-ledger copy-db`` on a hosted ledger: the hosted bench's full PostgreSQL
database (``bench.hosted``: 200 tables, 100,000 hands) copied into a new SQLite file and
back into a new PostgreSQL database, each by the command in a process of its own: its
time, rows a second, and the process's peak memory (the rows are streamed in batches,
so it should not grow with the ledger)."""

from __future__ import annotations

import os
import subprocess
import sys
import time
from pathlib import Path

from flask import Flask
from sqlalchemy import text

from ledger.extensions import db
from ledger.migrating import FOLDER, migration_heads

#: The command, printing its own peak memory (KiB) when it exits.
COMMAND = (
    "import atexit, resource, sys; atexit.register(lambda: print('peak', "
    "resource.getrusage(resource.RUSAGE_SELF).ru_maxrss, file=sys.stderr)); "
    "from ledger.cli import main; main()"
)


def stamp(app: Flask) -> None:
    """Mark a database made from the models (as the benches make them) as at this
    version's migration, as ``init-db`` leaves one: ``copy-db`` copies only such."""
    (head,) = migration_heads(app.extensions[FOLDER])
    with app.app_context(), db.engine.begin() as connection:
        connection.execute(
            text("CREATE TABLE IF NOT EXISTS alembic_version (version_num VARCHAR(32) NOT NULL)")
        )
        connection.execute(text("DELETE FROM alembic_version"))
        connection.execute(text("INSERT INTO alembic_version VALUES (:head)"), {"head": head})


def copy(source_url: str, target_url: str, folder: Path) -> dict[str, float]:
    """One ``copy-db`` run in a process of its own: seconds, rows a second, peak MB."""
    env = {
        **os.environ,
        "LEDGER_INSTANCE_PATH": str(folder),
        "LEDGER_DATABASE_URL": target_url,
        "LEDGER_SECRET_KEY": "bench",
    }
    start = time.perf_counter()
    done = subprocess.run(
        [sys.executable, "-c", COMMAND, "copy-db", source_url],
        env=env,
        capture_output=True,
        text=True,
        check=True,
    )
    seconds = time.perf_counter() - start
    peak = int(done.stderr.rsplit("peak ", 1)[1].split()[0])
    counts = done.stdout.rsplit("(rows: ", 1)[1].rstrip(").\n").split(", ")
    rows = sum(int(part.rsplit(" ", 1)[1]) for part in counts)
    return {
        "rows": rows,
        "seconds": seconds,
        "rows/s": rows / seconds,
        "peak MB": peak / 1024,
    }
