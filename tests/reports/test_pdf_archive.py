"""The PDFs as archive copies: PDF/A-3 and tagged, in the page's language; the summary
carries the export of the version it prints and says so on its last page."""

from __future__ import annotations

import json
import re

import pytest
from flask_babel import gettext
from pdf_support import (
    attached_files,
    make_match,
    pdf_reader,
    pdf_text,
    squeezed,
    structure,
    xmp_facts,
)
from pypdf.generic import BooleanObject

from ledger import matches
from ledger.i18n import num
from ledger.pdf import render
from ledger.web.checker import encode_hand_link

NE = {"Accept-Language": "ne-NP,ne;q=0.9"}
LANGUAGES = {"en": {}, "ne": NE}
DEVANAGARI_DIGITS = "०१२३४५६७८९"
#: The chart's text alternative starts so, in each language (ledger/matches/chart.py).
CHART_ALT = {"en": "Each player's total after each hand.", "ne": "हरेक बाजीपछि हरेक खेलाडीको जम्मा।"}
TITLE = {"en": "Tihar 2026: match summary", "ne": "Tihar 2026: म्याचको सारांश"}
TWO_PLAYER_HAND = {
    "finish": "sequences",
    "winner": "Asha",
    "players": [
        {"name": "Asha", "seen": "sequences", "maal": 10},
        {"name": "Chandra", "seen": "sequences", "maal": 0},
    ],
}
EXPORTED_AT = re.compile(rb'"exported_at":\s*"[^"]*"')


@pytest.fixture
def match_id(app):
    """A match with a player sitting out in turn, an edited hand and a deleted one (so
    its export has history), one name in Devanagari."""
    with app.app_context():
        match = make_match(6, players=["Asha", "बिकाश", "Chandra", "Dipa", "Esha"])
        hands = match.hands
        second = next(h for h in hands if h.number == 2)
        matches.replace_hand(match, 2, {**second.input, "winner": None, "finish": "void"})
        matches.delete_hand(match, 4)
        return match.public_id


def catalog(data: bytes):
    return pdf_reader(data).trailer["/Root"]


def assert_archive(data: bytes, lang: str, title: str) -> None:
    """PDF/A-3 level B, tagged, in ``lang``, showing ``title`` (its HTML title) as its title."""
    assert data.startswith(b"%PDF-1.7")
    root = catalog(data)
    assert root["/MarkInfo"]["/Marked"] == BooleanObject(True)
    assert "/StructTreeRoot" in root
    assert root["/Lang"] == lang
    assert root["/ViewerPreferences"]["/DisplayDocTitle"] == BooleanObject(True)
    assert [str(i["/S"]) for i in root["/OutputIntents"]] == ["/GTS_PDFA1"]
    assert xmp_facts(data) == {"part": "3", "conformance": "B", "title": title}
    assert pdf_reader(data).metadata.title == title
    assert structure(data)[0]["type"] == "Document"


@pytest.mark.slow  # seconds: lays out PDFs or runs many requests
@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_summary_is_a_tagged_pdf_a3_in_the_page_language(client, match_id, lang):
    data = client.get(f"/matches/{match_id}/summary.pdf", headers=LANGUAGES[lang]).data
    assert_archive(data, lang, TITLE[lang])
    elements = structure(data)
    kinds = [e["type"] for e in elements]
    for kind in ("H1", "H2", "Table", "THead", "TH", "TD", "L", "LI", "Lbl", "LBody", "P"):
        assert kind in kinds, kind
    # The tables' cells are in their rows and tables, the list items in their lists.
    assert all("Table" in e["parents"] for e in elements if e["type"] in ("TH", "TD"))
    assert all(e["parents"][-1] == "L" for e in elements if e["type"] == "LI")
    # The chart is a figure whose text alternative gives every player's total.
    figures = [e for e in elements if e["type"] == "Figure"]
    assert all(f["alt"] for f in figures)
    chart = [f["alt"] for f in figures if f["alt"].startswith(CHART_ALT[lang])]
    assert len(chart) == 1
    totals = client.get(f"/api/v1/matches/{match_id}").get_json()["players"]
    for player in totals:
        assert player["name"] in chart[0]
    if lang == "ne":
        assert any(d in chart[0] for d in DEVANAGARI_DIGITS)
    else:
        for player in totals:  # with the hyphen-minus of all the PDFs' text
            total = player["total"]
            assert f"{player['name']} {'+' if total > 0 else ''}{total}" in chart[0]


