"""Helpers for the language tests: what a reader sees of a page, English and Western digits
left in it, and a busy table to look at."""

from __future__ import annotations

import re
from html.parser import HTMLParser
from urllib.parse import urlparse

from babel.numbers import get_currency_name, list_currencies

NE = {"Accept-Language": "ne-NP,ne;q=0.9,en;q=0.5"}
PLAYERS = ["Asha", "Bikash", "Chandra", "Dipa", "Esha"]
GUEST = "Ram"
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


#: What may hold Western digits on a page in Devanagari digits: an address or file name,
#: a card code as typed (8H, 10♥), the match names given here, the digits switch's own
#: example of Western digits, and the currencies' names as CLDR gives them
#: ("भेनेजुएलन बोलिभर-2").
NOT_PROSE = re.compile(
    "|".join(
        [
            r"\S*/\S*|\S+\.json\b",
            r"(?<![A-Za-z0-9])(?:[2-9]|10|[AJQKT])[SHDC♠♥♦♣](?![A-Za-z0-9])",
            r"Night \d+|अङ्ग्रेजी अङ्क 012|Western digits 012",
            *(re.escape(get_currency_name(code, locale="ne")) for code in list_currencies()),
        ]
    )
)
WESTERN_NUMBER = re.compile(r"(?<![A-Za-z0-9])[0-9]+")


def _api(client, method: str, path: str, key: str | None = None, **body):
    headers = {"Authorization": f"Bearer {key}"} if key else {}
    answer = client.open(f"/api/v1{path}", method=method, json=body or None, headers=headers)
    assert answer.status_code < 300, (path, answer.get_json())
    return answer.get_json()


def _night(client, table: dict, name: str, players: list[str], hands: int, guests=()) -> str:
    """A night of ``hands`` hands at the table, its finisher going round and its last
    player unseen; its match's id."""
    key, path = table["edit_key"], f"/tables/{table['id']}/matches"
    match = _api(client, "POST", path, key, name=name, players=players, guests=list(guests))
    for number in range(hands):
        resting = set(_api(client, "GET", f"/matches/{match['id']}")["next_sitting_out"])
        *seen, unseen = [p for p in players if p not in resting]
        hand = [
            {"name": p, "seen": "sequences", "maal": 3 * i + number} for i, p in enumerate(seen)
        ]
        hand.append({"name": unseen, "seen": "unseen"})
        winner = seen[number % len(seen)]
        _api(
            client,
            "POST",
            f"/matches/{match['id']}/hands",
            key,
            finish="sequences",
            winner=winner,
            players=hand,
        )
    return match["id"]


def busy_table(client) -> dict:
    """A table at a stake: a finished night, a new season with a night of six (a guest
    among them) still going, a payment, Asha's own link (``own_link``) and the two
    nights' ids (``nights``)."""
    table = _api(
        client,
        "POST",
        "/tables",
        name="Friday",
        players=PLAYERS,
        stake={"per_point": "5.00", "currency": "NPR"},
    )
    key = table["edit_key"]
    first = _night(client, table, "Night 1", PLAYERS[:4], 4)
    _api(client, "PATCH", f"/matches/{first}", key, finished=True)
    _api(client, "POST", f"/tables/{table['id']}/seasons", key, name="Dashain")
    second = _night(client, table, "Night 2", [*PLAYERS, GUEST], 6, guests=[GUEST])
    owed = _api(client, "GET", f"/tables/{table['id']}/settle-up")["transfers"][0]
    payment = {"from": owed["from"], "to": owed["to"], "amount": "10.00"}
    _api(client, "POST", f"/tables/{table['id']}/payments", key, **payment)
    own = _api(client, "POST", f"/tables/{table['id']}/players/Asha/link", key)
    return {**table, "own_link": urlparse(own["url"]).path, "nights": [first, second]}
