"""ledger.engine.rules: the five published profiles exactly as docs/rules.md §6 gives them,
and overrides of single settings.

Where the engine's encoding differs from the table's wording (an alter that is "no
category", dealt tunnelas, "dublees allowed: any table size", match lengths), the test
checks the meaning; the maal and settlement tests check the behaviour behind it.
"""

import dataclasses

import pytest
from spec_support import SPEC

from ledger.engine import PROFILES, HouseRules, Invalid, resolve_rules, with_overrides
from ledger.engine.rules import MatchLength

ALL = ["amarnepal", "sparkai", "classic", "everestbuzz", "gamerules"]


def test_exactly_the_five_published_profiles():
    assert sorted(PROFILES) == sorted(ALL)
    for pid, rules in PROFILES.items():
        assert rules.profile == pid


@pytest.mark.parametrize("pid", ALL)
def test_scoring(pid):
    expected = {"zero_sum": "zero_sum", "points_race": "points_race"}[SPEC[pid].scoring]
    assert PROFILES[pid].scoring == expected


@pytest.mark.parametrize("pid", ALL)
def test_printed_jokers_in_the_pack(pid):
    assert PROFILES[pid].printed_jokers is SPEC[pid].printed_jokers


@pytest.mark.parametrize("pid", ALL)
def test_tiplu_copies_in_hands(pid):
    assert PROFILES[pid].tiplu_copies_max == SPEC[pid].tiplu_copies


@pytest.mark.parametrize(
    ("pid", "tiplu"),
    [
        ("amarnepal", (3, 8)),
        ("sparkai", (3, 8)),
        ("classic", (3, 7)),
        ("everestbuzz", (3, 7, 12)),
        ("gamerules", (3, 7)),
    ],
)
def test_tiplu_table(pid, tiplu):
    assert tuple(PROFILES[pid].tiplu) == tiplu


@pytest.mark.parametrize("pid", ALL)
def test_poplu_and_jhiplu_tables(pid):
    assert tuple(PROFILES[pid].poplu) == (2, 5, 10)
    assert tuple(PROFILES[pid].jhiplu) == (2, 5, 10)


@pytest.mark.parametrize(
    ("pid", "alter"),
    [("amarnepal", (5, 15, 25)), ("sparkai", (5, 15, 25)), ("everestbuzz", (5, 10, 15))],
)
def test_alter_table(pid, alter):
    assert tuple(PROFILES[pid].alter) == alter


def test_classic_alter_is_an_ordinary_joker():
    # "— (an ordinary joker)": no alter category; ordinary jokers are wild and worth 0
    rules = PROFILES["classic"]
    assert rules.alter is None
    assert rules.ordinary_jokers_wild is True
    assert set(rules.ordinary_joker) == {0}


def test_gamerules_alter_and_ordinary_jokers_not_wild():
    rules = PROFILES["gamerules"]
    assert rules.alter is None
    assert rules.ordinary_jokers_wild is False


@pytest.mark.parametrize("pid", ["amarnepal", "sparkai", "classic", "everestbuzz"])
def test_ordinary_jokers_wild_and_worth_zero(pid):
    rules = PROFILES[pid]
    assert rules.ordinary_jokers_wild is True
    assert set(rules.ordinary_joker) == {0}


def test_printed_joker_table():
    assert tuple(PROFILES["amarnepal"].printed_joker) == (5, 15, 25)
    for pid in ["sparkai", "classic", "everestbuzz", "gamerules"]:
        assert PROFILES[pid].printed_jokers is False  # "—": not in the pack


@pytest.mark.parametrize(
    ("pid", "marriage"),
    [
        ("amarnepal", (10, 30)),
        ("sparkai", (10, 30)),
        ("classic", (10, 30)),
        ("everestbuzz", (10, 30, 60)),
        ("gamerules", (10, 30)),
    ],
)
def test_marriage_table(pid, marriage):
    assert tuple(PROFILES[pid].marriage) == marriage


def test_shown_marriages_only_in_gamerules():
    assert tuple(PROFILES["gamerules"].marriage_shown) == (15, 35)
    for pid in ["amarnepal", "sparkai", "classic", "everestbuzz"]:
        assert not PROFILES[pid].marriage_shown


@pytest.mark.parametrize("pid", ALL)
def test_marriage_grouping(pid):
    assert PROFILES[pid].marriage_grouping == SPEC[pid].grouping


