"""Request bodies declared once: each field's type, bounds, choices and the sentence of each
failure, as data. From a declaration, generically: the reader (``Body.read``: every
problem at once, each with its dotted path, e.g. ``players.2.maal``), the JSON Schema of
the OpenAPI document (``Kind.schema``, ``Body.schema``) and, in the forms layer, the
mapping between form data and JSON (``Field.form``).

Plain Python, like the rest of the engine (docs/architecture.md, "Request bodies"): a
kind reads what ``json.loads`` gives. A path is built only for a problem (every hand reads
a few dozen fields): kinds get their parent's path and their own key apart.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from functools import cached_property
from typing import Any

from .errors import N_, FieldError, Invalid
from .rules import HouseRules
from .values import is_int, new

Schema = dict[str, object]
#: A bound fixed by the declaration, or one the house rules set (the schema then gives
#: the widest, ``Whole.most``).
RulesBound = Callable[[HouseRules], int]


class Reading:
    """One read of a body: the problems found so far, and the house rules it is read
    under, if any (bounds that depend on them)."""

    __slots__ = ("rules", "errors")  # made for every body read, its fields read often

    def __init__(self, rules: HouseRules | None = None):
        self.rules = rules
        self.errors: list[FieldError] = []

    def refuse(self, parent: str, key: str | int, template: str, **values: object) -> None:
        """A problem of the field ``key`` of ``parent`` (``make translations-update``
        extracts ``template``: the keyword refuse:3)."""
        self.errors.append(FieldError(join(parent, key), template, **values))


def refusal(field: str, template: str, **values: object) -> Invalid:
    """One problem that stops a reader, to raise (``make translations-update`` extracts
    ``template``: the keyword refusal:2)."""
    return Invalid([FieldError(field, template, **values)])


def join(parent: str, key: str | int) -> str:
    """A field's dotted path: ``players.2`` and ``maal`` → ``players.2.maal``."""
    return f"{parent}.{key}" if parent else str(key)


def within(parent: str, errors: list[FieldError]) -> list[FieldError]:
    """The ``errors`` of a part of a document (``parent``: its path), on their paths from
    the document's top."""
    return [
        FieldError(join(parent, e.field) if e.field else parent, e.template, **e.values)
        for e in errors
    ]


def ref(name: str) -> Schema:
    """A schema of the OpenAPI document's components, by its name."""
    return {"$ref": f"#/components/schemas/{name}"}


def nullable(schema: dict[str, Any]) -> Schema:
    """``schema``, or null."""
    return {"anyOf": [schema, {"type": "null"}]}


def obj(properties: dict[str, Any], required: tuple[str, ...] = (), **extra: Any) -> Schema:
    """An object's schema: its properties, the keys it requires (if any) and ``extra``."""
    out: Schema = {"type": "object", "properties": properties, **extra}
    if required:
        out["required"] = list(required)
    return out


#: What a kind gives back when the value was refused (its problem is in the reading).
REFUSED = object()


class Kind:
    """How one JSON value is read and described."""

    # ``reading``: each kind names the reading it is read under (a ``Reading``; a hand's
    # own kinds a ``HandReading``, which only a hand's body gives them).
    def read(self, value: object, parent: str, key: str | int, reading: Any) -> object:
        raise NotImplementedError

    def accepted(self) -> str | None:
        """A Python expression, true when the value ``given`` is valid and read as it is
        (``{kind}``: this kind), which a body's compiled reader tests before calling
        ``read``; None: every value goes through ``read`` (a kind that reads differently
        from the kind it extends says its own)."""
        return None

    def fast(self) -> str | None:
        """Source of this kind's common case, read without a call: statements that set
        ``{got}`` from ``given`` (``{kind}``: this kind; ``reading``, as ``read`` has it)
        where they can and run ``{read}`` (a line alone: the call of ``read``) for every
        other value, so that values and problems are as ``read`` gives them. By default the
        values ``accepted`` takes as they are; None: ``read`` reads every value."""
        accepted = self.accepted()
        if accepted is None:
            return None
        return f"if {accepted}:\n    {{got}} = given\nelse:\n    {{read}}"

    def schema(self) -> Schema:
        raise NotImplementedError


