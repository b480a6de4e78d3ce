"""ledger.engine.maal: one player's maal count (docs/rules.md §2) with its breakdown."""

from collections import Counter

import pytest
from spec_support import problems, rules_for, solo

from ledger.engine import (
    PlayerHand,
    count_maal,
    maal_groupings,
    parse_card,
    parse_hand,
    resolve_rules,
)
from ledger.engine import maal as maal_module


def count(profile="amarnepal", tiplu="8H", seen="sequences", overrides=None, **maal):
    rules = rules_for(profile, **(overrides or {}))
    h = parse_hand(solo(profile, tiplu=tiplu, seen=seen, **maal), rules)
    return count_maal(h.players[0], rules, h.tiplu)


def points(profile="amarnepal", tiplu="8H", seen="sequences", overrides=None, **maal):
    return count(profile, tiplu, seen, overrides, **maal).total


def items(result):
    return [(i.item, i.count, i.points) for i in result.items]


# --- the three forms ----------------------------------------------------------------------


@pytest.mark.parametrize("value", [0, 1, 17, 60, 500])
def test_a_number_is_the_whole_count(value):
    result = count(maal=value, tiplu=None)
    assert result.total == value
    assert sum(i.points for i in result.items) == value
    assert len(result.items) == 1


def test_no_maal_given_is_zero():
    result = count()
    assert result.total == 0
    assert sum(i.points for i in result.items) == 0


@pytest.mark.parametrize(
    ("counts", "cards", "expected"),
    [
        ({"tiplu": 1}, ["8H"], 3),
        ({"tiplu": 2}, ["8H", "8H"], 8),
        ({"poplu": 1}, ["9H"], 2),
        ({"poplu": 2}, ["9H", "9H"], 5),  # a table of totals: 5, not 2 + 2
        ({"poplu": 3}, ["9H", "9H", "9H"], 10),
        ({"jhiplu": 1}, ["7H"], 2),
        ({"jhiplu": 2}, ["7H", "7H"], 5),
        ({"jhiplu": 3}, ["7H", "7H", "7H"], 10),
        ({"alter": 1}, ["8D"], 5),
        ({"alter": 2}, ["8D", "8D"], 15),
        ({"alter": 3}, ["8D", "8D", "8D"], 25),
        ({"printed_joker": 1}, ["JK"], 5),
        ({"printed_joker": 2}, ["JK", "JK"], 15),
        ({"printed_joker": 3}, ["JK", "JK", "JK"], 25),
        ({"tiplu": 1, "poplu": 1, "jhiplu": 1}, ["7H", "8H", "9H"], 10),
        ({"tiplu": 2, "poplu": 2, "jhiplu": 2}, ["7H", "8H", "9H"] * 2, 30),
        (
            {"tiplu": 1, "poplu": 2, "jhiplu": 1, "alter": 1, "printed_joker": 2},
            ["7H", "8H", "9H", "9H", "8D", "JK", "JK"],
            10 + 2 + 5 + 15,
        ),
    ],
)
def test_amarnepal_counts_and_cards_agree(counts, cards, expected):
    assert points(maal_counts=counts) == expected
    assert points(maal_cards=cards) == expected


def test_ordinary_jokers_and_ordinary_cards_score_zero():
    assert points(maal_cards=["8S", "8S", "8C", "8C", "8C"]) == 0
    assert points(maal_cards=["5C", "KD", "2S", "9D", "7D"]) == 0
    assert points(maal_counts={"ordinary_joker": 2}) == 0


def test_cards_in_any_notation():
    assert points(tiplu="8h", maal_cards=["7h", "8♥", "9H", "8d"]) == 15
    assert points(tiplu="T♠", maal_cards=["9s", "ts", "J♠", "10C"]) == 15


# --- marriages ----------------------------------------------------------------------------

EXAMPLE = {"tiplu": 1, "poplu": 3, "jhiplu": 3}


