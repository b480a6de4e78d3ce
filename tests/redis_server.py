"""A throwaway Redis server for the tests of the shared rate limits.

It runs Debian's ``redis-server`` (``scripts/install-system-deps.sh`` installs it) on
127.0.0.1 only, on a free port, keeping nothing on disk, in a temporary folder. Under
root it runs as the unprivileged user ``nobody`` (``runuser``), as the PostgreSQL
cluster of ``postgres_cluster`` does.
"""

from __future__ import annotations

import os
import shutil
import socket
import subprocess
import tempfile
import time
from pathlib import Path

from postgres_cluster import UNPRIVILEGED, free_port

STARTUP_SECONDS = 10


def server_binary() -> str | None:
    return shutil.which("redis-server") or (
        "/usr/bin/redis-server" if os.path.exists("/usr/bin/redis-server") else None
    )


class RedisServer:
    def __init__(self, binary: str):
        self.binary = binary
        self.root = Path(tempfile.mkdtemp(prefix="ledger-redis-"))
        self.port = free_port()
        self.url = f"redis://127.0.0.1:{self.port}"
        self._as_user: list[str] = []
        if os.geteuid() == 0:
            shutil.chown(self.root, UNPRIVILEGED)
            self._as_user = ["runuser", "-u", UNPRIVILEGED, "--"]
        self.process: subprocess.Popen | None = None

    def start(self) -> RedisServer:
        self.process = subprocess.Popen(
            [
                *self._as_user,
                self.binary,
                "--port",
                str(self.port),
                "--bind",
                "127.0.0.1",
                "--save",
                "",
                "--appendonly",
                "no",
                "--dir",
                str(self.root),
            ],
            cwd=self.root,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        deadline = time.monotonic() + STARTUP_SECONDS
        while time.monotonic() < deadline:
            if self._answers():
                return self
            time.sleep(0.05)
        self.stop()
        raise RuntimeError(f"redis-server did not answer on port {self.port}")

    def _answers(self) -> bool:
        try:
            with socket.create_connection(("127.0.0.1", self.port), timeout=1) as s:
                s.sendall(b"PING\r\n")
                return s.recv(16).startswith(b"+PONG")
        except OSError:
            return False

    def stop(self) -> None:
        if self.process is not None and self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()
        shutil.rmtree(self.root, ignore_errors=True)
