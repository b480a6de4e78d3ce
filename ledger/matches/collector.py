"""Work on a whole season at once, spared the cycle collector's passes over it."""

from __future__ import annotations

import gc
from collections.abc import Iterator
from contextlib import contextmanager


@contextmanager
def collector_paused() -> Iterator[None]:
    """Python's cycle collector paused for the block. The collector runs after every 700
    new objects and, as they pile up, walks more and more of the server's; reading a
    season's thousands of hands (a rescore, an export) makes hundreds of thousands that
    form no cycle, and the collections cost as much again as the work. It runs again at
    the end; it is the process's, so other threads' requests go without it meanwhile."""
    enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if enabled:
            gc.enable()
