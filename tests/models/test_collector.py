"""A season's work pauses the cycle collector and always gives it back as it was."""

import gc

import pytest

from ledger.matches.collector import collector_paused


@pytest.fixture
def collector_on():
    gc.enable()
    yield
    gc.enable()


def test_the_collector_is_paused_inside_and_running_after(collector_on):
    with collector_paused():
        assert not gc.isenabled()
    assert gc.isenabled()


def test_the_collector_runs_again_when_the_work_fails(collector_on):
    with pytest.raises(ValueError), collector_paused():
        raise ValueError("a failed rescore")
    assert gc.isenabled()


def test_a_collector_paused_already_stays_paused(collector_on):
    gc.disable()
    with collector_paused():
        assert not gc.isenabled()
    assert not gc.isenabled()
