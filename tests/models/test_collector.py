"""A season's work pauses the cycle collector and always gives it back as it was; the app's
import freezes what it made."""

import gc

import pytest

from ledger.collector import collector_paused, kept_for_good


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


@pytest.fixture
def unfrozen_after(collector_on):
    yield
    gc.unfreeze()  # this test run's objects back to the collector's care


def test_what_is_kept_for_good_is_made_without_collections_and_frozen(unfrozen_after):
    collections = [generation["collections"] for generation in gc.get_stats()]
    frozen = gc.get_freeze_count()
    with kept_for_good():
        assert not gc.isenabled()
        made = [[n] for n in range(5000)]  # 700 new objects set off a collection
    assert [generation["collections"] for generation in gc.get_stats()] == collections
    assert gc.get_freeze_count() >= frozen + len(made)
    assert gc.isenabled()


def test_nothing_is_frozen_when_the_block_fails(unfrozen_after):
    frozen = gc.get_freeze_count()
    with pytest.raises(ImportError), kept_for_good():
        raise ImportError("a library missing")
    assert gc.get_freeze_count() == frozen
    assert gc.isenabled()
