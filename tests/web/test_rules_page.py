"""The house-rules page: every profile side by side, and what each setting means."""

import html
import re

from markupsafe import escape

from ledger.engine import PROFILES
from ledger.engine.maal import NO_BONUS_REASONS
from ledger.engine.rules import MAAL_COUNT_HELP, PROFILE_NOTES, PROFILE_TITLES, SETTING_HELP


def test_rules_page_shows_every_profile(client):
    response = client.get("/rules")
    assert response.status_code == 200
    body = response.get_data(as_text=True)
    header = re.search(r"<thead[^>]*>(.*?)</thead>", body, re.S).group(1)
    for pid, title in PROFILE_TITLES.items():
        assert f'<code lang="en">{pid}</code>' in header  # a code, not a word of the page
        assert html.escape(title) in header
    values = body.split('id="limits"')[0]  # the profiles' table, before the limits'
    rows = re.findall(r"<tr[^>]*>\s*<th scope=\"row\".*?</tr>", values, re.S)
    assert len(rows) == len(PROFILES["amarnepal"].to_json()) - 1  # every setting but "profile"
    tiplu = next(r for r in rows if '#setting-tiplu"' in r)
    cells = re.findall(r"<td[^>]*>(.*?)</td>", tiplu)
    assert cells == ["3 / 8", "3 / 8", "3 / 7", "3 / 7 / 12", "3 / 7"]
    alter = next(r for r in rows if '#setting-alter"' in r)
    assert re.findall(r"<td[^>]*>(.*?)</td>", alter)[2] == "—"  # classic: no alter
    length = next(r for r in rows if '#setting-match_length"' in r)
    assert re.findall(r"<td[^>]*>(.*?)</td>", length)[:2] == ["4 hands", "—"]


def test_rules_page_explains_every_setting(client):
    body = client.get("/rules").get_data(as_text=True)
    for name, text in SETTING_HELP.items():
        assert f'id="setting-{name}"' in body
        assert str(escape(text)) in body
    assert 'class="table-wrap rules-table-wrap"' in body  # scrolls sideways when wide


def test_rules_page_says_how_the_ledger_reads_what_a_source_leaves_open(client):
    body = client.get("/rules").get_data(as_text=True)
    for pid, note in PROFILE_NOTES.items():
        section = re.search(rf'<div id="reading-{pid}">(.*?)</div>', body, re.S).group(1)
        assert str(escape(note)) in section
    assert 'id="reading-amarnepal"' not in body  # its source is not silent on these
    nepali = client.get("/rules", headers={"Accept-Language": "ne"}).get_data(as_text=True)
    assert "अनसिन खेलाडीको माल" in nepali


def test_a_dealt_tunnela_without_its_bonus_says_why_on_the_hand_page(client):
    created = client.post(
        "/api/v1/matches",
        json={"name": "T", "players": ["Asha", "Bikash"], "rules": "amarnepal", "length": None},
    ).get_json()
    hand = {
        "tiplu": "8H",
        "finish": "sequences",
        "winner": "Asha",
        "players": [
            {"name": "Asha", "seen": "sequences", "maal": 0},
            {"name": "Bikash", "seen": "unseen", "dealt_tunnelas": ["5S"]},
        ],
    }
    answer = client.post(
        f"/api/v1/matches/{created['id']}/hands",
        json=hand,
        headers={"Authorization": f"Bearer {created['edit_key']}"},
    )
    assert answer.status_code == 201
    page = client.get(f"/matches/{created['id']}/hands/1").get_data(as_text=True)
    assert "Dealt tunnela" in page  # the reason after its cards says "No bonus" itself
    assert str(escape(NO_BONUS_REASONS["unseen"])) in page


def test_setting_codes_are_on_the_english_page_only(client):
    """The ids are for API users (marked English for a screen reader); the Nepali page
    names every setting and profile in Nepali only (issue 26)."""
    body = client.get("/rules").get_data(as_text=True)
    codes = re.findall(r"<code([^>]*)>([^<]*)</code>", body)
    assert len(codes) == (
        len(PROFILE_TITLES) + len(PROFILE_NOTES) + len(SETTING_HELP) + len(MAAL_COUNT_HELP)
    )
    assert all(attrs == ' lang="en"' for attrs, _ in codes), codes
    client.set_cookie("lang", "ne")
    body = client.get("/rules").get_data(as_text=True)
    assert '<html lang="ne">' in body
    assert "<code" not in body
    text = re.sub(r"<[^>]+>", " ", body)  # what is read: no tags, ids or links
    for name in [*SETTING_HELP, *PROFILE_TITLES]:
        assert not re.search(rf"\b{name}\b", text), name


def test_rules_page_gives_the_limits_of_three_and_four_packs(client):
    body = client.get("/rules").get_data(as_text=True)
    limits = body.split('id="limits"')[1].split('id="counts"')[0]
    rows = {
        re.sub(r"<[^>]+>", "", m.group(1)).strip(): re.findall(r"<td>(.*?)</td>", m.group(2))
        for m in re.finditer(
            r'<th scope="row" class="setting-name">(.*?)</th>(.*?)</tr>', limits, re.S
        )
    }
    assert rows["Players in a hand"] == ["2–5 / 2–8"] * 5
    # amarnepal sets the indicator aside, gamerules puts it back under the stock
    assert rows["Tiplu"] == ["2 / 3", "2 / 3", "2 / 3", "3 / 4", "3 / 4"]
    assert rows["Printed joker"][:2] == ["3 / 4", "0 / 0"]
    assert rows["Ordinary joker"][0] == "6 / 8"
    assert "A player holds 21 cards" in limits
    for key in MAAL_COUNT_HELP:
        assert f'id="count-{key}"' in body


def test_rules_page_in_nepali_names_the_new_settings(client):
    client.set_cookie("lang", "ne")
    body = client.get("/rules").get_data(as_text=True)
    for nepali in (
        "तास",  # packs
        "बाँड्दा आएको टनेलाको बोनस गन्ने तरिका",  # dealt_tunnela_bonus_mode
        "पत्ताको सट्टा",  # instead
        "एक बाजीमा के कति हुन सक्छ",
        "गनेर लेखिएको माल",
    ):
        assert nepali in body, nepali
