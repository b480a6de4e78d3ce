"""A small in-process cache of rendered parts of the match page and of match JSON.

A match's ``version`` goes up with every write to it or its hands, so a part rendered
for one version never goes stale: the key holds the version (and everything else the
part depends on: whether the reader may edit, the language and digits). Each process
keeps its own least-recently-used entries, bounded in count and in characters (a
thousand-hand match's JSON is some 3 MB); nothing needs to be invalidated.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Hashable

from flask import Flask, current_app

MAX_ENTRIES = 64
MAX_CHARS = 24 * 1024 * 1024
EXTENSION = "ledger.match_page_cache"


class FragmentCache:
    def __init__(self, size: int = MAX_ENTRIES, chars: int = MAX_CHARS):
        self.size, self.chars = size, chars
        self._entries: OrderedDict[Hashable, str] = OrderedDict()
        self._held = 0  # characters in the entries
        self._lock = threading.Lock()

    def get(self, key: Hashable) -> str | None:
        with self._lock:
            found = self._entries.get(key)
            if found is not None:
                self._entries.move_to_end(key)
            return found

    def put(self, key: Hashable, text: str) -> None:
        """Keep ``text`` (HTML Markup, or JSON), dropping the least recently used."""
        if len(text) > self.chars:
            return
        with self._lock:
            old = self._entries.pop(key, None)
            self._held += len(text) - (len(old) if old is not None else 0)
            self._entries[key] = text
            while len(self._entries) > self.size or self._held > self.chars:
                _, dropped = self._entries.popitem(last=False)
                self._held -= len(dropped)

    def clear(self) -> None:
        with self._lock:
            self._entries.clear()
            self._held = 0


def fragment_cache(
    app: Flask | None = None, name: str = EXTENSION, size: int = MAX_ENTRIES
) -> FragmentCache:
    """The app's cache ``name`` of ``size`` entries at most (made on first use): the
    match pages' parts, or another page's (a table's lines of its matches)."""
    app = app or current_app
    cache = app.extensions.get(name)
    if not isinstance(cache, FragmentCache):
        cache = app.extensions.setdefault(name, FragmentCache(size))
    assert isinstance(cache, FragmentCache)
    return cache
