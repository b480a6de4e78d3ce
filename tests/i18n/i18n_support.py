"""Helpers for the language tests: what a reader sees of a page, and English left in it."""

from __future__ import annotations

import re
from html.parser import HTMLParser

NE = {"Accept-Language": "ne-NP,ne;q=0.9,en;q=0.5"}
DEVANAGARI_DIGITS = "०१२३४५६७८९"
#: Attributes a reader meets (screen readers, hints in empty fields, tooltips).
SEEN_ATTRIBUTES = ("placeholder", "title", "aria-label", "alt")
#: Elements whose text is not prose: code, typed examples, scripts.
SKIPPED = {"script", "style", "code", "kbd", "template"}
VOID = {"br", "hr", "img", "input", "link", "meta", "source", "wbr", "col", "area", "base"}


class _Reader(HTMLParser):
    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.parts: list[str] = []
        self.stack: list[tuple[str, bool]] = []  # (tag, skipped)

    @property
    def skipping(self) -> bool:
        return any(skipped for _, skipped in self.stack)

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        # lang="en": English on purpose (the switch's "English", the glossary's column)
        skipped = tag in SKIPPED or attrs.get("lang") == "en"
        if not self.skipping and not skipped:
            for name in SEEN_ATTRIBUTES:
                if attrs.get(name):
                    self.parts.append(attrs[name])
            if tag == "option" or (tag == "input" and attrs.get("type") in ("submit", "button")):
                pass  # option text comes as data; input buttons carry value
        if tag not in VOID:
            self.stack.append((tag, skipped))

    def handle_endtag(self, tag):
        while self.stack:
            open_tag, _ = self.stack.pop()
            if open_tag == tag:
                break

    def handle_data(self, data):
        if not self.skipping:
            self.parts.append(data)


def visible_text(html: str) -> str:
    """The text a reader meets on a page (prose, labels, options, placeholders, titles,
    aria-labels), without code samples, scripts and parts marked lang="en"."""
    reader = _Reader()
    reader.feed(html)
    return re.sub(r"\s+", " ", " ".join(reader.parts)).strip()


_WORD = re.compile(r"[A-Za-z]{2,}(?:['’][A-Za-z]+)?")


def english_words(text: str, allowed=()) -> set[str]:
    """The Latin-script words of ``text`` (two letters or more) that are not in
    ``allowed`` (player names, card codes, profile ids...): untranslated English, on a
    Nepali page."""
    allow = {a.casefold() for a in allowed}
    return {w for w in _WORD.findall(text) if w.casefold() not in allow}
