"""Whole hands worked out by hand from docs/rules.md, one or more per profile and setting.

Each case shows its arithmetic in comments; the engine must agree to the point.
"""

from spec_support import by_name, hand, nets, payments, player, settle_data


def maals(result):
    return {p.name: p.maal for p in result.players}


# --- amarnepal: tiplu 8H (poplu 9H, jhiplu 7H, alter 8D, ordinary jokers 8S 8C, JK) -------

AMAR = hand(
    [
        # tunnela of 5C: 5; 7H 8H 9H: marriage 10 (loose 3+2+2 = 7); JK 5; 8S 0 -> 20
        player(
            "Asha", "sequences", maal_cards=["7H", "8H", "9H", "JK", "8S"], dealt_tunnelas=["5C"]
        ),
        # two alters 15; one poplu 2 -> 17
        player("Bikash", "dublees", maal_cards=["8d", "8♦", "9h"]),
        # tiplu 3; two jhiplus 5; one JK 5 -> 13 (no poplu, no marriage)
        player("Chandra", "sequences", maal_counts={"tiplu": 1, "jhiplu": 2, "printed_joker": 1}),
        # poplu 2 + alter 5 = 7, but Dipa never saw: murdered
        player("Dipa", "unseen", maal_cards=["9H", "8D"]),
    ],
    winner="Asha",
    tiplu="8H",
)


def test_amarnepal_by_hand():
    result = settle_data(AMAR, "amarnepal")
    assert maals(result) == {"Asha": 20, "Bikash": 17, "Chandra": 13, "Dipa": 7}
    # E 20, 17, 13, 0; T 50; n 4: points 30, 18, 2, -50
    assert result.total_maal == 50
    assert {p.name: p.maal_points for p in result.players} == {
        "Asha": 30,
        "Bikash": 18,
        "Chandra": 2,
        "Dipa": -50,
    }
    # fees: Bikash (dublees) 3, Chandra 3, Dipa 10 -> Asha +16
    assert nets(result) == {"Asha": 46, "Bikash": 15, "Chandra": -1, "Dipa": -60}
    # Bikash 50+3-68 = -15 (Asha pays him); Chandra 50+3-52 = 1; Dipa 50+10-0 = 60
    assert payments(result) == {
        ("Asha", "Bikash", 15),
        ("Chandra", "Asha", 1),
        ("Dipa", "Asha", 60),
    }


def test_amarnepal_kidnap_by_hand():
    # Dipa's 7 goes to Asha: E 27, 17, 13, 0; T 57: points 51, 11, -5, -57; fees +16
    result = settle_data(AMAR, "amarnepal", unseen_maal="kidnap")
    assert nets(result) == {"Asha": 67, "Bikash": 8, "Chandra": -8, "Dipa": -67}


def test_amarnepal_keep_by_hand():
    # E 20, 17, 13, 7; T 57: points 23, 11, -5, -29; fees +16
    result = settle_data(AMAR, "amarnepal", unseen_maal="keep")
    assert nets(result) == {"Asha": 39, "Bikash": 8, "Chandra": -8, "Dipa": -39}


def test_amarnepal_house_overrides_by_hand():
    # "two marriages 25": 2/2/2 -> 25 (one marriage 10+3+2+2 = 17, none 8+5+5 = 18)
    data = hand(
        [player("A", maal_counts={"tiplu": 2, "poplu": 2, "jhiplu": 2}), player("B")], winner="B"
    )
    assert by_name(settle_data(data, "amarnepal", marriage=[10, 25]))["A"].maal == 25
    # "three alters 30"; "printed joker 2 / 5 / 10"; "two tiplus worth 7"
    data = hand(
        [player("A", maal_counts={"alter": 3, "printed_joker": 3, "tiplu": 2}), player("B")],
        winner="B",
    )
    over = {"alter": [5, 15, 30], "printed_joker": [2, 5, 10], "tiplu": [3, 7]}
    assert by_name(settle_data(data, "amarnepal", **over))["A"].maal == 30 + 10 + 7
    assert by_name(settle_data(data, "amarnepal"))["A"].maal == 25 + 25 + 8


def test_amarnepal_seen_by_dublee_losers_pay_no_fee_override():
    # Bikash's fee 0: Asha +13 -> 43; Bikash 18 - 0 = 18
    result = settle_data(AMAR, "amarnepal", fee_seen_dublee=0)
    assert nets(result) == {"Asha": 43, "Bikash": 18, "Chandra": -1, "Dipa": -60}


def test_amarnepal_printed_joker_tunnela_by_hand():
    # tunnela of JK 35, of alters 35, of 9H 20: 90; then 8H 8H (8) -> 98
    data = hand(
        [
            player("A", dealt_tunnelas=["JK", "8D", "poplu"], maal_cards=["8H", "8H"]),
            player("B", maal_cards=["7H"]),
        ],
        winner="B",
        tiplu="8H",
    )
    result = settle_data(data, "amarnepal")
    assert maals(result) == {"A": 98, "B": 2}
    # T 100, n 2: A 196-100 = 96 - fee 3 = 93; B 4-100 = -96 + 3 = -93
    assert nets(result) == {"A": 93, "B": -93}


