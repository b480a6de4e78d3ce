"""One player's maal count, with a breakdown a person can check (docs/rules.md §2).

The example of docs/rules.md: three poplus, three jhiplus and one tiplu.

>>> from .rules import PROFILES, with_overrides
>>> from .hand import PlayerHand
>>> p = PlayerHand("A", "sequences", maal_counts={"tiplu": 1, "poplu": 3, "jhiplu": 3})
>>> count_maal(p, PROFILES["classic"], None).total
23
>>> count_maal(p, with_overrides(PROFILES["classic"],
...     {"marriage_grouping": "marriages_first"}), None).total
20
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from typing import NamedTuple

from .cards import MAAL_BASE, PRINTED_JOKER, Card, kind_codes, maal_digits
from .errors import N_
from .hand import (
    PlayerHand,
    Tunnela,
    bonus_withheld,
    kind_counts,
    known_cards,
    loose_tunnelas,
    tunnela_group,
    tunnela_setting,
)
from .rules import HouseRules, past_table, table_total

#: Why a player's dealt tunnelas earn no bonus (``MaalItem.reason``), for the pages.
NO_BONUS_REASONS = {
    "unseen": N_(
        "No bonus: a dealt tunnela scores only for a player who goes on to see by "
        "sequences, and this player did not see. Its cards are counted with the player's "
        "other cards."
    ),
    "seen_by_dublees": N_(
        "No bonus: a dealt tunnela scores only for a player who sees by sequences, and this "
        "player saw by dublees. Its cards are counted with the player's other cards."
    ),
    "kind_not_scored": N_(
        "No bonus: these house rules score no dealt tunnela of this kind. Its cards are "
        "counted with the player's other cards."
    ),
}


#: What else an item says (``MaalItem.note``), for the pages (docs/rules.md §7).
ITEM_NOTES = {
    "bonus_added": N_(
        "The bonus is added on top of the tunnela's cards, which still count as maal "
        "cards below (they may form marriages)."
    ),
    # A maal given as one number holds its dealt tunnelas (docs/rule-choices.md): their
    # bonus is shown as a step, and the number's item is what is left of it.
    "in_entered": N_("Included in the maal entered as one number, which holds its dealt tunnelas."),
    "rest_of_entered": N_(
        "The maal entered as one number, less the dealt tunnelas' bonus above, which it includes."
    ),
    "marriages_entered": N_(
        "Marriages entered as such (a tiplu, a poplu and a jhiplu each), scored from the "
        "marriage table."
    ),
    # A tunnela of ordinary cards that earns no bonus: "its cards are counted with the
    # player's other cards", but they are no maal, so no other row lists them.
    "no_maal_cards": N_(
        "Ordinary cards are no maal: they score nothing, and no other row lists them."
    ),
}


class MaalItem(NamedTuple):
    """One scoring group: what it is, how many, which cards, its points."""

    #: marriage, marriage_shown, tiplu, poplu, ..., dealt_tunnela, dealt_tunnela_no_bonus,
    #: not_maal, entered
    item: str
    points: int
    count: int = 0  # type: ignore[assignment]  # a field, named over tuple.count
    cards: tuple[str, ...] = ()
    kind: str | None = None  # the group a dealt tunnela is scored as
    reason: str | None = None  # why dealt tunnelas earn no bonus: a key of NO_BONUS_REASONS
    note: str | None = None  # a key of ITEM_NOTES
    #: A count past its table's end: (the table's length, its last entry, the step each
    #: further item adds); None within the table.
    past_table: tuple[int, int, int] | None = None

    def to_json(self) -> dict[str, object]:
        out: dict[str, object] = {
            "item": self.item,
            "count": self.count,
            "cards": list(self.cards),
            "points": self.points,
        }
        if self.kind is not None:
            out["kind"] = self.kind
        if self.reason is not None:
            out["reason"] = self.reason
        if self.note is not None:
            out["note"] = self.note
        if self.past_table is not None:
            entries, last, step = self.past_table
            out["past_table"] = {"entries": entries, "last": last, "step": step}
        return out


class MaalCount(NamedTuple):
    total: int
    items: tuple[MaalItem, ...]


def _grouping_points(t: int, p: int, j: int, shown: int, m: int, rules: HouseRules) -> int:
    """What ``t`` tiplus, ``p`` poplus and ``j`` jhiplus score when ``m`` marriages are
    formed of them, ``shown`` of those shown: the marriages, then each kind left over."""
    return (
        table_total(rules.marriage_shown, shown)
        + table_total(rules.marriage, m - shown)
        + table_total(rules.tiplu, t - m)
        + table_total(rules.poplu, p - m)
        + table_total(rules.jhiplu, j - m)
    )


def _marriages(t: int, p: int, j: int, shown: int, rules: HouseRules) -> int:
    """How many marriages to form, shown ones included (docs/rules.md §2 step 2)."""
    most = min(t, p, j)
    if rules.marriage_grouping == "marriages_first" or most <= shown:
        return most
    # max() keeps the first of equal totals: the fewest marriages.
    return max(range(shown, most + 1), key=lambda m: _grouping_points(t, p, j, shown, m, rules))


class MaalGrouping(NamedTuple):
    """One number of marriages a player's maal could form, and the count it would give."""

    marriages: int  # shown ones included
    total: int  # the player's maal count (count_maal's total) with this many marriages
    chosen: bool  # the one the house rules' marriage_grouping forms


