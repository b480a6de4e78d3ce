"""Helpers for the engine tests, and an independent reading of docs/rules.md.

Everything in this module is written from the rules (docs/rules.md), not from the
engine: ``SPEC`` is the published profiles of §6 in the sources' own words,
``spec_kind`` is §1's relations, ``spec_maal`` is §2 and ``spec_settle`` is §3-4.
The tests compare the engine against these.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field

import pytest

from ledger.engine import PROFILES, Invalid, parse_hand, settle, with_overrides

# --- building hands -----------------------------------------------------------------------


def rules_for(profile: str = "amarnepal", **overrides):
    base = PROFILES[profile]
    return with_overrides(base, overrides) if overrides else base


def player(name: str, seen: str = "sequences", **kw) -> dict:
    return {"name": name, "seen": seen, **kw}


def hand(
    players: list[dict],
    winner: str | None = None,
    finish: str | None = None,
    tiplu: str | None = None,
) -> dict:
    """A hand in the API's shape; the finish defaults to the winner's route (void if none)."""
    if finish is None:
        finish = (
            "void" if winner is None else next(p["seen"] for p in players if p["name"] == winner)
        )
    data: dict = {"finish": finish, "players": players}
    if winner is not None:
        data["winner"] = winner
    if tiplu is not None:
        data["tiplu"] = tiplu
    return data


def settle_data(data: dict, profile: str = "amarnepal", **overrides):
    rules = rules_for(profile, **overrides)
    return settle(parse_hand(data, rules), rules)


def nets(result) -> dict[str, int]:
    return {p.name: p.net for p in result.players}


def by_name(result) -> dict:
    return {p.name: p for p in result.players}


def payments(result) -> set[tuple[str, str, int]]:
    return {(p.payer, p.payee, p.points) for p in result.payments}


def problems(data: dict, profile: str = "amarnepal", **overrides) -> list:
    """The FieldErrors the engine reports for an invalid hand."""
    rules = rules_for(profile, **overrides)
    with pytest.raises(Invalid) as info:
        parse_hand(data, rules)
    return info.value.errors


def error_fields(data: dict, profile: str = "amarnepal", **overrides) -> list[str]:
    return [e.field for e in problems(data, profile, **overrides)]


def maal_of(data: dict, profile: str = "amarnepal", name: str | None = None, **overrides):
    """The settled PlayerResult of one player (the first by default)."""
    result = settle_data(data, profile, **overrides)
    if name is None:
        return result.players[0]
    return by_name(result)[name]


def solo(
    profile: str = "amarnepal", tiplu: str | None = "8H", seen: str = "sequences", **maal
) -> dict:
    """A two-player hand whose first player (A) holds the given maal; B finishes with none."""
    a = player("A", seen, **maal)
    b = player("B", "sequences")
    return hand([a, b], winner="B", tiplu=tiplu)


# --- docs/rules.md §1: cards and relations -----------------------------------------------------

SPEC_RANKS = {"A": 1, "J": 11, "Q": 12, "K": 13, "T": 10}
SPEC_SUITS = {"S": "S", "H": "H", "D": "D", "C": "C", "♠": "S", "♥": "H", "♦": "D", "♣": "C"}
RED = {"H", "D"}


def spec_card(code: str):
    """(rank, suit) or "JK", read the way docs/rules.md §1 describes card codes."""
    text = code.strip().upper()
    if text == "JK":
        return "JK"
    rank_text, suit = text[:-1], SPEC_SUITS[text[-1]]
    rank = SPEC_RANKS.get(rank_text) or int(rank_text)
    assert 1 <= rank <= 13
    return rank, suit


def spec_kind(card, tiplu) -> str:
    if card == "JK":
        return "printed_joker"
    (rank, suit), (trank, tsuit) = card, tiplu
    if suit == tsuit:
        if rank == trank:
            return "tiplu"
        if rank == trank % 13 + 1:
            return "poplu"
        if rank == (trank - 2) % 13 + 1:
            return "jhiplu"
        return "ordinary"
    if rank != trank:
        return "ordinary"
    return "alter" if (suit in RED) == (tsuit in RED) else "ordinary_joker"


# --- docs/rules.md §6: the published profiles, in the spec's words -----------------------------


@dataclass(frozen=True)
class SpecProfile:
    """One published profile. The defaults are what most of them share; each profile in
    ``SPEC`` names what it has of its own."""

    tiplu_copies: int
    tiplu: tuple
    alter: tuple | None  # None: the alter is no category
    alter_is: str  # "maal", "ordinary_joker" (classic) or "ordinary" (gamerules: not wild)
    scoring: str = "zero_sum"
    printed_jokers: bool = False
    neighbour: tuple = (2, 5, 10)  # poplu and jhiplu each
    ordinary_jokers_wild: bool = True
    printed_joker: tuple | None = None
    marriage: tuple = (10, 30)
    marriage_shown: tuple | None = None
    grouping: str = "best"
    # Dealt tunnela bonus by kind: a number per tunnela; None: not scored. gamerules
    # uses totals tables per group instead (see GAMERULES_TUNNELAS).
    tunnela: dict = field(default_factory=dict)
    tunnela_needs: str | None = None  # "sequences", "nothing" or None (none scored)
    unseen_maal: str = "murder"
    fees: tuple | None = (3, 3, 10)  # seen / seen by dublees / unseen
    dublee_bonus: int | None = 5
    void_hand: str = "nothing"
    dublees_allowed: bool = True
    deal_passes: str = "left"
    finisher_bonus: int = 0


NO_TUNNELAS: dict = {}
SPEC: dict[str, SpecProfile] = {
    "amarnepal": SpecProfile(
        printed_jokers=True,
        tiplu_copies=2,
        tiplu=(3, 8),
        alter=(5, 15, 25),
        alter_is="maal",
        printed_joker=(5, 15, 25),
        tunnela={
            "ordinary": 5,
            "ordinary_joker": 10,
            "poplu": 20,
            "jhiplu": 20,
            "alter": 35,
            "printed_joker": 35,
            "tiplu": None,
        },
        tunnela_needs="sequences",
    ),
    "sparkai": SpecProfile(
        tiplu_copies=2,
        tiplu=(3, 8),
        alter=(5, 15, 25),
        alter_is="maal",
        tunnela=NO_TUNNELAS,
        tunnela_needs=None,
    ),
    "classic": SpecProfile(
        tiplu_copies=2,
        tiplu=(3, 7),
        alter=None,
        alter_is="ordinary_joker",
        tunnela={
            "ordinary": 5,
            "ordinary_joker": 10,
            "alter": 10,
            "poplu": 20,
            "jhiplu": 20,
            "printed_joker": None,
            "tiplu": None,
        },
        tunnela_needs="sequences",
        void_hand="maal_only",
    ),
    "everestbuzz": SpecProfile(
        tiplu_copies=3,
        tiplu=(3, 7, 12),
        alter=(5, 10, 15),
        alter_is="maal",
        marriage=(10, 30, 60),
        grouping="marriages_first",
        tunnela={
            "ordinary": 5,
            "ordinary_joker": 10,
            "alter": 10,
            "poplu": 20,
            "jhiplu": 20,
            "tiplu": 30,
            "printed_joker": None,
        },
        tunnela_needs="sequences",
        fees=(3, 0, 10),
    ),
    "gamerules": SpecProfile(
        scoring="points_race",
        tiplu_copies=3,
        tiplu=(3, 7),
        alter=None,
        alter_is="ordinary",
        ordinary_jokers_wild=False,
        marriage_shown=(15, 35),
        tunnela={
            "ordinary": "table",
            "poplu": "table",
            "jhiplu": "table",
            "tiplu": None,
            "printed_joker": None,
        },
        tunnela_needs="nothing",
        unseen_maal="keep",
        fees=None,
        dublee_bonus=None,
        dublees_allowed=False,
        finisher_bonus=10,
    ),
}
#: gamerules' dealt tunnelas: totals per group (docs/rules.md §6, below the table).
GAMERULES_TUNNELAS = {"ordinary": (5, 15, 25), "poplu_jhiplu": (15, 35)}


def total(table, count: int) -> int:
    """A totals table read at a count. Past its end (three tiplus or three marriages in
    gamerules, whose tables stop at two) each further one adds the table's last step: the
    choice docs/rule-choices.md writes down where docs/rules.md is silent."""
    if count == 0:
        return 0
    if count <= len(table):
        return table[count - 1]
    last_step = table[-1] - (table[-2] if len(table) > 1 else 0)
    return table[-1] + last_step * (count - len(table))


def scored_kind(kind: str, profile: str) -> str:
    """What a card of this kind is in this profile (an alter that is no category is an
    ordinary joker; in gamerules neither is wild)."""
    spec = SPEC[profile]
    if kind == "alter" and spec.alter_is != "maal":
        kind = spec.alter_is
    if kind == "ordinary_joker" and not spec.ordinary_jokers_wild:
        kind = "ordinary"
    return kind


def spec_tunnela_points(kinds: list[str], profile: str) -> int:
    """docs/rules.md §2 step 1 and §6: the bonus of a player's dealt tunnelas."""
    spec = SPEC[profile]
    if profile == "gamerules":
        groups = Counter(
            "poplu_jhiplu" if scored_kind(k, profile) in ("poplu", "jhiplu") else "ordinary"
            for k in kinds
        )
        assert set(kinds) <= {"ordinary", "ordinary_joker", "alter", "poplu", "jhiplu"}
        return sum(total(GAMERULES_TUNNELAS[g], c) for g, c in groups.items())
    points = 0
    for kind in kinds:
        value = spec.tunnela.get(kind)
        assert isinstance(value, int), f"{profile} scores no dealt tunnela of {kind}"
        points += value
    return points


