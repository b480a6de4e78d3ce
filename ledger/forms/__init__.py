"""The pages' forms: WTForms classes and their translation to and from the engine's JSON."""

from typing import Any

from wtforms import StringField


def stripped(value: object) -> object:
    """A WTForms filter: typed text without the spaces around it (other values as they are)."""
    return value.strip() if isinstance(value, str) else value


def text_field(
    label: str, field_id: str | None = None, widget: Any = None, **render_kw: object
) -> StringField:
    """A line typed in a form, stripped and never autocompleted; ``field_id``: its id (and
    its label's ``for``) where another form on the page has a field of the same name;
    ``widget``: a box other than the plain one (numbers: ``ledger.forms.numbers.NumbersInput``);
    ``render_kw``: its other attributes (``maxlength``, ``autocapitalize``, ``placeholder``...)."""
    return StringField(
        label,
        id=field_id,
        filters=[stripped],
        widget=widget,
        render_kw={"autocomplete": "off", **render_kw},
    )
