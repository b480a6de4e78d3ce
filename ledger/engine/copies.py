"""The pack's limits across the table: no more copies of a card than the packs hold, and
no more cards than a player holds."""

from __future__ import annotations

from collections import Counter
from functools import lru_cache
from itertools import accumulate

from .cards import MAAL_BASE, Card, Relation, card_of, kinds_for, maal_digits
from .errors import N_, FieldError, Tally
from .game import COUNT_KINDS, MARRIAGE_KINDS
from .hand import Hand, PlayerHand, Tunnela
from .rules import HouseRules

#: What a player holds that the pack limits: (slot, field, copies, the card if one was
#: given). A slot is a card's code, or a kind where the kind is one card (or, for
#: "ordinary_joker", the pack's six).
Slot = tuple[str, str, int, Card | None]


def place_joker_tunnelas(
    players: tuple[PlayerHand, ...], tiplu: Card, rules: HouseRules
) -> tuple[PlayerHand, ...]:
    """Each dealt tunnela entered only as ``ordinary_joker``, made the card the copies allow
    (docs/rules.md §9): the one of the two cards whose named copies across the table leave
    room for three more; where both do, the one the player holds no other copy of, then the
    first in suit order (S, H, D, C). Where neither does, the same choice, which the copies
    check then refuses. Its three copies then count with the player's other copies of that
    card. Copies given only as counts name no card and choose nothing."""
    if not any(
        t.kind == "ordinary_joker" and t.card is None for p in players for t in p.dealt_tunnelas
    ):
        return players
    jokers = [card for card, kind in kinds_for(tiplu).items() if kind == "ordinary_joker"]
    named = [_named_jokers(p, tiplu) for p in players]
    held = sum(named, Counter[Card]())
    placed = []
    for p, own in zip(players, named, strict=True):
        tunnelas = []
        for t in p.dealt_tunnelas:
            if t.kind == "ordinary_joker" and t.card is None:
                fit = [c for c in jokers if held[c] + 3 <= rules.packs] or jokers
                card = next((c for c in fit if not own[c]), fit[0])
                held[card] += 3
                own[card] += 3
                t = Tunnela(t.kind, card, by_kind=True)
            tunnelas.append(t)
        placed.append(p._replace(dealt_tunnelas=tuple(tunnelas)))
    return tuple(placed)


def _named_jokers(p: PlayerHand, tiplu: Card) -> Counter[Card]:
    """The copies of each ordinary-joker card a player's maal names (cards, tunnelas)."""
    kinds = kinds_for(tiplu)
    held = Counter(c for c in p.maal_cards or () if kinds[c] == "ordinary_joker")
    for t in p.dealt_tunnelas:
        if t.card is not None and kinds[t.card] == "ordinary_joker":
            held[t.card] += 3
    return held


def check_copies(hand: Hand, rules: HouseRules) -> list[FieldError]:
    """A problem for each card or kind held more often than the pack allows (docs/rules.md §2).

    The copies are added up first; only a slot over its limit is explained (who holds
    how many, and where), from each player's ``_slots``."""
    tiplu = hand.tiplu
    if tiplu is None and any(p.maal_cards for p in hand.players):
        return []
    if tiplu is not None and _maal_cards_within(hand.players, rules, tiplu):
        return []
    slots_of = _card_slots(tiplu) if tiplu is not None else {}
    totals: dict[str, int] = {}
    for p in hand.players:
        if p.maal_counts or p.dealt_tunnelas:
            for slot, _, count, _ in _slots(p, tiplu):
                totals[slot] = totals.get(slot, 0) + count
        elif p.maal_cards:  # the usual entry, counted card by card
            for card in p.maal_cards:
                for slot in slots_of[card]:
                    totals[slot] = totals.get(slot, 0) + 1
    limits, packs = rules.copies_limits, rules.packs
    over = [
        (slot, n, limit) for slot, n in totals.items() if n > (limit := limits.get(slot, packs))
    ]
    if not over:
        return []
    held = [_slots(p, tiplu) for p in hand.players]
    return [_too_many(slot, limit, total, held, hand, rules) for slot, total, limit in over]


#: A hand's maal cards are checked at once (``_maal_cards_within``) when it lists fewer
#: than this many: no card can then have as many copies as half the base of
#: ``maal_digits``.
AT_ONCE = MAAL_BASE // 2


def _maal_cards_within(players: tuple[PlayerHand, ...], rules: HouseRules, tiplu: Card) -> bool:
    """Whether a hand entered as maal cards alone (the usual entry) is within the pack's
    limits, told at once: the sum of its cards' ``maal_digits`` counts the copies of each
    card in one number, and with each card's spare room added (``_room``) a digit reaches
    half the base only where its card is held more often than the pack allows. False for
    any other entry (counts, dealt tunnelas, an ordinary card, too many cards):
    ``check_copies`` then counts it slot by slot."""
    digits, room, halves, ordinary = _room(rules, tiplu)
    copies = held = 0
    for _, _, _, counts, cards, tunnelas, _, _ in players:
        if counts or tunnelas:
            return False
        if cards:
            held += len(cards)
            if held >= AT_ONCE:
                return False
            copies += sum(map(digits.__getitem__, cards))
            if copies >= ordinary:
                return False
    return not (copies + room) & halves