@dataclass(frozen=True)
class Whole(Kind):
    """A whole number (never a bool) from ``least`` to ``most``; ``most_for``: the bound
    under the rules read with (at most ``most``)."""

    least: int = 0
    most: int | None = None
    most_for: RulesBound | None = None
    message: str = N_("Enter a whole number from 0 to {most}.")

    def read(self, value: object, parent: str, key: str | int, reading: Reading) -> object:
        rules = reading.rules
        most = self.most_for(rules) if self.most_for and rules else self.most
        if is_int(value) and self.least <= value and (most is None or value <= most):
            return value
        values = {"least": self.least} if "{least" in self.message else {}
        reading.refuse(parent, key, self.message, most=most, **values)
        return REFUSED

    def accepted(self) -> str | None:
        if self.most_for is not None:
            return None
        most = "" if self.most is None else f" <= {self.most:d}"
        return f"type(given) is int and {self.least:d} <= given{most}"

    def schema(self) -> Schema:
        out: Schema = {"type": "integer", "minimum": self.least}
        if self.most is not None:
            out["maximum"] = self.most
        return out


@dataclass(frozen=True)
class Choice(Kind):
    """One of ``values`` (strings)."""

    values: tuple[str, ...]
    message: str

    def read(self, value: object, parent: str, key: str | int, reading: Reading) -> object:
        if value in self.values:
            return value
        reading.refuse(parent, key, self.message)
        return REFUSED

    def accepted(self) -> str | None:
        return "given in {kind}.values"

    def schema(self) -> Schema:
        return {"enum": list(self.values)}


@dataclass(frozen=True)
class Flag(Kind):
    """true or false."""

    message: str

    def read(self, value: object, parent: str, key: str | int, reading: Reading) -> object:
        if isinstance(value, bool):
            return value
        reading.refuse(parent, key, self.message)
        return REFUSED

    def accepted(self) -> str | None:
        return "given is True or given is False"

    def schema(self) -> Schema:
        return {"type": "boolean"}


@dataclass(frozen=True)
class Parsed(Kind):
    """A value read by a function of its own (``read(value, path)``), which raises
    ``FieldError`` or ``Invalid`` on the paths it is given; ``root``: the path its problems
    are rooted at when it takes none (``rules``: ``resolve_rules``), put where the field
    is read. ``described``: its JSON Schema."""

    parse: Callable[[object, str], object]
    described: Schema
    root: str | None = None

    def read(self, value: object, parent: str, key: str | int, reading: Reading) -> object:
        path = join(parent, key)
        try:
            return self.parse(value, path)
        except FieldError as problem:
            reading.errors.append(self.rooted(problem, path))
        except Invalid as problems:
            reading.errors += [self.rooted(problem, path) for problem in problems.errors]
        return REFUSED

    def rooted(self, problem: FieldError, path: str) -> FieldError:
        if self.root is None or path == self.root:
            return problem
        where = path + problem.field[len(self.root) :]
        return FieldError(where, problem.template, **problem.values)

    def schema(self) -> Schema:
        return self.described


@dataclass(frozen=True)
class Field:
    """One field of a body: its key, its kind, what it is when absent or refused, and
    what the document says of it. ``required``: read even when absent (its kind says what
    is missing). ``nullable``: null is a value, None (otherwise null is absent).
    ``form``: the form field that holds it in a row of a page's form."""

    key: str
    kind: Kind
    required: bool = False
    absent: object = None
    refused: object = None
    nullable: bool = False
    help: str = ""
    form: str | None = None

    def schema(self) -> Schema:
        own = self.kind.schema()
        out = nullable(own) if self.nullable else own
        return {**out, "description": self.help} if self.help else out