def spec_maal(
    profile: str,
    counts: Counter,
    tunnelas: list[str] = (),
    shown: int = 0,
    oj_identities: list[int] | None = None,
) -> int:
    """docs/rules.md §2: a player's maal count from copies per kind (dealt tunnelas apart)."""
    spec = SPEC[profile]
    points = spec_tunnela_points(list(tunnelas), profile) if tunnelas else 0
    t, p, j = counts["tiplu"], counts["poplu"], counts["jhiplu"]

    def with_marriages(m: int) -> int:
        in_hand = m - shown
        value = total(spec.marriage, in_hand)
        if shown:
            value += total(spec.marriage_shown, shown)
        return (
            value
            + total(spec.tiplu, t - m)
            + total(spec.neighbour, p - m)
            + total(spec.neighbour, j - m)
        )

    most = min(t, p, j)
    if spec.grouping == "marriages_first":
        points += with_marriages(most)
    else:
        # Highest total; on ties the fewest marriages (max keeps the first).
        points += max(with_marriages(m) for m in range(shown, most + 1))
    alters = counts["alter"]
    if alters:
        if spec.alter_is == "maal":
            points += total(spec.alter, alters)
        # as an ordinary joker (classic) or an ordinary card (gamerules): 0
    if counts["printed_joker"]:
        points += total(spec.printed_joker, counts["printed_joker"])
    # ordinary jokers score 0 in every profile; ordinary cards are no maal
    return points


