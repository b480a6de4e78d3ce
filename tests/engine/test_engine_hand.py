"""ledger.engine.hand: docs/rules.md §3 "A valid hand", every problem reported at once with the
path of its field."""

import pytest
from spec_support import error_fields, hand, player, problems, rules_for, settle_data

from ledger.engine import Invalid, parse_hand


def ok(data, profile="amarnepal", **overrides):
    rules = rules_for(profile, **overrides)
    return parse_hand(data, rules)


def two(a=None, b=None, winner="A", tiplu="8H", finish=None):
    return hand(
        [player("A", **(a or {})), player("B", **(b or {}))],
        winner=winner,
        finish=finish,
        tiplu=tiplu,
    )


# --- players ------------------------------------------------------------------------------


@pytest.mark.parametrize("n", [2, 3, 4, 5])
def test_two_to_five_players(n):
    players = [player(f"P{i}") for i in range(n)]
    assert len(ok(hand(players, winner="P0")).players) == n


@pytest.mark.parametrize("n", [0, 1, 6, 7])
def test_too_few_or_too_many_players(n):
    players = [player(f"P{i}") for i in range(n)]
    winner = "P0" if n else None
    assert "players" in error_fields(hand(players, winner=winner))


@pytest.mark.parametrize("value", [None, "Asha", {"name": "A"}, 4])
def test_players_not_a_list(value):
    assert "players" in error_fields({"finish": "void", "players": value})


def test_a_player_not_an_object():
    fields = error_fields(hand([player("A"), "B", player("C")], winner="A"))
    assert "players.1" in fields


def test_names_are_distinct():
    fields = error_fields(hand([player("A"), player("B"), player("A")], winner="B"))
    assert fields == ["players.2.name"]


def test_names_differing_only_in_case_or_spacing_are_the_same_name():
    assert "players.1.name" in error_fields(hand([player("Asha"), player("asha")], winner="Asha"))
    assert "players.1.name" in error_fields(
        hand([player("Asha Rai"), player(" Asha  Rai")], winner="Asha Rai")
    )


@pytest.mark.parametrize("name", [None, "", "   ", 5, ["A"]])
def test_every_player_needs_a_name(name):
    data = hand([player("A"), {"name": name, "seen": "unseen"}], winner="A")
    assert "players.1.name" in error_fields(data)


@pytest.mark.parametrize("seen", [None, "seen", "Sequences ", "blind", 1, True])
def test_seen_must_be_a_route(seen):
    data = hand([player("A"), {"name": "B", "seen": seen}], winner="A")
    assert "players.1.seen" in error_fields(data)


def test_dublees_not_allowed_in_gamerules():
    data = hand([player("A"), player("B", "dublees")], winner="A")
    assert error_fields(data, "gamerules") == ["players.1.seen"]


def test_dublees_min_players_override():
    data = hand([player("A"), player("B", "dublees"), player("C")], winner="A")
    assert error_fields(data, "sparkai", dublees_min_players=4) == ["players.1.seen"]
    data["players"].append(player("D"))
    ok(data, "sparkai", dublees_min_players=4)


# --- the winner and the finish ------------------------------------------------------------


def test_a_finished_hand_needs_a_winner():
    data = two()
    del data["winner"]
    assert "winner" in error_fields(data)
    data["winner"] = None
    assert "winner" in error_fields(data)


def test_the_winner_plays_in_the_hand():
    assert "winner" in error_fields(two(winner="Zed", finish="sequences"))


@pytest.mark.parametrize("winner", [5, True, ["A"], {"name": "A"}])
def test_the_winner_is_a_name(winner):
    data = two()
    data["winner"] = winner
    assert "winner" in error_fields(data)


def test_the_winner_has_seen():
    data = two(a={"seen": "unseen"}, finish="sequences")
    assert "winner" in error_fields(data)


def test_a_void_hand_has_no_winner():
    data = two(finish="void")
    assert error_fields(data) == ["winner"]
    del data["winner"]
    assert ok(data).winner is None
    data["winner"] = None
    assert ok(data).finish == "void"


def test_a_void_hand_may_have_nobody_seen():
    data = hand([player("A", "unseen"), player("B", "unseen")], winner=None)
    assert ok(data).finish == "void"


def test_dublee_finish_only_by_a_player_seen_by_dublees():
    assert error_fields(two(finish="dublees")) == ["finish"]  # A saw by sequences
    ok(two(a={"seen": "dublees"}, finish="dublees"))


