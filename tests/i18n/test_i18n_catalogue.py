"""The catalogues: every marked string is extracted, and the Nepali one translates each of
them completely, with the same placeholders."""

from __future__ import annotations

import re
import shlex
from pathlib import Path

import pytest
from babel.messages.extract import extract_from_dir
from babel.messages.frontend import parse_mapping_cfg
from babel.messages.pofile import read_po

ROOT = Path(__file__).resolve().parents[2]
TRANSLATIONS = ROOT / "ledger" / "translations"
PLACEHOLDER = re.compile(r"\{[^{}]*\}|%\([A-Za-z_]+\)[sd]")


def read(path: Path, locale: str | None = None):
    with path.open("rb") as f:
        return read_po(f, locale=locale)


@pytest.fixture(scope="module")
def template():
    return read(TRANSLATIONS / "messages.pot")


@pytest.fixture(scope="module")
def nepali():
    return read(TRANSLATIONS / "ne" / "LC_MESSAGES" / "messages.po", "ne")


def ids(catalog) -> set:
    return {m.id for m in catalog if m.id}


def keywords_from_makefile() -> dict:
    """The extraction keywords, as `make translations-update` passes them to pybabel."""
    text = (ROOT / "Makefile").read_text().replace("\\\n", " ")
    line = re.search(r"^BABEL_KEYWORDS :=(.*)$", text, re.M).group(1)
    words = shlex.split(line)
    specs = [words[i + 1] for i, w in enumerate(words) if w == "-k"]
    from babel.messages.extract import DEFAULT_KEYWORDS
    from babel.messages.frontend import parse_keywords

    return {**DEFAULT_KEYWORDS, **parse_keywords(specs)}


@pytest.mark.slow  # seconds: lays out PDFs or runs many requests
def test_template_holds_every_marked_string_and_no_other(template):
    """messages.pot is up to date: `make translations-update` after marking strings. And
    it holds no sentence the code no longer marks: one still said but left unmarked would
    lose its translation at the next update."""
    with (ROOT / "babel.cfg").open() as f:
        method_map, options_map = parse_mapping_cfg(f)
    found = set()
    for _file, _line, message, _comments, _context in extract_from_dir(
        str(ROOT), method_map, options_map, keywords=keywords_from_makefile()
    ):
        found.add(message)
    missing = sorted(str(m) for m in found - ids(template))
    assert not missing, f"not in messages.pot (run `make translations-update`): {missing}"
    unmarked = sorted(str(m) for m in ids(template) - found)
    assert not unmarked, f"in messages.pot, marked nowhere (mark them, or update): {unmarked}"


def test_engine_and_service_sentences_are_extracted(template):
    known = ids(template)
    # the engine's (FieldError / fail / CardError / N_), the service layer's (Msg)
    for message in (
        "Enter the tiplu: without it the cards cannot be counted.",
        "{name} saw by {seen}, so finishes by {seen}, not by {finish}.",
        "{code!r} is not a card: write a card as rank and suit, like 8H or 10♥.",
        "Fee each unseen player pays the finisher.",
        "Amar Nepal",
        "Give the maal one way only: {forms}, not both.",
        "{name!r} is not a player of this match; the players are {players}.",
        "This match has no hand {number}.",
    ):
        assert message in known, message


def test_nepali_catalogue_is_complete(template, nepali):
    untranslated = []
    for message in template:
        if not message.id:
            continue
        found = nepali.get(message.id, context=message.context)
        strings = () if found is None else found.string
        strings = strings if isinstance(strings, tuple) else (strings,)
        if found is None or "fuzzy" in found.flags or not strings or not all(strings):
            untranslated.append(message.id)
    assert not untranslated, f"no Nepali for {len(untranslated)}: {untranslated[:20]}"
    assert not nepali.fuzzy


def test_placeholders_are_kept(nepali):
    wrong = []
    for message in nepali:
        if not message.id:
            continue
        sources = message.id if isinstance(message.id, tuple) else (message.id,)
        strings = message.string if isinstance(message.string, tuple) else (message.string,)
        expected = set().union(*(PLACEHOLDER.findall(s) for s in sources))
        for translated in strings:
            if set(PLACEHOLDER.findall(translated)) != expected:
                wrong.append((message.id, translated))
    assert not wrong, wrong


def test_nepali_strings_are_nepali(nepali):
    """Every translation has Devanagari in it (nothing copied over in English), and the
    game's words keep their usual forms."""
    devanagari = re.compile("[\u0900-\u097f]")
    for message in nepali:
        source = message.id[0] if isinstance(message.id, tuple) else message.id
        if not source or not re.search("[A-Za-z]{2,}", PLACEHOLDER.sub("", source)):
            continue  # a formula such as "n × E − T" reads the same in Nepali
        strings = message.string if isinstance(message.string, tuple) else (message.string,)
        for translated in strings:
            assert devanagari.search(translated), (message.id, translated)
    words = {
        "Tiplu": "टिप्लु",
        "Poplu": "पप्लु",
        "Jhiplu": "झिप्लु",
        "Alter": "अल्टर",
        "Maal": "माल",
        "Marriage": "म्यारिज",
        "murder": "मर्डर",
        "kidnap": "किड्न्याप",
        "unseen": "अनसिन",
        "dublees": "डब्ली",
        "Joker": "जोकर",
    }
    for english, nepali_word in words.items():
        assert nepali.get(english).string == nepali_word, english


def test_seen_and_unseen_are_one_pair_of_words(nepali):
    """Seen / unseen are सिन / अनसिन throughout (not देखेको / नदेखेको here and there)."""
    for message in nepali:
        strings = message.string if isinstance(message.string, tuple) else (message.string,)
        for translated in strings:
            assert "नदेखेको" not in translated, message.id


def test_catalogues_are_compiled_by_the_setup():
    """The .mo files are git-ignored and built by `make` (or the test session)."""
    for language in ("ne", "en"):
        mo = TRANSLATIONS / language / "LC_MESSAGES" / "messages.mo"
        po = mo.with_suffix(".po")
        assert mo.exists() and mo.stat().st_mtime >= po.stat().st_mtime
    assert "*.mo" in (ROOT / ".gitignore").read_text().split()
