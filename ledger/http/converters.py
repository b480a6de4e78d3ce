"""URL converters: a whole number in an address is bounded before any view runs, and a
match's or a table's id is never a word of the API's own.

Every ``<int:...>`` of the app (hand numbers) stands for an integer column, and
PostgreSQL's integer stops at 2**31 - 1 (SQLite's at 2**63 - 1): a larger number in a
URL is no hand, answered 404 without reaching a view or a query.

``<id:public_id>`` (the API's matches and tables) is a path segment but ``import``:
``/api/v1/matches/import`` is the import's alone, so that its ``Allow`` (an OPTIONS or a
405) names the import's method only, not the GET and PATCH of a match called "import".
"""

from flask import Flask
from werkzeug.exceptions import NotFound
from werkzeug.routing import BaseConverter, IntegerConverter, PathConverter

from ledger.matches.models import INTEGER_MAX

#: The largest whole number a URL may carry: PostgreSQL's ``integer``.
MAX_URL_INT = INTEGER_MAX


class BoundedIntegerConverter(IntegerConverter):
    """``<int:name>``: a whole number, and past MAX_URL_INT a 404.

    The 404 is raised here rather than signalled as a failed match (werkzeug's
    ValidationError): a failed match after a rule of the same path but another method
    was tried is reported as 405 Method Not Allowed, which a PUT or DELETE of hand
    99999999999 is not.
    """

    def to_python(self, value: str) -> int:
        if len(value) > len(str(MAX_URL_INT)):  # also spares int() 4300 digits and more
            raise NotFound()
        number: int = super().to_python(value)
        if number > MAX_URL_INT:
            raise NotFound()
        return number


class PublicIdConverter(BaseConverter):
    """``<id:name>``: one path segment, but not the word ``import``."""

    regex = r"(?!import(?:/|$))[^/]+"


class PlayerNameConverter(PathConverter):
    """``<name:name>``: a roster name, the rest of the path, with any '/' as typed: one
    first ("/Hari") included, which ``path`` refuses (its rule should then also leave
    "//" unmerged: ``merge_slashes=False``)."""

    regex = ".+?"
    part_isolating = False  # said, as werkzeug would guess True from a regex without "/"


def init_converters(app: Flask) -> None:
    """Make ``int`` the bounded converter, ``id`` a public id's and ``name`` a
    player's; call before any
    route is registered."""
    app.url_map.converters["int"] = BoundedIntegerConverter
    app.url_map.converters["id"] = PublicIdConverter
    app.url_map.converters["name"] = PlayerNameConverter