# --- sparkai: tiplu AS (poplu 2S, jhiplu KS, alter AC, ordinary jokers AH AD) -------------

SPARK = [
    # KS AS 2S marriage 10 + one more KS 2 (none: 3+2+5 = 10); three alters 25 -> 37
    player("A", "sequences", maal_cards=["KS", "AS", "2S", "KS", "AC", "AC", "AC"]),
    # tiplu 3 + two poplus 5 = 8, murdered
    player("B", "unseen", maal_cards=["as", "2s", "2♠"]),
    player("C", "dublees", maal=4),
]


def test_sparkai_by_hand():
    result = settle_data(hand(SPARK, winner="A", tiplu="AS"), "sparkai")
    assert maals(result) == {"A": 37, "B": 8, "C": 4}
    # E 37, 0, 4; T 41; n 3: 70, -41, -29; fees B 10, C 3 -> A +13
    assert nets(result) == {"A": 83, "B": -51, "C": -32}
    assert payments(result) == {("B", "A", 51), ("C", "A", 32)}


def test_sparkai_dublee_finish_by_hand():
    # C finishes by dublees: A pays 3+5, B 10+5 -> C +23
    result = settle_data(hand(SPARK, winner="C", tiplu="AS"), "sparkai")
    assert nets(result) == {"A": 62, "B": -56, "C": -6}
    # A: 41 + 8 - 111 = -62 (C pays A 62); B: 41 + 15 - 0 = 56
    assert payments(result) == {("C", "A", 62), ("B", "C", 56)}


# --- classic: tiplu 10C (poplu JC, jhiplu 9C; 10S "alter" is an ordinary joker; 10H 10D) --

CLASSIC = [
    # tunnela of 10H (ordinary jokers) 10; 9C 10C JC marriage 10 + JC 2; 10S 10S 0 -> 22
    player(
        "P1",
        "sequences",
        maal_cards=["9C", "10C", "JC", "JC", "10S", "10S"],
        dealt_tunnelas=["10H"],
    ),
    # tunnelas of 2D (ordinary) 5 and 10D (ordinary jokers) 10; one tiplu 3 -> 18
    player("P2", "sequences", maal_counts={"tiplu": 1}, dealt_tunnelas=["2d", "TD"]),
    # poplu 2 + an "alter" (an ordinary joker here) 0 -> 2
    player("P3", "dublees", maal_counts={"poplu": 1, "alter": 1}),
    player("P4", "unseen", maal=9),  # murdered
    # two jhiplus 5
    player("P5", "sequences", maal_cards=["9C", "9C"]),
]


def test_classic_by_hand():
    result = settle_data(hand(CLASSIC, winner="P1", tiplu="10C"), "classic")
    assert maals(result) == {"P1": 22, "P2": 18, "P3": 2, "P4": 9, "P5": 5}
    # E 22, 18, 2, 0, 5; T 47; n 5: 63, 43, -37, -47, -22; fees 3+3+10+3 = 19
    assert result.total_maal == 47
    assert nets(result) == {"P1": 82, "P2": 40, "P3": -40, "P4": -57, "P5": -25}
    assert payments(result) == {
        ("P1", "P2", 40),
        ("P3", "P1", 40),
        ("P4", "P1", 57),
        ("P5", "P1", 25),
    }


def test_classic_void_is_maal_only_by_hand():
    result = settle_data(hand(CLASSIC, winner=None, tiplu="10C"), "classic")
    assert nets(result) == {"P1": 63, "P2": 43, "P3": -37, "P4": -47, "P5": -22}
    assert all(p.fee == 0 for p in result.players)


def test_classic_foul_same_hand_by_hand():
    # P5 fouls: E 22, 18, 2, 0, 0; T 42: 68, 48, -32, -42, -42
    # fees P2 3, P3 3, P4 10 (P5 none) -> +16; P5 pays the penalty 15
    players = [dict(p) for p in CLASSIC]
    players[4]["foul"] = True
    result = settle_data(hand(players, winner="P1", tiplu="10C"), "classic", foul="same_hand")
    assert nets(result) == {"P1": 99, "P2": 45, "P3": -35, "P4": -52, "P5": -57}


# --- everestbuzz: tiplu 3D (poplu 4D, jhiplu 2D, alter 3H, ordinary jokers 3S 3C) ---------

