"""Compile the app's routes and templates once for the whole suite.

Every test builds an app of its own, and each app compiled again what the one before
had compiled: werkzeug's two URL builders per route (about 50 ms an app) and every
Jinja template it renders (most of a page test's time). Both are pure functions of
their source, so the suite's apps share them. A served app builds them once anyway.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from flask import Flask
from jinja2 import BytecodeCache
from jinja2.bccache import Bucket
from werkzeug.routing.rules import Rule

_compile_builder = Rule._compile_builder
_builders: dict[tuple[Any, ...], Callable[..., tuple[str, str]]] = {}


def _shared_builder(self: Rule, append_unknown: bool = True) -> Callable[..., tuple[str, str]]:
    """The builder for a rule of this text, parts and defaults (its rule comes as
    ``self`` when it is called)."""
    defaults = tuple(sorted((self.defaults or {}).items()))
    key = (self.rule, tuple(self._trace), defaults, append_unknown)
    builder = _builders.get(key)
    if builder is None:
        builder = _builders[key] = _compile_builder(self, append_unknown)
    return builder


class _SharedTemplates(BytecodeCache):
    """Jinja's compiled templates in memory, keyed (by Jinja) by name and source."""

    def __init__(self) -> None:
        self.code: dict[str, bytes] = {}

    def load_bytecode(self, bucket: Bucket) -> None:
        if bucket.key in self.code:
            bucket.bytecode_from_string(self.code[bucket.key])

    def dump_bytecode(self, bucket: Bucket) -> None:
        self.code[bucket.key] = bucket.bytecode_to_string()


_templates = _SharedTemplates()


def share_route_builders() -> None:
    Rule._compile_builder = _shared_builder  # type: ignore[method-assign]


def share_templates(app: Flask) -> None:
    app.jinja_env.bytecode_cache = _templates