def test_dealt_tunnela_values_by_name():
    # The engine's names for the table's rows; the values are checked by behaviour in
    # test_engine_maal.py (test_dealt_tunnela_of_each_kind).
    a, c, e, g, s = (
        PROFILES[p] for p in ["amarnepal", "classic", "everestbuzz", "gamerules", "sparkai"]
    )
    assert (a.tunnela_ordinary, a.tunnela_ordinary_joker, a.tunnela_poplu_jhiplu) == (5, 10, 20)
    assert (a.tunnela_alter, a.tunnela_printed_joker, a.tunnela_tiplu) == (35, 35, None)
    assert (c.tunnela_ordinary, c.tunnela_ordinary_joker, c.tunnela_poplu_jhiplu) == (5, 10, 20)
    assert (c.tunnela_printed_joker, c.tunnela_tiplu) == (None, None)
    assert (e.tunnela_ordinary, e.tunnela_ordinary_joker, e.tunnela_poplu_jhiplu) == (5, 10, 20)
    assert (e.tunnela_alter, e.tunnela_tiplu, e.tunnela_printed_joker) == (10, 30, None)
    assert tuple(g.tunnela_ordinary) == (5, 15, 25)
    assert tuple(g.tunnela_poplu_jhiplu) == (15, 35)
    assert (g.tunnela_tiplu, g.tunnela_printed_joker) == (None, None)
    assert all(
        getattr(s, f.name) is None for f in dataclasses.fields(s) if f.name.startswith("tunnela")
    )


@pytest.mark.parametrize(
    ("pid", "needs"),
    [
        ("amarnepal", "seen_by_sequences"),
        ("classic", "seen_by_sequences"),
        ("everestbuzz", "seen_by_sequences"),
        ("gamerules", "nothing"),
    ],
)
def test_dealt_tunnela_needs(pid, needs):
    assert PROFILES[pid].dealt_tunnela_needs == needs


@pytest.mark.parametrize(
    ("pid", "unseen"),
    [
        ("amarnepal", "murder"),
        ("sparkai", "murder"),
        ("classic", "murder"),
        ("everestbuzz", "murder"),
        ("gamerules", "keep"),
    ],  # points race: counts
)
def test_unseen_maal(pid, unseen):
    assert PROFILES[pid].unseen_maal == unseen


@pytest.mark.parametrize("pid", ["amarnepal", "sparkai", "classic", "everestbuzz"])
def test_fees(pid):
    rules = PROFILES[pid]
    assert (rules.fee_seen, rules.fee_seen_dublee, rules.fee_unseen) == SPEC[pid].fees


@pytest.mark.parametrize("pid", ["amarnepal", "sparkai", "classic", "everestbuzz"])
def test_dublee_finish_bonus(pid):
    rules = PROFILES[pid]
    assert rules.dublee_finish_bonus == 5
    assert rules.dublee_finish_bonus_mode == "per_loser"


def test_gamerules_has_no_fees():
    # "—": a points race settles nothing; the behaviour is tested in test_engine_settle.py
    rules = PROFILES["gamerules"]
    assert (rules.fee_seen, rules.fee_seen_dublee, rules.fee_unseen) == (0, 0, 0)


@pytest.mark.parametrize("pid", ALL)
def test_void_hand(pid):
    assert PROFILES[pid].void_hand == SPEC[pid].void_hand


@pytest.mark.parametrize("pid", ALL)
def test_dublees_allowed(pid):
    assert PROFILES[pid].dublees_allowed is SPEC[pid].dublees_allowed


def test_amarnepal_dublees_at_any_table_size():
    assert PROFILES["amarnepal"].dublees_min_players <= 2


@pytest.mark.parametrize("pid", ALL)
def test_deal_passes_left(pid):
    assert PROFILES[pid].deal_passes == "left"


def test_match_lengths():
    amar = PROFILES["amarnepal"].match_length
    assert amar.unit == "hands" and amar.count in (1, 4, 8)
    assert PROFILES["sparkai"].match_length is None  # open
    assert PROFILES["everestbuzz"].match_length is None  # open
    assert PROFILES["classic"].match_length.unit == "rotations"  # whole dealer rotations
    # gamerules: one hand per player = one full rotation of the deal
    assert PROFILES["gamerules"].match_length == MatchLength("rotations", 1)


@pytest.mark.parametrize("pid", ALL)
def test_finisher_bonus(pid):
    assert PROFILES[pid].finisher_bonus_per_opponent == SPEC[pid].finisher_bonus


