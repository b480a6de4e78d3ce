"""The main flows in Nepali: the dispute checker, a match (new match, its page, a hand,
the hand form) and the summary PDF, with no English left but names and codes."""

from __future__ import annotations

import re
import sys
from pathlib import Path

import pytest
from babel.numbers import list_currencies
from i18n_support import NE, english_words, visible_text

TESTS = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(TESTS / "web"), str(TESTS / "reports")]

from match_pages_support import (  # noqa: E402
    BY_CARDS,
    DUBLEE_FINISH,
    PLAYERS,
    THREE_PLAY,
    VOID,
    WORKED,
    add_hand,
    create_match,
)
from pdf_support import pdf_text  # noqa: E402

from ledger.engine import PROFILES  # noqa: E402
from ledger.engine.rules import CHOICES, SETTING_HELP  # noqa: E402

#: What may stay in Latin letters on a Nepali page: names, card and setting codes,
#: abbreviations and typed examples (what a player types into a field).
ALLOWED = [
    *PLAYERS,
    "Tihar",  # the match's name
    "JK",
    "TS",  # card codes in the hint "8H, 10♥, TS, JK"
    "PDF",
    "QR",
]
#: What the engine calls settings, profiles and choices: never on a Nepali page or PDF,
#: whether in a sentence, beside a name or as a value (issue 26).
ENGINE_IDS = sorted(
    {*SETTING_HELP, *PROFILES, *(c for values in CHOICES.values() for c in values)}
    - {"left", "right", "off", "best"},  # English words the English check already finds
    key=len,
    reverse=True,
)
_ENGINE_ID = re.compile(r"(?<![\w-])(" + "|".join(map(re.escape, ENGINE_IDS)) + r")(?![\w-])")


def engine_ids_in(text: str) -> list[str]:
    return sorted(set(_ENGINE_ID.findall(text)))


#: ISO 4217 codes (the stake's currency list: "NPR · नेपाली रूपैयाँ"), as written: in
#: capitals (so that a stray "all" or "top" still counts as English).
CURRENCY_CODES = re.compile(r"\b(?:" + "|".join(sorted(list_currencies())) + r")\b")
#: What programs read, not people: addresses and paths, file names, an HTTP request (the
#: summary's last lines and the import form name them).
MACHINE_TEXT = re.compile(r"\S*/\S*|\S+\.json\b|\bPOST\b|\bContent-Type\b")
#: English words of the interface: none may be left on a Nepali page or PDF.
ENGLISH_UI = [
    "Hand",
    "hand",
    "Player",
    "Total",
    "Maal",
    "maal",
    "Seen",
    "unseen",
    "finished",
    "Settle",
    "Settlement",
    "pays",
    "Fee",
    "Net",
    "House rules",
    "Dealer",
    "Standings",
    "Marriage",
    "Tiplu",
    "Dispute checker",
    "Save",
    "Copy",
    "Share",
    "page",
]


def assert_nepali(text: str, *nepali: str) -> None:
    assert engine_ids_in(text) == [], "an id left on a Nepali page"
    left = english_words(CURRENCY_CODES.sub("", MACHINE_TEXT.sub(" ", text)), ALLOWED)
    assert not left, f"English left on a Nepali page: {sorted(left)}"
    for word in ENGLISH_UI:
        assert not re.search(rf"\b{word}\b", text), word
    for word in nepali:
        assert word in text, word


def form_of(hand: dict, players=PLAYERS, profile="sparkai") -> dict:
    from match_pages_support import hand_form

    data = hand_form(hand, players)
    for i, name in enumerate(players):
        data[f"players-{i}-name"] = name
    return {**data, "rules-profile": profile}


# --- the dispute checker ---------------------------------------------------------------


def test_the_checker_in_nepali(client):
    page = client.get("/check", headers=NE).get_data(as_text=True)
    assert '<html lang="ne">' in page
    assert_nepali(visible_text(page), "हिसाब जाँच", "खेलाडी १", "सिन?", "अनसिन", "टिप्लु")


def test_a_hand_settled_in_nepali(client):
    data = form_of(WORKED, profile="sparkai")
    data["rules-unseen_maal"] = "kidnap"
    response = client.post("/check", data=data, headers=NE)
    assert response.status_code == 200
    text = visible_text(response.get_data(as_text=True))
    assert_nepali(
        text,
        "हिसाब",
        "नतिजा",
        "हारजित",
        "कसले कसलाई तिर्ने",
        "Bikash ले Asha लाई तिर्छ",
        "किड्न्याप",
        "शुल्क",
        "गेम गर्‍यो",
    )
    assert "+६५" in text and "\u2212३३" in text  # Asha's and Dipa's nets


