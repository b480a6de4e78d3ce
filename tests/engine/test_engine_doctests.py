"""The examples in the engine's docstrings hold (python-chess style: the docs are tests)."""

import doctest
import importlib
import pkgutil

import pytest

import ledger.engine

MODULES = [
    importlib.import_module(f"ledger.engine.{info.name}")
    for info in pkgutil.iter_modules(ledger.engine.__path__)
]


@pytest.mark.parametrize("module", MODULES, ids=lambda m: m.__name__)
def test_doctests(module):
    assert doctest.testmod(module).failed == 0


def test_the_main_modules_carry_examples():
    tried = {m.__name__.rsplit(".", 1)[-1]: doctest.testmod(m).attempted for m in MODULES}
    assert all(tried[name] > 0 for name in ("cards", "rules", "maal", "settle", "settle_up"))