@dataclass(frozen=True)
class Body:
    """A JSON object's declared fields (keys not declared are ignored, as every reader of
    the API does), with the sentence for a value that is no object at all."""

    fields: tuple[Field, ...]
    message: str
    help: str = ""
    #: The sentence for a key the body does not declare (``{given}``; ``{fields}``: the
    #: keys it does): set, the body takes no other key. None: other keys are ignored.
    unknown: str | None = None
    #: null given for a field that is not ``nullable`` is read as if it were left out (a
    #: hand's fields); otherwise its kind reads it (and refuses it).
    nulls_absent: bool = True
    #: A ``NamedTuple`` made of the fields of its names (``make``); None: the body is read
    #: as a dict only.
    makes: type | None = None

    # Derived from the fields when first used, not as the body is declared: a server's
    # start declares every body, and most are not read before its first answer.
    @cached_property
    def absent(self) -> dict[str, object]:
        """Each field's value when it is absent, by key (the keys the body declares)."""
        return {f.key: f.absent for f in self.fields}

    @cached_property
    def read(self) -> Callable[[object, str, Reading], dict[str, object] | None]:
        """The reader, compiled once from the declaration (``compile_reader``):
        ``read(value, parent, reading)`` gives each declared field of ``value`` read
        (absent: its ``absent``; refused: its ``refused``, the problem kept), or None,
        with a problem, when it is no object."""
        return compile_reader(self)

    @cached_property
    def make(self) -> Callable[[object, str, Reading], Any]:
        """``read`` that gives ``makes`` made of the fields read (the other fields are
        read and checked all the same), or None with a problem; ``read`` where it makes
        none."""
        return compile_reader(self, self.makes) if self.makes else self.read

    def given(self, value: Mapping[str, object]) -> dict[str, object]:
        """The fields ``value`` gives that the body declares (for a reader taking them
        by keyword)."""
        return {key: given for key, given in value.items() if key in self.absent}

    def refuse_unknown(self, value: dict[object, object], parent: str, reading: Reading) -> None:
        """A problem for each key of ``value`` the body does not declare, if it says so."""
        if self.unknown is None:
            return
        names = ", ".join(f.key for f in self.fields)
        for key in value:
            if key not in self.absent:
                reading.refuse(parent, str(key), self.unknown, given=str(key), fields=names)

    def read_all(
        self, value: object, reading: Reading | None = None, parent: str = ""
    ) -> dict[str, Any]:
        """``read`` of a whole request (under ``reading``, if its kinds need one; on
        ``parent``'s path): its fields, or Invalid with every problem."""
        reading = Reading() if reading is None else reading
        read = self.read(value, parent, reading)
        if reading.errors or read is None:
            raise Invalid(reading.errors)
        return read

    def read_changes(self, value: object, reading: Reading | None = None) -> dict[str, Any]:
        """The changes to a document a key owns (a match, a table): the fields ``value``
        gives, each read by its kind, null included, in the order given (a field left out
        stays as it is), or Invalid with every problem (a key not declared too);
        ``reading``: what the kinds read against (a table's roster)."""
        reading = Reading() if reading is None else reading
        if not isinstance(value, dict):
            raise refusal("", self.message)
        kinds = {f.key: f.kind for f in self.fields}
        out: dict[str, object] = {}
        for key, given in value.items():
            kind = kinds.get(key)
            if kind is None:
                self.refuse_unknown({key: given}, "", reading)
                continue
            got = kind.read(given, "", key, reading)
            if got is not REFUSED:
                out[key] = got
        if reading.errors:
            raise Invalid(reading.errors)
        return out

    def properties(self) -> dict[str, Schema]:
        """The JSON Schema of each field, by key (to splice into a larger object)."""
        return {f.key: f.schema() for f in self.fields}

    def schema(self) -> Schema:
        """The JSON Schema of the object."""
        closed = {"additionalProperties": False} if self.unknown is not None else {}
        out = obj(self.properties(), tuple(f.key for f in self.fields if f.required), **closed)
        return {**out, "description": self.help} if self.help else out


