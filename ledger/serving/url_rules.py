"""URL rules whose URL builders are made when first used.

For each route werkzeug compiles two functions that build its URLs (``url_for``), from
a syntax tree, as the route is added: for the app's hundred-odd routes, two thirds of
``create_app``'s time, and most routes are never linked to in a server's first minutes.
Here each is made at the rule's first ``url_for``. Should werkzeug rename the private
method this overrides, the builders are simply made up front again (and
``tests/serving/test_url_rules.py`` says so).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from werkzeug.routing import Rule


class LazyBuilderRule(Rule):
    def _compile_builder(self, append_unknown: bool = True) -> Callable[..., tuple[str, str]]:
        made: list[Callable[..., tuple[str, str]]] = []
        make = super()._compile_builder

        def build(rule: Rule, **values: Any) -> tuple[str, str]:
            if not made:  # two threads may both make it: the same function
                made.append(make(append_unknown).__get__(rule, None))
            return made[0](**values)

        return build
