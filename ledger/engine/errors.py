"""Problems with input, each tied to the field it concerns."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass
class FieldError(Exception):
    """One problem: a dotted path into the input ("" for the whole) and a sentence."""

    field: str
    message: str

    def to_json(self) -> dict[str, str]:
        return {"field": self.field, "message": self.message}


class Invalid(ValueError):
    """Every problem found in one input, reported together."""

    def __init__(self, errors: list[FieldError]):
        super().__init__("; ".join(f"{e.field}: {e.message}" for e in errors))
        self.errors = errors


class EngineError(AssertionError):
    """The engine broke one of its own invariants (nets that do not sum to zero)."""
