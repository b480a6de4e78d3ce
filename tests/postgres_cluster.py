"""A throwaway PostgreSQL cluster for the test suite (``pytest --db=postgresql``).

It uses the server binaries of Debian's ``postgresql`` package (under
``/usr/lib/postgresql/<version>/bin``; ``scripts/install-system-deps.sh`` installs it),
or those of ``$LEDGER_TEST_PG_BIN``. PostgreSQL refuses to run as root, so under root
the cluster belongs to the unprivileged user ``nobody`` (``runuser``). It listens on
127.0.0.1 only, on a free port, trusts local connections, and trades durability for
speed (fsync off): it lives as long as the test session, in a temporary folder.
"""

from __future__ import annotations

import atexit
import glob
import itertools
import os
import shutil
import socket
import subprocess
import tempfile
from pathlib import Path

SUPERUSER = "postgres"
UNPRIVILEGED = "nobody"
SPEED_SETTINGS = {
    "fsync": "off",
    "synchronous_commit": "off",
    "full_page_writes": "off",
}


def server_binaries() -> Path | None:
    """The folder holding initdb and pg_ctl (the newest Debian version), or None."""
    configured = os.environ.get("LEDGER_TEST_PG_BIN")
    if configured:
        return Path(configured)
    found = sorted(
        glob.glob("/usr/lib/postgresql/*/bin/initdb"),
        key=lambda path: int(Path(path).parent.parent.name),
    )
    return Path(found[-1]).parent if found else None


def free_port() -> int:
    """A TCP port on 127.0.0.1 that nothing listens on just now."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Cluster:
    """A running cluster; ``create_database`` hands out fresh databases by name."""

    def __init__(self, bindir: Path):
        self.bindir = bindir
        self.root = Path(tempfile.mkdtemp(prefix="ledger-pg-"))
        self.data = self.root / "data"
        self.port = free_port()
        self._names = itertools.count(1)
        self._as_user: list[str] = []
        if os.geteuid() == 0:
            shutil.chown(self.root, UNPRIVILEGED)
            self._as_user = ["runuser", "-u", UNPRIVILEGED, "--"]

    def _run(self, tool: str, *args: str) -> None:
        subprocess.run(
            [*self._as_user, str(self.bindir / tool), *args],
            cwd=self.root,  # readable by the cluster's owner (the caller's may not be)
            check=True,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.PIPE,
            text=True,
        )

    def start(self) -> Cluster:
        self._run(
            "initdb",
            "-D",
            str(self.data),
            "-U",
            SUPERUSER,
            "--auth=trust",
            "-E",
            "UTF8",
            "--locale=C.UTF-8",
            "--no-sync",
        )
        self.resume()
        atexit.register(self.stop)  # also when the session ends badly
        return self

    def resume(self) -> None:
        """Start the server on the cluster's data (after ``start``'s initdb, or ``halt``)."""
        options = [
            f"-p {self.port}",
            "-c listen_addresses=127.0.0.1",
            "-c unix_socket_directories=''",
        ]
        options += [f"-c {name}={value}" for name, value in SPEED_SETTINGS.items()]
        self._run(
            "pg_ctl",
            "-D",
            str(self.data),
            "-l",
            str(self.root / "server.log"),
            "-o",
            " ".join(options),
            "-w",
            "start",
        )

    def halt(self) -> None:
        """Stop the server as an administrator would (its connections cut), keeping the
        data: a fault test's database going away under the app; ``resume`` brings it back."""
        self._run("pg_ctl", "-D", str(self.data), "-m", "fast", "-w", "stop")

    def stop(self) -> None:
        if self.data.exists():
            try:
                self._run("pg_ctl", "-D", str(self.data), "-m", "immediate", "-w", "stop")
            except subprocess.CalledProcessError:
                pass  # already stopped
        shutil.rmtree(self.root, ignore_errors=True)

    def main_pid(self) -> int:
        """The server's main process (the first line of its ``postmaster.pid``)."""
        return int((self.data / "postmaster.pid").read_text().split()[0])

    def url(self, database: str) -> str:
        """The SQLAlchemy URL of ``database``, with the driver the app documents."""
        return f"postgresql+psycopg://{SUPERUSER}@127.0.0.1:{self.port}/{database}"

    def admin(self, sql: str) -> None:
        """Run one statement outside a transaction (CREATE/DROP DATABASE need that)."""
        import psycopg

        with psycopg.connect(
            host="127.0.0.1", port=self.port, user=SUPERUSER, dbname="postgres", autocommit=True
        ) as connection:
            connection.execute(sql)

    def create_database(self, template: str = "template0") -> str:
        """A new database copied from ``template``; returns its name."""
        name = f"test_{next(self._names)}"
        self.admin(f'CREATE DATABASE "{name}" TEMPLATE "{template}" STRATEGY FILE_COPY')
        return name

    def drop_database(self, name: str) -> None:
        """Drop it, ending any connection a test left open."""
        self.admin(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
