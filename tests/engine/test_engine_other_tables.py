"""Other tables' rules (docs/rules.md §7): four packs and up to 8 players, unseen players
who exchange nothing with each other, a dealt tunnela's bonus added to its cards,
marriages entered as a count, and the 21 cards a player holds."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from test_engine_properties import valid_hands

from ledger.engine import Invalid, parse_hand, resolve_rules, settle

SETTINGS = settings(
    max_examples=80,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)


def settled(data: dict, rules: object):
    r = resolve_rules(rules)
    return settle(parse_hand(data, r), r)


def nets(data: dict, rules: object) -> list[int]:
    return [p.net for p in settled(data, rules).players]


def problems(data: dict, rules: object) -> dict[str, str]:
    r = resolve_rules(rules)
    with pytest.raises(Invalid) as caught:
        parse_hand(data, r)
    return {e.field: e.message for e in caught.value.errors}


def by_number(maal: list[int], seen: list[str]) -> dict:
    return {
        "finish": "sequences",
        "winner": "P0",
        "players": [
            {"name": f"P{i}", "seen": s, "maal": m}
            for i, (m, s) in enumerate(zip(maal, seen, strict=True))
        ],
    }


# --- unseen players who keep their maal but exchange nothing between them ----------------

EXAMPLE = by_number([20, 10, 5, 0], ["sequences", "sequences", "unseen", "unseen"])


def test_the_worked_example_of_keep_not_between_unseen():
    rules = {"profile": "sparkai", "unseen_maal": "keep_not_between_unseen"}
    assert nets(EXAMPLE, rules) == [68, 2, -30, -40]
    assert [p.maal_points for p in settled(EXAMPLE, rules).players] == [45, 5, -20, -30]


def test_keep_in_the_same_example_exchanges_between_the_unseen_too():
    assert nets(EXAMPLE, {"profile": "sparkai", "unseen_maal": "keep"}) == [68, 2, -25, -45]


def pairwise_maal_points(maal: list[int], seen: list[str], fouls: list[bool]) -> list[int]:
    """The definition itself: the sum over the others of E_i − E_j, no pair of two unseen
    players; E is the player's own count (a foul player's is 0)."""
    e = [0 if foul else m for m, foul in zip(maal, fouls, strict=True)]
    n = len(e)
    return [
        sum(
            e[i] - e[j]
            for j in range(n)
            if j != i and not (seen[i] == "unseen" and seen[j] == "unseen")
        )
        for i in range(n)
    ]


@st.composite
def numbered_hands(draw):
    packs = draw(st.sampled_from([3, 4]))
    n = draw(st.integers(2, 5 if packs == 3 else 8))
    seen = [draw(st.sampled_from(["sequences", "dublees", "unseen"])) for _ in range(n)]
    seen[0] = draw(st.sampled_from(["sequences", "dublees"]))
    maal = [draw(st.integers(0, 200)) for _ in range(n)]
    fouls = [i > 0 and draw(st.integers(0, 5)) == 0 for i in range(n)]
    finish = draw(st.sampled_from([seen[0], "void"]))
    data = by_number(maal, seen)
    data["finish"] = finish
    data["winner"] = None if finish == "void" else "P0"
    for p, foul in zip(data["players"], fouls, strict=True):
        if foul:
            p["foul"] = True
    rules = {
        "profile": draw(st.sampled_from(["amarnepal", "sparkai", "classic", "everestbuzz"])),
        "packs": packs,
        "unseen_maal": "keep_not_between_unseen",
        "void_hand": draw(st.sampled_from(["nothing", "maal_only"])),
        "foul": draw(st.sampled_from(["off", "same_hand", "next_hand"])) if any(fouls) else "off",
    }
    if rules["foul"] == "off":
        for p in data["players"]:
            p.pop("foul", None)
        fouls = [False] * n
    return data, rules, maal, seen, fouls


@SETTINGS
@given(numbered_hands())
def test_keep_not_between_unseen_is_the_pairwise_definition(case):
    data, rules, maal, seen, fouls = case
    result = settled(data, rules)
    points = [p.maal_points for p in result.players]
    if data["finish"] == "void" and rules["void_hand"] == "nothing":
        assert points == [0] * len(maal)
    else:
        assert points == pairwise_maal_points(maal, seen, fouls)
    assert sum(p.net for p in result.players) == 0


@SETTINGS
@given(numbered_hands())
def test_with_one_unseen_player_it_is_keep(case):
    data, rules, maal, seen, fouls = case
    if seen.count("unseen") > 1:
        for p in data["players"][1:]:
            p["seen"] = "sequences"
    assert nets(data, rules) == nets(data, {**rules, "unseen_maal": "keep"})


# --- settings off: today's results; on: zero-sum ----------------------------------------


@SETTINGS
@given(valid_hands())
def test_the_new_settings_left_at_their_defaults_change_nothing(case):
    profile, overrides, data = case[0], case[1], case[2]
    rules = {"profile": profile, **overrides}
    explicit = {**rules, "packs": 3, "dealt_tunnela_bonus_mode": "instead"}
    assert settled(data, explicit).to_json() == {
        **settled(data, rules).to_json(),
        "rules": resolve_rules(explicit).to_json(),
    }


@SETTINGS
@given(valid_hands())
def test_a_three_pack_hand_settles_the_same_with_four_packs(case):
    profile, overrides, data = case[0], case[1], case[2]
    rules = {"profile": profile, **overrides}
    three, four = settled(data, rules), settled(data, {**rules, "packs": 4})
    assert [p.net for p in four.players] == [p.net for p in three.players]
    assert [p.maal for p in four.players] == [p.maal for p in three.players]


@SETTINGS
@given(valid_hands(), st.sampled_from(["instead", "added"]), st.booleans())
def test_the_new_settings_keep_every_hand_zero_sum(case, mode, between):
    profile, overrides, data = case[0], case[1], case[2]
    rules = {"profile": profile, **overrides, "packs": 4, "dealt_tunnela_bonus_mode": mode}
    if between and profile != "gamerules":
        rules["unseen_maal"] = "keep_not_between_unseen"
    result = settled(data, rules)
    if result.rules.zero_sum:
        assert sum(p.net for p in result.players) == 0
    if mode == "added":
        # The bonus is on top: no player scores less than under "instead".
        instead = settled(data, {**rules, "dealt_tunnela_bonus_mode": "instead"})
        for a, b in zip(result.players, instead.players, strict=True):
            assert a.maal >= b.maal


# --- four packs: 6, 7 and 8 players -------------------------------------------------------

FOUR = {"profile": "sparkai", "packs": 4}
# tiplu 8H: poplu 9H, jhiplu 7H, alter 8D. sparkai: tiplu [3, 8], poplu and jhiplu
# [2, 5, 10], alter [5, 15, 25], marriage [10, 30]; murder; fees 3 / 3 / 10.
EIGHT_CARDS = [
    ("sequences", ["7H", "8H", "9H"]),  # a marriage: 10
    ("sequences", ["8D", "8D", "8D", "8D"]),  # four alters: 25 and the last step, 35
    ("sequences", ["8H", "8H", "5C"]),  # two tiplus (3 of the 4 in hands): 8
    ("sequences", []),
    ("unseen", ["9H"]),  # 2, murdered
    ("unseen", ["7H", "7H"]),  # 5, murdered
    ("sequences", ["7H"]),  # 2
    ("dublees", []),
]


def eight(players=EIGHT_CARDS, form="cards") -> dict:
    out = []
    for i, (seen, cards) in enumerate(players):
        p = {"name": f"P{i}", "seen": seen}
        if form == "cards":
            p["maal_cards"] = cards
        else:
            kinds = {"8H": "tiplu", "9H": "poplu", "7H": "jhiplu", "8D": "alter"}
            counts: dict[str, int] = {}
            for c in cards:
                if c in kinds:
                    counts[kinds[c]] = counts.get(kinds[c], 0) + 1
            p["maal_counts"] = counts
        out.append(p)
    return {"tiplu": "8H", "finish": "sequences", "winner": "P0", "players": out}


@pytest.mark.parametrize("form", ["cards", "counts"])
def test_an_eight_player_hand_with_four_packs(form):
    result = settled(eight(form=form), FOUR)
    assert [p.maal for p in result.players] == [10, 35, 8, 0, 2, 5, 2, 0]
    # T = 55, n = 8: maal points 8E − 55; fees 3 each, 10 unseen: 35 to P0.
    assert [p.maal_points for p in result.players] == [25, 225, 9, -55, -55, -55, -39, -55]
    assert [p.net for p in result.players] == [60, 222, 6, -58, -65, -65, -42, -58]
    alters = next(i for i in result.players[1].breakdown if i.item == "alter")
    assert alters.to_json()["past_table"] == {"entries": 3, "last": 25, "step": 10}
    assert alters.points == 35


def test_a_seven_player_hand_from_counts():
    result = settled(eight(EIGHT_CARDS[:7], form="counts"), FOUR)
    assert [p.maal_points for p in result.players] == [15, 190, 1, -55, -55, -55, -41]
    assert [p.net for p in result.players] == [47, 187, -2, -58, -65, -65, -44]


def test_a_six_player_hand_from_cards_with_keep_not_between_unseen():
    rules = {**FOUR, "unseen_maal": "keep_not_between_unseen"}
    result = settled(eight(EIGHT_CARDS[:6]), rules)
    # E: 10, 35, 8, 0, 2, 5; T = 60. Seen: 6E − 60; unseen: the sum over the four seen
    # players of E_i − E_j.
    assert [p.maal_points for p in result.players] == [0, 150, -12, -60, -45, -33]
    assert [p.net for p in result.players] == [29, 147, -15, -63, -55, -43]


def test_more_than_five_players_need_four_packs():
    data = eight(EIGHT_CARDS[:6])
    assert problems(data, "sparkai")["players"] == (
        "A hand has 2 to 5 players with three packs; this one lists 6. "
        "Four packs (the packs setting) deal to 2 to 8."
    )
    nine = eight(EIGHT_CARDS + [("sequences", [])])
    assert problems(nine, FOUR) == {"players": "A hand has 2 to 8 players; this one lists 9."}


def test_four_packs_hold_four_copies_and_three_tiplus_where_the_indicator_is_set_aside():
    data = eight()
    data["players"][3]["maal_cards"] = ["8H"]  # a fourth tiplu
    assert problems(data, FOUR) == {
        "players.3.maal_cards": "Too many tiplu (8♥): only 3 copies of the tiplu can be in "
        "hands (the fourth is set aside), but this hand has 4 (P0 1, P2 2, P3 1)."
    }
    data = eight()
    data["players"][3]["maal_cards"] = ["5C"] * 3  # four of 5♣: as many as four packs hold
    assert settled(data, FOUR)
    data["players"][3]["maal_cards"] = ["5C"] * 4
    assert problems(data, FOUR) == {
        "players.3.maal_cards": "Too many 5C: the pack holds only 4 copies of each card, but "
        "this hand has 5 (P2 1, P3 4)."
    }
    # Three packs: the same two tiplus are one too many with P0's.
    data = eight(EIGHT_CARDS[:5])
    assert "players.2.maal_cards" in problems(data, "sparkai")


# --- a dealt tunnela's bonus added to its cards -------------------------------------------


def test_an_added_bonus_leaves_the_tunnelas_cards_counted():
    data = {
        "tiplu": "8H",
        "finish": "sequences",
        "winner": "A",
        "players": [
            {
                "name": "A",
                "seen": "sequences",
                "maal_cards": ["8H", "9H"],
                "dealt_tunnelas": ["7H"],
            },
            {"name": "B", "seen": "sequences"},
        ],
    }
    instead = settled(data, "amarnepal").players[0]
    # The bonus (20, poplu or jhiplu) instead of the three 7H; then tiplu 3 and poplu 2.
    assert instead.maal == 25
    added = settled(data, {"profile": "amarnepal", "dealt_tunnela_bonus_mode": "added"})
    items = [i.to_json() for i in added.players[0].breakdown]
    # 20, then the three 7H with 8H and 9H: a marriage and two jhiplus (10 + 5) or three
    # jhiplus, a tiplu and a poplu (10 + 3 + 2); best keeps the fewer marriages.
    assert added.players[0].maal == 35
    assert items[0] == {
        "item": "dealt_tunnela",
        "count": 1,
        "cards": ["7H", "7H", "7H"],
        "points": 20,
        "kind": "poplu_jhiplu",
        "note": "bonus_added",
    }
    assert [(i["item"], i["count"], i["points"]) for i in items[1:]] == [
        ("tiplu", 1, 3),
        ("poplu", 1, 2),
        ("jhiplu", 3, 10),
    ]
    # Its cards may form marriages: with a second tiplu two marriages score 30.
    data["players"][0]["maal_cards"] = ["8H", "8H", "9H", "9H"]
    added = settled(data, {"profile": "amarnepal", "dealt_tunnela_bonus_mode": "added"})
    assert [(i.item, i.count, i.points) for i in added.players[0].breakdown] == [
        ("dealt_tunnela", 1, 20),
        ("marriage", 2, 30),
        ("jhiplu", 1, 2),
    ]


def test_an_added_bonus_still_needs_the_route():
    data = {
        "tiplu": "8H",
        "finish": "sequences",
        "winner": "B",
        "players": [
            {"name": "A", "seen": "dublees", "dealt_tunnelas": ["7H"]},
            {"name": "B", "seen": "sequences"},
        ],
    }
    player = settled(data, {"profile": "amarnepal", "dealt_tunnela_bonus_mode": "added"})
    assert player.players[0].maal == 10  # three jhiplus, no bonus
    assert player.players[0].breakdown[0].reason == "seen_by_dublees"


# --- marriages entered as a count ---------------------------------------------------------


def counted(counts: dict, rules: object = "classic"):
    data = {
        "finish": "sequences",
        "winner": "A",
        "players": [
            {"name": "A", "seen": "sequences", "maal_counts": counts},
            {"name": "B", "seen": "sequences"},
        ],
    }
    return settled(data, rules).players[0]


@pytest.mark.parametrize("profile", ["classic", "everestbuzz"])
def test_marriages_entered_are_marriages_and_the_counts_beside_them_are_loose(profile):
    player = counted({"marriage": 1, "tiplu": 1, "poplu": 1, "jhiplu": 1}, profile)
    # A marriage 10, then a tiplu 3 and a poplu and a jhiplu 2 each, whatever the grouping.
    assert player.maal == 17
    marriage = player.breakdown[0].to_json()
    assert (marriage["item"], marriage["count"], marriage["points"]) == ("marriage", 1, 10)
    assert marriage["note"] == "marriages_entered"
    # The same cards as counts alone: best forms two marriages (30).
    assert counted({"tiplu": 2, "poplu": 2, "jhiplu": 2}, profile).maal == 30


def test_marriages_entered_count_their_cards_against_the_pack():
    data = {
        "finish": "sequences",
        "winner": "A",
        "players": [
            {"name": "A", "seen": "sequences", "maal_counts": {"marriage": 2}},
            {"name": "B", "seen": "sequences", "maal_counts": {"tiplu": 1}},
        ],
    }
    assert problems(data, "amarnepal") == {
        "players.1.maal_counts.tiplu": "Too many tiplu: only 2 copies of the tiplu can be in "
        "hands (the third is set aside), but this hand has 3 (A 2, B 1)."
    }
    data["players"][1]["maal_counts"] = {"marriage": 3}
    assert problems(data, "amarnepal")["players.1.maal_counts.marriage"] == (
        "B cannot hold 3 marriages: each needs a tiplu, and at most 2 tiplus can be in hands. "
        "Enter 0 to 2."
    )


# --- a player holds 21 cards; each kind its own range -------------------------------------


def one_player(**player) -> dict:
    return {
        "tiplu": "8H",
        "finish": "sequences",
        "winner": "B",
        "players": [
            {"name": "Asha", "seen": "sequences", **player},
            {"name": "B", "seen": "sequences"},
        ],
    }


def test_twenty_dealt_tunnelas_are_refused():
    found = problems(one_player(dealt_tunnelas=["ordinary"] * 20), "amarnepal")
    assert found == {
        "players.0.dealt_tunnelas": "Asha lists 20 dealt tunnelas, but a player holds 21 "
        "cards: at most 7 tunnelas of 3."
    }
    assert "players.0.dealt_tunnelas" in problems(
        one_player(dealt_tunnelas=["5S"] * 8, maal=0), "amarnepal"
    )


def test_more_than_21_cards_are_refused():
    cards = ["8H", "8H", "9H", "9H", "9H", "7H", "7H", "7H"] + ["5S"] * 3 + ["6S"] * 3
    cards += ["2C"] * 3 + ["3C"] * 3 + ["4C"] * 3  # 23 cards
    assert problems(one_player(maal_cards=cards), "amarnepal") == {
        "players.0.maal_cards": "Asha holds 23 cards here (maal cards: 23; dealt tunnelas, "
        "3 cards each: 0), but a player holds 21 cards."
    }  # no "tunnela(s)": the counts stand apart from nouns that would agree with them
    # 16 cards and two tunnelas of 3: 22.
    assert problems(one_player(maal_cards=cards[:16], dealt_tunnelas=["QS", "KS"]), "amarnepal")[
        "players.0.maal_cards"
    ].startswith("Asha holds 22 cards here (maal cards: 16; dealt tunnelas, 3 cards each: 2)")
    # Counts are cards too: a marriage is three.
    assert "players.0.maal_counts" in problems(
        one_player(
            maal_counts={"marriage": 2, "alter": 3}, dealt_tunnelas=["2S", "3S", "4S", "5S", "6S"]
        ),
        "amarnepal",
    )
    # 21 exactly is a hand.
    assert settled(one_player(maal_cards=cards[:15], dealt_tunnelas=["QS", "KS"]), "amarnepal")


@pytest.mark.parametrize(
    ("rules", "kind", "count", "message"),
    [
        (
            "amarnepal",
            "tiplu",
            3,
            "Asha cannot hold 3 tiplus: at most 2 copies of the tiplu can be in hands (one is "
            "set aside as the indicator). Enter 0 to 2.",
        ),
        (
            "gamerules",
            "tiplu",
            4,
            "Asha cannot hold 4 tiplus: the packs hold 3 copies of the tiplu. Enter 0 to 3.",
        ),
        (
            {"profile": "amarnepal", "packs": 4},
            "tiplu",
            4,
            "Asha cannot hold 4 tiplus: at most 3 copies of the tiplu can be in hands (one is "
            "set aside as the indicator). Enter 0 to 3.",
        ),
        (
            "amarnepal",
            "printed_joker",
            4,
            "Asha cannot hold 4 printed jokers: the packs hold at most 3. Enter 0 to 3.",
        ),
        (
            "amarnepal",
            "poplu",
            4,
            "Asha cannot hold 4 poplus: the packs hold 3 copies of each card. Enter 0 to 3.",
        ),
        (
            {"profile": "amarnepal", "packs": 4},
            "ordinary_joker",
            9,
            "Asha cannot hold 9 ordinary jokers: the packs hold 8 (two cards, a copy of each "
            "in every pack). Enter 0 to 8.",
        ),
    ],
)
def test_each_kind_has_its_own_range(rules, kind, count, message):
    assert problems(one_player(maal_counts={kind: count}), rules) == {
        f"players.0.maal_counts.{kind}": message
    }


def test_the_packs_setting_is_three_or_four():
    with pytest.raises(Invalid) as caught:
        resolve_rules({"profile": "sparkai", "packs": 5})
    assert [(e.field, e.message) for e in caught.value.errors] == [
        ("rules.packs", "packs must be 3 or 4.")  # the API's English, as before
    ]
    assert resolve_rules({"profile": "sparkai", "packs": 4}).max_players == 8
