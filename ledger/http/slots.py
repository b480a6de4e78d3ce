"""At most a few long pieces of work of one kind at once, across every process that
serves the app: PDFs laid out (``ledger.pdf.printer``), imports settled
(``ledger.http.imports``).

A PDF or an import can take seconds; without a bound, a few of them at once would hold
every server thread (waitress runs 8) and the CPU, and nobody could save a hand. Each
holds a slot: one of a few lock files in a folder (``slot-0.lock``, ``slot-1.lock``...),
locked with ``fcntl.flock``, which works between processes and between threads (each
opens the file anew) and which the kernel lets go when its holder ends, even by a
crash. A request that finds no slot free within its wait gets ``SlotsBusy`` (the routes
answer 503 with Retry-After).
"""

from __future__ import annotations

import fcntl
import os
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

#: How often a waiting request looks for a free slot again (seconds).
POLL_SECONDS = 0.05


class SlotsBusy(Exception):
    """Every slot stayed taken for the whole wait."""


@contextmanager
def render_slot(folder: Path, slots: int, wait: float) -> Iterator[int]:
    """Hold one of ``slots`` slots in ``folder`` (its number) for the ``with`` block;
    SlotsBusy when none frees within ``wait`` seconds."""
    deadline = time.monotonic() + wait
    while True:
        for number in range(slots):
            fd = os.open(folder / f"slot-{number}.lock", os.O_RDWR | os.O_CREAT, 0o600)
            try:
                fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            except BlockingIOError:
                os.close(fd)
                continue
            try:
                yield number
            finally:
                os.close(fd)  # lets the lock go
            return
        if time.monotonic() >= deadline:
            raise SlotsBusy
        time.sleep(POLL_SECONDS)