def test_seen_by_dublees_finishes_by_dublees():
    assert error_fields(two(a={"seen": "dublees"}, finish="sequences")) == ["finish"]


@pytest.mark.parametrize("finish", ["", "seq", "Void ", 1, ["void"], "unseen"])
def test_finish_must_be_a_route_or_void(finish):
    assert "finish" in error_fields(two(finish=finish))


# --- the maal forms and whole numbers -----------------------------------------------------


@pytest.mark.parametrize(
    "forms",
    [
        {"maal": 3, "maal_cards": ["8H"]},
        {"maal": 3, "maal_counts": {"tiplu": 1}},
        {"maal_counts": {"tiplu": 1}, "maal_cards": ["8H"]},
        {"maal": 3, "maal_counts": {"tiplu": 1}, "maal_cards": ["8H"]},
    ],
)
def test_one_maal_form_per_player(forms):
    fields = error_fields(two(b=forms))
    assert fields
    assert all(f.startswith("players.1.maal") for f in fields)


@pytest.mark.parametrize(
    "forms",
    [
        {"maal_counts": "two tiplus", "maal_cards": ["8H"]},
        {"maal": "three", "maal_cards": ["8H"]},
        {"maal": 3, "maal_cards": "8H"},
        {"maal": -1, "maal_counts": [1], "maal_cards": ["8H"]},
    ],
)
def test_a_refused_maal_form_is_still_one_given(forms):
    """The one-way check counts what was given, not what was read: a form refused for its
    value is given all the same (the reader skips the check when it reads one form)."""
    found = [(e.field, e.message) for e in problems(two(b=forms))]
    given = list(forms)
    assert (
        f"players.1.{given[1]}",
        f"Give the maal one way only: {' or '.join(given)}, not both.",
    ) in found


def test_null_forms_are_absent():
    ok(two(b={"maal": None, "maal_counts": None, "maal_cards": ["8H"]}))


BAD_NUMBERS = [2.5, 3.0, 0.0, True, False, "3", "three", -1, -0.5, [3], {"n": 3}, 1e30]


@pytest.mark.parametrize("value", BAD_NUMBERS)
def test_maal_is_a_whole_number(value):
    assert error_fields(two(b={"maal": value})) == ["players.1.maal"]


@pytest.mark.parametrize("value", BAD_NUMBERS)
def test_maal_counts_are_whole_numbers(value):
    data = two(b={"maal_counts": {"poplu": 1, "tiplu": value}})
    assert error_fields(data) == ["players.1.maal_counts.tiplu"]


@pytest.mark.parametrize("value", BAD_NUMBERS)
def test_marriages_shown_is_a_whole_number(value):
    data = two(b={"maal_counts": {"tiplu": 1, "poplu": 1, "jhiplu": 1}, "marriages_shown": value})
    assert error_fields(data, "gamerules") == ["players.1.marriages_shown"]


def test_zero_is_fine():
    ok(two(b={"maal": 0}))
    ok(two(b={"maal_counts": {"tiplu": 0, "poplu": 0}}))


def test_unknown_count_kind():
    assert error_fields(two(b={"maal_counts": {"joker": 1}})) == ["players.1.maal_counts.joker"]


@pytest.mark.parametrize("value", [[1, 2], "tiplu", 3])
def test_maal_counts_is_an_object(value):
    assert error_fields(two(b={"maal_counts": value})) == ["players.1.maal_counts"]


@pytest.mark.parametrize("value", ["8H", {"0": "8H"}, 8])
def test_maal_cards_is_a_list(value):
    assert "players.1.maal_cards" in error_fields(two(b={"maal_cards": value}))


# --- cards and the pack -------------------------------------------------------------------


def test_a_bad_card_names_its_index():
    data = two(b={"maal_cards": ["8H", "1X", "9H", 7]})
    assert error_fields(data) == ["players.1.maal_cards.1", "players.1.maal_cards.3"]


def test_printed_jokers_only_where_the_pack_has_them():
    data = two(b={"maal_cards": ["JK"]})
    ok(data, "amarnepal")
    for profile in ["sparkai", "classic", "everestbuzz", "gamerules"]:
        assert error_fields(data, profile) == ["players.1.maal_cards.0"], profile
        counts = two(b={"maal_counts": {"printed_joker": 1}})
        assert error_fields(counts, profile) == ["players.1.maal_counts.printed_joker"]


