"""ledger.engine.settle: settling a hand (docs/rules.md §3, §4)."""

import pytest
from spec_support import by_name, flows, hand, nets, payments, player, settle_data
from worked_example import WORKED_FEES, WORKED_MAAL_POINTS, WORKED_NETS

ZERO_SUM = ["amarnepal", "sparkai", "classic", "everestbuzz"]


def worked_example(
    dipa_seen="unseen", bikash_seen="sequences", asha_seen="sequences", chandra=None
):
    """docs/rules.md §3: Asha finishes with 10; Bikash saw with 5; Chandra saw with 0; Dipa never
    saw and holds 8."""
    return hand(
        [
            player("Asha", asha_seen, maal=10),
            player("Bikash", bikash_seen, maal=5),
            player("Chandra", "sequences", **{"maal": 0, **(chandra or {})}),
            player("Dipa", dipa_seen, maal=8),
        ],
        winner="Asha",
    )


# --- the worked examples of docs/rules.md §3 ---------------------------------------------------


@pytest.mark.parametrize("profile", ZERO_SUM)
def test_worked_example_murder_four_players(profile):
    result = settle_data(worked_example(), profile)
    p = by_name(result)
    assert result.total_maal == 15
    assert {k: v.effective_maal for k, v in p.items()} == {
        "Asha": 10,
        "Bikash": 5,
        "Chandra": 0,
        "Dipa": 0,
    }
    assert p["Dipa"].maal == 8
    # maal points: 40-15, 20-15, -15, -15
    assert {k: v.maal_points for k, v in p.items()} == WORKED_MAAL_POINTS
    assert {k: v.fee for k, v in p.items()} == WORKED_FEES
    assert nets(result) == WORKED_NETS
    # Bikash pays 15+3-20 = -2 (Asha pays him 2), Chandra pays 18, Dipa pays 25
    assert payments(result) == {
        ("Asha", "Bikash", 2),
        ("Chandra", "Asha", 18),
        ("Dipa", "Asha", 25),
    }


@pytest.mark.parametrize("profile", ZERO_SUM)
def test_worked_example_three_players(profile):
    data = hand(
        [player("A", maal=10), player("B", maal=2), player("C", "unseen", maal=0)], winner="A"
    )
    result = settle_data(data, profile)
    assert result.total_maal == 12
    assert nets(result) == {"A": 31, "B": -9, "C": -22}
    # B pays 12 + 3 - 6 = 9; C pays 12 + 10 - 0 = 22
    assert payments(result) == {("B", "A", 9), ("C", "A", 22)}


# --- unseen maal: murder, kidnap, keep ----------------------------------------------------


def test_murder_kidnap_keep_differ_on_the_same_hand():
    murder = settle_data(worked_example(), "amarnepal")
    # kidnap: Dipa's 8 goes to Asha: E = 18, 5, 0, 0; T = 23
    # points 72-23 = 49, 20-23 = -3, -23, -23; fees as before (+16)
    kidnap = settle_data(worked_example(), "amarnepal", unseen_maal="kidnap")
    # keep: E = 10, 5, 0, 8; T = 23; points 17, -3, -23, 32-23 = 9
    keep = settle_data(worked_example(), "amarnepal", unseen_maal="keep")
    assert nets(murder) == {"Asha": 41, "Bikash": 2, "Chandra": -18, "Dipa": -25}
    assert nets(kidnap) == {"Asha": 65, "Bikash": -6, "Chandra": -26, "Dipa": -33}
    assert nets(keep) == {"Asha": 33, "Bikash": -6, "Chandra": -26, "Dipa": -1}
    assert by_name(kidnap)["Asha"].effective_maal == 18
    assert by_name(kidnap)["Dipa"].effective_maal == 0
    assert by_name(keep)["Dipa"].effective_maal == 8
    assert kidnap.total_maal == keep.total_maal == 23
    assert payments(kidnap) == {
        ("Bikash", "Asha", 6),
        ("Chandra", "Asha", 26),
        ("Dipa", "Asha", 33),
    }
    assert payments(keep) == {("Bikash", "Asha", 6), ("Chandra", "Asha", 26), ("Dipa", "Asha", 1)}