#: How ``compile_reader`` reads one field (``{key!r}``) into its local ``{got}``: a
#: required field is read when absent too (as null); an optional one takes its ``absent``
#: when absent, and a null given for it is read by its kind, taken as absent, or is None
#: (``nullable``). ``{read}``: the reading of ``given``, one level in. A key is looked up
#: with ``in`` and ``[]``, which the interpreter does without a call (``get`` is one).
_READ_FIELD = {
    "required": """
given = value[{key!r}] if {key!r} in value else None
{read}""",
    "null read": """
if {key!r} not in value:
    {got} = {absent}
else:
    given = value[{key!r}]
    {read}""",
    "null absent": """
if {key!r} not in value or (given := value[{key!r}]) is None:
    {got} = {absent}
else:
    {read}""",
    "nullable": """
if {key!r} not in value:
    {got} = {absent}
elif (given := value[{key!r}]) is None:
    {got} = None
else:
    {read}""",
}
#: The call of a kind's reader, for the values its fast path (``Kind.fast``) leaves.
_CALL = """{got} = {kind}.read(given, parent, {key!r}, reading)
if {got} is REFUSED:
    {got} = {refused}"""


def _splice(template: str, read: str) -> str:
    """``template`` with each line that is ``{read}`` alone made the lines of ``read`` at
    its indent."""
    lines = []
    for line in template.strip("\n").splitlines():
        if line.strip() == "{read}":
            indent = line[: len(line) - len(line.lstrip())]
            lines += [indent + part for part in read.strip("\n").splitlines()]
        else:
            lines.append(line)
    return "\n".join(lines)


def compile_reader(body: Body, makes: type | None = None) -> Callable[[object, str, Reading], Any]:
    """``body``'s reader as one function, each field's reading written out in declaration
    order into a local, its kind's common case inline (``Kind.fast``) and its reader bound
    for the rest: a loop over the fields would decide again, for every field of every
    hand, what the declaration already says (as ``dataclasses`` writes an ``__init__``).
    The problems stay in field order. It gives the fields as a dict (``Body.read``), or,
    with ``makes`` (a ``NamedTuple`` whose fields are keys of the body), that tuple made
    of them at once (``Body.make``)."""
    names: dict[str, object] = {
        "REFUSED": REFUSED,
        "FieldError": FieldError,
        "body": body,
        "known": body.absent.keys(),
        "new": new,
        "makes": makes,
    }
    lines = [
        "def read(value, parent, reading):",
        "    if type(value) is not dict and not isinstance(value, dict):  # JSON gives dict",
        "        reading.errors.append(FieldError(parent, body.message))",
        "        return None",
    ]
    for i, f in enumerate(body.fields):
        if f.required:
            how = "required"
        elif f.nullable:
            how = "nullable"
        else:
            how = "null absent" if body.nulls_absent else "null read"
        fast = f.kind.fast()
        read = _CALL if fast is None else _splice(fast, _CALL)
        source = _splice(_READ_FIELD[how], read).format(
            key=f.key,
            got=f"got_{i}",
            kind=f"kind_{i}",
            absent=f"absent_{i}",
            refused=f"refused_{i}",
        )
        lines += ["    " + line for line in source.splitlines()]
        names[f"kind_{i}"], names[f"absent_{i}"] = f.kind, f.absent
        names[f"refused_{i}"] = f.refused
    if body.unknown is not None:
        lines.append("    if not known >= value.keys():")
        lines.append("        body.refuse_unknown(value, parent, reading)")
    index = {f.key: i for i, f in enumerate(body.fields)}
    if makes is None:
        fields = ", ".join(f"{f.key!r}: got_{i}" for i, f in enumerate(body.fields))
        lines.append(f"    return {{{fields}}}")
    else:
        made = "".join(f"got_{index[key]}, " for key in makes._fields)  # type: ignore[attr-defined]
        lines.append(f"    return new(makes, ({made}))")
    exec("\n".join(lines), names)  # noqa: S102 (the source is the declaration, never input)
    return names["read"]  # type: ignore[return-value]
