"""What a JSON value holds: the checks every reader of input shares."""

from __future__ import annotations

from typing import TypeGuard


def is_int(value: object) -> TypeGuard[int]:
    """A JSON whole number (not a bool, which Python counts as an int)."""
    return isinstance(value, int) and not isinstance(value, bool)
