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
from collections.abc import Callable, Hashable
from typing import Generic, TypeVar

from flask import Flask, current_app

MAX_ENTRIES = 64
MAX_CHARS = 24 * 1024 * 1024
EXTENSION = "ledger.match_page_cache"
Key = TypeVar("Key", bound=Hashable)
Value = TypeVar("Value")


class Bounded(Generic[Key, Value]):
    """Entries by key, the least recently used dropped first, bounded in count (``size``;
    None: any count) and in the weight they hold together (``most``, each entry's
    ``weight``): the pages' parts here, a match's kept totals and hands
    (``ledger.matches.running_kept``)."""

    def __init__(self, size: int | None, most: int, weight: Callable[[Value], int]):
        self.size, self.most, self.weight = size, most, weight
        self._entries: OrderedDict[Key, Value] = OrderedDict()
        self._held = 0  # the entries' weight
        self._lock = threading.Lock()

    def get(self, key: Key) -> Value | None:
        with self._lock:
            found = self._entries.get(key)
            if found is not None:
                self._entries.move_to_end(key)
            return found

    def put(self, key: Key, value: Value) -> None:
        """Keep ``value``, dropping the least recently used (one heavier than all the
        entries may weigh is not kept)."""
        if self.weight(value) > self.most:
            return
        with self._lock:
            old = self._entries.pop(key, None)
            self._held += self.weight(value) - (self.weight(old) if old is not None else 0)
            self._entries[key] = value
            while self._held > self.most or (
                self.size is not None and len(self._entries) > self.size
            ):
                _, dropped = self._entries.popitem(last=False)
                self._held -= self.weight(dropped)

    def __len__(self) -> int:
        return len(self._entries)

    def clear(self) -> None:
        with self._lock:
            self._entries.clear()
            self._held = 0


class FragmentCache(Bounded[Hashable, str]):
    """Rendered HTML (Markup) or JSON, bounded in count and in characters."""

    def __init__(self, size: int = MAX_ENTRIES, chars: int = MAX_CHARS):
        super().__init__(size, chars, len)


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
