"""An app served by waitress on loopback for a benchmark: a throwaway SQLite database, a
free port, and a clean stop (a server thread left running at exit can crash native
libraries such as WeasyPrint's)."""

from __future__ import annotations

import socket
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager

from flask import Flask

from ledger import create_app
from ledger.extensions import db
from ledger.serving.server import serving_in_thread


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@contextmanager
def bench_app() -> Iterator[Flask]:
    """A new app on a throwaway SQLite database (its tables made) while the block runs;
    its instance folder is a temporary one too. Rate limits off: a benchmark measures
    the work, not the limits."""
    with tempfile.TemporaryDirectory() as tmp:
        app = create_app(
            {
                "INSTANCE_PATH": tmp,
                "SECRET_KEY": "bench",
                "SQLALCHEMY_DATABASE_URI": f"sqlite:///{tmp}/bench.sqlite3",
                "RATELIMIT_ENABLED": False,
            }
        )
        with app.app_context():
            db.create_all()
        yield app


@contextmanager
def served(threads: int = 4) -> Iterator[int]:
    """Serve a new app on 127.0.0.1 while the block runs; yields its port."""
    with bench_app() as app, serving_in_thread(app, threads) as port:
        yield port