def test_rules_md_example_best_gives_23():
    # tiplu [3, 7], neighbours [2, 5, 10], marriage [10, 30]: classic's values
    # best: 0 marriages 3+10+10 = 23; 1 marriage 10+5+5 = 20 -> 23
    assert points("classic", maal_counts=EXAMPLE) == 23
    assert points("classic", maal_cards=["8H"] + ["9H"] * 3 + ["7H"] * 3) == 23


def test_rules_md_example_marriages_first_gives_20():
    over = {"marriage_grouping": "marriages_first"}
    assert points("classic", overrides=over, maal_counts=EXAMPLE) == 20
    assert points("classic", overrides=over, maal_cards=["8H"] + ["9H"] * 3 + ["7H"] * 3) == 20


def test_everestbuzz_forms_marriages_first():
    # everestbuzz: marriages_first, so the same holding is 10 + 5 + 5 = 20
    assert points("everestbuzz", maal_counts=EXAMPLE) == 20
    # sparkai (best): 3 + 10 + 10 = 23
    assert points("sparkai", maal_counts=EXAMPLE) == 23


def test_best_takes_two_marriages_when_they_score_most():
    # amarnepal 2/2/2: none 8+5+5 = 18, one 10+3+2+2 = 17, two 30 -> 30
    result = count(maal_counts={"tiplu": 2, "poplu": 2, "jhiplu": 2})
    assert result.total == 30
    assert ("marriage", 2, 30) in items(result)


def test_best_ties_go_to_fewer_marriages():
    # marriage [7]: one marriage 7 = loose 3 + 2 + 2 -> no marriage formed
    result = count(overrides={"marriage": [7]}, maal_cards=["7H", "8H", "9H"])
    assert result.total == 7
    assert all(i.item != "marriage" for i in result.items)
    assert sorted(items(result)) == [("jhiplu", 1, 2), ("poplu", 1, 2), ("tiplu", 1, 3)]


def test_everestbuzz_three_marriages():
    assert points("everestbuzz", maal_counts={"tiplu": 3, "poplu": 3, "jhiplu": 3}) == 60
    assert points("everestbuzz", maal_counts={"tiplu": 3}) == 12
    assert points("everestbuzz", maal_counts={"tiplu": 2, "poplu": 3, "jhiplu": 2}) == 30 + 2


def test_wrap_marriage_with_tiplu_ace():
    # tiplu A♠: jhiplu K♠, poplu 2♠
    assert points(tiplu="AS", maal_cards=["KS", "AS", "2S"]) == 10
    # tiplu K♦: poplu A♦, jhiplu Q♦
    assert points(tiplu="KD", maal_cards=["QD", "KD", "AD"]) == 10
    # K-A-2 are maal individually too
    assert points(tiplu="AS", maal_cards=["KS"]) == 2
    assert points(tiplu="KD", maal_cards=["AD"]) == 2


# --- alters and ordinary jokers by profile ------------------------------------------------


@pytest.mark.parametrize(
    ("profile", "expected"),
    [
        ("amarnepal", (5, 15, 25)),
        ("sparkai", (5, 15, 25)),
        ("everestbuzz", (5, 10, 15)),
        ("classic", (0, 0, 0)),  # an ordinary joker, worth 0
        ("gamerules", (0, 0, 0)),
    ],  # not wild
)
def test_alters_by_profile(profile, expected):
    for n in (1, 2, 3):
        assert points(profile, maal_cards=["8D"] * n) == expected[n - 1]
        assert points(profile, maal_counts={"alter": n}) == expected[n - 1]


def test_everestbuzz_alter_zero_by_house_choice():
    assert points("everestbuzz", overrides={"alter": [0, 0, 0]}, maal_cards=["8D"] * 2) == 0


@pytest.mark.parametrize("profile", ["amarnepal", "sparkai", "classic", "everestbuzz", "gamerules"])
def test_ordinary_jokers_zero_in_every_profile(profile):
    assert points(profile, maal_cards=["8S", "8S", "8C"]) == 0


