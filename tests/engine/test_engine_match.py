"""ledger.engine.match: running totals, dealer rotation, sit-outs, the next_hand foul,
standings (docs/rules.md §3 fouls and §5)."""

import pytest
from spec_support import hand, nets, player, rules_for, settle_data

from ledger.engine import HandRecord, MatchLength, run_match

SEATS = ["Asha", "Bikash", "Chandra", "Dipa"]


def record(number, dealer, result):
    return HandRecord(
        number=number,
        dealer=dealer,
        winner=result.winner,
        nets=nets(result),
        seen={p.name: p.seen for p in result.players},
        fouls_carried=tuple(result.fouls_carried),
    )


def simple(number, dealer, nets_, winner=None):
    return HandRecord(number=number, dealer=dealer, winner=winner, nets=nets_)


# --- dealer rotation ----------------------------------------------------------------------


def test_first_dealer_before_any_hand():
    state = run_match(SEATS, "Chandra", rules_for("amarnepal"), None, [])
    assert state.next_dealer == "Chandra"
    assert state.hands_played == 0
    assert state.finished is False


@pytest.mark.parametrize(
    ("dealer", "left", "right"),
    [("Asha", "Bikash", "Dipa"), ("Bikash", "Chandra", "Asha"), ("Dipa", "Asha", "Chandra")],
)
def test_deal_passes_left_or_right(dealer, left, right):
    hands = [simple(1, dealer, {"Asha": 0, "Bikash": 0})]
    assert run_match(SEATS, dealer, rules_for("amarnepal"), None, hands).next_dealer == left
    right_rules = rules_for("amarnepal", deal_passes="right")
    assert run_match(SEATS, dealer, right_rules, None, hands).next_dealer == right


def test_deal_rotates_over_several_hands():
    rules = rules_for("classic")
    dealer, hands = "Asha", []
    order = []
    for number in range(1, 9):
        hands.append(simple(number, dealer, dict.fromkeys(SEATS, 0)))
        dealer = run_match(SEATS, "Asha", rules, None, hands).next_dealer
        order.append(dealer)
    assert order == ["Bikash", "Chandra", "Dipa", "Asha"] * 2


# --- totals and sit-outs ------------------------------------------------------------------


def test_totals_are_the_sum_of_nets_with_sit_outs():
    players = [*SEATS, "Esha", "Firoz"]  # six registered; hands of 2-5
    hands = [
        simple(1, "Asha", {"Asha": 41, "Bikash": 2, "Chandra": -18, "Dipa": -25}, "Asha"),
        simple(2, "Bikash", {"Esha": 10, "Firoz": -10}, "Esha"),
        simple(3, "Chandra", {"Asha": -5, "Esha": 20, "Firoz": -15}, "Esha"),
    ]
    state = run_match(players, "Asha", rules_for("amarnepal"), None, hands)
    assert state.totals == {
        "Asha": 36,
        "Bikash": 2,
        "Chandra": -18,
        "Dipa": -25,
        "Esha": 30,
        "Firoz": -25,
    }
    assert sum(state.totals.values()) == 0
    played = {s.name: s.hands_played for s in state.standings}
    assert played == {"Asha": 2, "Bikash": 1, "Chandra": 1, "Dipa": 1, "Esha": 2, "Firoz": 2}


def test_totals_from_settled_hands():
    rules = rules_for("amarnepal")
    first = settle_data(
        hand(
            [
                player("Asha", maal=10),
                player("Bikash", maal=5),
                player("Chandra", maal=0),
                player("Dipa", "unseen", maal=8),
            ],
            winner="Asha",
        )
    )
    second = settle_data(
        hand(
            [player("Bikash", maal=2), player("Chandra", maal=10), player("Dipa", "unseen")],
            winner="Chandra",
        )
    )
    state = run_match(
        SEATS, "Asha", rules, None, [record(1, "Asha", first), record(2, "Bikash", second)]
    )
    # second: T = 12, n = 3: B 6-12 = -6 - 3 = -9; C 30-12 = 18 + 13 = 31; D -12 - 10 = -22
    assert state.totals == {"Asha": 41, "Bikash": -7, "Chandra": 13, "Dipa": -47}


def test_hand_order_is_by_number():
    hands = [
        simple(2, "Bikash", {"Asha": 5, "Bikash": -5}),
        simple(1, "Asha", {"Asha": -1, "Bikash": 1}),
    ]
    state = run_match(SEATS, "Asha", rules_for("amarnepal"), None, hands)
    assert state.next_dealer == "Chandra"
    assert state.totals["Asha"] == 4


# --- standings ----------------------------------------------------------------------------


def test_standings_share_places():
    hands = [simple(1, "Asha", {"Asha": 10, "Bikash": 10, "Chandra": -20, "Dipa": 0})]
    state = run_match(SEATS, "Asha", rules_for("amarnepal"), None, hands)
    places = {s.name: s.place for s in state.standings}
    assert places == {"Asha": 1, "Bikash": 1, "Dipa": 3, "Chandra": 4}
    assert [s.name for s in state.standings] == ["Asha", "Bikash", "Dipa", "Chandra"]
    assert sorted(state.leaders) == ["Asha", "Bikash"]


def test_standings_one_one_three():
    hands = [simple(1, "Asha", {"Asha": 5, "Bikash": 5, "Chandra": -10})]
    state = run_match(SEATS[:3], "Asha", rules_for("amarnepal"), None, hands)
    assert sorted(s.place for s in state.standings) == [1, 1, 3]


def test_a_single_leader():
    hands = [simple(1, "Asha", {"Asha": -5, "Bikash": 9, "Chandra": -4})]
    state = run_match(SEATS[:3], "Asha", rules_for("amarnepal"), None, hands)
    assert state.leaders == ["Bikash"]


