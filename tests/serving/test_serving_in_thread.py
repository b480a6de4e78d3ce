"""``serving_in_thread`` (the tests' and the benchmarks' server) stops cleanly however
its loop is woken: a worker's pull can wake it just before the pull that stops it; while
it serves, as ``serve``, the interpreter switches threads often (issue 35)."""

import socket
import sys
import time
import urllib.request

import pytest
from waitress import trigger

from ledger.serving.server import SWITCH_SECONDS, serving_in_thread


def test_the_server_stops_when_its_loop_wakes_before_the_stopping_pull_writes(app, monkeypatch):
    real_pull = trigger.trigger._physical_pull

    def woken_first(self):
        real_pull(self)  # as a worker's pull right before: the loop wakes now
        time.sleep(0.2)  # and does what it was asked before the stopping pull writes
        real_pull(self)

    with serving_in_thread(app) as port:
        with urllib.request.urlopen(f"http://127.0.0.1:{port}/healthz", timeout=10) as answer:
            assert answer.status == 200
        monkeypatch.setattr(trigger.trigger, "_physical_pull", woken_first)
    with pytest.raises(ConnectionRefusedError):
        socket.create_connection(("127.0.0.1", port), timeout=2)


def test_while_it_serves_a_long_request_lets_the_others_in_often(app):
    """A request settling hands for seconds holds the interpreter lock at most
    SWITCH_SECONDS before another request's thread gets it (5 ms by default)."""
    before = sys.getswitchinterval()
    with serving_in_thread(app):
        assert sys.getswitchinterval() == SWITCH_SECONDS < before
    assert sys.getswitchinterval() == before
