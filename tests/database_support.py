"""The databases the tests run on: SQLite files (the default) or PostgreSQL databases in
a throwaway cluster (``pytest --db=postgresql``, or ``LEDGER_TEST_DB=postgresql``).

Each app a test makes gets a database of its own: ``create(folder, schema=True)`` has
the models' tables already, ``schema=False`` is empty (for the migrations); ``drop``
removes it when the test is over.
"""

from __future__ import annotations

import shutil
from pathlib import Path

from postgres_cluster import Cluster, server_binaries
from sqlalchemy import create_engine

from ledger.extensions import db

CHOICES = ("sqlite", "postgresql")


class SQLiteDatabases:
    """A file in the test's folder, nothing to drop. One with the tables is a copy of a
    file made once from the models, which is quicker than creating its tables."""

    name = "sqlite"

    def __init__(self, folder: Path) -> None:
        self.template = folder / "template.sqlite3"

    def create(self, folder: Path, schema: bool = True) -> str:
        folder.mkdir(parents=True, exist_ok=True)
        path = folder / "test.sqlite3"
        if schema:
            if not self.template.exists():
                _create_tables(f"sqlite:///{self.template}")
            shutil.copyfile(self.template, path)
        return f"sqlite:///{path}"

    def drop(self, url: str) -> None:
        pass

    def close(self) -> None:
        pass


class PostgresDatabases:
    """Databases in one cluster for the session. Those with the tables are made once
    from the models and handed out again after a test: emptied (TRUNCATE, identities
    restarted), which is quicker than creating a database or its tables. One whose
    tables a test changed is dropped instead."""

    name = "postgresql"

    def __init__(self) -> None:
        bindir = server_binaries()
        if bindir is None:
            raise RuntimeError(
                "--db=postgresql needs PostgreSQL's server binaries: run `make system-deps`"
            )
        self.cluster = Cluster(bindir).start()
        import ledger.matches.models  # noqa: F401  (registers the tables)

        self.columns = {(t.name, c.name) for t in db.metadata.sorted_tables for c in t.columns}
        self.template = self.cluster.create_database()
        _create_tables(self.cluster.url(self.template))
        self.with_tables: set[str] = set()
        self.free: list[str] = []

    def create(self, folder: Path, schema: bool = True) -> str:
        if not schema:
            return self.cluster.url(self.cluster.create_database())
        if self.free:
            return self.cluster.url(self.free.pop())
        name = self.cluster.create_database(self.template)
        self.with_tables.add(name)
        return self.cluster.url(name)

    def drop(self, url: str) -> None:
        name = url.rsplit("/", 1)[1]
        if name in self.with_tables and self._emptied(name):
            self.free.append(name)
        else:
            self.with_tables.discard(name)
            self.cluster.drop_database(name)

    def _emptied(self, name: str) -> bool:
        """Empty the tables of ``name`` for the next test, if they are still the models'."""
        import psycopg

        with psycopg.connect(
            host="127.0.0.1",
            port=self.cluster.port,
            user="postgres",
            dbname=name,
            autocommit=True,
        ) as connection:
            connection.execute(  # connections a test left open would hold locks
                "SELECT pg_terminate_backend(pid) FROM pg_stat_activity "
                "WHERE datname = current_database() AND pid <> pg_backend_pid()"
            )
            columns = set(
                connection.execute(
                    "SELECT table_name, column_name FROM information_schema.columns "
                    "WHERE table_schema = 'public'"
                ).fetchall()
            )
            if columns != self.columns:
                return False
            tables = ", ".join(sorted({table for table, _ in columns}))
            connection.execute(f"TRUNCATE {tables} RESTART IDENTITY CASCADE")
        return True

    def close(self) -> None:
        self.cluster.stop()


def _create_tables(url: str) -> None:
    engine = create_engine(url)
    try:
        db.metadata.create_all(engine)
    finally:
        engine.dispose()


def open_databases(choice: str, folder: Path) -> SQLiteDatabases | PostgresDatabases:
    """The session's databases; ``folder`` holds SQLite's template file."""
    return PostgresDatabases() if choice == "postgresql" else SQLiteDatabases(folder)
