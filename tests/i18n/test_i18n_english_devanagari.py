"""An English page in Devanagari digits (the footer's switch): every number it shows is in
them, those its own sentences write too ("up to ५ a hand", "e.g. ०.५०", "(worth ०)"),
beside the numbers filled in; names, card codes and addresses keep theirs, and so does the
API (``ledger.i18n.language.CatalogueDigits``)."""

from __future__ import annotations

import re

from i18n_support import NOT_PROSE, WESTERN_NUMBER, busy_table, visible_text


def shown(client, url: str) -> str:
    """The text a reader of the English page ``url`` meets."""
    answer = client.get(url)
    assert answer.status_code == 200, url
    # visible_text leaves out what is marked lang="en": on an English page, everything
    return visible_text(answer.get_data(as_text=True).replace('<html lang="en">', "<html>", 1))


def western_numbers(client, url: str) -> list[str]:
    """The Western numbers a reader of ``url`` meets outside names, codes and addresses
    (with a few words around each)."""
    text = NOT_PROSE.sub(" ", shown(client, url))
    return [text[max(0, n.start() - 30) : n.end() + 10] for n in WESTERN_NUMBER.finditer(text)]


def test_representative_pages_write_every_number_in_devanagari(client):
    table = busy_table(client)
    client.get(f"/tables/{table['id']}/join/{table['edit_key']}")  # the forms shown too
    client.set_cookie("lang", "en")
    client.set_cookie("digits", "deva")
    night = f"/matches/{table['nights'][1]}"
    pages = [
        night,
        f"{night}/hands/new",
        f"{night}/what-if",
        f"/tables/{table['id']}",
        f"/tables/{table['id']}/players/Asha",
        "/rules",
        "/matches/new",
    ]
    found = {url: western_numbers(client, url) for url in pages}
    assert not {url: numbers for url, numbers in found.items() if numbers}
    # The sentences' own numbers are the page's, and card codes are as typed.
    hand_form = shown(client, f"{night}/hands/new")
    assert "Cards that are not maal count ०." in hand_form and "8H, 10♥" in hand_form


def test_the_api_and_english_in_western_digits_keep_the_sentences_numbers(client):
    """The API's messages are English in Western digits by contract, whatever the
    browser chose for its pages."""
    client.set_cookie("digits", "deva")
    body = {"name": "Tihar", "players": ["Asha", "Bikash"], "rules": "sparkai"}
    stake = {"per_point": "x", "currency": "NPR"}
    refused = client.post("/api/v1/matches", json={**body, "stake": stake}).get_json()
    assert re.search(r'like "0\.50"', refused["errors"][0]["message"]), refused
    client.set_cookie("digits", "latn")
    assert "e.g. 0.50" in client.get("/matches/new").get_data(as_text=True)
