"""Python's cycle collector kept off work that makes many objects and no garbage: a
season's work at once, and the app's import."""

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


@contextmanager
def kept_for_good() -> Iterator[None]:
    """The block's objects are the process's for good: made with the collector paused, then
    frozen (``gc.freeze``), so that no later collection walks them again.

    The app's import (``ledger/__init__.py``) makes some 140,000 objects that live as long
    as the process and about 600 that are garbage. Collected as they came, they took two
    full collections and a score of the younger ones, some 60 of the 460 ms of CPU
    ``marriage-ledger serve`` took before it answered; and every full collection while it
    served walked them all again (50 ms, the interpreter's lock held). The garbage is kept.
    Everything the process made before the block is frozen with them: the interpreter's
    own start, or the objects of whatever imported the app (a test run's)."""
    with collector_paused():
        yield
        gc.freeze()