def test_everestbuzz_kidnap_by_choice():
    result = settle_data(worked_example(), "everestbuzz", unseen_maal="kidnap")
    assert nets(result) == {"Asha": 65, "Bikash": -6, "Chandra": -26, "Dipa": -33}


def test_kidnap_of_several_unseen_players():
    # A finishes 10; B unseen 4; C unseen 6: E = 20, 0, 0; T = 20, n = 3
    # points 40, -20, -20; fees 10 + 10
    data = hand(
        [player("A", maal=10), player("B", "unseen", maal=4), player("C", "unseen", maal=6)],
        winner="A",
    )
    result = settle_data(data, "sparkai", unseen_maal="kidnap")
    assert nets(result) == {"A": 60, "B": -30, "C": -30}


# --- fees ---------------------------------------------------------------------------------


def test_fee_seen_by_dublees_three_in_most_profiles():
    for profile in ["amarnepal", "sparkai", "classic"]:
        result = settle_data(worked_example(bikash_seen="dublees"), profile)
        assert by_name(result)["Bikash"].fee == -3
        assert nets(result) == {"Asha": 41, "Bikash": 2, "Chandra": -18, "Dipa": -25}


def test_fee_seen_by_dublees_zero_in_everestbuzz():
    # fees: Bikash 0, Chandra 3, Dipa 10 -> Asha 25 + 13 = 38; Bikash 5
    result = settle_data(worked_example(bikash_seen="dublees"), "everestbuzz")
    assert by_name(result)["Bikash"].fee == 0
    assert nets(result) == {"Asha": 38, "Bikash": 5, "Chandra": -18, "Dipa": -25}
    assert payments(result) == {
        ("Asha", "Bikash", 5),
        ("Chandra", "Asha", 18),
        ("Dipa", "Asha", 25),
    }


def test_fee_overrides():
    result = settle_data(worked_example(), "sparkai", fee_seen=5, fee_unseen=20)
    # fees 5 + 5 + 20 = 30
    assert nets(result) == {"Asha": 55, "Bikash": 0, "Chandra": -20, "Dipa": -35}


# --- the dublee finish bonus --------------------------------------------------------------


@pytest.mark.parametrize("profile", ["amarnepal", "sparkai", "classic"])
def test_dublee_finish_per_loser(profile):
    # every non-finisher pays 5 more: 8, 8, 15 -> Asha 25 + 31 = 56
    result = settle_data(worked_example(asha_seen="dublees"), profile)
    assert nets(result) == {"Asha": 56, "Bikash": -3, "Chandra": -23, "Dipa": -30}
    assert by_name(result)["Asha"].fee == 31


def test_dublee_finish_per_loser_everestbuzz():
    # Bikash saw by dublees (fee 0) and still pays the 5
    result = settle_data(worked_example(asha_seen="dublees", bikash_seen="dublees"), "everestbuzz")
    # fees: Bikash 0+5, Chandra 3+5, Dipa 10+5 = 28
    assert nets(result) == {"Asha": 53, "Bikash": 0, "Chandra": -23, "Dipa": -30}


def test_dublee_finish_finisher_maal_same_when_everybody_is_in_the_exchange():
    # Asha's maal 15, T = 20: points 40, 0, -20, -20; fees 16 -> the same nets as per_loser
    result = settle_data(
        worked_example(asha_seen="dublees"), "amarnepal", dublee_finish_bonus_mode="finisher_maal"
    )
    assert by_name(result)["Asha"].maal == 15
    assert result.total_maal == 20
    assert nets(result) == {"Asha": 56, "Bikash": -3, "Chandra": -23, "Dipa": -30}
    assert sum(i.points for i in by_name(result)["Asha"].breakdown) == 15


