"""The answers of a player's figures and of the people's API (own links, how to pay a
player), declared as ``ledger.matches.answers`` says: ``TypedDict``s that the code
building each answer returns and the OpenAPI document's schemas are made from."""

from __future__ import annotations

#: The answers that are components of the document (a class they use is one too).
ANSWERS: tuple[type, ...] = ()