@pytest.mark.parametrize("pid", ALL)
def test_fouls_off_in_every_published_profile(pid):
    assert PROFILES[pid].foul == "off"


# --- resolving and overriding -------------------------------------------------------------


@pytest.mark.parametrize("pid", ALL)
def test_resolve_by_id_and_by_object(pid):
    assert resolve_rules(pid) == PROFILES[pid]
    assert resolve_rules({"profile": pid}) == PROFILES[pid]


VALID_OVERRIDES = [
    ("amarnepal", "unseen_maal", "kidnap", "kidnap"),
    ("amarnepal", "unseen_maal", "keep", "keep"),
    ("everestbuzz", "unseen_maal", "kidnap", "kidnap"),
    ("amarnepal", "tiplu", [3, 7], (3, 7)),
    ("sparkai", "fee_seen_dublee", 0, 0),
    ("classic", "marriage", [10, 25], (10, 25)),
    ("amarnepal", "alter", [5, 15, 30], (5, 15, 30)),
    ("amarnepal", "printed_joker", [2, 5, 10], (2, 5, 10)),
    ("everestbuzz", "alter", [0, 0, 0], (0, 0, 0)),
    ("sparkai", "dublees_min_players", 4, 4),
    ("classic", "foul", "same_hand", "same_hand"),
    ("classic", "foul", "next_hand", "next_hand"),
    ("classic", "foul_penalty", 20, 20),
    ("amarnepal", "void_hand", "maal_only", "maal_only"),
    ("classic", "void_hand", "nothing", "nothing"),
    ("amarnepal", "deal_passes", "right", "right"),
    ("amarnepal", "dublee_finish_bonus_mode", "finisher_maal", "finisher_maal"),
    ("amarnepal", "marriage_grouping", "marriages_first", "marriages_first"),
    ("everestbuzz", "marriage_grouping", "best", "best"),
    ("sparkai", "fee_unseen", 15, 15),
    ("sparkai", "fee_seen", 5, 5),
    ("sparkai", "dublee_finish_bonus", 0, 0),
    ("sparkai", "printed_jokers", True, True),
    ("amarnepal", "match_length", {"hands": 8}, MatchLength("hands", 8)),
    ("amarnepal", "match_length", None, None),
    ("gamerules", "finisher_bonus_per_opponent", 5, 5),
    ("amarnepal", "tiplu_copies_max", 3, 3),
]


@pytest.mark.parametrize(("pid", "name", "value", "expected"), VALID_OVERRIDES)
def test_a_single_override_changes_only_that_setting(pid, name, value, expected):
    extra = {"printed_joker": [5, 15, 25]} if name == "printed_jokers" else {}
    rules = resolve_rules({"profile": pid, name: value, **extra})
    got = getattr(rules, name)
    assert (tuple(got) if isinstance(got, list | tuple) else got) == expected
    base = PROFILES[pid]
    for f in dataclasses.fields(HouseRules):
        if f.name not in (name, *extra):
            assert getattr(rules, f.name) == getattr(base, f.name), f.name
    assert rules.profile == pid
    # the same through with_overrides
    assert with_overrides(base, {name: value, **extra}) == rules


def test_two_tiplus_worth_seven_in_amarnepal():
    # docs/rules.md §6's own example of an override
    rules = resolve_rules({"profile": "amarnepal", "tiplu": [3, 7]})
    assert tuple(rules.tiplu) == (3, 7)


def test_overrides_do_not_change_the_published_profile():
    resolve_rules({"profile": "amarnepal", "unseen_maal": "kidnap"})
    assert PROFILES["amarnepal"].unseen_maal == "murder"


def fields_of(spec):
    with pytest.raises(Invalid) as info:
        resolve_rules(spec)
    return info.value.errors


@pytest.mark.parametrize("name", ["bogus", "Tiplu", "fees", "unseen", "tiplu_points", ""])
def test_unknown_setting_is_an_error_naming_it(name):
    errors = fields_of({"profile": "amarnepal", name: 1})
    assert [e.field for e in errors] == [f"rules.{name}"]
    assert repr(name) in errors[0].message or name in errors[0].message