@pytest.mark.parametrize(
    ("profile", "tiplu", "one", "two"),
    [
        ("amarnepal", (3, 8), 3, 8),
        ("classic", (3, 7), 3, 7),
        ("gamerules", (3, 7), 3, 7),
        ("sparkai", (3, 8), 3, 8),
        ("everestbuzz", (3, 7, 12), 3, 7),
    ],
)
def test_tiplu_tables(profile, tiplu, one, two):
    assert points(profile, maal_cards=["8H"]) == one
    assert points(profile, maal_cards=["8H", "8H"]) == two


# --- dealt tunnelas -----------------------------------------------------------------------

ERR = "error"
# tiplu 8H: ordinary 5S, ordinary joker 8S, poplu 9H, jhiplu 7H, alter 8D, printed JK,
# tiplu 8H. The kinds and the cards must give the same (docs/rules.md §6). ERR: more
# copies than the pack has in hands (a printed joker where there are none, three tiplus
# where the indicator is set aside).
TUNNELA_TABLE = {
    #              ordinary oj  poplu jhiplu alter printed tiplu
    "amarnepal": (5, 10, 20, 20, 35, 35, ERR),
    # sparkai scores no dealt tunnela: its cards count as maal cards (docs/rules.md §9)
    "sparkai": (0, 0, 10, 10, 25, ERR, ERR),
    "classic": (5, 10, 20, 20, 10, ERR, ERR),
    "everestbuzz": (5, 10, 20, 20, 10, ERR, 30),
    # gamerules: only the tiplu's suit is wild, so 8S and 8D are ordinary cards there; its
    # three tiplus can all be dealt, and score as cards: 7 and the last step 4
    "gamerules": (5, 5, 15, 15, 5, ERR, 11),
}
KINDS = ["ordinary", "ordinary_joker", "poplu", "jhiplu", "alter", "printed_joker", "tiplu"]
CARDS = ["5S", "8S", "9H", "7H", "8D", "JK", "8H"]


@pytest.mark.parametrize("profile", list(TUNNELA_TABLE))
@pytest.mark.parametrize("index", range(7))
def test_dealt_tunnela_as_a_card(profile, index):
    expected = TUNNELA_TABLE[profile][index]
    maal = {"dealt_tunnelas": [CARDS[index]]}
    if expected == ERR:
        assert problems(solo(profile, **maal), profile)
    else:
        assert points(profile, **maal) == expected


@pytest.mark.parametrize("profile", list(TUNNELA_TABLE))
@pytest.mark.parametrize("index", range(7))
def test_dealt_tunnela_as_a_kind(profile, index):
    expected = TUNNELA_TABLE[profile][index]
    if profile == "gamerules" and KINDS[index] in ("ordinary_joker", "alter"):
        pytest.skip("gamerules has no ordinary jokers or alters: the kind names nothing there")
    maal = {"dealt_tunnelas": [KINDS[index]]}
    if expected == ERR:
        assert problems(solo(profile, tiplu=None, **maal), profile)
    else:
        assert points(profile, tiplu=None, **maal) == expected


def test_dealt_tunnela_kinds_in_any_case():
    assert points(tiplu=None, dealt_tunnelas=["Ordinary", "POPLU"]) == 25


def test_dealt_tunnela_card_in_any_notation():
    assert points(tiplu="8h", dealt_tunnelas=["9♥", "t♣"]) == 25


def test_dealt_tunnelas_score_instead_of_their_cards():
    # A tunnela of poplus scores 20; the other maal (one tiplu) counts apart: 23, and the
    # poplus are not counted again (no marriage with the 7H either)
    assert points(dealt_tunnelas=["9H"], maal_cards=["8H", "7H"]) == 20 + 3 + 2
    assert points(dealt_tunnelas=["poplu"], maal_counts={"tiplu": 1, "jhiplu": 1}) == 25


