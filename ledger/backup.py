"""A whole database copied while the ledger serves it, and put back.

SQLite: ``backup`` copies through SQLite's online backup API (``sqlite3.Connection.
backup``), in one step inside one read transaction, so the copy is the database as it
was at one instant even while the server writes (WAL mode: the writers do not wait for
it). Copying the file itself is not safe: the last writes may still be in the ``-wal``
file beside it. The copy is written aside, checked (``PRAGMA integrity_check``) and
renamed into place, so a file at the name is always a whole backup. ``restore`` copies
a backup into the configured database by the same API (under its write lock: a running
server sees the old database or the restored one, never half of each), after checking
that it is a ledger's database.

PostgreSQL has its own tools, which take a consistent snapshot of a served database:
``pg_dump`` and ``pg_restore``: ``backup`` and ``restore`` say how, with the database's
URL.
"""

from __future__ import annotations

import os
import sqlite3
from pathlib import Path

from sqlalchemy.engine import URL, make_url


class BackupError(Exception):
    """A backup or restore that cannot be made; the sentence says why and what to do."""


def sqlite_file(database_url: str) -> Path:
    """The file of an SQLite database URL; BackupError for another database."""
    url = make_url(database_url)
    if url.get_backend_name() != "sqlite":
        raise BackupError(_use_postgresql_tools(url))
    if not url.database or url.database == ":memory:":
        raise BackupError("This SQLite database lives in memory: there is no file to back up.")
    return Path(url.database)


def _use_postgresql_tools(url: URL) -> str:
    """The commands themselves: an installed ledger has no docs/ folder to point at."""
    tools_url = url.set(drivername=url.get_backend_name()).render_as_string(hide_password=True)
    return (
        f"The database is {url.get_backend_name()}, not SQLite: back it up with PostgreSQL's"
        f" own tools, while the ledger serves:\n"
        f"  pg_dump --format=custom --file=ledger-$(date +%F).dump '{tools_url}'\n"
        "and put it back with every `marriage-ledger serve` stopped, into the database"
        " emptied first (a dump of an older version cannot replace the newer tables in"
        " place), then bring it up to date, each line once the one before it succeeded:\n"
        "  pg_restore --list ledger-YYYY-MM-DD.dump > /dev/null\n"
        "  psql --quiet --single-transaction --command='DROP SCHEMA public CASCADE'"
        f" --command='CREATE SCHEMA public' '{tools_url}'\n"
        "  pg_restore --no-owner --single-transaction --exit-on-error"
        f" --dbname='{tools_url}' ledger-YYYY-MM-DD.dump\n"
        "  marriage-ledger init-db\n"
        "(*** stands for the password in LEDGER_DATABASE_URL.)"
    )


def backup(database_url: str, target: Path) -> int:
    """Copy the database to ``target`` (replaced if it exists); the number of pages."""
    source_path = sqlite_file(database_url)
    if not source_path.exists():
        raise BackupError(f"There is no database at {source_path}: nothing to back up.")
    if not target.parent.is_dir():  # SQLite's own word was "unable to open database file"
        raise BackupError(
            f"There is no folder {target.parent} to back up into: make it first"
            f" (mkdir -p {target.parent}), or name a file in a folder that exists."
        )
    draft = target.with_name(target.name + ".tmp")
    draft.unlink(missing_ok=True)
    source = sqlite3.connect(source_path, timeout=30)  # reads only
    try:
        copy = sqlite3.connect(draft)
        try:
            source.backup(copy)  # one step: one snapshot, whatever the writers do
            copy.execute("PRAGMA journal_mode=DELETE")  # one self-contained file
            _check(copy, draft)
            pages: int = copy.execute("PRAGMA page_count").fetchone()[0]
        finally:
            copy.close()
    finally:
        source.close()
    os.replace(draft, target)
    return pages


def restore(backup_file: Path, database_url: str) -> None:
    """Replace the configured SQLite database's content with ``backup_file``'s."""
    target_path = sqlite_file(database_url)
    if not backup_file.is_file():
        raise BackupError(f"There is no backup at {backup_file}.")
    source = sqlite3.connect(f"file:{backup_file}?mode=ro", uri=True)
    try:
        _check(source, backup_file)
        target_path.parent.mkdir(parents=True, exist_ok=True)
        target = sqlite3.connect(target_path, timeout=30)
        try:
            source.backup(target)
        finally:
            target.close()
    finally:
        source.close()


def _check(connection: sqlite3.Connection, path: Path) -> None:
    try:
        verdict = connection.execute("PRAGMA integrity_check").fetchone()[0]
        tables = {row[0] for row in connection.execute("SELECT name FROM sqlite_master")}
    except sqlite3.DatabaseError as problem:
        raise BackupError(f"{path} is not an SQLite database ({problem}).") from None
    if verdict != "ok":
        raise BackupError(f"{path} is damaged: {verdict}")
    if not {"alembic_version", "matches"} <= tables:
        raise BackupError(f"{path} is not a Marriage ledger's database.")