# --- docs/rules.md §3-4: settling --------------------------------------------------------------


@dataclass
class SpecResult:
    effective: dict[str, int]
    maal_points: dict[str, int]
    fee: dict[str, int]  # + received, - paid (points race: the finisher bonus)
    penalty: dict[str, int]
    net: dict[str, int]
    total: int
    quick: dict[str, int]  # docs/rules.md §3 step 6: what each non-finisher pays the finisher


def spec_settle(
    players: list[tuple[str, str, int, bool]], finish: str, winner: str | None, rules
) -> SpecResult:
    """players: (name, seen, own maal count, foul). ``rules`` is read by the setting names
    docs/rules.md uses (unseen_maal, fee_seen, fee_seen_dublee, fee_unseen, dublee_finish_bonus,
    void_hand, foul, foul_penalty, finisher_bonus_per_opponent)."""
    n = len(players)
    names = [p[0] for p in players]
    zero_sum = rules.scoring == "zero_sum"
    own = {name: maal for name, _, maal, _ in players}
    bonus_mode = rules.dublee_finish_bonus_mode
    if finish == "dublees" and bonus_mode == "finisher_maal":
        own[winner] += rules.dublee_finish_bonus
    effective = {}
    kidnapped = 0
    for name, seen, _, foul in players:
        if foul:
            effective[name] = 0
        elif seen != "unseen" or rules.unseen_maal == "keep":
            effective[name] = own[name]
        else:
            effective[name] = 0
            if rules.unseen_maal == "kidnap":
                kidnapped += own[name]
    if finish != "void":
        effective[winner] += kidnapped
    total_e = sum(effective.values())
    zero = dict.fromkeys(names, 0)
    if finish == "void" and rules.void_hand == "nothing":
        return SpecResult(effective, dict(zero), dict(zero), dict(zero), dict(zero), total_e, {})
    if zero_sum:
        maal_points = {k: n * e - total_e for k, e in effective.items()}
    else:
        maal_points = dict(effective)
    fee = dict(zero)
    penalty = dict(zero)
    quick = {}
    if finish != "void":
        for name, seen, _, foul in players:
            if name == winner:
                continue
            paid = 0
            if zero_sum and not foul:
                paid = {
                    "sequences": rules.fee_seen,
                    "dublees": rules.fee_seen_dublee,
                    "unseen": rules.fee_unseen,
                }[seen]
                if finish == "dublees" and bonus_mode == "per_loser":
                    paid += rules.dublee_finish_bonus
            fee[name] -= paid
            fee[winner] += paid
            if foul and rules.foul == "same_hand":
                penalty[name] -= rules.foul_penalty
                penalty[winner] += rules.foul_penalty
            if zero_sum:
                quick[name] = total_e + paid - n * effective[name] - penalty[name]
        if not zero_sum:
            fee[winner] += rules.finisher_bonus_per_opponent * (n - 1)
    net = {k: maal_points[k] + fee[k] + penalty[k] for k in names}
    return SpecResult(effective, maal_points, fee, penalty, net, total_e, quick)


def flows(result) -> dict[str, int]:
    """What the payments give each player."""
    out = dict.fromkeys((p.name for p in result.players), 0)
    for pay in result.payments:
        out[pay.payer] -= pay.points
        out[pay.payee] += pay.points
    return out