def test_several_dealt_tunnelas_add_up():
    assert points(dealt_tunnelas=["5S", "6C"]) == 10
    assert points(dealt_tunnelas=["9H", "7H"]) == 40
    assert points(dealt_tunnelas=["9H", "8D", "JK"]) == 20 + 35 + 35


@pytest.mark.parametrize(
    ("tunnelas", "expected"),
    [
        (["ordinary"], 5),
        (["ordinary", "ordinary"], 15),
        (["ordinary"] * 3, 25),
        (["5S", "6C", "KD"], 25),
        (["poplu"], 15),
        (["jhiplu"], 15),
        (["9H"], 15),
        (["poplu", "jhiplu"], 35),
        (["9H", "7H"], 35),
        # "with three dealt tunnelas the third adds 5": 35 + 5
        (["poplu", "jhiplu", "ordinary"], 40),
        (["9H", "7H", "2C"], 40),
    ],
)
def test_gamerules_dealt_tunnela_totals(tunnelas, expected):
    tiplu = "8H" if any(t[0].isdigit() or t[0] in "KQJA" for t in tunnelas) else None
    assert points("gamerules", tiplu=tiplu, seen="unseen", dealt_tunnelas=tunnelas) == expected


# --- shown marriages (gamerules) ----------------------------------------------------------


@pytest.mark.parametrize(
    ("counts", "shown", "expected"),
    [
        ({"tiplu": 1, "poplu": 1, "jhiplu": 1}, 0, 10),
        ({"tiplu": 1, "poplu": 1, "jhiplu": 1}, 1, 15),
        ({"tiplu": 2, "poplu": 2, "jhiplu": 2}, 0, 30),
        ({"tiplu": 2, "poplu": 2, "jhiplu": 2}, 2, 35),
        # one shown (15) and one in hand (10)
        ({"tiplu": 2, "poplu": 2, "jhiplu": 2}, 1, 25),
        # a shown marriage plus loose cards: 15 + tiplu 3 + poplu 2
        ({"tiplu": 2, "poplu": 2, "jhiplu": 1}, 1, 20),
    ],
)
def test_gamerules_shown_marriages(counts, shown, expected):
    assert points("gamerules", maal_counts=counts, marriages_shown=shown) == expected
    cards = ["8H"] * counts["tiplu"] + ["9H"] * counts["poplu"] + ["7H"] * counts["jhiplu"]
    assert points("gamerules", maal_cards=cards, marriages_shown=shown) == expected


def test_shown_marriage_is_kept_even_when_loose_cards_would_score_more():
    # with marriage_shown [1] the best grouping may not undo what was shown on the table
    over = {"marriage_shown": [1]}
    assert (
        points(
            "gamerules",
            overrides=over,
            maal_counts={"tiplu": 1, "poplu": 1, "jhiplu": 1},
            marriages_shown=1,
        )
        == 1
    )


# --- the breakdown ------------------------------------------------------------------------


def test_breakdown_one_item_per_group():
    # 7H 8H 9H marriage 10; the second 9H poplu 2; 8D alter 5; JK JK printed 15; 5C nothing
    cards = ["9H", "JK", "8H", "5C", "7H", "8D", "9H", "JK"]
    result = count(maal_cards=cards)
    assert result.total == 32
    got = {i.item: i for i in result.items}
    assert got["marriage"].points == 10 and sorted(got["marriage"].cards) == ["7H", "8H", "9H"]
    assert got["poplu"].points == 2 and list(got["poplu"].cards) == ["9H"]
    assert got["alter"].points == 5 and list(got["alter"].cards) == ["8D"]
    assert got["printed_joker"].points == 15 and list(got["printed_joker"].cards) == ["JK", "JK"]
    assert got["printed_joker"].count == 2  # which table entry
    assert sum(i.points for i in result.items) == result.total
    listed = Counter(c for i in result.items for c in i.cards)
    assert listed == Counter(cards)