def test_tiplu_required_when_cards_are_given():
    assert error_fields(two(b={"maal_cards": ["8H"]}, tiplu=None)) == ["tiplu"]
    assert error_fields(two(a={"dealt_tunnelas": ["5S"]}, tiplu=None)) == ["tiplu"]


def test_no_tiplu_needed_for_counts_kinds_or_numbers():
    ok(
        two(
            a={"maal_counts": {"tiplu": 1}, "dealt_tunnelas": ["ordinary", "poplu"]},
            b={"maal": 4},
            tiplu=None,
        )
    )


@pytest.mark.parametrize("tiplu", ["1X", "", 8, ["8H"], "JK"])
def test_a_bad_tiplu(tiplu):
    assert error_fields(two(b={"maal_cards": ["8H"]}, tiplu=tiplu)) == ["tiplu"]


# --- copies across the table (docs/rules.md §2) ------------------------------------------------


def copies_hand(*maals, tiplu="8H"):
    players = [player(f"P{i}", **m) for i, m in enumerate(maals)]
    players.append(player("Zed", "unseen"))  # so that one holder still makes a hand
    return hand(players, winner="P0", tiplu=tiplu)


@pytest.mark.parametrize(
    "maals",
    [
        # three copies of any card
        [{"maal_cards": ["9H", "9H"]}, {"maal_cards": ["9H", "9H"]}],
        [{"maal_cards": ["9H", "9H"]}, {"maal_counts": {"poplu": 2}}],
        [{"maal_counts": {"jhiplu": 2}}, {"maal_counts": {"jhiplu": 2}}],
        [{"maal_cards": ["5C", "5C"]}, {"maal_cards": ["5C", "5C"]}],  # not maal, still 3
        [{"maal_cards": ["8D"] * 4}],
        [{"maal_cards": ["8S"] * 4}],
        # the set-aside tiplu: 2 in hands
        [{"maal_cards": ["8H", "8H", "8H"]}],
        [{"maal_cards": ["8H"]}, {"maal_counts": {"tiplu": 2}}],
        [{"maal_counts": {"tiplu": 3}}],
        # printed jokers: 3
        [{"maal_cards": ["JK", "JK"]}, {"maal_cards": ["JK", "JK"]}],
        [{"maal_counts": {"printed_joker": 4}}],
        # dealt tunnelas use their three cards
        [{"dealt_tunnelas": ["5S"]}, {"maal_cards": ["5S"]}],
        [{"dealt_tunnelas": ["9H"]}, {"maal_counts": {"poplu": 1}}],
        [{"dealt_tunnelas": ["poplu"]}, {"maal_cards": ["9H"]}],
        [{"dealt_tunnelas": ["jhiplu"]}, {"dealt_tunnelas": ["7H"]}],
        [{"dealt_tunnelas": ["alter"]}, {"maal_counts": {"alter": 1}}],
        [{"dealt_tunnelas": ["5S"]}, {"dealt_tunnelas": ["5S"]}],
    ],
)
def test_too_many_copies(maals):
    fields = error_fields(copies_hand(*maals))
    assert fields
    assert all(f.startswith("players.") for f in fields)


@pytest.mark.parametrize(
    "maals",
    [
        [{"maal_cards": ["9H", "9H"]}, {"maal_cards": ["9H"]}],
        [{"maal_cards": ["8H"]}, {"maal_counts": {"tiplu": 1}}],
        [{"maal_cards": ["JK", "JK"]}, {"maal_counts": {"printed_joker": 1}}],
        [{"maal_cards": ["8S"] * 3 + ["8C"] * 3}],
        [{"dealt_tunnelas": ["9H"]}, {"maal_cards": ["7H", "7H", "7H"]}],
        [{"maal_cards": ["5C"] * 3}, {"maal_cards": ["5D"] * 3}],
    ],
)
def test_copies_within_the_pack_are_fine(maals):
    ok(copies_hand(*maals))


def test_everestbuzz_allows_three_tiplus_in_hands():
    ok(copies_hand({"maal_cards": ["8H", "8H"]}, {"maal_counts": {"tiplu": 1}}), "everestbuzz")
    ok(copies_hand({"dealt_tunnelas": ["8H"]}), "everestbuzz")
    assert error_fields(
        copies_hand({"maal_cards": ["8H", "8H"]}, {"maal_counts": {"tiplu": 2}}), "everestbuzz"
    )
    assert error_fields(
        copies_hand({"dealt_tunnelas": ["tiplu"]}, {"maal_cards": ["8H"]}), "everestbuzz"
    )


