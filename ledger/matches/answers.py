"""The answers of the match API, declared once as ``TypedDict``s: the code that builds
each answer is typed to return it, so mypy holds that code to its keys and their types,
and the OpenAPI document's schemas are made from the same classes
(``msgspec.json.schema_components``: a class is a component of its name, its docstring
the description, a ``Meta`` its bounds and text). A key the answer may leave out is
``NotRequired``; every other key is always there.

The kinds below are the ones every answer shares (the tables' answers use them too).
"""

from __future__ import annotations

from typing import Annotated

from msgspec import Meta

from ledger.engine.declare import ref

#: Whole points: a total, a net, a fee.
Points = Annotated[int, Meta(description="Points (whole numbers; money is never a float).")]
Int0 = Annotated[int, Meta(ge=0)]
Int1 = Annotated[int, Meta(ge=1)]
#: A moment, in ISO 8601 with its offset; null when it is not known.
Time = Annotated[str, Meta(extra_json_schema={"format": "date-time"})] | None
Guest = Annotated[bool, Meta(description="A guest of the table: not on its roster.")]
Totals = dict[str, int]


def component(name: str, description: str | None = None) -> Meta:
    """A component the document writes by hand (a house-rules setting's schema is the
    engine's), referred to from a declared answer: ``Annotated[dict[str, Any], ...]``."""
    extra = {"description": description} if description else {}
    return Meta(extra_json_schema={**ref(name), **extra})


#: The answers that are components of the document (a class they use is one too).
ANSWERS: tuple[type, ...] = ()
