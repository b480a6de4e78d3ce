"""The pack's limits across the table: no more copies of a card than three packs hold."""

from __future__ import annotations

from functools import lru_cache
from itertools import accumulate

from .cards import Card, Relation, card_of, kinds_for
from .errors import N_, FieldError
from .game import COUNT_KINDS
from .hand import Hand, PlayerHand
from .rules import HouseRules


def check_copies(hand: Hand, rules: HouseRules) -> list[FieldError]:
    """A problem for each card or kind held more often than the pack allows (RULES.md §2)."""
    tiplu = hand.tiplu
    if any(p.maal_cards for p in hand.players) and tiplu is None:
        return []
    held = [_slots(p, tiplu) for p in hand.players]
    totals: dict[str, int] = {}
    for slots in held:
        for slot, _, count in slots:
            totals[slot] = totals.get(slot, 0) + count
    return [
        _too_many(slot, limit, total, held, hand)
        for slot, total in totals.items()
        if total > (limit := _limit(slot, rules))
    ]


def _too_many(
    slot: str, limit: int, total: int, held: list[list[tuple[str, str, int]]], hand: Hand
) -> FieldError:
    """The problem with one slot, on the field that went past the limit, naming who holds
    how many."""
    entries = [(i, where, c) for i, slots in enumerate(held) for s, where, c in slots if s == slot]
    running = accumulate(c for _, _, c in entries)
    i, where, _ = next(e for e, r in zip(entries, running, strict=True) if r > limit)
    who = ", ".join(f"{hand.players[j].name} {c}" for j, _, c in entries)
    return FieldError(
        f"players.{i}.{where}",
        _copies_template(slot, limit),
        name=_slot_name(slot, hand.tiplu),
        limit=limit,
        total=total,
        who=who,
    )


def _slots(p: PlayerHand, tiplu: Card | None) -> list[tuple[str, str, int]]:
    """(card slot, field, copies) for everything a player holds that is limited by the pack.

    An ordinary joker card also counts in the "ordinary_joker" slot (the pack's six),
    where ordinary jokers given as a count or a tunnela kind are counted.
    """
    out: list[tuple[str, str, int]] = []
    if p.maal_counts:
        for kind, count in p.maal_counts.items():
            out.append((kind, f"maal_counts.{kind}", count))
    by_card: list[tuple[Card, str, int]] = []
    for j, t in enumerate(p.dealt_tunnelas):
        if t.card is not None and tiplu is not None:
            by_card.append((t.card, f"dealt_tunnelas.{j}", 3))
        elif t.card is None and t.kind != "ordinary":
            out.append((t.kind, f"dealt_tunnelas.{j}", 3))
    if tiplu is not None and (p.maal_cards or by_card):
        slots = _card_slots(tiplu)
        if p.maal_cards:
            copies: dict[Card, int] = {}
            for card in p.maal_cards:
                copies[card] = copies.get(card, 0) + 1
            out += [(slot, "maal_cards", n) for card, n in copies.items() for slot in slots[card]]
        for card, where, count in by_card:
            out += [(slot, where, count) for slot in slots[card]]
    return out


@lru_cache(maxsize=64)
def _card_slots(tiplu: Card) -> dict[Card, tuple[str, ...]]:
    """The slots a card counts in: its own code where a kind has several cards (ordinary
    cards, ordinary jokers), its kind where the kind is one card, and both for an ordinary
    joker."""
    slots: dict[Card, tuple[str, ...]] = {}
    for card, kind in kinds_for(tiplu).items():
        if kind == "ordinary":
            slots[card] = (card.code,)
        elif kind == "ordinary_joker":
            slots[card] = (card.code, kind)
        else:
            slots[card] = (kind,)
    return slots


def _limit(slot: str, rules: HouseRules) -> int:
    if slot == "tiplu":
        return rules.tiplu_copies_max
    if slot == "printed_joker":
        return 3 if rules.printed_jokers else 0
    if slot == "ordinary_joker":
        return 6  # two cards, three copies each
    return 3


def _slot_name(slot: str, tiplu: Card | None) -> str:
    if slot not in COUNT_KINDS:
        return slot
    card = card_of(Relation(slot), tiplu) if tiplu else None
    return slot.replace("_", " ") + (f" ({card.label})" if card else "")


def _copies_template(slot: str, limit: int) -> str:
    if slot == "tiplu" and limit == 2:
        return N_(
            "Too many {name}: only 2 copies of the tiplu can be in hands (the third is set "
            "aside), but this hand has {total} ({who})."
        )
    if slot == "printed_joker" and limit == 0:
        return N_(
            "Too many {name}: these house rules play without printed jokers, but this hand "
            "has {total} ({who})."
        )
    if slot == "ordinary_joker":
        return N_(
            "Too many {name}: the pack holds only 6 ordinary jokers, but this hand has "
            "{total} ({who})."
        )
    return N_(
        "Too many {name}: the pack holds only {limit} copies of each card, but this hand "
        "has {total} ({who})."
    )
