"""Too many copies of a card: the problem names each player once, with all the copies
they hold of it, however they were entered (cards, a dealt tunnela, counts)."""

import pytest

from ledger.engine import Invalid, parse_hand, resolve_rules


def copies_problem(players: list[dict]) -> str:
    rules = resolve_rules("amarnepal")
    hand = {"tiplu": "8H", "finish": "sequences", "winner": "Asha", "players": players}
    with pytest.raises(Invalid) as refused:
        parse_hand(hand, rules)
    (error,) = refused.value.errors
    return error.message


def test_a_tunnela_and_a_card_of_one_player_are_one_entry():
    said = copies_problem(
        [
            {
                "name": "Asha",
                "seen": "sequences",
                "maal_cards": ["9H"],
                "dealt_tunnelas": ["poplu"],
            },
            {"name": "Bikash", "seen": "sequences", "maal": 0},
        ]
    )
    assert said.endswith("but this hand has 4 (Asha 4)."), said


def test_each_player_once_in_the_order_they_sit():
    said = copies_problem(
        [
            {"name": "Asha", "seen": "sequences", "maal_cards": ["9H"], "dealt_tunnelas": ["9H"]},
            {"name": "Bikash", "seen": "sequences", "maal_cards": ["9H"]},
        ]
    )
    assert said.endswith("but this hand has 5 (Asha 4, Bikash 1)."), said
