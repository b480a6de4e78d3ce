"""A hand as the table entered it: the engine's input types, and what they hold by kind.

``parse_hand`` (in ``reading``) builds them from plain data and checks them.
"""

from __future__ import annotations

from typing import NamedTuple

from .cards import Card, kinds_for
from .rules import HouseRules


class Tunnela(NamedTuple):
    """A dealt tunnela: its kind, and its card when it was given as one or, for ordinary
    jokers entered by their kind, when the copies across the table say which card it is
    (``by_kind``: entered as a kind, and written back as one)."""

    kind: str  # one of TUNNELA_KINDS
    card: Card | None = None
    by_kind: bool = False

    def to_json(self) -> str:
        return self.card.code if self.card and not self.by_kind else self.kind


class PlayerHand(NamedTuple):
    name: str
    seen: str  # sequences | dublees | unseen
    maal: int | None = None  # a count already added up
    maal_counts: dict[str, int] | None = None
    maal_cards: tuple[Card, ...] | None = None
    dealt_tunnelas: tuple[Tunnela, ...] = ()
    marriages_shown: int = 0
    foul: bool = False

    def to_json(self) -> dict[str, object]:
        out: dict[str, object] = {"name": self.name, "seen": self.seen}
        if self.maal is not None:
            out["maal"] = self.maal
        if self.maal_counts is not None:
            out["maal_counts"] = dict(self.maal_counts)
        if self.maal_cards is not None:
            out["maal_cards"] = [c.code for c in self.maal_cards]
        if self.dealt_tunnelas:
            out["dealt_tunnelas"] = [t.to_json() for t in self.dealt_tunnelas]
        if self.marriages_shown:
            out["marriages_shown"] = self.marriages_shown
        if self.foul:
            out["foul"] = True
        return out


class Hand(NamedTuple):
    finish: str  # sequences | dublees | void
    winner: str | None
    players: tuple[PlayerHand, ...]
    tiplu: Card | None = None

    def to_json(self) -> dict[str, object]:
        return {
            "tiplu": self.tiplu.code if self.tiplu else None,
            "finish": self.finish,
            "winner": self.winner,
            "players": [p.to_json() for p in self.players],
        }


def tunnela_group(kind: str, rules: HouseRules) -> str:
    """What a tunnela of this kind is scored as: an alter that is no maal is an ordinary
    joker, and an ordinary joker that is not wild is an ordinary card."""
    if kind == "alter" and rules.alter is None:
        kind = "ordinary_joker"
    if kind == "ordinary_joker" and not rules.ordinary_jokers_wild:
        kind = "ordinary"
    if kind in ("poplu", "jhiplu"):
        kind = "poplu_jhiplu"
    return kind


def tunnela_setting(kind: str, rules: HouseRules) -> int | tuple[int, ...] | None:
    """The profile's value for a dealt tunnela of this kind (None: not scored)."""
    value: int | tuple[int, ...] | None = getattr(rules, f"tunnela_{tunnela_group(kind, rules)}")
    return value


def scores_bonus(t: Tunnela, rules: HouseRules) -> bool:
    """Whether the house rules score a dealt tunnela of this kind at all (``sparkai``
    scores none; a tiplu tunnela only ``everestbuzz``): one they never score is kept in
    the hand, its cards counted as other maal cards (docs/rules.md §9)."""
    return tunnela_setting(t.kind, rules) is not None


def bonus_withheld(p: PlayerHand, rules: HouseRules) -> str | None:
    """Why a player's dealt tunnelas earn no bonus: ``"unseen"`` or ``"seen_by_dublees"``
    where the bonus needs seeing by sequences; None when they earn it (or there are none).

    The table lays a dealt tunnela before anyone has seen, so it is entered as laid and
    the route decides the bonus later (docs/rules.md §3, "A valid hand")."""
    if not p.dealt_tunnelas or rules.dealt_tunnela_needs != "seen_by_sequences":
        return None
    return {"unseen": "unseen", "dublees": "seen_by_dublees"}.get(p.seen)


def loose_tunnelas(p: PlayerHand, rules: HouseRules) -> tuple[Tunnela, ...]:
    """The dealt tunnelas whose cards count as the player's other maal: those that earn no
    bonus (by the player's route or by their kind), and every one where the bonus is added
    to its cards (docs/rules.md §7, §9)."""
    if rules.dealt_tunnela_bonus_mode == "added" or bonus_withheld(p, rules):
        return p.dealt_tunnelas
    return tuple(t for t in p.dealt_tunnelas if not scores_bonus(t, rules))


def kind_counts(p: PlayerHand, tiplu: Card | None, rules: HouseRules) -> dict[str, int]:
    """Copies of each kind held in a player's maal (only the kinds held), with the cards of
    dealt tunnelas that count as cards (``loose_tunnelas``), and ``marriage``: marriages
    entered as a count. Cards are counted only with the tiplu, which says what they are."""
    held = dict(p.maal_counts) if p.maal_counts else {}
    if p.maal_cards and tiplu is not None:
        kinds = kinds_for(tiplu)
        for card in p.maal_cards:
            kind = kinds[card]
            held[kind] = held.get(kind, 0) + 1
    if p.dealt_tunnelas:
        for t in loose_tunnelas(p, rules):
            held[t.kind] = held.get(t.kind, 0) + 3
    return held


def known_cards(
    p: PlayerHand, tiplu: Card | None, rules: HouseRules, kind: str, *, tunnelas: bool = True
) -> list[Card]:
    """The cards of one kind a player's maal names (cards, and, with ``tunnelas``, the
    cards of dealt tunnelas that count as cards), in order: what an item of a kind with
    several cards lists."""
    if tiplu is None:
        return []
    kinds = kinds_for(tiplu)
    cards = [card for card in p.maal_cards or () if kinds[card] == kind]
    for t in loose_tunnelas(p, rules) if tunnelas else ():
        if t.card is not None and t.kind == kind:
            cards += [t.card] * 3
    return sorted(cards)
