"""Problems with input, each tied to the field it concerns."""

from __future__ import annotations


def N_(message: str) -> str:
    """Marks an English sentence for the catalogue (pybabel's keyword ``N_``) and returns
    it unchanged: the engine stays English; pages translate it when they show it."""
    return message


def cut(value: object, most: int) -> object:
    """``value`` as a message repeats it: a text longer than ``most`` characters cut
    there with "…", so that a field sent 20,000 characters long is not repeated whole in
    its refusal (on the page, and in the API's answer); any other value as it is."""
    if isinstance(value, str) and len(value) > most:
        return value[:most] + "…"
    return value


class Tally(tuple[tuple[str, int], ...]):
    """Names each with a count, as a sentence lists them: ``Asha 1, Bikash 3``. A value of
    a sentence kept as pairs, so that a page can write the counts in its own digits."""

    def __str__(self) -> str:
        return ", ".join(f"{name} {count}" for name, count in self)


class FieldError(Exception):
    """One problem: a dotted path into the input ("" for the whole) and a sentence.

    The sentence is kept as its English template and values too, so that pages can show
    it translated (the template is the catalogue's message id) while the API stays in
    English.
    """

    def __init__(self, field: str, template: str, **values: object):
        self.field = field
        self.template = template
        self.values = values
        self.message = template.format(**values) if values else template
        super().__init__(field, self.message)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, FieldError) and (self.field, self.message) == (
            other.field,
            other.message,
        )

    def __hash__(self) -> int:
        return hash((self.field, self.message))

    def __repr__(self) -> str:
        return f"FieldError({self.field!r}, {self.message!r})"

    def to_json(self) -> dict[str, str]:
        return {"field": self.field, "message": self.message}


class Invalid(ValueError):
    """Every problem found in one input, reported together."""

    def __init__(self, errors: list[FieldError]):
        super().__init__("; ".join(f"{e.field}: {e.message}" for e in errors))
        self.errors = errors


class EngineError(AssertionError):
    """The engine broke one of its own invariants (nets that do not sum to zero)."""