def maal_groupings(
    player: PlayerHand, rules: HouseRules, tiplu: Card | None
) -> tuple[MaalGrouping, ...]:
    """Each number of marriages the player's maal could form, most first, with the maal
    count each gives and the one ``marriage_grouping`` chooses (docs/rules.md §2 step 2):
    why a grouping won. Empty where there is no choice: a maal entered as one number,
    marriages entered as a count, or too few tiplus, poplus and jhiplus for a second way.
    For the pages only: ``settle`` does not call it.

    >>> from .rules import PROFILES
    >>> p = PlayerHand("A", "sequences", maal_counts={"tiplu": 1, "poplu": 3, "jhiplu": 3})
    >>> [(g.marriages, g.total, g.chosen) for g in maal_groupings(p, PROFILES["classic"], None)]
    [(1, 20, False), (0, 23, True)]
    """
    if player.maal is not None:
        return ()
    held = kind_counts(player, tiplu, rules)
    if held.get("marriage"):
        return ()
    t, p, j = held.get("tiplu", 0), held.get("poplu", 0), held.get("jhiplu", 0)
    shown = player.marriages_shown if rules.marriage_shown is not None else 0
    most = min(t, p, j)
    if most <= shown:
        return ()
    chosen = _marriages(t, p, j, shown, rules)
    rest = count_maal(player, rules, tiplu).total - _grouping_points(t, p, j, shown, chosen, rules)
    return tuple(
        MaalGrouping(m, rest + _grouping_points(t, p, j, shown, m, rules), m == chosen)
        for m in range(most, shown - 1, -1)
    )


def hand_groupings(
    players: Sequence[PlayerHand], rules: HouseRules, tiplu: Card | None
) -> dict[str, list[dict[str, int | bool]]]:
    """``maal_groupings`` of every player who had a choice, by name, as JSON: why each
    maal (as cards or as counts) formed the marriages it did. For the pages only."""
    return {
        p.name: [g._asdict() for g in found]
        for p in players
        if (found := maal_groupings(p, rules, tiplu))
    }


def count_maal(player: PlayerHand, rules: HouseRules, tiplu: Card | None) -> MaalCount:
    return count_players_maal((player,), rules, tiplu)[0]


def count_players_maal(
    players: tuple[PlayerHand, ...], rules: HouseRules, tiplu: Card | None
) -> list[MaalCount]:
    """Each player's maal count. The usual entry, maal cards alone, depends only on how
    many copies of each card are held (not their order: ``maal_digits`` makes them one
    number) and the marriages shown, so each such count is kept for these rules and tiplu
    (``_kept_counts``, looked up once a hand); a set with a card that is no maal (the
    whole 21 cards entered) has too many variants to keep and is counted each time."""
    digits, known = _kept_counts(rules, tiplu) if tiplu is not None else ({}, {})
    counts = []
    for player in players:
        _, _, maal, by_kind, cards, tunnelas, shown, _ = player
        if maal is not None:
            counts.append(_entered(player, maal, rules, tiplu))
            continue
        key = None
        if cards is not None and digits and len(cards) < MAAL_BASE:
            if not by_kind and not tunnelas:
                try:  # fewer cards than the base, so their digits' sum says which they are
                    key = (shown, sum(map(digits.__getitem__, cards)))
                except KeyError:  # a card that is no maal
                    pass
        found = known.get(key) if key else None
        if found is None:
            found = _count(player, rules, tiplu)
            if key and len(known) < KEPT_COUNTS:
                known[key] = found
        counts.append(found)
    return counts


#: The most counts of maal cards kept per rules and tiplu (``count_players_maal``): far
#: more than a season's hands hold, and a bound on what odd input can make the rules keep.
KEPT_COUNTS = 4096


