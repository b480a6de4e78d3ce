"""The answers of the tables' API (a table, its seasons, standings, records and money),
declared as ``ledger.matches.answers`` says: ``TypedDict``s that the code building each
answer returns and the OpenAPI document's schemas are made from."""

from __future__ import annotations

from typing import TypedDict

from ledger.matches.answers import Time


class Season(TypedDict):
    """A season of a table: its matches and payments are counted together."""

    id: str
    name: str
    started_at: Time
    current: bool


#: The answers that are components of the document (a class they use is one too).
ANSWERS: tuple[type, ...] = (Season,)
