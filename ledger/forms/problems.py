"""Problems on a form: the engine's errors (and the form's own) beside the fields they
concern, in the words of the form and the page's language. Every form uses this one way."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence

from msgspec import Struct
from wtforms import Field

from ledger.engine import FieldError
from ledger.engine.errors import N_
from ledger.i18n import tr, translate


class Problem(Struct):
    """One problem, in words a player understands, and the form field it concerns."""

    message: str
    field: Field | None = None  # None: shown at the top of the form
    label: str = ""  # whose and which field, for lists away from the field: "Asha · Poplu"

    @property
    def anchor(self) -> str:
        return self.field.id if self.field is not None else ""


#: Engine sentences that name JSON fields, by their template, in the words of the form.
FORM_WORDS = {
    "seen must be sequences, dublees or unseen.": N_(
        "Choose how this player saw: by sequences, by dublees, or unseen."
    ),
    "The finish must be sequences, dublees or void.": N_(
        "Choose how the hand ended: by sequences, by dublees, or void (nobody finished)."
    ),
    "Each player needs a name.": N_("Enter this player's name."),
    "{which} must be a player of the table: on its roster, or a guest of a night.": N_(
        "Choose a player of the table: one on its roster, or a guest of a night."
    ),
    'per_point must be written in digits, like "0.50" or "5".': N_(
        "Enter the stake per point in digits, like 0.50 or 5, or leave it empty."
    ),
    "per_point must be more than 0.": N_(
        "The stake per point must be more than 0; leave it empty to play for points only."
    ),
    "per_point can have at most 2 decimal places.": N_(
        "The stake per point can have at most 2 decimal places, like 0.25."
    ),
    "per_point can be at most {most}.": N_("The stake per point can be at most {most}."),
    'amount must be written in digits with at most 2 decimal places, like "150.00".': N_(
        "Enter the amount in digits, with at most 2 decimal places, like 150.00."
    ),
    "{name} is already on the table's roster; to fold these two players into one, send "
    "merge_into.": N_(
        "{name} is already on the table's roster; if they are the same person, choose "
        "{name} under “Is the same person as” instead."
    ),
    "amount must be more than 0 and at most {most}.": N_(
        "The amount must be more than 0 and at most {most}."
    ),
}


def plain_message(error: FieldError) -> str:
    """An engine error in the page's language, in the words of the form (with the
    error's values: a limit it names)."""
    words = FORM_WORDS.get(error.template)
    return tr(words, **error.values) if words else translate(error)


def place_errors(
    errors: Iterable[FieldError], locate: Callable[[FieldError], tuple[Field | None, str]]
) -> list[Problem]:
    """The engine's errors as problems: each on the field ``locate`` finds for it (None:
    shown at the top), with the label ``locate`` gives for lists away from the field."""
    return [Problem(plain_message(error), *locate(error)) for error in errors]


def clear_errors(form: Iterable[Field]) -> None:
    """Forget every field's errors (to redraw a form whose problems show elsewhere)."""
    for f in form:
        if hasattr(f, "entries"):  # FieldList
            for entry in f.entries:
                clear_errors(entry.form if hasattr(entry, "form") else [entry])
        elif hasattr(f, "form") and f.type == "FormField":
            clear_errors(f.form)
        else:
            f.errors = []


def attach(problems: Sequence[Problem]) -> None:
    """Put each problem in its field's ``errors``, for the template to show beside it."""
    for problem in problems:
        if problem.field is not None:
            problem.field.errors = [*problem.field.errors, problem.message]
