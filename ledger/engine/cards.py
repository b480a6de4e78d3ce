"""Card codes and how a card relates to the tiplu.

A card is written as rank then suit: ``8H``, ``10h``, ``TH``, ``10♥``; a
printed joker is ``JK``. Ranks are 1 (ace) to 13 (king).

>>> parse_card("10♥")
Card(rank=10, suit='H')
>>> parse_card("jk").code
'JK'
>>> relation(parse_card("2S"), parse_card("AS"))
<Relation.POPLU: 'poplu'>
"""

from __future__ import annotations

import enum
from functools import lru_cache
from typing import NamedTuple

from .errors import cut

RANK_CODES = {"A": 1, "J": 11, "Q": 12, "K": 13, "T": 10}
RANK_NAMES = {1: "A", 11: "J", 12: "Q", 13: "K"}
SUIT_CODES = {
    "S": "S",
    "H": "H",
    "D": "D",
    "C": "C",
    "♠": "S",
    "♥": "H",
    "♦": "D",
    "♣": "C",
    "♤": "S",
    "♡": "H",
    "♢": "D",
    "♧": "C",
}
SUIT_SYMBOLS = {"S": "♠", "H": "♥", "D": "♦", "C": "♣"}
JOKER_SUIT = "JK"
#: The longest text read as a card code (``JOKER`` with a few spaces): a longer one is
#: refused before it is looked at (the API bounds what a body can make us do).
MAX_CODE = 12


class CardError(ValueError):
    """A card code that names no card; its sentence kept as template and values."""

    def __init__(self, template: str, **values: object):
        self.template = template
        self.values = values
        super().__init__(template.format(**values))


class Card(NamedTuple):
    """A card identity; a tuple, so that hashing and sorting stay cheap."""

    rank: int  # 0 for a printed joker
    suit: str  # S H D C, or JK for a printed joker

    @property
    def is_printed_joker(self) -> bool:
        return self.suit == JOKER_SUIT

    @property
    def code(self) -> str:
        return _CODES[self]

    @property
    def label(self) -> str:
        """The card for people: ``8♥``."""
        if self.is_printed_joker:
            return "Joker"
        return f"{RANK_NAMES.get(self.rank, str(self.rank))}{SUIT_SYMBOLS[self.suit]}"

    def __str__(self) -> str:
        return self.code


PRINTED_JOKER = Card(0, JOKER_SUIT)
ALL_CARDS = (*(Card(r, s) for r in range(1, 14) for s in "SHDC"), PRINTED_JOKER)
_CODES = {c: f"{RANK_NAMES.get(c.rank, str(c.rank))}{c.suit}" for c in ALL_CARDS}
_CODES[PRINTED_JOKER] = "JK"


def parse_card(code: object) -> Card:
    """Read a card code in either notation, any case."""
    if not isinstance(code, str):
        raise CardError(
            "{code!r} is not a card: write a card as rank and suit, like 8H or 10♥.", code=code
        )
    found = SPELLINGS.get(code)
    if found is not None:
        return found
    if len(code) > MAX_CODE:
        raise CardError(
            "{code!r} is not a card: write a card as rank and suit, like 8H or 10♥.",
            code=cut(code, MAX_CODE),
        )
    return _parse_text(code)


def _parse_text(code: str) -> Card:
    text = code.strip().upper()
    if text in ("JK", "JOKER"):
        return PRINTED_JOKER
    rank_text, suit_text = text[:-1], text[-1:]
    suit = SUIT_CODES.get(suit_text)
    rank = RANK_CODES.get(rank_text)
    if rank is None and rank_text.isascii() and rank_text.isdigit() and 2 <= int(rank_text) <= 10:
        rank = int(rank_text)
    if suit is None or rank is None:
        raise CardError(
            "{code!r} is not a card: write the rank (A, 2-10 or T, J, Q, K) then the suit "
            "(S, H, D, C or ♠ ♥ ♦ ♣), like 8H or 10♥; a printed joker is JK.",
            code=code,
        )
    return Card(rank, suit)