def test_dublee_finish_modes_differ_when_a_player_is_left_out():
    # classic with fouls penalised: C fouled (E = 0, no fee).
    data = hand(
        [player("A", "dublees", maal=10), player("B", maal=2), player("C", maal=4, foul=True)],
        winner="A",
    )
    # per_loser: E 10, 2, 0; T 12; points 18, -6, -12; B pays 3 + 5; C pays the penalty 15
    per_loser = settle_data(data, "classic", foul="same_hand")
    assert nets(per_loser) == {"A": 41, "B": -14, "C": -27}
    # finisher_maal: E 15, 2, 0; T 17; points 28, -11, -17; B pays 3; C 15
    finisher = settle_data(
        data, "classic", foul="same_hand", dublee_finish_bonus_mode="finisher_maal"
    )
    assert nets(finisher) == {"A": 46, "B": -14, "C": -32}


def test_no_dublee_bonus_for_a_sequences_finish():
    result = settle_data(worked_example(), "amarnepal")
    assert by_name(result)["Asha"].fee == 16


# --- void hands ---------------------------------------------------------------------------


def void_hand():
    return hand(
        [player("A", maal=10), player("B", maal=2), player("C", "unseen", maal=8)], winner=None
    )


@pytest.mark.parametrize("profile", ["amarnepal", "sparkai", "everestbuzz", "gamerules"])
def test_void_nothing(profile):
    result = settle_data(void_hand(), profile)
    assert nets(result) == {"A": 0, "B": 0, "C": 0}
    assert all(p.fee == 0 and p.maal_points == 0 for p in result.players)
    assert result.payments == ()


def test_void_maal_only_in_classic():
    # E 10, 2, 0 (murder); T 12; points 18, -6, -12; no fees
    result = settle_data(void_hand(), "classic")
    assert nets(result) == {"A": 18, "B": -6, "C": -12}
    assert all(p.fee == 0 for p in result.players)
    assert flows(result) == nets(result)
    assert all(pay.points > 0 for pay in result.payments)


def test_void_maal_only_kidnap_goes_nowhere():
    result = settle_data(void_hand(), "classic", unseen_maal="kidnap")
    assert nets(result) == {"A": 18, "B": -6, "C": -12}


def test_void_overrides():
    assert nets(settle_data(void_hand(), "amarnepal", void_hand="maal_only")) == {
        "A": 18,
        "B": -6,
        "C": -12,
    }
    assert nets(settle_data(void_hand(), "classic", void_hand="nothing")) == {
        "A": 0,
        "B": 0,
        "C": 0,
    }


# --- fouls --------------------------------------------------------------------------------


def test_foul_same_hand():
    # Chandra fouled holding 6: E 10, 5, 0, 0; T 15; points 25, 5, -15, -15
    # fees: Bikash 3, Chandra none, Dipa 10; penalty Chandra -> Asha 15
    data = worked_example(chandra={"maal": 6, "foul": True})
    result = settle_data(data, "classic", foul="same_hand")
    p = by_name(result)
    assert p["Chandra"].effective_maal == 0
    assert p["Chandra"].fee == 0
    assert nets(result) == {"Asha": 53, "Bikash": 2, "Chandra": -30, "Dipa": -25}
    assert payments(result) == {
        ("Asha", "Bikash", 2),
        ("Chandra", "Asha", 30),
        ("Dipa", "Asha", 25),
    }


