"""The examples in the service modules' docstrings hold."""

import doctest

import pytest

from ledger.matches import export as match_export


@pytest.mark.parametrize("module", [match_export])
def test_doctests(module):
    result = doctest.testmod(module)
    assert result.attempted > 0
    assert result.failed == 0
