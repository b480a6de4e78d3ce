"""What a JSON value holds: the checks every reader of input shares; and how the
engine makes its values cheaply (``new``)."""

from __future__ import annotations

from typing import TypeGuard


def is_int(value: object) -> TypeGuard[int]:
    """A JSON whole number (not a bool, which Python counts as an int)."""
    return isinstance(value, int) and not isinstance(value, bool)


#: A NamedTuple built from all its fields in order (``new(Card, (8, "H"))``), without the
#: Python-level ``__new__`` that fills in defaults: the engine builds several a hand.
new = tuple.__new__
