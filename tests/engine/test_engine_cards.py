"""ledger.engine.cards: card codes (docs/rules.md §1) and each card's relation to the tiplu."""

import pytest

from ledger.engine.cards import CardError, Relation, parse_card, relation


def card(code):
    c = parse_card(code)
    return (c.rank, c.suit)


@pytest.mark.parametrize(
    "code",
    ["10H", "10h", "TH", "th", "Th", "tH", "10♥", "T♥", "t♥", " 10H ", "10 H".replace(" ", "")],
)
def test_ten_of_hearts_in_every_notation(code):
    assert card(code) == (10, "H")
    assert parse_card(code).code == "10H"


@pytest.mark.parametrize(
    ("code", "expected"),
    [
        ("AS", (1, "S")),
        ("as", (1, "S")),
        ("A♠", (1, "S")),
        ("2C", (2, "C")),
        ("2♣", (2, "C")),
        ("2c", (2, "C")),
        ("9D", (9, "D")),
        ("9♦", (9, "D")),
        ("9d", (9, "D")),
        ("JH", (11, "H")),
        ("jh", (11, "H")),
        ("J♥", (11, "H")),
        ("QS", (12, "S")),
        ("q♠", (12, "S")),
        ("KC", (13, "C")),
        ("kc", (13, "C")),
        ("K♣", (13, "C")),
    ],
)
def test_ranks_and_suits(code, expected):
    assert card(code) == expected


@pytest.mark.parametrize("code", ["JK", "jk", "Jk", "jK", " JK "])
def test_printed_joker(code):
    c = parse_card(code)
    assert c.is_printed_joker
    assert c.code == "JK"


def test_every_card_round_trips_through_its_code():
    for rank in ["A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K"]:
        for suit, symbol in zip("SHDC", "♠♥♦♣", strict=True):
            letter = parse_card(rank + suit)
            assert parse_card(rank + symbol) == letter
            assert parse_card((rank + suit).lower()) == letter
            assert parse_card(letter.code) == letter
            assert letter.code == rank + suit
            assert not letter.is_printed_joker


def test_jack_is_not_a_joker():
    assert card("JS") == (11, "S")
    assert not parse_card("JS").is_printed_joker


@pytest.mark.parametrize(
    "code",
    [
        "",
        " ",
        "1H",
        "0H",
        "11H",
        "14S",
        "1",
        "H",
        "10",
        "XH",
        "8X",
        "8",
        "AH2",
        "KK",
        "JKS",
        "♥8",
        "8HH",
        "T",
        "10♡♡",
        "8 H",
        "ten of hearts",
        "-2H",
        "+2H",
        "2.0H",
    ],
)
def test_bad_codes_are_card_errors(code):
    with pytest.raises(CardError) as info:
        parse_card(code)
    assert "not a card" in str(info.value)


@pytest.mark.parametrize("value", [None, 8, 8.0, True, ["8H"], {"rank": 8}, b"8H"])
def test_non_strings_are_card_errors(value):
    with pytest.raises(CardError):
        parse_card(value)


@pytest.mark.parametrize("code", ["²H", "2²H", "¹⁰H", "①H"])
def test_unicode_digit_lookalikes_are_card_errors(code):
    with pytest.raises(CardError):
        parse_card(code)


def test_card_error_is_a_value_error():
    assert issubclass(CardError, ValueError)


# --- relations (docs/rules.md §1) --------------------------------------------------------------


def rel(code, tiplu):
    return relation(parse_card(code), parse_card(tiplu))


@pytest.mark.parametrize(
    ("code", "expected"),
    [
        ("8H", Relation.TIPLU),
        ("9H", Relation.POPLU),
        ("7H", Relation.JHIPLU),
        ("8D", Relation.ALTER),  # same colour, other suit
        ("8S", Relation.ORDINARY_JOKER),  # other colour
        ("8C", Relation.ORDINARY_JOKER),
        ("9D", Relation.ORDINARY),  # poplu rank in the alter's suit is nothing
        ("7D", Relation.ORDINARY),
        ("10H", Relation.ORDINARY),
        ("6H", Relation.ORDINARY),
        ("9S", Relation.ORDINARY),
        ("JK", Relation.PRINTED_JOKER),
    ],
)
def test_relations_to_eight_of_hearts(code, expected):
    assert rel(code, "8H") == expected


@pytest.mark.parametrize(
    ("tiplu", "alter", "jokers"),
    [
        ("8H", "8D", ("8S", "8C")),
        ("8D", "8H", ("8S", "8C")),
        ("8S", "8C", ("8H", "8D")),
        ("8C", "8S", ("8H", "8D")),
    ],
)
def test_alter_and_ordinary_jokers_by_colour(tiplu, alter, jokers):
    assert rel(alter, tiplu) == Relation.ALTER
    for joker in jokers:
        assert rel(joker, tiplu) == Relation.ORDINARY_JOKER


def test_wrap_tiplu_ace():
    # tiplu A: jhiplu K, poplu 2 (docs/rules.md §1)
    assert rel("KS", "AS") == Relation.JHIPLU
    assert rel("2S", "AS") == Relation.POPLU
    assert rel("QS", "AS") == Relation.ORDINARY
    assert rel("3S", "AS") == Relation.ORDINARY
    assert rel("AC", "AS") == Relation.ALTER
    assert rel("AH", "AS") == Relation.ORDINARY_JOKER
    assert rel("KC", "AS") == Relation.ORDINARY


def test_wrap_tiplu_king():
    # tiplu K: poplu A, jhiplu Q
    assert rel("AD", "KD") == Relation.POPLU
    assert rel("QD", "KD") == Relation.JHIPLU
    assert rel("2D", "KD") == Relation.ORDINARY
    assert rel("JD", "KD") == Relation.ORDINARY
    assert rel("KH", "KD") == Relation.ALTER


def test_tiplu_two_jhiplu_is_ace():
    assert rel("AC", "2C") == Relation.JHIPLU
    assert rel("3C", "2C") == Relation.POPLU
    assert rel("KC", "2C") == Relation.ORDINARY


@pytest.mark.parametrize("tiplu", ["AH", "2S", "7D", "10C", "JH", "QS", "KD"])
def test_exactly_one_card_of_each_maal_kind(tiplu):
    ranks = ["A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K"]
    found = {}
    for r in ranks:
        for s in "SHDC":
            found.setdefault(rel(r + s, tiplu), []).append(r + s)
    assert len(found[Relation.TIPLU]) == 1
    assert len(found[Relation.POPLU]) == 1
    assert len(found[Relation.JHIPLU]) == 1
    assert len(found[Relation.ALTER]) == 1
    assert len(found[Relation.ORDINARY_JOKER]) == 2
    assert len(found[Relation.ORDINARY]) == 52 - 6


def test_relation_notation_independent():
    assert rel("10♥", "t♥") == Relation.TIPLU
    assert rel("jh", "10h") == Relation.POPLU
    assert rel("9♥", "TH") == Relation.JHIPLU
