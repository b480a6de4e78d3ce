"""The records above the engine are msgspec Structs, not dataclasses (docs/architecture.md,
"Records"): Python 3.11 writes and compiles every method of a dataclass as its module is
imported, some 0.4 ms a class, a tenth of a server's start for the sixty of them; a
Struct is made in C. The engine's own records stay dataclasses (it depends on nothing),
and so do the kinds that extend its declarations (``ledger.engine.declare.Kind``)."""

import importlib
import pkgutil

import msgspec

import ledger
from ledger.engine.declare import Kind


def _modules_above_the_engine():
    for info in pkgutil.walk_packages(ledger.__path__, "ledger."):
        if not info.name.startswith(("ledger.engine", "ledger.pdf.render")):
            yield importlib.import_module(info.name)


def test_the_records_above_the_engine_are_structs():
    dataclasses_found, structs_found = [], []
    for module in _modules_above_the_engine():
        for value in vars(module).values():
            if not isinstance(value, type) or value.__module__ != module.__name__:
                continue
            if "__dataclass_fields__" in vars(value) and not issubclass(value, Kind):
                dataclasses_found.append(f"{module.__name__}.{value.__qualname__}")
            if issubclass(value, msgspec.Struct):
                structs_found.append(value)
    assert dataclasses_found == [], "records above the engine are msgspec Structs"
    assert len(structs_found) > 50  # the walk reached them