def test_a_fouled_unseen_players_maal_is_not_kidnapped():
    # docs/rule-choices.md: Dipa, unseen with 8, fouled: her E is 0 and the finisher takes
    # none of it under kidnap. E 10, 5, 0, 0; T 15; points 25, 5, -15, -15; fees Bikash 3,
    # Chandra 3, Dipa none; her penalty 15 to Asha.
    data = worked_example()
    data["players"][3]["foul"] = True
    result = settle_data(data, "classic", foul="same_hand", unseen_maal="kidnap")
    p = by_name(result)
    assert (p["Asha"].effective_maal, p["Dipa"].maal, p["Dipa"].effective_maal) == (10, 8, 0)
    assert nets(result) == {"Asha": 46, "Bikash": 2, "Chandra": -18, "Dipa": -30}


def test_foul_penalty_override():
    data = worked_example(chandra={"foul": True})
    result = settle_data(data, "classic", foul="same_hand", foul_penalty=20)
    assert nets(result)["Chandra"] == -35


def test_foul_next_hand_is_not_paid_in_this_hand():
    data = worked_example(chandra={"maal": 6, "foul": True})
    result = settle_data(data, "classic", foul="next_hand")
    assert nets(result) == {"Asha": 38, "Bikash": 2, "Chandra": -15, "Dipa": -25}
    assert tuple(result.fouls_carried) == ("Chandra",)


def test_no_foul_carried_without_fouls():
    assert tuple(settle_data(worked_example(), "classic", foul="next_hand").fouls_carried) == ()


# --- points race (gamerules) --------------------------------------------------------------


def test_points_race():
    # own maal each, seen or not; the finisher also 10 x 2 opponents
    data = hand(
        [player("A", maal=10), player("B", maal=2), player("C", "unseen", maal=8)], winner="A"
    )
    result = settle_data(data, "gamerules")
    assert nets(result) == {"A": 30, "B": 2, "C": 8}
    assert {p.name: p.maal_points for p in result.players} == {"A": 10, "B": 2, "C": 8}
    assert by_name(result)["C"].effective_maal == 8
    assert result.payments == ()
    assert sum(nets(result).values()) != 0


@pytest.mark.parametrize("n", [2, 3, 4, 5])
def test_points_race_finisher_bonus_per_opponent(n):
    players = [player(f"P{i}", maal=0) for i in range(n)]
    result = settle_data(hand(players, winner="P1"), "gamerules")
    assert nets(result) == {f"P{i}": (10 * (n - 1) if i == 1 else 0) for i in range(n)}


def test_points_race_with_cards_and_tunnelas():
    # A: marriage shown 15 + alter (not wild) 0; B unseen: tunnela of 5S = 5; C finishes
    data = hand(
        [
            player("A", maal_cards=["7H", "8H", "9H", "8D"], marriages_shown=1),
            player("B", "unseen", dealt_tunnelas=["5S"]),
            player("C", maal=0),
        ],
        winner="C",
        tiplu="8H",
    )
    assert nets(settle_data(data, "gamerules")) == {"A": 15, "B": 5, "C": 20}


# --- who pays whom ------------------------------------------------------------------------


@pytest.mark.parametrize("profile", ZERO_SUM)
@pytest.mark.parametrize("unseen", ["murder", "kidnap", "keep"])
def test_quick_settle_amounts(profile, unseen):
    data = hand(
        [
            player("A", maal=7),
            player("B", maal=30),
            player("C", "unseen", maal=12),
            player("D", "dublees", maal=3),
            player("E", maal=0),
        ],
        winner="A",
    )
    result = settle_data(data, profile, unseen_maal=unseen)
    p = by_name(result)
    n, total = 5, result.total_maal
    for name in "BCDE":
        owed = total - p[name].fee - n * p[name].effective_maal  # fee is negative: paid
        row = [pay for pay in result.payments if name in (pay.payer, pay.payee)]
        if owed == 0:
            assert row == []
        elif owed > 0:
            assert [(r.payer, r.payee, r.points) for r in row] == [(name, "A", owed)]
        else:
            assert [(r.payer, r.payee, r.points) for r in row] == [("A", name, -owed)]
    assert flows(result) == nets(result)
    assert sum(nets(result).values()) == 0
