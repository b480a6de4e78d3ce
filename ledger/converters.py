"""URL converters: a whole number in an address is bounded before any view runs.

Every ``<int:...>`` of the app (hand numbers) stands for an integer column, and
PostgreSQL's integer stops at 2**31 - 1 (SQLite's at 2**63 - 1): a larger number in a
URL matches no route, so it answers 404 like any hand that does not exist, and never
reaches a query.
"""

from flask import Flask
from werkzeug.routing import IntegerConverter

#: The largest whole number a URL may carry: PostgreSQL's ``integer``.
MAX_URL_INT = 2**31 - 1


class BoundedIntegerConverter(IntegerConverter):
    """``<int:name>`` from 0 to MAX_URL_INT (a route may still give its own ``max``)."""

    def __init__(self, map, *args, max: int | None = None, **kwargs):
        bound = MAX_URL_INT if max is None else min(max, MAX_URL_INT)
        super().__init__(map, *args, max=bound, **kwargs)


def init_converters(app: Flask) -> None:
    """Make ``int`` the bounded converter; call before any route is registered."""
    app.url_map.converters["int"] = BoundedIntegerConverter