def test_breakdown_marriage_cards_read_jhiplu_tiplu_poplu():
    result = count(maal_cards=["9H", "8H", "7H"])
    assert [list(i.cards) for i in result.items] == [["7H", "8H", "9H"]]


def test_breakdown_of_tunnelas_lists_their_three_cards():
    result = count(dealt_tunnelas=["9H", "5S"], maal_cards=["8H"])
    assert result.total == 28
    listed = Counter(c for i in result.items for c in i.cards)
    assert listed == Counter(["9H"] * 3 + ["5S"] * 3 + ["8H"])
    assert sum(i.points for i in result.items) == 28


@pytest.mark.parametrize(
    ("tunnelas", "tiplu", "cards"),
    [
        (["JK"], "8H", ["JK"] * 3),  # a printed joker given as its card
        (["printed_joker"], None, ["JK"] * 3),  # its one card, tiplu or not
        (["poplu", "alter"], "8H", ["9H"] * 3 + ["8D"] * 3),  # a kind of one card
        (["tiplu"], "8H", ["8H"] * 3),
    ],
)
def test_breakdown_of_tunnelas_lists_their_cards_whenever_they_are_known(tunnelas, tiplu, cards):
    """docs/rules.md §2: a breakdown a person can check says which cards each item holds,
    for a tunnela given by its kind as for one given as a card."""
    profile = "everestbuzz" if "tiplu" in tunnelas else "amarnepal"
    result = count(profile, tiplu=tiplu, dealt_tunnelas=tunnelas)
    listed = [c for i in result.items if i.item == "dealt_tunnela" for c in i.cards]
    assert sorted(listed) == sorted(cards)


@pytest.mark.parametrize("seen", ["unseen", "sequences"])
def test_a_tunnela_that_earns_no_bonus_lists_its_cards(seen):
    """Its item says why (§9) and which cards it is; its cards are then counted as maal."""
    profile = "sparkai" if seen == "sequences" else "amarnepal"
    result = count(profile, seen=seen, dealt_tunnelas=["poplu"])
    withheld = [i for i in result.items if i.item == "dealt_tunnela_no_bonus"]
    assert [list(i.cards) for i in withheld] == [["9H"] * 3]
    assert result.total == 10


def test_breakdown_codes_are_normalised():
    result = count(tiplu="th", maal_cards=["t♥", "10h", "jh"])
    assert sorted(c for i in result.items for c in i.cards) == ["10H", "10H", "JH"]


@pytest.mark.parametrize(
    "counts",
    [
        {"tiplu": 2, "poplu": 3, "jhiplu": 1, "alter": 2},
        {"printed_joker": 3, "poplu": 1},
        {"tiplu": 1, "jhiplu": 3},
    ],
)
def test_breakdown_from_counts_adds_up(counts):
    result = count(maal_counts=counts)
    assert sum(i.points for i in result.items) == result.total
    assert sum(
        i.count * (3 if i.item == "marriage" else 1) for i in result.items if i.item != "not_maal"
    ) == sum(counts.values())


def test_breakdown_codes_are_cards():
    result = count(maal_cards=["7H", "8H", "9H", "8D", "JK", "5C"])
    for item in result.items:
        for code in item.cards:
            parse_card(code)


# --- why a grouping won (maal_groupings, for the pages) -----------------------------------

#: docs/rules.md's example as cards under the tiplu 8H: one tiplu, three poplus (9H), three
#: jhiplus (7H).
DOCS_EXAMPLE = ["8H", "9H", "9H", "9H", "7H", "7H", "7H"]


def groupings(profile="classic", tiplu="8H", overrides=None, **maal):
    rules = rules_for(profile, **(overrides or {}))
    h = parse_hand(solo(profile, tiplu=tiplu, **maal), rules)
    found = maal_groupings(h.players[0], rules, h.tiplu)
    assert [g.total for g in found if g.chosen] in (
        [],
        [count_maal(h.players[0], rules, h.tiplu).total],
    )
    return [(g.marriages, g.total, g.chosen) for g in found]


