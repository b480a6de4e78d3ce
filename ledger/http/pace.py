"""How often a match's followers poll: every ``POLL_SECONDS`` (3 s) while they are few,
more slowly when more of them than ``POLLS_PER_SECOND`` would poll one process at that
pace (1,000 followers: every 15 s), at most every ``MAX_POLL_SECONDS``. The server's poll
middleware (``ledger.http.polls``) counts them; the pages' live parts ask this for the
pace they tell the phones."""

from __future__ import annotations

import math
import threading
import time

from flask import Flask

FOLLOWERS = "ledger_followers"
#: The followers' usual pace, the polls a second a match's followers may send one
#: process in all, and the slowest pace they are asked to keep.
POLL_SECONDS = 3
POLLS_PER_SECOND = 70
MAX_POLL_SECONDS = 20


class Followers:
    """The connections that polled each match in the last ``MAX_POLL_SECONDS`` (plus a
    margin), in this process: a follower keeps one, whatever pace it polls at."""

    WINDOW = MAX_POLL_SECONDS + 5

    def __init__(self) -> None:
        self._seen: dict[str, dict[tuple[str, str], float]] = {}
        self._lock = threading.Lock()

    def polled(self, public_id: str, connection: tuple[str, str]) -> None:
        now = time.monotonic()
        with self._lock:
            seen = self._seen.setdefault(public_id, {})
            seen[connection] = now
            if len(seen) % 64 == 0:  # now and then, forget those gone
                for key in [k for k, at in seen.items() if now - at > self.WINDOW]:
                    del seen[key]

    def count(self, public_id: str) -> int:
        now = time.monotonic()
        with self._lock:
            seen = self._seen.get(public_id, {})
            return sum(now - at <= self.WINDOW for at in seen.values())


def poll_seconds(app: Flask, public_id: str) -> int:
    """How often this match's followers should poll: every 3 s, more slowly when there
    are more of them than ``POLLS_PER_SECOND`` allows at that pace."""
    followers: Followers | None = app.extensions.get(FOLLOWERS)
    count = followers.count(public_id) if followers is not None else 0
    return min(MAX_POLL_SECONDS, max(POLL_SECONDS, math.ceil(count / POLLS_PER_SECOND)))
