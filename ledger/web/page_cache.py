"""A small in-process cache of rendered parts of the match page.

A match's ``version`` goes up with every write to it or its hands, so a part rendered
for one version never goes stale: the key holds the version (and everything else the
part depends on: whether the reader may edit, the language and digits). Each process
keeps its own least-recently-used entries; nothing needs to be invalidated.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Hashable

from flask import Flask, current_app
from markupsafe import Markup

MAX_ENTRIES = 64
EXTENSION = "ledger.match_page_cache"


class FragmentCache:
    def __init__(self, size: int = MAX_ENTRIES):
        self.size = size
        self._entries: OrderedDict[Hashable, Markup] = OrderedDict()
        self._lock = threading.Lock()

    def get(self, key: Hashable) -> Markup | None:
        with self._lock:
            found = self._entries.get(key)
            if found is not None:
                self._entries.move_to_end(key)
            return found

    def put(self, key: Hashable, html: Markup) -> None:
        with self._lock:
            self._entries[key] = html
            self._entries.move_to_end(key)
            while len(self._entries) > self.size:
                self._entries.popitem(last=False)

    def clear(self) -> None:
        with self._lock:
            self._entries.clear()


def fragment_cache(app: Flask | None = None) -> FragmentCache:
    """The app's cache (made on first use)."""
    app = app or current_app
    cache = app.extensions.get(EXTENSION)
    if cache is None:
        cache = app.extensions.setdefault(EXTENSION, FragmentCache())
    return cache
