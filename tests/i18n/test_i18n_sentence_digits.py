"""Numbers inside a translated sentence follow the page's digits setting, including the
counts the engine writes into a value ("{who}": "Asha 1, Bikash 3"), while names and
the API's English stay as they are."""

from __future__ import annotations

import re
import sys
from pathlib import Path

from i18n_support import NE, visible_text

sys.path[:0] = [str(Path(__file__).resolve().parents[1] / "web")]

from match_pages_support import PLAYERS, hand_form  # noqa: E402

#: Four poplus where the pack holds three: the engine's "Too many {name}: ... ({who})".
TOO_MANY_POPLUS = {
    "finish": "sequences",
    "winner": "Asha",
    "players": [
        {"name": "Asha", "seen": "sequences", "maal_counts": {"poplu": 1}},
        {"name": "Bikash", "seen": "sequences", "maal_counts": {"poplu": 3}},
        {"name": "Chandra", "seen": "sequences", "maal": 0},
    ],
}


def checked(client, players=PLAYERS, headers=NE) -> str:
    """The dispute checker's answer to TOO_MANY_POPLUS, as a reader sees it."""
    hand = {
        **TOO_MANY_POPLUS,
        "winner": players[0],
        "players": [{**p, "name": players[i]} for i, p in enumerate(TOO_MANY_POPLUS["players"])],
    }
    data = hand_form(hand, players, **{"rules-profile": "sparkai"})
    for i, name in enumerate(players):
        data[f"players-{i}-name"] = name
    response = client.post("/check", data=data, headers=headers)
    assert response.status_code == 422
    page = response.get_data(as_text=True)
    # visible_text leaves out what is marked lang="en": on an English page, everything
    return visible_text(page.replace('<html lang="en">', "<html>", 1))


def test_counts_in_an_engine_value_are_in_devanagari_on_a_nepali_page(client):
    text = checked(client)
    assert "तर यो बाजीमा ४ वटा छ (Asha १, Bikash ३)।" in text
    assert "Asha 1" not in text and "Bikash 3" not in text


def test_they_stay_western_when_the_reader_chose_western_digits(client):
    client.set_cookie("digits", "latn")
    text = checked(client)
    assert "तर यो बाजीमा 4 वटा छ (Asha 1, Bikash 3)।" in text


def test_digits_in_a_name_are_the_name_not_a_count(client):
    """A player called "Table 2" keeps the 2 of the name; only the count changes."""
    players = ["Table 2", "Ram 10", "Sita", "Dipa"]
    text = checked(client, players)
    assert "(Table 2 १, Ram 10 ३)" in text


def test_english_pages_and_the_api_keep_western_digits(client):
    text = checked(client, headers={"Accept-Language": "en"})
    assert "but this hand has 4 (Asha 1, Bikash 3)." in text
    api = client.post(
        "/api/v1/settle", json={"rules": "sparkai", **TOO_MANY_POPLUS}, headers=NE
    ).get_json()
    messages = [e["message"] for e in api["errors"]]
    assert any(re.search(r"has 4 \(Asha 1, Bikash 3\)\.$", m) for m in messages), messages


def test_a_number_written_in_a_template_follows_each_reader_not_the_first(client):
    """``{{ 0|num }}`` (an unseen player with no maal) in Nepali after the page was first
    shown in English, and the other way round: Jinja calls a filter of constants once, as
    the template compiles, unless the filter runs at render (ledger.i18n.switches)."""
    made = client.post(
        "/api/v1/matches", json={"name": "Tihar", "players": PLAYERS[:3], "rules": "sparkai"}
    ).get_json()
    hand = {
        "finish": "sequences",
        "winner": PLAYERS[0],
        "players": [
            {"name": PLAYERS[0], "seen": "sequences", "maal": 3},
            {"name": PLAYERS[1], "seen": "sequences", "maal": 2},
            {"name": PLAYERS[2], "seen": "unseen"},  # no maal given: "No maal", 0
        ],
    }
    auth = {"Authorization": f"Bearer {made['edit_key']}"}
    assert (
        client.post(f"/api/v1/matches/{made['id']}/hands", json=hand, headers=auth).status_code
        == 201
    )
    page = f"/matches/{made['id']}/hands/1"
    no_maal = re.compile(r'>(No maal|माल छैन)</th><td class="num">([^<]*)</td>')
    shown = [
        no_maal.search(client.get(page, headers=h).get_data(as_text=True)).groups()
        for h in ({}, NE, {})
    ]
    assert shown == [("No maal", "0"), ("माल छैन", "०"), ("No maal", "0")]


def test_numbers_a_translation_writes_follow_the_digits_chosen(client):
    """The catalogue writes some numbers itself ("० देखि {most}", "२ देखि १२ जना खेलाडी"):
    with Western digits chosen they are Western too, in the page's words, its form's
    labels and the engine's sentences."""
    new_match = visible_text(client.get("/matches/new", headers=NE).get_data(as_text=True))
    assert "२ देखि १२ जना खेलाडी" in new_match  # its hint, in the reader's digits
    client.set_cookie("digits", "latn")
    new_match = visible_text(client.get("/matches/new", headers=NE).get_data(as_text=True))
    assert "2 देखि 12 जना खेलाडी" in new_match
    text = checked(client).replace("०१२", "")  # the switch to Devanagari digits, shown in them
    assert "तर यो बाजीमा 4 वटा छ" in text
    assert not re.findall(r"\S*[०-९]\S*", text)