EVEREST = [
    # marriages_first: 3D 4D 2D marriage 10, then 4D 4D 5 and 2D 2D 5 (best would take 23);
    # tunnela of alters 10 -> 30
    player(
        "W",
        "sequences",
        maal_cards=["3D", "4D", "4D", "4D", "2D", "2D", "2D"],
        dealt_tunnelas=["3H"],
    ),
    # two tiplus 7 (three tiplus fit in hands here: W 1 + X 2); 3S 0
    player("X", "dublees", maal_cards=["3D", "3D", "3S"]),
    # tunnelas: ordinary 5 + ordinary jokers 10 -> 15
    player("Y", "sequences", dealt_tunnelas=["ordinary", "ordinary_joker"]),
    player("Z", "unseen", maal=12),
]


def test_everestbuzz_by_hand():
    result = settle_data(hand(EVEREST, winner="W", tiplu="3D"), "everestbuzz")
    assert maals(result) == {"W": 30, "X": 7, "Y": 15, "Z": 12}
    # E 30, 7, 15, 0; T 52; n 4: 68, -24, 8, -52; fees X 0 (dublees), Y 3, Z 10 -> +13
    assert nets(result) == {"W": 81, "X": -24, "Y": 5, "Z": -62}
    assert payments(result) == {("X", "W", 24), ("W", "Y", 5), ("Z", "W", 62)}


def test_everestbuzz_dublee_finish_by_hand():
    # X finishes by dublees: W 3+5, Y 3+5, Z 10+5 -> X +31
    result = settle_data(hand(EVEREST, winner="X", tiplu="3D"), "everestbuzz")
    assert nets(result) == {"W": 60, "X": 7, "Y": 0, "Z": -67}
    assert payments(result) == {("X", "W", 60), ("Z", "X", 67)}


def test_everestbuzz_tiplu_tunnela_and_three_marriages_by_hand():
    # tunnela of tiplus 30; three alters 15 -> 45. Other: 3 poplus 10 + 3 jhiplus 10 = 20
    data = hand(
        [
            player("A", dealt_tunnelas=["tiplu"], maal_cards=["3H"] * 3),
            player("B", maal_counts={"poplu": 3, "jhiplu": 3}),
        ],
        winner="B",
        tiplu="3D",
    )
    result = settle_data(data, "everestbuzz")
    assert maals(result) == {"A": 45, "B": 20}
    # T 65: A 90-65 = 25 - 3; B 40-65 = -25 + 3
    assert nets(result) == {"A": 22, "B": -22}
    # three marriages 60 when all three tiplus are in one hand
    data = hand(
        [player("A", maal_counts={"tiplu": 3, "poplu": 3, "jhiplu": 3}), player("B")],
        winner="B",
        tiplu="3D",
    )
    assert maals(settle_data(data, "everestbuzz"))["A"] == 60


# --- gamerules: tiplu QH (poplu KH, jhiplu JH; QD QS QC are ordinary cards) ---------------


def test_gamerules_by_hand():
    data = hand(
        [
            # JH QH KH shown: 15; QD QD not wild: 0; tunnela 5S: 5 -> 20
            player(
                "G1",
                "sequences",
                maal_cards=["JH", "QH", "KH", "QD", "QD"],
                marriages_shown=1,
                dealt_tunnelas=["5S"],
            ),
            # two ordinary tunnelas 15 (totals); one tiplu 3 -> 18, unseen but counted
            player(
                "G2", "unseen", maal_counts={"tiplu": 1}, dealt_tunnelas=["ordinary", "ordinary"]
            ),
            # two poplus 5 + two jhiplus 5 -> 10 (no tiplu, no marriage)
            player("G3", "sequences", maal_counts={"poplu": 2, "jhiplu": 2}),
            player("G4", "unseen", maal=4),
        ],
        winner="G1",
        tiplu="QH",
    )
    result = settle_data(data, "gamerules")
    assert maals(result) == {"G1": 20, "G2": 18, "G3": 10, "G4": 4}
    # the finisher also scores 10 x 3 opponents
    assert nets(result) == {"G1": 50, "G2": 18, "G3": 10, "G4": 4}
    assert result.payments == ()


def test_gamerules_three_tunnelas_by_hand():
    # tunnelas KH (poplus) + JH (jhiplus) 35, third (2C) adds 5 -> 40
    # Q: two tiplus 7 + finisher 10 x 1
    data = hand(
        [
            player("P", "unseen", dealt_tunnelas=["KH", "JH", "2C"]),
            player("Q", maal_cards=["QH", "QH"]),
        ],
        winner="Q",
        tiplu="QH",
    )
    assert nets(settle_data(data, "gamerules")) == {"P": 40, "Q": 17}


def test_gamerules_marriage_in_hand_by_hand():
    # 2 marriages in hand 30 (not shown)
    data = hand(
        [player("P", maal_cards=["JH", "QH", "KH"] * 2), player("Q")], winner="Q", tiplu="QH"
    )
    assert nets(settle_data(data, "gamerules")) == {"P": 30, "Q": 10}