BAD_SHAPES = [
    ("unseen_maal", "steal"),
    ("unseen_maal", None),
    ("unseen_maal", ["murder"]),
    ("tiplu", "3,7"),
    ("tiplu", -3),
    ("tiplu", [3, "7"]),
    ("tiplu", [3.0, 7.0]),
    ("tiplu", []),
    ("tiplu", [-1, 7]),
    ("tiplu", [3, True]),
    ("tiplu", {"1": 3}),
    ("marriage", None),
    ("alter", "none"),
    ("alter", [5, None]),
    ("fee_seen", -1),
    ("fee_seen", "3"),
    ("fee_seen", True),
    ("fee_seen", 2.5),
    ("fee_seen", None),
    ("fee_unseen", [10]),
    ("printed_jokers", "yes"),
    ("printed_jokers", 1),
    ("dublees_allowed", None),
    ("match_length", {"days": 3}),
    ("match_length", {"hands": 0}),
    ("match_length", {"hands": 4, "rotations": 1}),
    ("match_length", 4),
    ("match_length", "4 hands"),
    ("tunnela_ordinary", "five"),
    ("tunnela_ordinary", -5),
    ("tunnela_ordinary", [5, "x"]),
    ("marriage_grouping", "most"),
    ("deal_passes", "clockwise"),
    ("foul", True),
    ("void_hand", "maal"),
    ("scoring", "points"),
    ("dublee_finish_bonus_mode", "both"),
    ("dealt_tunnela_needs", "seen"),
]


@pytest.mark.parametrize(("name", "value"), BAD_SHAPES)
def test_wrong_shape_is_an_error_naming_the_field(name, value):
    errors = fields_of({"profile": "classic", name: value})
    assert [e.field for e in errors] == [f"rules.{name}"]
    assert errors[0].message


def test_every_bad_override_is_reported_at_once():
    errors = fields_of(
        {"profile": "amarnepal", "unseen_maal": "steal", "tiplu": "x", "nope": 1, "fee_seen": -3}
    )
    assert sorted(e.field for e in errors) == sorted(
        ["rules.unseen_maal", "rules.tiplu", "rules.nope", "rules.fee_seen"]
    )


@pytest.mark.parametrize("profile", ["nope", "", "AMARNEPAL", None, 5, True])
def test_unknown_profile(profile):
    errors = fields_of({"profile": profile, "unseen_maal": "kidnap"})
    assert [e.field for e in errors] == ["rules.profile"]


@pytest.mark.parametrize("profile", [[], ["amarnepal"], {}, {"id": "amarnepal"}])
def test_unhashable_profile_is_invalid(profile):
    errors = fields_of({"profile": profile})
    assert [e.field for e in errors] == ["rules.profile"]


@pytest.mark.parametrize("spec", ["nope", "", 5, None, ["amarnepal"], True, 1.5])
def test_rules_neither_an_id_nor_an_object(spec):
    errors = fields_of(spec)
    assert len(errors) == 1
    assert errors[0].field in ("rules", "rules.profile")


def test_missing_profile_in_an_object():
    errors = fields_of({"unseen_maal": "kidnap", "tiplu": [3, 7]})
    assert [e.field for e in errors] == ["rules.profile"]


def test_printed_jokers_need_their_table():
    errors = fields_of({"profile": "sparkai", "printed_jokers": True})
    assert [e.field for e in errors] == ["rules.printed_joker"]


def test_a_table_given_as_one_number_is_that_much_per_card():
    rules = resolve_rules({"profile": "everestbuzz", "alter": 0, "tiplu": 4})
    assert rules.alter == (0, 0, 0)
    assert rules.tiplu == (4, 8, 12)


def test_tables_derived_from_rules_leave_them_as_they_were():
    """The engine keeps tables it derives with the rules (maal items scored once): the
    rules still compare, print and travel as their settings alone."""
    from ledger.engine import parse_hand, settle

    rules = resolve_rules({"profile": "amarnepal", "unseen_maal": "kidnap"})
    before = (rules.to_json(), repr(rules), rules.spec())
    hand = {
        "tiplu": "5H",
        "finish": "sequences",
        "winner": "A",
        "players": [
            {"name": "A", "seen": "sequences", "maal_cards": ["6H", "6H", "4H"]},
            {"name": "B", "seen": "unseen", "maal_cards": ["5D"]},
        ],
    }
    first = settle(parse_hand(hand, rules), rules)
    assert rules.derived  # the items of these copies are kept
    assert settle(parse_hand(hand, rules), rules) == first
    assert (rules.to_json(), repr(rules), rules.spec()) == before
    fresh = resolve_rules(rules.spec())
    assert fresh == rules and not fresh.derived
    assert dataclasses.replace(rules).derived == {}
