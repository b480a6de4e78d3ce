"""What a player's "Forget me" must also reach beyond the database: the pages and PDFs
already made and kept (per-request plumbing; the API and the pages call it).

The caches are keyed by a match's version or by what a part shows, so a page of the
version before the forget would never be served again; but it would stay, holding the
old name, until pushed out. So a forget empties every store of kept parts this process
holds (``page_cache.Bounded``: the pages and their parts, the report's rows, a table's
match lines and charts, the newest hands' views and the players, which hold the names
as entered), the function caches that hold names (``ledger.matches.forgettable``: the
ratings, the rating chart, the compressed bodies) and calls every hook registered with
``on_forget`` (the PDF cache on disk, shared by every process, registers one). Another
process's in-memory page cache keeps its old entries until they are pushed out (never
served: their versions are gone), as docs/security.md says.
"""

from __future__ import annotations

from collections.abc import Callable

from flask import Flask
from flask.sansio.app import App

from ledger.matches.forgettable import forget_names
from ledger.matches.page_cache import Bounded

HOOKS = "ledger_forget_hooks"


def on_forget(app: App, hook: Callable[[], None]) -> None:
    """Call ``hook`` whenever a player is forgotten."""
    app.extensions.setdefault(HOOKS, []).append(hook)


def forget_kept_pages(app: Flask) -> None:
    for kept in list(app.extensions.values()):
        if isinstance(kept, Bounded):
            kept.clear()
    forget_names()
    for hook in app.extensions.get(HOOKS, []):
        hook()