# --- the length of a match ----------------------------------------------------------------


@pytest.mark.parametrize("count", [1, 4, 8])
def test_finished_by_hands(count):
    length = MatchLength("hands", count)
    hands = []
    for number in range(1, count + 1):
        state = run_match(SEATS, "Asha", rules_for("amarnepal"), length, hands)
        assert state.finished is False
        hands.append(simple(number, SEATS[(number - 1) % 4], {"Asha": 0, "Bikash": 0}))
    assert run_match(SEATS, "Asha", rules_for("amarnepal"), length, hands).finished is True


@pytest.mark.parametrize(("players", "rotations"), [(SEATS, 1), (SEATS[:3], 2), (SEATS, 2)])
def test_finished_by_rotations(players, rotations):
    length = MatchLength("rotations", rotations)
    needed = rotations * len(players)
    hands = [
        simple(i, players[(i - 1) % len(players)], {players[0]: 0, players[1]: 0})
        for i in range(1, needed + 1)
    ]
    rules = rules_for("classic")
    assert run_match(players, players[0], rules, length, hands[:-1]).finished is False
    assert run_match(players, players[0], rules, length, hands).finished is True


def test_open_match_never_finishes():
    hands = [simple(i, "Asha", {"Asha": 0, "Bikash": 0}) for i in range(1, 30)]
    assert run_match(SEATS, "Asha", rules_for("sparkai"), None, hands).finished is False


# --- the next_hand foul -------------------------------------------------------------------

NEXT = rules_for("classic", foul="next_hand")


def foul_hand(foul_by="Chandra", winner="Asha", players=SEATS):
    ps = [
        player(n, "sequences", maal=0, **({"foul": True} if n == foul_by else {})) for n in players
    ]
    return settle_data(hand(ps, winner=winner), "classic", foul="next_hand")


def plain_hand(winner, players=SEATS):
    return settle_data(
        hand([player(n, maal=0) for n in players], winner=winner), "classic", foul="next_hand"
    )


def void(players=SEATS):
    return settle_data(
        hand([player(n, maal=0) for n in players], winner=None),
        "classic",
        foul="next_hand",
        void_hand="nothing",
    )


def test_next_hand_foul_goes_to_the_next_finisher():
    h1 = foul_hand()  # Chandra fouls, Asha finishes
    h2 = plain_hand("Bikash")
    before = run_match(SEATS, "Asha", NEXT, None, [record(1, "Asha", h1)])
    assert before.totals == nets(h1)  # nothing paid yet
    assert tuple(before.fouls_pending) == ("Chandra",)
    state = run_match(SEATS, "Asha", NEXT, None, [record(1, "Asha", h1), record(2, "Bikash", h2)])
    expected = {n: nets(h1)[n] + nets(h2)[n] for n in SEATS}
    expected["Chandra"] -= 15
    expected["Bikash"] += 15
    assert state.totals == expected
    assert state.carried_penalties[2] == {"Chandra": -15, "Bikash": 15}
    assert tuple(state.fouls_pending) == ()


def test_next_hand_foul_is_not_paid_to_this_hands_finisher():
    h1 = foul_hand(winner="Asha")
    state = run_match(SEATS, "Asha", NEXT, None, [record(1, "Asha", h1)])
    assert state.totals == nets(h1)
    assert 1 not in state.carried_penalties


def test_next_hand_foul_waived_if_the_foul_player_finishes_it():
    h1 = foul_hand()
    h2 = plain_hand("Chandra")
    state = run_match(SEATS, "Asha", NEXT, None, [record(1, "Asha", h1), record(2, "Bikash", h2)])
    assert state.totals == {n: nets(h1)[n] + nets(h2)[n] for n in SEATS}
    assert tuple(state.fouls_pending) == ()


def test_next_hand_foul_passes_through_void_hands():
    h1 = foul_hand()
    state = run_match(
        SEATS,
        "Asha",
        NEXT,
        None,
        [record(1, "Asha", h1), record(2, "Bikash", void()), record(3, "Chandra", void())],
    )
    assert tuple(state.fouls_pending) == ("Chandra",)
    h4 = plain_hand("Dipa")
    state = run_match(
        SEATS,
        "Asha",
        NEXT,
        None,
        [
            record(1, "Asha", h1),
            record(2, "Bikash", void()),
            record(3, "Chandra", void()),
            record(4, "Dipa", h4),
        ],
    )
    assert state.carried_penalties[4] == {"Chandra": -15, "Dipa": 15}
    assert state.totals["Chandra"] == nets(h1)["Chandra"] + nets(h4)["Chandra"] - 15


def test_next_hand_foul_paid_even_when_the_foul_player_sits_out():
    h1 = foul_hand()
    h2 = plain_hand("Bikash", players=["Asha", "Bikash", "Dipa"])  # Chandra sits out
    state = run_match(SEATS, "Asha", NEXT, None, [record(1, "Asha", h1), record(2, "Bikash", h2)])
    assert state.totals["Chandra"] == nets(h1)["Chandra"] - 15
    assert state.totals["Bikash"] == nets(h1)["Bikash"] + nets(h2)["Bikash"] + 15
    assert sum(state.totals.values()) == 0


def test_next_hand_foul_penalty_override():
    rules = rules_for("classic", foul="next_hand", foul_penalty=20)
    h1 = foul_hand()
    state = run_match(
        SEATS,
        "Asha",
        rules,
        None,
        [record(1, "Asha", h1), record(2, "Bikash", plain_hand("Bikash"))],
    )
    assert state.carried_penalties[2] == {"Chandra": -20, "Bikash": 20}