@pytest.mark.slow  # seconds: lays out PDFs or runs many requests
@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_summary_carries_the_export_of_the_version_it_prints(client, match_id, lang):
    url = f"/matches/{match_id}/summary.pdf"
    before = client.get(url, headers=LANGUAGES[lang]).data
    exported = client.get(f"/api/v1/matches/{match_id}/export.json").data

    files = attached_files(before)
    assert list(files) == ["export.json"] and len(files["export.json"]) == 1
    carried = files["export.json"][0]
    # Byte for byte what the API answers, but for the moment of the export.
    assert EXPORTED_AT.sub(b"", carried) == EXPORTED_AT.sub(b"", exported)
    document = json.loads(carried)
    assert [h["number"] for h in document["hands"]] == [1, 2, 3, 5, 6]
    assert [(h["hand"], h["action"]) for h in document["history"]] == [(2, "edit"), (4, "delete")]
    # A PDF/A-3 associated file of the whole document, the data that the pages show.
    root = catalog(before)
    assert len(root["/AF"]) == 1
    spec = root["/AF"][0].get_object()
    assert spec["/F"] == "export.json" and spec["/AFRelationship"] == "/Data"
    assert spec["/EF"]["/F"].get_object()["/Subtype"] == "/application/json"

    # After another hand, a new print carries the new version; the old one keeps its own.
    with client.application.app_context():
        match = matches.get_match(match_id)
        matches.add_hand(match, TWO_PLAYER_HAND)
    after = attached_files(client.get(url, headers=LANGUAGES[lang]).data)["export.json"][0]
    assert [h["number"] for h in json.loads(after)["hands"]] == [1, 2, 3, 5, 6, 7]
    assert json.loads(after)["totals"] != document["totals"]
    printed = pdf_text(before)
    for name, total in document["totals"].items():
        shown = str(total) if total <= 0 else f"+{total}"
        if lang == "ne":
            shown = shown.translate(str.maketrans("0123456789", DEVANAGARI_DIGITS))
        if name.isascii():  # Devanagari names do not extract in order (see docs/architecture.md)
            assert f"{name} {shown}" in printed, (name, shown)


@pytest.mark.parametrize(
    ("lang", "words"),
    [
        ("en", ["This PDF carries the match's data", "Load a saved match"]),
        ("ne", ["यो PDF मा म्याचको", "नयाँ म्याच पेजमा"]),
    ],
)
@pytest.mark.slow  # seconds: lays out PDFs or runs many requests
def test_the_last_page_says_how_to_load_the_match_it_carries(client, match_id, lang, words):
    data = client.get(f"/matches/{match_id}/summary.pdf", headers=LANGUAGES[lang]).data
    pages = pdf_reader(data).pages
    last = squeezed(pages[-1].extract_text())
    for word in [*words, "export.json", "POST/api/v1/matches/import", "application/pdf"]:
        assert squeezed(word) in last, word
    assert "/matches/new#import" in last
    assert not any("export.json" in p.extract_text() for p in pages[:-1])


@pytest.mark.slow  # seconds: lays out PDFs or runs many requests
def test_the_slips_are_tagged_pdf_a3_and_carry_nothing(client, match_id):
    hand = client.get(f"/matches/{match_id}/hands/3/slip.pdf", headers=NE).data
    with client.application.test_request_context(headers=NE):
        title = gettext("%(match)s: hand %(number)s", match="Tihar 2026", number=num(3))
    assert "३" in title
    assert_archive(hand, "ne", title)
    checked = {
        "rules": "amarnepal",
        "finish": "sequences",
        "winner": "Asha",
        "players": [
            {"name": "Asha", "seen": "sequences", "maal": 5},
            {"name": "Bikash", "seen": "sequences", "maal": 2},
        ],
    }
    slip = client.get("/check/slip.pdf", query_string={"h": encode_hand_link(checked)}).data
    assert_archive(slip, "en", "Dispute checker: one hand")
    for data in (hand, slip):
        assert attached_files(data) == {}
        assert "Table" in [e["type"] for e in structure(data)]


@pytest.mark.slow  # seconds: lays out PDFs or runs many requests
def test_the_archive_fetches_nothing_but_static_files(client, match_id, fetch_log):
    assert client.get(f"/matches/{match_id}/summary.pdf").status_code == 200
    assert fetch_log
    for url in fetch_log:
        assert url.startswith(render.BASE_URL + "static/") or url.startswith("data:"), url