def test_copies_problem_message_names_the_card():
    errors = problems(copies_hand({"maal_cards": ["9H", "9H"]}, {"maal_cards": ["9H", "9H"]}))
    assert len(errors) == 1
    assert "9" in errors[0].message


@pytest.mark.parametrize(
    "maals",
    [
        [{"maal_counts": {"ordinary_joker": 6}}, {"maal_cards": ["8S"]}],
        [{"maal_counts": {"ordinary_joker": 4}}, {"maal_cards": ["8S", "8S", "8S"]}],
        [{"dealt_tunnelas": ["ordinary_joker"]}, {"maal_cards": ["8S"] * 3 + ["8C"]}],
        [{"dealt_tunnelas": ["ordinary_joker", "ordinary_joker"]}, {"maal_cards": ["8C"]}],
    ],
)
def test_too_many_ordinary_jokers_across_forms(maals):
    assert error_fields(copies_hand(*maals))


def test_too_many_ordinary_jokers_as_counts():
    assert error_fields(
        copies_hand({"maal_counts": {"ordinary_joker": 4}}, {"maal_counts": {"ordinary_joker": 3}})
    )
    assert error_fields(copies_hand(*[{"dealt_tunnelas": ["ordinary_joker"]}] * 3))


def test_too_many_copies_names_each_holder_once_and_the_field_past_the_limit():
    # tiplu 8H: 8S and 8C are the two ordinary jokers. 2 + 2 + 3 = 7 > 6: the third entry
    # (P1's tunnela) is where the table went past the pack. Neither card has room for
    # its three copies, so it is the first in suit order, 8S (docs/rules.md §9): 2 + 3 > 3.
    # Each holder is named once, with all the copies they hold (P0: two 8S and two 8C).
    errors = problems(
        copies_hand(
            {"maal_cards": ["8S", "8C", "8S", "8C"]}, {"dealt_tunnelas": ["ordinary_joker"]}
        )
    )
    assert [(e.field, e.message) for e in errors] == [
        (
            "players.1.dealt_tunnelas.0",
            "Too many 8S: the pack holds only 3 copies of each card, but this hand has 5 "
            "(P0 2, P1 3).",
        ),
        (
            "players.1.dealt_tunnelas.0",
            "Too many ordinary joker: the pack holds only 6 ordinary jokers, but this hand has 7 "
            "(P0 4, P1 3).",
        ),
    ]


# --- dealt tunnelas: where the profile scores them and the route allows -------------------


def test_sparkai_scores_no_dealt_tunnelas_but_keeps_them():
    # docs/rules.md §9: no bonus, the cards count as other maal cards (5S: none)
    settled = settle_data(two(a={"dealt_tunnelas": ["5S", "9H"]}), "sparkai")
    a = settled.players[0]
    assert a.maal == 10  # the three poplus
    assert [(i.item, i.reason) for i in a.breakdown[:1]] == [
        ("dealt_tunnela_no_bonus", "kind_not_scored")
    ]


def test_gamerules_dealt_tunnelas_need_nothing():
    settled = settle_data(two(b={"seen": "unseen", "dealt_tunnelas": ["5S"]}), "gamerules")
    assert settled.players[1].maal == 5


@pytest.mark.parametrize(
    ("profile", "entry"),
    [
        ("amarnepal", "tiplu"),  # three tiplus where the indicator is set aside
        ("classic", "tiplu"),
        ("everestbuzz", "printed_joker"),  # no printed jokers in the pack
        ("gamerules", "printed_joker"),
    ],
)
def test_dealt_tunnela_the_pack_cannot_deal(profile, entry):
    fields = error_fields(two(a={"dealt_tunnelas": ["5S", entry]}), profile)
    assert "players.0.dealt_tunnelas.1" in fields


def test_dealt_tunnela_kind_the_profile_does_not_score_is_kept():
    # gamerules deals all three tiplus but scores no tiplu tunnela: 5 for the ordinary
    # one, and three tiplus as cards, 7 and the last step 4 (docs/rules.md §9)
    settled = settle_data(two(a={"dealt_tunnelas": ["5S", "tiplu"]}), "gamerules")
    assert settled.players[0].maal == 5 + 11


@pytest.mark.parametrize("entry", ["xyz", "", 5, None, ["5S"], "jokers"])
def test_dealt_tunnela_entry_neither_card_nor_kind(entry):
    fields = error_fields(two(a={"dealt_tunnelas": ["5S", entry]}))
    assert fields == ["players.0.dealt_tunnelas.1"]