def _room(rules: HouseRules, tiplu: Card) -> tuple[dict[Card, int], int, int, int]:
    """The digit of each maal card (``maal_digits``), and of every ordinary card one
    place past them (so that the sum of a hand's cards reaches that place with the first
    ordinary card); in each maal card's digit, half the base less one less its card's
    limit (its kind's, where the kind is one card; the pack's for each ordinary joker, so
    that their two cards stay within their kind's, twice the pack); half the base in each
    of those digits; and the first place past them. Kept per rules and tiplu."""
    kept = rules.derived.get(("copies of maal cards", tiplu))
    if kept is None:
        maal, kinds, limits = maal_digits(tiplu), kinds_for(tiplu), rules.copies_limits
        ordinary = MAAL_BASE ** len(maal)
        room = halves = 0
        for card, digit in maal.items():
            kind = kinds[card]
            limit = rules.packs if kind == "ordinary_joker" else limits[kind]
            room += (AT_ONCE - 1 - limit) * digit
            halves += AT_ONCE * digit
        digits = {card: maal.get(card, ordinary) for card in kinds}
        kept = rules.derived["copies of maal cards", tiplu] = (digits, room, halves, ordinary)
    return kept


def _too_many(
    slot: str, limit: int, total: int, held: list[list[Slot]], hand: Hand, rules: HouseRules
) -> FieldError:
    """The problem with one slot, on the field that went past the limit, naming who holds
    how many copies of it."""
    entries: dict[tuple[int, str, Card | None], int] = {}
    for i, slots in enumerate(held):
        for s, where, count, card in slots:
            if s == slot:
                entries[i, where, card] = entries.get((i, where, card), 0) + count
    running = accumulate(entries.values())
    i, where, _ = next(key for key, r in zip(entries, running, strict=True) if r > limit)
    # Each player once, with every copy they hold (cards, tunnelas, counts), in seat order.
    per_player: dict[int, int] = {}
    for (j, _, _), count in entries.items():
        per_player[j] = per_player.get(j, 0) + count
    who = Tally((hand.players[j].name, count) for j, count in per_player.items())
    return FieldError(
        f"players.{i}.{where}",
        _copies_template(slot, limit, rules),
        name=_slot_name(slot, hand.tiplu),
        limit=limit,
        total=total,
        who=who,
    )


def _slots(p: PlayerHand, tiplu: Card | None) -> list[Slot]:
    """Everything a player holds that the pack limits: a count or a tunnela named by its
    kind counts in its kind's slot, a card in its card's slots (one entry a card)."""
    out: list[Slot] = []
    if p.maal_counts:
        for kind, count in p.maal_counts.items():
            if kind == "marriage":  # a tiplu, a poplu and a jhiplu each
                for part in MARRIAGE_KINDS:
                    out.append((part, "maal_counts.marriage", count, None))
            else:
                out.append((kind, f"maal_counts.{kind}", count, None))
    by_card: list[tuple[Card, str]] = []
    for j, t in enumerate(p.dealt_tunnelas):
        if t.card is not None and tiplu is not None:
            by_card.append((t.card, f"dealt_tunnelas.{j}"))
        elif t.card is None and t.kind != "ordinary":
            out.append((t.kind, f"dealt_tunnelas.{j}", 3, None))
    if tiplu is not None and (p.maal_cards or by_card):
        slots = _card_slots(tiplu)
        if p.maal_cards:
            out += [(slot, "maal_cards", 1, card) for card in p.maal_cards for slot in slots[card]]
        for card, where in by_card:
            out += [(slot, where, 3, card) for slot in slots[card]]
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


def _slot_name(slot: str, tiplu: Card | None) -> str:
    if slot not in COUNT_KINDS:
        return slot
    card = card_of(Relation(slot), tiplu) if tiplu else None
    return slot.replace("_", " ") + (f" ({card.label})" if card else "")


def _copies_template(slot: str, limit: int, rules: HouseRules) -> str:
    if slot == "tiplu" and limit == 2:
        return N_(
            "Too many {name}: only 2 copies of the tiplu can be in hands (the third is set "
            "aside), but this hand has {total} ({who})."
        )
    if slot == "tiplu" and limit < rules.packs:
        return N_(
            "Too many {name}: only {limit} copies of the tiplu can be in hands (the fourth "
            "is set aside), but this hand has {total} ({who})."
        )
    if slot == "printed_joker" and limit == 0:
        return N_(
            "Too many {name}: these house rules play without printed jokers, but this hand "
            "has {total} ({who})."
        )
    if slot == "ordinary_joker":
        return N_(
            "Too many {name}: the pack holds only {limit} ordinary jokers, but this hand has "
            "{total} ({who})."
        )
    return N_(
        "Too many {name}: the pack holds only {limit} copies of each card, but this hand "
        "has {total} ({who})."
    )
