"""A declared body's fields (``ledger.engine.declare``) between a form's data and JSON:
how each kind of field is written into the form field its declaration names
(``Field.form``) and read back out of it. The hand form's rows go through here for every
field of ``PLAYER`` (``hand_reading`` reads a row, ``hand_filling`` fills one); a new
field of the declaration with a form field needs no edit here unless its kind is new.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from msgspec import Struct
from wtforms import Field as FormField

from ledger.engine.declare import Field, Flag, Kind, Whole
from ledger.engine.game import MAAL_COUNT_KEYS
from ledger.engine.hand_body import DealtTunnelas, MaalCards, MaalCounts
from ledger.forms.numbers import read_whole
from ledger.i18n import tr, western_digits
from ledger.i18n.words import KIND_NAMES

#: The maal fields of a player, each shown by one mode of the row's "More" (the first
#: given is the row's mode, in this order).
MODES = {"maal": "number", "maal_cards": "cards", "maal_counts": "counts"}

#: Form data entries for one field, or None when the JSON value has the wrong shape.
Entries = list[tuple[str, str]] | None


def text(value: object) -> str:
    """A JSON value as a text box holds it (a checkbox's true as ``y``)."""
    if value is None:
        return ""
    if isinstance(value, bool):
        return "y" if value else ""
    return str(value)


def cell(field: FormField) -> str:
    """A text box's text, stripped (none: "")."""
    return field.data.strip() if isinstance(field.data, str) else ""


def whole(field: FormField) -> int | str | None:
    """A typed whole number: None when blank. Anything else typed (2.5, a minus) goes to
    the engine as it is, which refuses it on its field with the range that box takes."""
    text = cell(field)
    if not text:
        return None
    value = read_whole(text, signed=True)
    return text if value is None else value


def _write_counts(value: object, name: str, who: str, notes: list[str]) -> Entries:
    if not isinstance(value, Mapping):
        return None
    out = []
    for kind, count in value.items():
        if kind in MAAL_COUNT_KEYS:
            out.append((name.format(kind), text(count)))
        else:
            notes.append(
                tr("{name}: {kind!r} is not a kind of maal; it was left out.", name=who, kind=kind)
            )
    return out


def _write_cards(value: object, name: str, who: str, notes: list[str]) -> Entries:
    return [(name, " ".join(map(text, value)))] if isinstance(value, list) else None


def _write_tunnelas(value: object, name: str, who: str, notes: list[str]) -> Entries:
    if not isinstance(value, list) or not value:
        return []
    # a kind in the page's words, as the chips write it (the field reads both)
    words = (
        str(KIND_NAMES[t]) if isinstance(t, str) and t in KIND_NAMES else text(t) for t in value
    )
    return [(name, ", ".join(words))]


def _write_flag(value: object, name: str, who: str, notes: list[str]) -> Entries:
    return [(name, "y")] if value is True else []


def _write_text(value: object, name: str, who: str, notes: list[str]) -> Entries:
    return [(name, text(value))]


def write(field: Field, value: object, prefix: str, who: str, notes: list[str]) -> Entries:
    """The form data entries of ``field``'s JSON ``value`` in the row ``prefix``
    (``who``: the player, for a note on what was left out)."""
    assert field.form is not None  # only fields with a form field are written
    writer = FORMS[type(field.kind)][0] if type(field.kind) in FORMS else _write_text
    return writer(value, prefix + field.form, who, notes)


class RowReader(Struct):
    """Reads a row's form fields back into JSON. ``count_kinds``: the counts the rules ask
    for; ``words``: a typed list of dealt tunnelas as their ids and codes."""

    row: Any  # a row's form (wtforms builds its class for the rules)
    count_kinds: tuple[str, ...]
    words: Callable[[str], list[str]]

    def field(self, name: str) -> FormField:
        found: FormField = getattr(self.row, name)
        return found

    def read(self, field: Field) -> Any:
        """``field``'s JSON value from the row; None when the row gives none."""
        assert field.form is not None  # only fields with a form field are read
        reader = FORMS[type(field.kind)][1] if type(field.kind) in FORMS else _read_choice
        return reader(self, field.form)


def _read_counts(row: RowReader, name: str) -> Any:
    counts = {k: whole(row.field(name.format(k))) for k in row.count_kinds}
    return {k: v for k, v in counts.items() if v} or None


def _read_cards(row: RowReader, name: str) -> Any:
    return codes(cell(row.field(name))) or None


def _read_tunnelas(row: RowReader, name: str) -> Any:
    return row.words(cell(row.field(name))) or None


def _read_flag(row: RowReader, name: str) -> Any:
    return True if row.field(name).data else None


def _read_whole(row: RowReader, name: str) -> Any:
    return whole(row.field(name))


def _read_choice(row: RowReader, name: str) -> Any:
    return row.field(name).data or None


Writer = Callable[[object, str, str, list[str]], Entries]
#: How a kind is written into form data and read back out of a row (a kind not listed:
#: written as its text, read as a choice: its value or None).
FORMS: dict[type[Kind], tuple[Writer, Callable[[RowReader, str], Any]]] = {
    MaalCounts: (_write_counts, _read_counts),
    MaalCards: (_write_cards, _read_cards),
    DealtTunnelas: (_write_tunnelas, _read_tunnelas),
    Flag: (_write_flag, _read_flag),
    Whole: (_write_text, _read_whole),
}


def codes(cell: str) -> list[str]:
    """The entries of a typed list: apart by spaces, commas or semicolons; card codes in
    either digits (a Nepali keyboard types ८H)."""
    return western_digits(cell).replace(",", " ").replace(";", " ").split()