@pytest.mark.parametrize("value", ["5S", {"0": "5S"}, 5])
def test_dealt_tunnelas_is_a_list(value):
    assert error_fields(two(a={"dealt_tunnelas": value})) == ["players.0.dealt_tunnelas"]


# --- shown marriages ----------------------------------------------------------------------


def test_shown_marriages_in_a_profile_that_scores_them_apart():
    data = two(a={"maal_counts": {"tiplu": 1, "poplu": 1, "jhiplu": 1}, "marriages_shown": 1})
    ok(data, "gamerules")


def test_shown_marriages_need_their_cards():
    data = two(a={"maal_counts": {"tiplu": 1, "poplu": 1}, "marriages_shown": 1})
    assert error_fields(data, "gamerules") == ["players.0.marriages_shown"]


@pytest.mark.parametrize(("held", "shown"), [({"tiplu": 1, "poplu": 1}, 1), ({}, 2)])
def test_shown_marriages_past_the_cards_are_said_without_a_plural_s(held, shown):
    """The message counted "0 marriage(s)"; it says the two numbers without a noun to
    agree with them (docs/translating.md)."""
    data = two(a={"maal_counts": held, "marriages_shown": shown})
    [problem] = problems(data, "gamerules")
    assert (problem.field, problem.message) == (
        "players.0.marriages_shown",
        f"A shows more marriages ({shown}) than their cards make (0: a tiplu, a poplu and a"
        " jhiplu each).",
    )


# --- fouls --------------------------------------------------------------------------------


def test_fouls_only_where_penalised():
    data = two(b={"foul": True})
    assert error_fields(data, "classic") == ["players.1.foul"]
    ok(data, "classic", foul="same_hand")


def test_the_foul_player_cannot_finish():
    assert "winner" in error_fields(two(a={"foul": True}), "classic", foul="same_hand")


@pytest.mark.parametrize("value", ["yes", 1, [True]])
def test_foul_is_a_boolean(value):
    assert error_fields(two(b={"foul": value}), "classic", foul="same_hand") == ["players.1.foul"]


# --- everything at once -------------------------------------------------------------------


def test_every_problem_reported_at_once():
    data = {
        "finish": "dublees",
        "winner": "Asha",
        "players": [
            {"name": "Asha", "seen": "sequences", "maal": 2.5},
            {"name": "Bikash", "seen": "dublees", "maal": 3, "maal_cards": ["8H"]},
            {
                "name": "Chandra",
                "seen": "unseen",
                "maal_cards": ["8H", "1X", "JK"],
                "dealt_tunnelas": ["tiplu"],
            },
            {"name": "Asha", "seen": "maybe", "maal_counts": {"tiplu": -1, "bogus": 1}},
        ],
    }
    fields = error_fields(data, "classic")
    for expected in [
        "finish",  # Asha saw by sequences
        "players.0.maal",
        "players.1.maal_cards",
        "players.2.maal_cards.1",
        "players.2.maal_cards.2",  # no printed jokers in classic
        "players.3.name",
        "players.3.seen",
        "players.3.maal_counts.tiplu",
        "players.3.maal_counts.bogus",
        "tiplu",
    ]:
        assert expected in fields, expected


def test_problems_are_sentences():
    with pytest.raises(Invalid) as info:
        parse_hand(two(b={"maal": -1, "maal_cards": ["XX"]}, tiplu=None), rules_for())
    for e in info.value.errors:
        assert isinstance(e.field, str)
        assert isinstance(e.message, str) and len(e.message) > 10


@pytest.mark.parametrize("data", [None, [], "hand", 5])
def test_a_hand_must_be_an_object(data):
    assert error_fields(data) == [""]


# A tab is a control character, refused in a name (test_names.py); other spaces fold.
@pytest.mark.parametrize("name", ["Asha  Rai", "Asha\u00a0Rai", " Asha \u3000Rai "])
def test_winner_written_exactly_as_the_players_name(name):
    data = hand([player(name, maal=3), player("B", maal=1)], winner=name, finish="sequences")
    result = settle_data(data)
    assert result.players[0].finisher
    assert [p.net for p in result.players] == [5, -5]


@pytest.mark.parametrize("winner", ["Asha", " Asha ", "Asha "])
def test_winner_matches_a_trimmed_name(winner):
    data = hand([player(" Asha", maal=3), player("B", maal=1)], winner=winner, finish="sequences")
    assert [p.net for p in settle_data(data).players] == [5, -5]