def test_groupings_of_the_docs_example():
    # best: no marriage (3 + 5 × 2 ... = 23) beats one (20); marriages_first forms the one
    assert groupings(maal_cards=DOCS_EXAMPLE) == [(1, 20, False), (0, 23, True)]
    first = {"marriage_grouping": "marriages_first"}
    assert groupings(overrides=first, maal_cards=DOCS_EXAMPLE) == [(1, 20, True), (0, 23, False)]


def test_groupings_count_the_other_cards_too():
    # a printed joker pair beside the example adds the same to every grouping
    plain = groupings("amarnepal", maal_cards=["8H", "9H", "7H"])
    jokers = groupings("amarnepal", maal_cards=["8H", "9H", "7H", "JK", "JK"])
    extra = points("amarnepal", maal_cards=["JK", "JK"])
    assert extra > 0
    assert [(m, t + extra, c) for m, t, c in plain] == jokers


def test_groupings_best_keeps_the_fewest_marriages_on_a_tie():
    # a marriage worth exactly its three cards apart: the tie goes to none
    tie = {"marriage": [7], "tiplu": 3, "poplu": 2, "jhiplu": 2}
    assert groupings("amarnepal", overrides=tie, maal_cards=["8H", "9H", "7H"]) == [
        (1, 7, False),
        (0, 7, True),
    ]


def test_groupings_keep_shown_marriages():
    # gamerules scores a shown marriage apart: never fewer marriages than were shown
    found = groupings(
        "gamerules",
        maal_counts={"tiplu": 2, "poplu": 2, "jhiplu": 2},
        marriages_shown=1,
    )
    assert [m for m, _t, _c in found] == [2, 1]
    assert [c for _m, _t, c in found].count(True) == 1


@pytest.mark.parametrize(
    "maal",
    [
        {"maal": 12},
        {"maal_counts": {"marriage": 1, "tiplu": 1, "poplu": 1, "jhiplu": 1}},
        {"maal_cards": ["8H", "9H", "9H"]},  # no jhiplu: no marriage to form
        {"maal_cards": []},
    ],
)
def test_no_groupings_where_there_is_no_choice(maal):
    assert groupings("amarnepal", **maal) == []


def test_settle_does_not_ask_for_groupings():
    import importlib
    from pathlib import Path

    settle_module = importlib.import_module("ledger.engine.settle")
    assert "maal_groupings" not in Path(settle_module.__file__).read_text()


# --- counts kept with the rules -----------------------------------------------------------


def _from_cards(codes, rules, name="A"):
    cards = tuple(parse_card(code) for code in codes)
    return count_maal(PlayerHand(name, "sequences", maal_cards=cards), rules, parse_card("5H"))


def test_maal_cards_alone_are_counted_once_per_set_of_cards_in_any_order():
    rules = resolve_rules("amarnepal")
    first = _from_cards(["6H", "4H", "5H", "JK", "5D"], rules)
    assert _from_cards(["5D", "JK", "5H", "4H", "6H"], rules, name="B") is first
    assert (
        first.total == _from_cards(["6H", "4H", "5H", "JK", "5D"], resolve_rules("amarnepal")).total
    )


def test_a_set_with_a_card_that_is_no_maal_is_counted_each_time():
    rules = resolve_rules("amarnepal")
    once = _from_cards(["6H", "4H", "5H", "9C"], rules)
    again = _from_cards(["6H", "4H", "5H", "9C"], rules)
    assert once == again and once is not again


def test_the_counts_kept_per_rules_and_tiplu_are_bounded(monkeypatch):
    monkeypatch.setattr(maal_module, "KEPT_COUNTS", 1)
    rules = resolve_rules("amarnepal")
    kept = _from_cards(["6H"], rules)
    other = _from_cards(["4H"], rules)
    assert _from_cards(["6H"], rules) is kept
    assert _from_cards(["4H"], rules) == other and _from_cards(["4H"], rules) is not other