def _kept_counts(rules: HouseRules, tiplu: Card) -> tuple[dict[Card, int], dict[object, MaalCount]]:
    """The digit of each maal card (``maal_digits``) and the counts kept, for these rules
    and tiplu."""
    kept = rules.derived.get(("maal of cards", tiplu))
    if kept is None:
        kept = rules.derived["maal of cards", tiplu] = (maal_digits(tiplu), {})
    return kept


def _entered(player: PlayerHand, maal: int, rules: HouseRules, tiplu: Card | None) -> MaalCount:
    """A maal given as one number: the whole count, its dealt tunnelas in it already
    (docs/rule-choices.md). Their bonus is still a step of its own, as with cards or
    counts, so that the table can check it; the number's item is then the rest."""
    if not player.dealt_tunnelas:
        return MaalCount(maal, (MaalItem("entered", maal),))
    items = [
        i._replace(note="in_entered") if i.item == "dealt_tunnela" else i
        for i in _tunnela_items(player, rules, tiplu)
    ]
    bonus = sum([i.points for i in items])
    rest = MaalItem("entered", maal - bonus, note="rest_of_entered" if bonus else None)
    return MaalCount(maal, (*items, rest))


def _count(player: PlayerHand, rules: HouseRules, tiplu: Card | None) -> MaalCount:
    """A maal given as cards, counts or dealt tunnelas, item by item."""
    items = _tunnela_items(player, rules, tiplu) if player.dealt_tunnelas else []
    held = kind_counts(player, tiplu, rules)
    if held:
        items += _held_items(player, held, rules, tiplu)
    return MaalCount(sum([i.points for i in items]), tuple(items))


#: The maal kinds whose copies left out of marriages score from their own table.
LOOSE_KINDS = ("tiplu", "poplu", "jhiplu", "alter", "printed_joker")


def _held_items(
    player: PlayerHand, held: dict[str, int], rules: HouseRules, tiplu: Card | None
) -> list[MaalItem]:
    """Marriages, then each kind's cards left over (docs/rules.md §2 steps 2-4)."""
    items = []
    t, p, j = held.get("tiplu", 0), held.get("poplu", 0), held.get("jhiplu", 0)
    entered = held.get("marriage", 0)
    if entered or (t and p and j):
        # Where shown marriages score like hidden ones, showing one changes nothing.
        shown = player.marriages_shown if rules.marriage_shown is not None else 0
        # Marriages entered as a count are marriages whatever the grouping rule, and the
        # tiplus, poplus and jhiplus counted beside them are loose (docs/rules.md §7).
        m = entered or _marriages(t, p, j, shown, rules)
        note = "marriages_entered" if entered else None
        code = kind_codes(tiplu) if tiplu else {}
        trio = (code["jhiplu"], code["tiplu"], code["poplu"]) if code else ()
        for item, count, table in (
            ("marriage_shown", shown, rules.marriage_shown),
            ("marriage", m - shown, rules.marriage),
        ):
            if count:
                items.append(
                    MaalItem(
                        item,
                        table_total(table, count),
                        count,
                        trio * count,
                        note=note,
                        past_table=past_table(table, count),
                    )
                )
        if not entered:
            held = {**held, "tiplu": t - m, "poplu": p - m, "jhiplu": j - m}
    # Every player of every hand scores a few copies of a few kinds: each (kind, copies)
    # is scored once for these rules and tiplu, and kept with the rules.
    scored = rules.derived.setdefault(("loose items", tiplu), {})
    for kind in LOOSE_KINDS:
        count = held.get(kind, 0)
        if count:
            found = scored.get((kind, count))
            if found is None:
                found = scored[kind, count] = _loose_items(kind, count, rules, tiplu)
            items += found
    if held.get("ordinary_joker"):
        if rules.ordinary_jokers_wild:
            cards = tuple(c.code for c in known_cards(player, tiplu, rules, "ordinary_joker"))
            items += _joker_items(cards, held["ordinary_joker"], rules)
        else:
            items += _not_maal_items(player, held["ordinary_joker"], "ordinary_joker", rules, tiplu)
    if held.get("ordinary"):
        items += _not_maal_items(player, held["ordinary"], "ordinary", rules, tiplu)
    return items


def _not_maal_items(
    player: PlayerHand, count: int, kind: str, rules: HouseRules, tiplu: Card | None
) -> list[MaalItem]:
    """The cards of a kind that scores nothing, those of the maal entered only: a dealt
    tunnela's cards are listed once, by its own item (which says why it scores what it
    does), and listed again at 0 they read as three more cards."""
    count -= 3 * sum(t.kind == kind for t in loose_tunnelas(player, rules))
    if not count:
        return []
    cards = tuple(c.code for c in known_cards(player, tiplu, rules, kind, tunnelas=False))
    return [MaalItem("not_maal", 0, count, cards)]