def _spellings() -> dict[str, Card]:
    """Every usual way to write each card (no spaces; either case), for a plain lookup."""
    ranks = {**{str(rank): rank for rank in range(2, 11)}, **RANK_CODES}
    out = {text: PRINTED_JOKER for text in ("JK", "jk", "Jk", "JOKER", "joker", "Joker")}
    for rank_text, rank in ranks.items():
        for suit_text, suit in SUIT_CODES.items():
            for r in (rank_text, rank_text.lower()):
                for s in (suit_text, suit_text.lower()):
                    out[r + s] = Card(rank, suit)
    return out


SPELLINGS = _spellings()
#: The same without the printed joker, for rules that play without one.
SUIT_SPELLINGS = {text: card for text, card in SPELLINGS.items() if card != PRINTED_JOKER}


def poplu_rank(rank: int) -> int:
    """One rank above, wrapping K to A (maal only)."""
    return rank % 13 + 1


def jhiplu_rank(rank: int) -> int:
    """One rank below, wrapping A to K (maal only)."""
    return (rank - 2) % 13 + 1


def alter_suit(suit: str) -> str:
    """The other suit of the same colour."""
    return {"H": "D", "D": "H", "S": "C", "C": "S"}[suit]


class Relation(enum.Enum):
    """What a card is, given the tiplu, before any profile scores it."""

    TIPLU = "tiplu"
    POPLU = "poplu"
    JHIPLU = "jhiplu"
    ALTER = "alter"
    ORDINARY_JOKER = "ordinary_joker"
    PRINTED_JOKER = "printed_joker"
    ORDINARY = "ordinary"


def relation(card: Card, tiplu: Card) -> Relation:
    if card.is_printed_joker:
        return Relation.PRINTED_JOKER
    if card.suit == tiplu.suit:
        if card.rank == tiplu.rank:
            return Relation.TIPLU
        if card.rank == poplu_rank(tiplu.rank):
            return Relation.POPLU
        if card.rank == jhiplu_rank(tiplu.rank):
            return Relation.JHIPLU
        return Relation.ORDINARY
    if card.rank != tiplu.rank:
        return Relation.ORDINARY
    if card.suit == alter_suit(tiplu.suit):
        return Relation.ALTER
    return Relation.ORDINARY_JOKER


def card_of(kind: Relation, tiplu: Card) -> Card | None:
    """The one card identity of a maal kind (None for kinds with several or none)."""
    match kind:
        case Relation.TIPLU:
            return tiplu
        case Relation.POPLU:
            return Card(poplu_rank(tiplu.rank), tiplu.suit)
        case Relation.JHIPLU:
            return Card(jhiplu_rank(tiplu.rank), tiplu.suit)
        case Relation.ALTER:
            return Card(tiplu.rank, alter_suit(tiplu.suit))
        case Relation.PRINTED_JOKER:
            return PRINTED_JOKER
    return None


@lru_cache(maxsize=64)
def kinds_for(tiplu: Card) -> dict[Card, str]:
    """Every card's relation to this tiplu, by value: the hot path reads this table."""
    return {card: relation(card, tiplu).value for card in ALL_CARDS}


@lru_cache(maxsize=64)
def kind_codes(tiplu: Card) -> dict[str, str]:
    """The code of the one card of each maal kind that has one (all but ordinary jokers
    and ordinary cards): every copy of a poplu is the same card."""
    out = {}
    for kind in Relation:
        card = card_of(kind, tiplu)
        if card is not None:
            out[kind.value] = card.code
    return out


#: More copies of one card than a player's maal can list (a hand holds 21 cards): the
#: base in which ``maal_digits`` counts a set of maal cards.
MAAL_BASE = 64


@lru_cache(maxsize=64)
def maal_digits(tiplu: Card) -> dict[Card, int]:
    """Each card that is maal of some kind with this tiplu (all but ordinary cards; seven
    cards), as one digit of a number in ``MAAL_BASE``: the sum over a player's maal cards
    (fewer than the base) counts the copies of each card, whatever their order, in one
    small number."""
    maal = [card for card, kind in kinds_for(tiplu).items() if kind != "ordinary"]
    return {card: MAAL_BASE**place for place, card in enumerate(maal)}
