"""Calls run at the same instant, as phones sending together: each in a thread of its
own, all released at once by a barrier."""

from __future__ import annotations

import threading


def at_once(*calls) -> list:
    """Run ``calls`` in threads released together; what each returned, in their order."""
    barrier = threading.Barrier(len(calls))
    results: list = [None] * len(calls)

    def run(i: int, call) -> None:
        barrier.wait()
        results[i] = call()

    threads = [threading.Thread(target=run, args=(i, call)) for i, call in enumerate(calls)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=60)
    return results
