"""Names: one composed spelling, one line of visible text; what could make one name look
like another, or like nothing, is refused with the character's code."""

import unicodedata

import pytest

from ledger.engine import FieldError, Invalid, parse_hand, resolve_rules
from ledger.engine.names import read_name, tidy_name

#: A name holding each kind of character a name cannot hold, and the sentence's start.
REFUSED = {
    "lone surrogate": ("Asha\ud800", "A name cannot hold U+D800: it is not a character"),
    "NUL": ("As\x00ha", "A name cannot hold control characters"),
    "bell": ("\x07Asha", "A name cannot hold control characters"),
    "tab": ("Asha\tRai", "A name cannot hold control characters"),
    "line feed": ("Asha\n", "A name cannot hold control characters"),
    "line separator": ("Asha\u2028Rai", "A name cannot hold control characters"),
    "right-to-left override": ("\u202eahsA", "A name cannot hold characters that turn"),
    "left-to-right isolate": ("A\u2066sha\u2069", "A name cannot hold characters that turn"),
    "right-to-left mark": ("Asha\u200f", "A name cannot hold characters that turn"),
    "Arabic letter mark": ("Asha\u061c", "A name cannot hold characters that turn"),
    "zero-width space": ("As\u200bha", "A name cannot hold invisible characters"),
    "byte order mark": ("\ufeffAsha", "A name cannot hold invisible characters"),
    "word joiner": ("As\u2060ha", "A name cannot hold invisible characters"),
    "soft hyphen": ("As\u00adha", "A name cannot hold invisible characters"),
    "zero-width joiner alone": ("As\u200dha", "A name cannot hold invisible characters"),
    "Hangul filler": ("\u3164", "A name cannot hold invisible characters"),
    "blank braille cell": ("Asha\u2800", "A name cannot hold invisible characters"),
    "private use": ("Asha\ue000", "A name cannot hold U+E000: it is not a character"),
    "unassigned": ("Asha\U000e0fff", "A name cannot hold U+E0FFF: it is not a character"),
}


def read(value, **kw):
    return read_name(value, "players.1", most=kw.get("most", 40), missing="Give a name.")


@pytest.mark.parametrize("kind", REFUSED)
def test_a_name_with_a_character_it_cannot_hold_is_refused(kind):
    value, start = REFUSED[kind]
    with pytest.raises(FieldError) as info:
        read(value)
    assert info.value.field == "players.1"
    assert info.value.message.startswith(start)
    bad = next(c for c in value if c not in "AshaR ")
    assert f"U+{ord(bad):04X}" in info.value.message


@pytest.mark.parametrize("value", ["", "   ", "\u00a0\u3000", None, 5, ["Asha"]])
def test_no_name_is_the_missing_sentence(value):
    with pytest.raises(FieldError) as info:
        read(value)
    assert info.value.message == "Give a name."


def test_names_are_composed_and_their_spaces_folded():
    decomposed = "Ame\u0301lie \u00a0 Rai"
    name = read(decomposed)
    assert name == "Am\u00e9lie Rai"
    assert unicodedata.is_normalized("NFC", name)
    assert tidy_name(decomposed) == name


@pytest.mark.parametrize(
    "name",
    ["सुर्य", "क्\u200dष", "र्\u200dय", "क्\u200cष", "José", "Ōta", "李", "Asha 👩🏽", "O'Neil-Rai"],
)
def test_real_names_are_kept(name):
    """Devanagari with a joiner after a virama (a half form), accents, CJK, emoji."""
    assert read(name) == unicodedata.normalize("NFC", name)


def test_the_length_is_counted_after_composing():
    assert read("e\u0301" * 40) == "\u00e9" * 40
    with pytest.raises(FieldError) as info:
        read("e" * 41)
    assert info.value.message == "A name can have at most 40 characters."


def test_a_hand_refuses_such_a_name_on_its_field():
    rules = resolve_rules("sparkai")
    hand = {
        "finish": "void",
        "players": [{"name": "Asha", "seen": "unseen"}, {"name": "Bi\u202ekash", "seen": "unseen"}],
    }
    with pytest.raises(Invalid) as info:
        parse_hand(hand, rules)
    assert [e.field for e in info.value.errors] == ["players.1.name"]


def test_a_winner_written_decomposed_is_the_composed_player():
    rules = resolve_rules("sparkai")
    hand = {
        "finish": "sequences",
        "winner": "Jose\u0301",
        "players": [
            {"name": "Jos\u00e9", "seen": "sequences", "maal": 3},
            {"name": "Bikash", "seen": "unseen"},
        ],
    }
    assert parse_hand(hand, rules).winner == "Jos\u00e9"
