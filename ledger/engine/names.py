"""Names people type (a match's, a player's): one spelling, one line of visible text.

Every phone at the table shows the names, so text that could make one name look like
another, or like nothing, is refused rather than stored: control characters (NUL
included), line breaks other than spaces, lone surrogates (half of a character: not
text at all), bidirectional overrides, embeddings, isolates and marks, zero-width and
other invisible format characters, private-use and unassigned code points, and the
letters that draw as blank space. A name is kept in Unicode's composed form (NFC), so
that ``é`` typed as one character or as ``e`` and an accent is the same name.

The zero-width joiner and non-joiner stay allowed right after a Devanagari virama
(्), where Nepali keyboards put them to choose a half form or a visible virama.

>>> read_name("  Asha\\u00a0 Rai ", "name", most=40, missing="Give a name.")
'Asha Rai'
>>> read_name("e\\u0301", "name", most=40, missing="Give a name.") == "\\u00e9"
True
>>> read_name("\\u202eahsA", "players.0", most=40, missing="Give a name.")  # doctest: +ELLIPSIS
Traceback (most recent call last):
ledger.engine.errors.FieldError: ('players.0', 'A name cannot hold characters that turn ...')
"""

from __future__ import annotations

import unicodedata

from .errors import N_, FieldError

_VIRAMA = "\u094d"
_JOINERS = frozenset("\u200c\u200d")
#: Format characters that change the direction of the text around them.
_BIDI = frozenset("\u061c\u200e\u200f\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069")
#: Letters and symbols that draw as blank space: Hangul fillers, the blank braille cell.
_BLANK = frozenset("\u115f\u1160\u3164\uffa0\u2800")
_CONTROL = frozenset(("Cc", "Zl", "Zp"))
TOO_LONG = N_("A name can have at most {most} characters.")
_NOT_TEXT = frozenset(("Cs", "Co", "Cn"))
#: A name's parts between slashes that a browser resolves in an address ("a/../b" is
#: "b"), even percent-encoded: a player's page under such a name would be another's.
_DOTS = frozenset((".", ".."))


def joins_after_virama(char: str, previous: str) -> bool:
    """Whether ``char`` is a zero-width (non-)joiner right after a Devanagari virama: how
    a Nepali keyboard writes a half form (क्‍ष), the one invisible character text may hold."""
    return char in _JOINERS and previous == _VIRAMA


def tidy_name(text: str) -> str:
    """``text`` in composed form (NFC), runs of whitespace made one space, ends trimmed.

    >>> tidy_name(" Asha \\t Rai ")
    'Asha Rai'
    """
    if not text.isascii():  # ASCII is composed already
        text = unicodedata.normalize("NFC", text)
    return " ".join(text.split())


def name_problem(text: str, field: str) -> FieldError | None:
    """The first character of ``text`` that a name cannot hold, as a problem of ``field``."""
    previous = ""
    for char in text:
        category = unicodedata.category(char)
        code = f"U+{ord(char):04X}"
        if category in _CONTROL:
            return FieldError(
                field,
                "A name cannot hold control characters or line breaks, such as {code}.",
                code=code,
            )
        if category in _NOT_TEXT:
            return FieldError(
                field,
                "A name cannot hold {code}: it is not a character that can be shown. "
                "Type the name again.",
                code=code,
            )
        if char in _BIDI:
            return FieldError(
                field,
                "A name cannot hold characters that turn the direction of text, such as "
                "{code}; type it again without them.",
                code=code,
            )
        if (category == "Cf" and not joins_after_virama(char, previous)) or (char in _BLANK):
            return FieldError(
                field,
                "A name cannot hold invisible characters, such as {code}; "
                "type it again without them.",
                code=code,
            )
        previous = char
    return None


def read_name(
    value: object,
    field: str,
    *,
    most: int,
    missing: str,
    too_long: str = TOO_LONG,
) -> str:
    """The name in ``value``, tidied (``tidy_name``); a FieldError of ``field`` when it is
    no text, holds a character a name cannot, is empty once trimmed (the sentence
    ``missing``), is longer than ``most`` characters (``too_long``) or is, or has
    between slashes, "." or ".." (``_DOTS``)."""
    if not isinstance(value, str):
        raise FieldError(field, missing)
    if value.isascii() and value.isprintable():  # the usual name: nothing to refuse or compose
        name = " ".join(value.split())
    else:
        problem = name_problem(value, field)
        if problem is not None:
            raise problem
        name = tidy_name(value)
    if not name:
        raise FieldError(field, missing)
    if len(name) > most:
        raise FieldError(field, too_long, most=most)
    if _DOTS.intersection(name.split("/")):
        raise FieldError(
            field,
            "A name cannot be “.” or “..”, nor have one between slashes (as “Ram/..”): "
            "a browser would take the address of the player's page for another.",
        )
    return name
