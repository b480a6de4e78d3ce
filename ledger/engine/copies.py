"""The pack's limits across the table: no more copies of a card than three packs hold."""

from __future__ import annotations

from itertools import accumulate

from .cards import Card, Relation, card_of, kinds_for
from .errors import N_, FieldError, Tally
from .game import COUNT_KINDS
from .hand import Hand, PlayerHand
from .rules import HouseRules


def check_copies(hand: Hand, rules: HouseRules) -> list[FieldError]:
    """A problem for each card or kind held more often than the pack allows (RULES.md §2)."""
    tiplu = hand.tiplu
    if any(p.maal_cards for p in hand.players) and tiplu is None:
        return []
    errors = []
    held: dict[str, list[tuple[int, str, int]]] = {}
    for i, p in enumerate(hand.players):
        for slot, where, count in _slots(p, tiplu):
            held.setdefault(slot, []).append((i, where, count))
    for slot, entries in held.items():
        limit = _limit(slot, rules)
        total = sum(c for _, _, c in entries)
        if total <= limit:
            continue
        running = list(accumulate(c for _, _, c in entries))
        i, where, _ = entries[next(k for k, r in enumerate(running) if r > limit)]
        who = Tally((hand.players[j].name, c) for j, _, c in entries)
        errors.append(
            FieldError(
                f"players.{i}.{where}",
                _copies_template(slot, limit),
                name=_slot_name(slot, tiplu),
                limit=limit,
                total=total,
                who=who,
            )
        )
    return errors


def _slots(p: PlayerHand, tiplu: Card | None) -> list[tuple[str, str, int]]:
    """(card slot, field, copies) for everything a player holds that is limited by the pack.

    An ordinary joker card also counts in the "ordinary_joker" slot (the pack's six),
    where ordinary jokers given as a count or a tunnela kind are counted.
    """
    out: list[tuple[str, str, int]] = []
    if p.maal_counts:
        for kind, count in p.maal_counts.items():
            out.append((kind, f"maal_counts.{kind}", count))
    held: list[tuple[Card, str, int]] = []
    if p.maal_cards and tiplu is not None:
        copies: dict[Card, int] = {}
        for card in p.maal_cards:
            copies[card] = copies.get(card, 0) + 1
        held += [(card, "maal_cards", n) for card, n in copies.items()]
    for j, t in enumerate(p.dealt_tunnelas):
        if t.card is not None and tiplu is not None:
            held.append((t.card, f"dealt_tunnelas.{j}", 3))
        elif t.card is None and t.kind != "ordinary":
            out.append((t.kind, f"dealt_tunnelas.{j}", 3))
    for card, where, count in held:
        kind = kinds_for(tiplu)[card]
        if kind in ("ordinary", "ordinary_joker"):
            out.append((card.code, where, count))
        if kind != "ordinary":
            out.append((kind, where, count))
    return out


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
