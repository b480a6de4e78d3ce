"""The Nepali catalogue speaks to people (issue 36): no message names a field by its id
(a house-rules setting, a form's field, a property of the JSON API), says a word of
JSON, or writes a figure in Western digits; and an English word with two meanings has
an entry for each."""

from __future__ import annotations

import importlib
import inspect
import pkgutil
import re
from pathlib import Path

import pytest
from babel.messages.pofile import read_po
from wtforms.fields.core import UnboundField

import ledger.forms
import ledger.web
from ledger.api.openapi import document
from ledger.engine.rules import SETTING_HELP

ROOT = Path(__file__).resolve().parents[2]
PLACEHOLDER = re.compile(r"\{[^{}]*\}|%\([A-Za-z_]+\)[sd]")
TAG = re.compile(r"<[^>]+>")
#: An address of the site (/api/v1/matches/import): its words are a path, not a field.
ADDRESS = re.compile(r"/[\w./-]+")
#: The words JSON itself is made of (RFC 8259), and its name.
JSON_WORDS = ("JSON", "null", "true", "false", "object", "array", "string")
#: Western digits that are no figure of a Nepali sentence: a standard's name.
NOT_FIGURES = re.compile(r"ISO 4217")
#: A Western figure standing alone: not part of a card code (8H, 10♥), a rank range
#: (2-10), a machine format (2026-11-01T18:30:00Z) or an address (/api/v1).
WESTERN_FIGURE = re.compile(r"(?<![A-Za-z0-9♠♥♦♣/:-])[0-9]+(?:\.[0-9]+)?(?![A-Za-z0-9♠♥♦♣:-])")


def form_field_names() -> set[str]:
    """The names of every field of every form of the pages."""
    names = set()
    for package in (ledger.forms, ledger.web):
        for info in pkgutil.iter_modules(package.__path__):
            module = importlib.import_module(f"{package.__name__}.{info.name}")
            for _, cls in inspect.getmembers(module, inspect.isclass):
                names |= {k for k, v in vars(cls).items() if isinstance(v, UnboundField)}
    return names


def json_field_names(app) -> set[str]:
    """Every property and parameter the OpenAPI document names."""
    names: set[str] = set()

    def walk(node: object) -> None:
        if isinstance(node, dict):
            names.update(node.get("properties", {}))
            if node.get("in") in ("query", "path", "header") and "name" in node:
                names.add(node["name"])
            for value in node.values():
                walk(value)
        elif isinstance(node, list):
            for value in node:
                walk(value)

    with app.test_request_context():
        walk(document())
    return names


@pytest.fixture(scope="module")
def nepali():
    with (ROOT / "ledger/translations/ne/LC_MESSAGES/messages.po").open("rb") as f:
        return read_po(f, locale="ne")


@pytest.fixture
def ids(app) -> set[str]:
    """Setting ids, form field names and JSON field names, as the code has them. One
    letter (n, E, T) is a formula's symbol, not an id."""
    found = set(SETTING_HELP) | form_field_names() | json_field_names(app)
    return {name for name in found if re.fullmatch(r"[a-z][a-z0-9_]+", name)}


def sentences(catalog):
    """(message id, each Nepali string without its placeholders, markup and addresses)."""
    for message in catalog:
        if not message.id:
            continue
        strings = message.string if isinstance(message.string, tuple) else (message.string,)
        for text in strings:
            yield message.id, ADDRESS.sub(" ", TAG.sub(" ", PLACEHOLDER.sub(" ", text)))


def test_the_ids_come_from_every_part_of_the_code(ids):
    """The list is the code's: settings, form fields, the API's properties."""
    assert {"tiplu_copies_max", "packs"} <= ids  # settings
    assert {"merge_into", "maal_mode", "first_dealer"} <= ids  # form fields
    assert {"amount", "per_point", "last_hand_number", "dealt_tunnelas"} <= ids  # JSON


def test_no_nepali_message_names_a_field_by_its_id(nepali, ids):
    found = [
        (source, word)
        for source, text in sentences(nepali)
        for word in re.findall(r"[A-Za-z_][A-Za-z0-9_]*", text)
        if word in ids
    ]
    assert found == [], "\n".join(f"{word}: {source}" for source, word in found)


def test_no_nepali_message_says_a_word_of_json(nepali):
    pattern = re.compile(r"\b(" + "|".join(JSON_WORDS) + r")\b")
    found = [(source, text) for source, text in sentences(nepali) if pattern.search(text)]
    assert found == []


def test_nepali_figures_are_devanagari(nepali):
    found = [
        (source, WESTERN_FIGURE.findall(NOT_FIGURES.sub(" ", text)))
        for source, text in sentences(nepali)
        if WESTERN_FIGURE.search(NOT_FIGURES.sub(" ", text))
    ]
    assert found == []


@pytest.mark.parametrize(
    ("text", "figures"),
    [
        ("जस्तै 2 / 5 / 10।", ["2", "5", "10"]),
        ('जस्तै "150.00"', ["150.00"]),
        ("जस्तै 8H वा 10♥, A, 2-10", []),
        ("समय 2026-11-01T18:30:00Z जस्तो", []),
    ],
)
def test_what_counts_as_a_western_figure(text, figures):
    assert WESTERN_FIGURE.findall(text) == figures


def test_change_has_an_entry_for_each_meaning(nepali):
    """The roster's toggle is a verb, the what-if column a noun: two entries."""
    roster = nepali.get("Change", context="roster")
    column = nepali.get("Change", context="what-if column")
    assert roster is not None and column is not None
    assert roster.string and column.string and roster.string != column.string
    assert column.string == "फरक"
    assert nepali.get("Change") is None  # no third, context-less entry left


def test_extraction_keeps_the_contexts():
    """The Makefile's keywords extract pgettext / npgettext with their contexts."""
    with (ROOT / "ledger/translations/messages.pot").open("rb") as f:
        template = read_po(f)
    contexts = {m.context for m in template if m.id == "Change"}
    assert contexts == {"roster", "what-if column"}
    makefile = (ROOT / "Makefile").read_text()
    assert "-k pgettext:1c,2" in makefile and "-k npgettext:1c,2,3" in makefile