def test_a_dublee_finish_and_a_void_hand_in_nepali(client):
    for hand, words in (
        (DUBLEE_FINISH, ["गेम गर्‍यो (डब्लीले)", "डब्ली गेमको बोनस"]),
        (VOID, ["गेम नभएको बाजी", "कसैले गेम गरेन"]),
    ):
        response = client.post("/check", data=form_of(hand), headers=NE)
        assert response.status_code == 200, hand
        assert_nepali(visible_text(response.get_data(as_text=True)), *words)


# --- a match -----------------------------------------------------------------------------


@pytest.fixture
def nepali_match(client):
    """A match entered through the pages by a Nepali reader: five hands (a sit-out)."""
    client.set_cookie("lang", "ne")
    url = create_match(client, **{"rules-unseen_maal": "kidnap", "rules-foul": "next_hand"})
    for hand in (WORKED, BY_CARDS, DUBLEE_FINISH, VOID, THREE_PLAY):
        add_hand(client, url, hand)
    return url


def test_the_new_match_page_in_nepali(client):
    client.set_cookie("lang", "ne")
    page = client.get("/matches/new").get_data(as_text=True)
    assert_nepali(visible_text(page), "नयाँ म्याच", "सिट १", "पहिले बाँड्छ", "म्याच सुरु गर्नुहोस्")
    # (A match may be left unnamed now: it is refused here for having no players.)
    refused = client.post("/matches/new", data={"name": "", "rules-profile": "sparkai"})
    assert refused.status_code == 422
    assert_nepali(visible_text(refused.get_data(as_text=True)), "एउटा म्याचमा")


def test_the_match_page_in_nepali(client, nepali_match):
    page = client.get(nepali_match).get_data(as_text=True)
    assert '<html lang="ne">' in page
    text = visible_text(page)
    assert_nepali(
        text,
        "अङ्कतालिका",
        "बाजीपिच्छे",
        "८ मध्ये ५ बाजी खेलियो।",
        "अगाडि",
        "बाहिर",
        "बाजी ६ हाल्नुहोस्",
        "बाजी ५ सेभ भयो।",  # the flash
    )
    assert 'data-total="89">+८९</td>' in page  # Asha's total, the engine's number kept


def test_a_hand_page_and_the_hand_form_in_nepali(client, nepali_match):
    hand = client.get(f"{nepali_match}/hands/2").get_data(as_text=True)
    assert_nepali(visible_text(hand), "बाजी २", "Bikash ले बाँड्यो", "इतिहास")
    form = client.get(f"{nepali_match}/hands/new").get_data(as_text=True)
    assert_nepali(visible_text(form), "बाजी ६", "बाँड्ने", "यो बाजी खेल्छ", "बाजी ६ सेभ गर्नुहोस्")
    delete = client.get(f"{nepali_match}/hands/3/delete").get_data(as_text=True)
    assert_nepali(visible_text(delete), "बाजी ३ मेटाउने?", "नमेटाउनुहोस्")


def test_a_refused_hand_says_why_in_nepali(client, nepali_match):
    """The service's and the engine's problems on the match's hand form, in Nepali."""
    response = client.post(
        f"{nepali_match}/hands/new",
        data={
            "players-0-plays": "y",
            "players-0-seen": "unseen",
            "players-0-maal_mode": "counts",
            "players-1-plays": "y",
            "players-1-seen": "sequences",
            "players-1-maal_mode": "counts",
            "finish": "sequences",
            "winner": "0",
        },
    )
    assert response.status_code == 422
    text = visible_text(response.get_data(as_text=True))
    assert_nepali(text, "Asha सिन नै भएको थिएन, त्यसैले गेम गरेको हुन सक्दैन।")


def test_a_read_only_visitor_is_told_in_nepali(app, nepali_match):
    visitor = app.test_client()
    page = visitor.get(f"{nepali_match}/hands/new", headers=NE)
    assert page.status_code == 403
    assert_nepali(visible_text(page.get_data(as_text=True)), "अनुमति छैन", "हेर्न मात्र सक्छ")


# --- the PDFs ---------------------------------------------------------------------------


def skeleton(text: str) -> str:
    """Devanagari without its vowel signs, viramas and spaces: what survives pypdf's text
    extraction, which moves or splits the vowel signs of shaped Devanagari (the words
    looked for have no reph, र्, which it moves too)."""
    return re.sub("[\u0900-\u0903\u093a-\u094f\u0955-\u0957\u0962\u0963\\s]", "", text)


def assert_nepali_pdf(text: str, *nepali: str) -> None:
    assert engine_ids_in(text) == [], "an id left in a Nepali PDF"
    left = english_words(MACHINE_TEXT.sub(" ", text), ALLOWED)
    assert not left, f"English left in a Nepali PDF: {sorted(left)}"
    bare = skeleton(text)
    for word in nepali:
        assert skeleton(word) in bare, word