def _loose_items(
    kind: str, count: int, rules: HouseRules, tiplu: Card | None
) -> tuple[MaalItem, ...]:
    """``count`` copies of a maal kind left out of marriages. Every copy of such a kind is
    one card, so its code is known from the tiplu (none without one: counts may come
    without a tiplu)."""
    cards = (kind_codes(tiplu)[kind],) * count if tiplu else ()
    table = getattr(rules, kind)
    if kind == "alter" and table is None:
        # An alter that is no maal category is an ordinary joker, or not wild at all.
        return tuple(_joker_items(cards, count, rules, label="alter"))
    return (
        MaalItem(
            kind, table_total(table, count), count, cards, past_table=past_table(table, count)
        ),
    )


def _joker_items(
    cards: tuple[str, ...], count: int, rules: HouseRules, label: str = "ordinary_joker"
) -> list[MaalItem]:
    """Ordinary jokers, scored per card identity (two identities, a copy in each pack).

    Those given without their cards (a count, or a dealt tunnela named by its kind without
    a tiplu) first join a card already named (a dealt tunnela's), up to the packs, then
    fill one identity, then the other."""
    if not rules.ordinary_jokers_wild:
        return [MaalItem("not_maal", 0, count, cards)]
    named = [tuple(c for c in cards if c == code) for code in dict.fromkeys(cards)]
    unnamed = count - len(cards)
    packs = rules.packs
    sizes = []
    for group in named:
        joining = min(unnamed, max(packs - len(group), 0))
        sizes.append(len(group) + joining)
        unnamed -= joining
    sizes += [packs] * (unnamed // packs)
    sizes += [unnamed % packs] if unnamed % packs else []
    groups = named + [()] * (len(sizes) - len(named))
    table = rules.ordinary_joker
    return [
        MaalItem(label, table_total(table, size), size, group, past_table=past_table(table, size))
        for size, group in zip(sizes, groups, strict=True)
    ]


def _tunnela_cards(tunnela: Tunnela, tiplu: Card | None) -> tuple[str, ...]:
    """A dealt tunnela's three cards, for its breakdown item: its card, or the one card of
    its kind (a printed joker; a tiplu, poplu, jhiplu or alter once the tiplu is known);
    none where its kind has several cards (ordinary cards, ordinary jokers not placed)."""
    card = tunnela.card
    if card is None and tunnela.kind == "printed_joker":
        card = PRINTED_JOKER
    if card is not None:
        return (card.code,) * 3
    code = kind_codes(tiplu).get(tunnela.kind) if tiplu is not None else None
    return (code,) * 3 if code else ()


def _tunnela_items(player: PlayerHand, rules: HouseRules, tiplu: Card | None) -> list[MaalItem]:
    """Dealt tunnelas score their bonus instead of their cards (docs/rules.md §2 step 1),
    or on top of them (``dealt_tunnela_bonus_mode`` added, §7); where the player's route
    earns no bonus, one item of 0 says why, and so does one for each kind the rules never
    score (§9): their cards are counted with the rest."""
    reason = bonus_withheld(player, rules)
    if reason:
        cards = tuple(c for t in player.dealt_tunnelas for c in _tunnela_cards(t, tiplu))
        ordinary = all(tunnela_group(t.kind, rules) == "ordinary" for t in player.dealt_tunnelas)
        return [
            MaalItem(
                "dealt_tunnela_no_bonus",
                0,
                len(player.dealt_tunnelas),
                cards,
                reason=reason,
                note="no_maal_cards" if ordinary else None,
            )
        ]
    groups: dict[str, list[str]] = {}
    counts: Counter[str] = Counter()
    for t in player.dealt_tunnelas:
        group = tunnela_group(t.kind, rules)
        counts[group] += 1
        groups.setdefault(group, []).extend(_tunnela_cards(t, tiplu))
    added = rules.dealt_tunnela_bonus_mode == "added"
    items = []
    for group, count in counts.items():
        setting = tunnela_setting(group, rules)
        if setting is None:  # a kind these rules never score
            items.append(
                MaalItem(
                    "dealt_tunnela_no_bonus",
                    0,
                    count,
                    tuple(groups[group]),
                    kind=group,
                    reason="kind_not_scored",
                    note="no_maal_cards" if group == "ordinary" else None,
                )
            )
            continue
        items.append(
            MaalItem(
                "dealt_tunnela",
                table_total(setting, count),
                count,
                tuple(groups[group]),
                kind=group,
                # added on top of cards that are no maal: nothing below counts them
                note=("no_maal_cards" if group == "ordinary" else "bonus_added") if added else None,
                past_table=past_table(setting, count),
            )
        )
    return items
