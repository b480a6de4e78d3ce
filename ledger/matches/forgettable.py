"""The process's function caches (``functools.lru_cache``) whose results hold players'
names as entered: a player's "Forget me" empties them with the kept pages
(``ledger.http.forgetting``), so that no forgotten name stays in memory until pushed out."""

from __future__ import annotations

from collections.abc import Callable
from typing import Protocol, TypeVar


class Clearable(Protocol):
    def cache_clear(self) -> None: ...


C = TypeVar("C", bound=Clearable)

_CLEARS: list[Callable[[], None]] = []


def holds_names(cached: C) -> C:
    """Mark a cached function whose results hold names: a forget empties it."""
    _CLEARS.append(cached.cache_clear)
    return cached


def forget_names() -> None:
    for clear in _CLEARS:
        clear()