@pytest.mark.slow  # seconds: lays out PDFs or runs many requests
def test_the_summary_pdf_in_nepali(client, nepali_match):
    lines = pdf_text(client.get(f"{nepali_match}/summary.pdf").data)
    assert_nepali_pdf(lines, "म्याचको सारांश", "हरेक बाजी", "टिप्लु", "हारजित", "खेलका शब्द")
    response = client.get(f"{nepali_match}/summary.pdf?hands=full")  # with the appendix
    assert response.mimetype == "application/pdf"
    text = pdf_text(response.data)
    assert_nepali_pdf(
        text,
        "म्याचको सारांश",
        "अङ्कतालिका",
        "खेलका नियम",
        "हरेक बाजी",
        "परिशिष्ट: हरेक बाजीको हिसाब",
        "कसले कसलाई",
        "खेलका शब्द",
        "पृष्ठ",
    )
    assert "८९" in text  # Asha's total, in Devanagari digits
    assert re.search("पृष्ठ १ / [२-९]", text) or "पृष्ठ" in skeleton(text)
    # the same summary in Western digits, by the reader's choice
    client.set_cookie("digits", "latn")
    western = pdf_text(client.get(f"{nepali_match}/summary.pdf?hands=full").data)
    assert "+89" in western and "८९" not in western


@pytest.mark.slow  # seconds: lays out PDFs or runs many requests
def test_a_hand_slip_in_nepali(client, nepali_match):
    text = pdf_text(client.get(f"{nepali_match}/hands/1/slip.pdf").data)
    assert_nepali_pdf(text, "बाजीको", "हिसाब कसरी मिल्छ", "आफ्नो माल", "हारजित", "बाँड्ने")


@pytest.mark.slow  # seconds: lays out PDFs or runs many requests
def test_the_pdfs_stay_english_for_an_english_reader(client):
    client.set_cookie("lang", "en")
    url = create_match(client)
    add_hand(client, url, WORKED)
    text = pdf_text(client.get(f"{url}/summary.pdf").data)
    assert "match summary" in text and "page 1 of" in text and "Standings" in text
    assert "अङ्कतालिका" not in text and "बाजी" not in text


# --- no engine ids (issue 26) -------------------------------------------------------------


def test_the_rules_page_and_refused_overrides_name_settings_in_nepali(client):
    client.set_cookie("lang", "ne")
    rules = visible_text(client.get("/rules").get_data(as_text=True))
    assert_nepali(rules, "खेलका नियम", "अनसिनको माल")
    refused = client.post(
        "/check",
        data={
            **form_of(WORKED),
            "rules-fee_seen": "5000",
            "rules-tiplu_copies_max": "4",
            "rules-dublees_min_players": "7",
            "rules-tunnela_alter": "1 2 3 4 5 6 7 8",
        },
    )
    assert refused.status_code == 422
    assert_nepali(visible_text(refused.get_data(as_text=True)), "“सिन शुल्क”")
    new = client.post(
        "/matches/new",
        data={
            "players-0": "Asha",
            "players-1": "Bikash",
            "rules-profile": "amarnepal",
            "rules-printed_jokers": "yes",
            "rules-printed_joker": "none",
        },
    )
    assert new.status_code == 422
    assert_nepali(visible_text(new.get_data(as_text=True)), "“छापिएको जोकर”")


@pytest.mark.slow  # seconds: lays out PDFs or runs many requests
def test_a_match_with_changed_settings_names_them_in_nepali(client, nepali_match):
    """The match's overrides (unseen maal, foul) on its page, its length page, a hand's
    history and every PDF: names, never ids; a time on the table's clock (Kathmandu's
    here), its zone named in Nepali."""
    client.application.config["TIMEZONE"] = "Asia/Kathmandu"
    edit = client.get(f"{nepali_match}/hands/1/edit").get_data(as_text=True)
    version = re.search(r'name="version"[^>]*value="(\d+)"', edit) or re.search(
        r'value="(\d+)"[^>]*name="version"', edit
    )
    from match_pages_support import hand_form

    changed = {**WORKED, "players": [dict(p) for p in WORKED["players"]]}
    changed["players"][1]["maal"] = changed["players"][1].get("maal", 0) + 1
    client.post(f"{nepali_match}/hands/1/edit", data=hand_form(changed, version=version.group(1)))
    for path in ("", "/length", "/hands/1", "/hands"):
        response = client.get(nepali_match + path)
        assert response.status_code == 200, path
        assert_nepali(visible_text(response.get_data(as_text=True)))
    for path in (
        "/summary.pdf?hands=full",
        "/settle-up.pdf",
        "/hands/1/slip.pdf",
        "/summary.pdf?paper=letter",
    ):
        response = client.get(nepali_match + path)
        assert response.mimetype == "application/pdf", path
        assert_nepali_pdf(pdf_text(response.data))
    history = visible_text(client.get(f"{nepali_match}/hands/1").get_data(as_text=True))
    history = history.replace(nepali_match.rsplit("/", 1)[-1], "")  # a random id may hold "UTC"
    assert "UTC" not in history and "(नेपाली समय)" in history
