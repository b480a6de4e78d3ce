"""What a player's "Forget me" must also reach beyond the database: the pages and PDFs
already made and kept (per-request plumbing; the API and the pages call it).

The caches are keyed by a match's version, so a page of the version before the forget
would never be served again; but it would stay, holding the old name, until pushed
out. So a forget empties this process's page cache, its kept views of the newest
hands (``ledger.matches.hands_kept``, which hold the names as entered) and its kept
players (``ledger.matches.players_kept``), and calls every
hook registered with ``on_forget`` (the PDF cache on disk, shared by every process, registers one).
Another process's in-memory page cache keeps its old entries until they are pushed
out (never served: their versions are gone), as docs/security.md says.
"""

from __future__ import annotations

from collections.abc import Callable

from flask import Flask
from flask.sansio.app import App

from ledger.matches.hands_kept import kept_hands
from ledger.matches.page_cache import fragment_cache
from ledger.matches.players_kept import kept_players

HOOKS = "ledger_forget_hooks"


def on_forget(app: App, hook: Callable[[], None]) -> None:
    """Call ``hook`` whenever a player is forgotten."""
    app.extensions.setdefault(HOOKS, []).append(hook)


def forget_kept_pages(app: Flask) -> None:
    fragment_cache(app).clear()
    kept_hands(app).clear()
    kept_players(app).clear()
    for hook in app.extensions.get(HOOKS, []):
        hook()
