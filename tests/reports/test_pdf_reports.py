"""The printable summaries: /matches/<id>/summary.pdf, the hand slips, the checker's slip."""

from __future__ import annotations

import re
import shutil
import subprocess
from html import unescape
from pathlib import Path

import pytest
from api_hands import play
from pdf_support import (
    api_created_match,
    font_names,
    inline_pdf,
    letters,
    make_match,
    overflowing_boxes,
    page_sizes,
    pdf_reader,
    pdf_text,
    squeezed,
    vendored_characters,
)

from ledger.matches.share_link import encode_hand_link
from ledger.pdf import printer
from ledger.pdf import render as reports
from ledger.pdf.routes import maal_item_text

A4 = (595, 842)
LETTER = (612, 792)
VENDORED_FONTS = {
    "Noto-Sans",
    "Noto-Sans-Bold",
    "Noto-Sans-Devanagari",
    "Noto-Sans-Devanagari-Bold",
    "Noto-Sans-Symbols-2",
    "Noto-Sans-Symbols-2-Bold",
    "Noto-Sans-Math",
    "Noto-Sans-Math-Bold",
}
NEPALI_WORDS = ("माल", "टिप्लु", "म्यारिज")


def api_match(client, players=("Asha", "Bikash", "Chandra", "Dipa"), rules="amarnepal", hands=()):
    """A match made through the JSON API, as the acceptance checks make it; as the API
    reads it back."""
    body = {"name": "Tihar 2026", "players": list(players), "rules": rules, "length": None}
    match = api_created_match(client, body, hands)
    return client.get(f"/api/v1/matches/{match['id']}").get_json()


def counted(winner, **players):
    """A hand by maal counts: ``players`` maps name -> (seen, maal)."""
    return {
        "finish": "sequences",
        "winner": winner,
        "players": [{"name": n, "seen": s, "maal": m} for n, (s, m) in players.items()],
    }


FOUR_HANDS = [
    counted(
        "Asha",
        Asha=("sequences", 10),
        Bikash=("sequences", 5),
        Chandra=("sequences", 0),
        Dipa=("unseen", 8),
    ),
    counted("Bikash", Asha=("unseen", 0), Bikash=("sequences", 3), Chandra=("sequences", 12)),
    {
        "tiplu": "8H",
        "finish": "sequences",
        "winner": "Chandra",
        "players": [
            {"name": "Asha", "seen": "sequences", "maal_cards": ["7H", "8H", "9H", "8D"]},
            {"name": "Bikash", "seen": "dublees", "maal_counts": {"poplu": 1}},
            {"name": "Chandra", "seen": "sequences", "maal": 4},
            {"name": "Dipa", "seen": "unseen", "maal": 0},
        ],
    },
    {
        "finish": "void",
        "players": [
            {"name": "Asha", "seen": "sequences", "maal": 3},
            {"name": "Dipa", "seen": "sequences", "maal": 0},
        ],
    },
]


MINUS = "\u2212"


def total_text(total: int) -> str:
    """A total as the PDF writes it (and as a program reading the text looks for it)."""
    return f"+{total}" if total > 0 else str(total)


# --- the summary ------------------------------------------------------------------------


@pytest.mark.slow  # seconds: lays out PDFs or runs many requests
def test_the_summary_of_a_match_made_through_the_api(client):
    match = api_match(client, hands=FOUR_HANDS)
    response = client.get(f"/matches/{match['id']}/summary.pdf")
    text = pdf_text(inline_pdf(response, "tihar-2026-summary.pdf"))
    assert "Tihar 2026" in text
    assert "Amar Nepal" in text and "amarnepal" in text
    assert len([p for p in match["players"] if p["total"]]) >= 3
    standings = text[text.index("Standings") :]
    for player in match["players"]:
        assert player["name"] in standings
        # A program reading the text finds each total as Python writes it: -18, 41.
        assert str(player["total"]) in standings
        assert re.search(
            rf"{re.escape(player['name'])} {re.escape(total_text(player['total']))}\b", standings
        ), (player, standings[:600])
    for word in ("Every hand", "Who pays whom", "void", "Sat out: Dipa."):
        assert word in text
    assert "Appendix" not in text  # every settlement in full: ?hands=full
    assert f"/matches/{match['id']}/summary.pdf?hands=full" in squeezed(text)
    assert "page 1 of" in text


@pytest.mark.slow  # seconds: lays out PDFs or runs many requests
def test_the_summary_lists_every_hand_in_a_few_lines(client):
    """Each hand: dealer, tiplu, finish, and each player's seen, maal and net."""
    match = api_match(client, hands=FOUR_HANDS)
    text = pdf_text(client.get(f"/matches/{match['id']}/summary.pdf").data)
    lines = " ".join(text[text.index("Every hand") : text.index("Words of the game")].split())
    for hand in match["hands"]:
        start = lines.index(f"Hand {hand['number']} · dealt by {hand['dealer']}")
        line = lines[start : lines.find("Hand ", start + 5) % (len(lines) + 1)]
        for player in hand["players"]:
            seen = {"sequences": "seen", "dublees": "seen by dublees", "unseen": "unseen"}
            status = [seen[player["seen"]]] + ["finished"] * (player["name"] == hand["winner"])
            assert (
                f"{player['name']} ({', '.join(status)}): maal {player['maal']}, "
                f"net {total_text(player['net'])}"
            ) in line, (player, line)
    assert "tiplu 8♥ · Chandra finished by sequences." in lines
    assert "Sat out: Dipa." in lines  # hand 2
    assert "void: nobody finished." in lines and "Sat out: Bikash, Chandra." in lines


@pytest.mark.slow  # seconds: lays out PDFs or runs many requests
def test_the_full_summary_has_the_table_and_every_settlement(client):
    rules = {"profile": "sparkai", "unseen_maal": "kidnap", "fee_unseen": 12}
    match = api_match(client, rules=rules, hands=FOUR_HANDS)
    text = pdf_text(client.get(f"/matches/{match['id']}/summary.pdf?hands=full").data)
    assert "Sparkai" in text
    rules_part = text[text.index("House rules") :]
    assert re.search(r"unseen maal \(changed\)\s+kidnap\s+murder", rules_part)
    assert re.search(r"fee unseen \(changed\)\s+12\s+10", rules_part)
    table = text[text.index("Every hand") : text.index("Words of the game")]
    # Hand 2: Dipa sat out; hand 4 was void, Bikash and Chandra out.
    assert re.search(r"\n2 [^\n]*Bikash", table)
    assert table.count("out") >= 3
    assert "void: nobody finished" in table
    assert "Appendix" in text and "sat the hand out" in text
    for hand in match["hands"]:
        assert f"Hand {hand['number']}" in text  # the appendix
    appendix = text[text.index("Appendix") :]
    assert "n × E - T" in appendix and "Who pays whom" in appendix


@pytest.mark.slow  # seconds: lays out PDFs or runs many requests
def test_an_empty_match_prints_too(client):
    match = api_match(client)
    for query in ("", "?hands=full"):
        response = client.get(f"/matches/{match['id']}/summary.pdf{query}")
        assert response.status_code == 200
        text = pdf_text(response.data)
        assert "No hands have been played yet" in text
        assert "Appendix" not in text


@pytest.mark.slow  # seconds: lays out PDFs or runs many requests
def test_a_hundred_hand_match_renders(app, client):
    with app.app_context():
        match = make_match(100, players=["Asha", "Bikash", "Chandra", "Dipa", "Esha"])
        public_id = match.public_id
    response = client.get(f"/matches/{public_id}/summary.pdf")
    assert response.status_code == 200
    data = response.data
    reader_text = pdf_text(data)
    lines = " ".join(reader_text.split())
    for number in range(1, 101):
        assert f"Hand {number} · dealt by " in lines
    standings = reader_text[reader_text.index("Standings") :]
    view = client.get(f"/api/v1/matches/{public_id}").get_json()
    assert len(view["hands"]) == 100
    for player in view["players"]:
        assert f"{player['name']} {total_text(player['total'])}" in standings
    pages = re.findall(r"page (\d+) of (\d+)", reader_text)
    assert len(pages) >= 5 and {last for _, last in pages} == {str(len(pages))}


@pytest.mark.slow  # seconds: lays out PDFs or runs many requests
def test_a_points_race_and_a_finished_match(client):
    response = client.post(
        "/api/v1/matches",
        json={
            "name": "Race",
            "players": ["Asha", "Bikash", "Chandra"],
            "rules": "gamerules",
            "length": {"hands": 2},
        },
    )
    match = response.get_json()
    maal = {"Asha": ("sequences", 5), "Bikash": ("sequences", 7), "Chandra": ("unseen", 2)}
    hands = [counted(winner, **maal) for winner in ("Asha", "Bikash")]
    play(client, match["id"], match["edit_key"], hands)
    view = client.get(f"/api/v1/matches/{match['id']}").get_json()
    assert view["finished"]
    text = pdf_text(client.get(f"/matches/{match['id']}/summary.pdf").data)
    assert "Final standings" in text and "Finished: 2 of 2 hands played" in text
    assert "a points race" in text and "their maal and their points" in text
    assert "Asha (seen, finished): maal 5, points " in " ".join(text.split())
    # Its words say what a hand's points are: it has no nets nor fees (pdf18).
    assert "fees included" not in text
    assert "Points: what a player scored in a hand: their own maal" in " ".join(text.split())
    for player in view["players"]:
        assert f"{player['name']} {total_text(player['total'])}" in text
    full = pdf_text(client.get(f"/matches/{match['id']}/summary.pdf?hands=full").data)
    assert "A points race: nobody pays." in full
    assert "n × E - T" not in full.split("Appendix")[1]


# --- fonts: Nepali words and symbols, never a box ------------------------------------


@pytest.mark.slow  # seconds: lays out PDFs or runs many requests
def test_devanagari_is_set_in_the_vendored_font(client):
    players = ["Asha", "राम", "सीता", "Dipa"]
    hand = counted(
        "राम", Asha=("sequences", 4), **{"राम": ("sequences", 9)}, **{"सीता": ("unseen", 3)}
    )
    match = api_match(client, players=players, hands=[hand])
    data = client.get(f"/matches/{match['id']}/summary.pdf").data
    fonts = font_names(data)
    assert "Noto-Sans-Devanagari" in fonts
    assert {f.replace("-", "").rstrip(",") for f in fonts} >= {"NotoSans", "NotoSansDevanagari"}
    text = pdf_text(data)
    for word in NEPALI_WORDS:
        assert word in text
    assert "Maal (माल)" in text


@pytest.mark.slow  # seconds: lays out PDFs or runs many requests
def test_every_glyph_comes_from_the_vendored_fonts(client):
    """No character falls back to a system font (or to a box): every font in the PDF is
    one of ours, and our fonts cover every character of the text."""
    players = ["Asha", "राम", "Zoë", "Dipa"]
    hands = [
        {
            "tiplu": "8H",
            "finish": "sequences",
            "winner": "Asha",
            "players": [
                {"name": "Asha", "seen": "sequences", "maal_cards": ["7H", "8H", "9H", "8D"]},
                {"name": "राम", "seen": "sequences", "maal_cards": ["9H"]},
                {"name": "Zoë", "seen": "unseen", "maal_cards": ["7H"]},
                {"name": "Dipa", "seen": "sequences", "maal": 0},
            ],
        }
    ]
    match = api_match(client, players=players, hands=hands)
    covered = vendored_characters()
    for url in (
        f"/matches/{match['id']}/summary.pdf?hands=full",  # the cards of every maal
        f"/matches/{match['id']}/hands/1/slip.pdf",
    ):
        data = client.get(url).data
        stray = {f.rstrip(",") for f in font_names(data)} - VENDORED_FONTS
        assert not stray, f"{url} uses fonts that are not vendored: {stray}"
        text = pdf_text(data)
        assert "♥" in text and "♦" in text
        missing = {c for c in text if not c.isspace() and ord(c) not in covered}
        assert not missing, f"{url}: no vendored glyph for {missing}"


# --- hostile names -------------------------------------------------------------------


HOSTILE = [
    "<img src=http://example.com/x>",
    "</table></body>",
    "W" * 40,
    "Bishnu Prasad Koirala Sharma Upadhyaya K",
    '"><link rel=stylesheet href=//x.io>',
    "url(http://example.com/f)",
]


@pytest.mark.slow  # seconds: lays out PDFs or runs many requests
def test_names_full_of_html_and_long_names_neither_break_nor_fetch(app, client, fetch_log):
    hands = [
        counted(
            HOSTILE[0],
            **{
                HOSTILE[0]: ("sequences", 10),
                HOSTILE[1]: ("sequences", 3),
                HOSTILE[2]: ("unseen", 5),
                HOSTILE[3]: ("sequences", 0),
            },
        ),
        counted(
            HOSTILE[2],
            **{
                HOSTILE[2]: ("sequences", 7),
                HOSTILE[4]: ("sequences", 12),
                HOSTILE[5]: ("unseen", 2),
            },
        ),
    ]
    response = client.post(
        "/api/v1/matches",
        json={
            "name": "<script>alert(1)</script> " + "M" * 50,
            "players": HOSTILE,
            "rules": "amarnepal",
            "length": None,
        },
    )
    assert response.status_code == 201
    match = response.get_json()
    play(client, match["id"], match["edit_key"], hands)
    for url, filename in (
        (
            f"/matches/{match['id']}/summary.pdf",
            "script-alert-1-script-mmmmmmmmmmmmmmmmmm-summary.pdf",
        ),
        (
            f"/matches/{match['id']}/hands/1/slip.pdf",
            "script-alert-1-script-mmmmmmmmmmmmmmmmmm-hand-1.pdf",
        ),
    ):
        response = client.get(url)
        assert response.status_code == 200
        assert response.headers["Content-Disposition"] == f'inline; filename="{filename}"'
        text = squeezed(pdf_text(response.data))
        names = HOSTILE if "summary" in url else HOSTILE[:4]
        for name in names:
            assert squeezed(name) in text, name
    assert fetch_log, "the fetcher was never asked for the fonts and stylesheets"
    static = reports.BASE_URL + "static/"
    assert all(url.startswith(static) for url in fetch_log), fetch_log
    assert not [url for url in fetch_log if "example.com" in url or "x.io" in url]


@pytest.mark.slow  # seconds: lays out PDFs or runs many requests
def test_long_names_stay_inside_the_page(app, client, monkeypatch):
    players = [f"{chr(65 + i)}" + "x" * 39 for i in range(10)]
    seated = players[:5]
    hand = counted(seated[0], **{name: ("sequences", i * 3) for i, name in enumerate(seated)})
    match = api_match(client, players=players, hands=[hand, hand])
    pages = {}
    make = printer.render_job

    def keep(job):
        pages[job.paper, len(pages)] = job.html
        return make(job)

    monkeypatch.setattr(printer, "render_job", keep)
    for paper in ("a4", "letter"):
        for hands in ("lines", "full"):
            url = f"/matches/{match['id']}/summary.pdf?paper={paper}&hands={hands}"
            assert client.get(url).status_code == 200
    assert len(pages) == 4
    for (paper, _), html in pages.items():
        with app.test_request_context():
            document = reports.render_document(html, paper)
        assert not overflowing_boxes(document), overflowing_boxes(document)[:5]


# --- paper, slips, errors --------------------------------------------------------------


@pytest.mark.slow  # seconds: lays out PDFs or runs many requests
def test_a4_by_default_us_letter_by_choice(client):
    match = api_match(client, hands=FOUR_HANDS[:2])
    base = f"/matches/{match['id']}"
    assert page_sizes(client.get(f"{base}/summary.pdf").data) == {A4}
    assert page_sizes(client.get(f"{base}/summary.pdf?paper=letter").data) == {LETTER}
    assert page_sizes(client.get(f"{base}/summary.pdf?paper=Letter").data) == {LETTER}
    assert page_sizes(client.get(f"{base}/summary.pdf?paper=tabloid").data) == {A4}
    assert page_sizes(client.get(f"{base}/hands/1/slip.pdf?paper=letter").data) == {LETTER}


@pytest.mark.slow  # seconds: lays out PDFs or runs many requests
def test_the_slip_of_a_hand_shows_every_step(client):
    match = api_match(client, hands=FOUR_HANDS)
    response = client.get(f"/matches/{match['id']}/hands/3/slip.pdf")
    text = pdf_text(inline_pdf(response, "tihar-2026-hand-3.pdf"))
    assert "Tihar 2026: hand 3" in text
    hand = match["hands"][2]
    for player in hand["players"]:
        assert player["name"] in text
    for step in ("Who pays whom", "How it adds up", "n × E", "Own maal", "Marriage", "Fee"):
        assert step in text, step
    assert "Chandra pays" in text or "pays Chandra" in text
    for word in NEPALI_WORDS:
        assert word in text


@pytest.mark.parametrize(
    "url",
    [
        "/matches/no-such-match/summary.pdf",
        "/matches/no-such-match/hands/1/slip.pdf",
        "/matches/{id}/hands/99/slip.pdf",
        "/matches/{id}/hands/0/slip.pdf",
        "/matches/{id}/hands/x/slip.pdf",
        "/matches/" + "x" * 300 + "/summary.pdf",
    ],
)
def test_unknown_matches_and_hands_answer_the_404_page(client, url):
    match = api_match(client, hands=FOUR_HANDS[:1])
    response = client.get(url.format(id=match["id"]))
    assert response.status_code == 404
    assert response.mimetype == "text/html"
    assert b"<h1>" in response.data


# --- the dispute checker's slip -----------------------------------------------------------


CHECKED = {
    "rules": {"profile": "amarnepal", "unseen_maal": "kidnap"},
    "tiplu": "8H",
    "finish": "sequences",
    "winner": "Asha",
    "players": [
        {"name": "Asha", "seen": "sequences", "maal_cards": ["7H", "8H", "9H", "8D"]},
        {"name": "Bikash", "seen": "dublees", "maal_counts": {"tiplu": 1}},
        {"name": "Chandra", "seen": "unseen", "maal": 8},
        {"name": "Dipa", "seen": "sequences", "maal": 0},
    ],
}


@pytest.mark.slow  # seconds: lays out PDFs or runs many requests
def test_the_checker_slip_of_a_shared_hand(client):
    expected = client.post("/api/v1/settle", json=CHECKED).get_json()
    response = client.get("/check/slip.pdf", query_string={"h": encode_hand_link(CHECKED)})
    text = pdf_text(inline_pdf(response, "hand-slip.pdf"))
    assert "One hand, settled step by step" in text
    for player in expected["players"]:
        assert player["name"] in text
        assert total_text(player["net"]) in text
    for pay in expected["payments"]:
        assert f"{pay['from']} pays {pay['to']}" in text
    assert "kidnap" in text  # the override


def _legible(text: str) -> str:
    """What pypdf reads reliably of a line: its Latin letters, its digits (either
    script) and signs, "−" read as "-" (not the Devanagari letters, which it reorders)."""
    return re.sub(r"[^A-Za-z0-9\u0966-\u096f=+()×-]", "", text.replace(MINUS, "-"))


#: A hand in which the finisher pays Dipa: her maal points net of the fee she owes.
NETTED = {
    **CHECKED,
    "players": [*CHECKED["players"][:3], {"name": "Dipa", "seen": "sequences", "maal": 30}],
}


@pytest.mark.slow  # seconds: lays out PDFs
@pytest.mark.parametrize("paper", ["a4", "letter"])
@pytest.mark.parametrize("lang", ["en", "ne"])
def test_the_checker_slip_carries_the_netting_line(client, lang, paper):
    """The slip left out the page's netting line (why the finisher pays: maal points and
    fee netted into one payment); it carries it, and still keeps to one page."""
    client.get(f"/lang/{lang}")
    h = encode_hand_link(NETTED)
    page = client.get("/check", query_string={"h": h}).get_data(as_text=True)
    line = re.search(r'<span class="pay-why">(.*?)</span>', page, re.S).group(1)
    line = unescape(re.sub(r"<[^>]+>", "", line))
    assert len(line) > 80
    response = client.get("/check/slip.pdf", query_string={"h": h, "paper": paper})
    data = inline_pdf(response, "hand-slip.pdf")
    assert _legible(line) in _legible(pdf_text(data))
    assert len(pdf_reader(data).pages) == 1


def _seat(name: str, seen: str, cards: list[str]) -> dict:
    return {"name": name, "seen": seen, "maal_cards": cards}


#: Five players, each with maal cards (the most a hand has with three packs).
FIVE_WITH_CARDS = {
    "rules": "amarnepal",
    "tiplu": "8H",
    "finish": "sequences",
    "winner": "Asha",
    "players": [
        _seat("Asha", "sequences", ["7H", "8H", "9H", "8D", "JK"]),
        _seat("Bikash", "sequences", ["7H", "9H", "8D"]),
        {**_seat("Chandra", "sequences", ["7H", "9H"]), "dealt_tunnelas": ["5S"]},
        _seat("Dipa", "unseen", ["8D", "JK"]),
        _seat("Esha", "dublees", ["JK", "8H"]),
    ],
}

#: Eight players on four packs: Gita, the sixth, is the only unseen one.
EIGHT_ON_FOUR_PACKS = {
    "rules": {"profile": "amarnepal", "packs": 4},
    "tiplu": "8H",
    "finish": "sequences",
    "winner": "Asha",
    "players": [
        _seat(name, "unseen" if name == "Gita" else "sequences", cards)
        for name, cards in [
            ("Asha", ["7H", "8H", "9H"]),
            ("Bikash", ["8D", "JK"]),
            ("Chandra", ["9H"]),
            ("Dipa", ["7H"]),
            ("Esha", ["JK"]),
            ("Gita", ["8D", "7H"]),
            ("Hari", ["9H"]),
            ("Indra", ["8H"]),
        ]
    ],
}


@pytest.mark.slow  # seconds: lays out PDFs
@pytest.mark.parametrize("paper", ["a4", "letter"])
@pytest.mark.parametrize("lang", ["en", "ne"])
def test_the_checker_slip_of_five_players_cards_is_one_page(client, lang, paper):
    """A slip of five players (two boxes a row, each maal item two lines) ran onto a
    second page, its first page half empty: the boxes moved over two rows at a time. Five
    players (or more) take three boxes a row, and a slip of five keeps to one page."""
    client.get(f"/lang/{lang}")
    h = encode_hand_link(FIVE_WITH_CARDS)
    response = client.get("/check/slip.pdf", query_string={"h": h, "paper": paper})
    data = inline_pdf(response, "hand-slip.pdf")
    assert len(pdf_reader(data).pages) == 1
    assert "Esha" in pdf_text(data)


@pytest.mark.slow  # seconds: lays out PDFs
def test_a_two_page_checker_slip_fills_its_first_page(client):
    """Eight players (four packs) take two pages: the first holds as many rows of
    players' boxes as fit (Gita's, in the second row, says she is murdered), the boxes
    are not carried over two rows at a time to leave the first page half empty."""
    h = encode_hand_link(EIGHT_ON_FOUR_PACKS)
    data = inline_pdf(client.get("/check/slip.pdf", query_string={"h": h}), "hand-slip.pdf")
    first, second = (page.extract_text() for page in pdf_reader(data).pages)
    assert "unseen: murdered" in first
    assert "Words of the game" in second


@pytest.mark.slow  # seconds: lays out PDFs
def test_the_nepali_checker_slip_ends_its_link_with_the_nepali_full_stop(client):
    """The slip's last sentence, the link back to the checker, ended with a "." written
    after the translated link: a Nepali slip read "... खोल्नुहोस्." (docs/translating.md:
    a sentence ends with the page's full stop)."""
    client.get("/lang/ne")
    response = client.get("/check/slip.pdf", query_string={"h": encode_hand_link(CHECKED)})
    text = letters(pdf_text(inline_pdf(response, "hand-slip.pdf")))
    assert letters("यो बाजी हिसाब जाँचमा खोल्नुहोस्।") in text
    assert letters("खोल्नुहोस्.") not in text


@pytest.mark.parametrize(
    "query",
    [
        {},
        {"h": ""},
        {"h": "not base64!"},
        {"h": encode_hand_link({"players": []})},
        {"h": encode_hand_link({**CHECKED, "winner": "Nobody"})},
        {"h": encode_hand_link({**CHECKED, "rules": "no-such-profile"})},
    ],
)
def test_a_broken_checker_link_answers_a_400_page(client, query):
    response = client.get("/check/slip.pdf", query_string=query)
    assert response.status_code == 400
    assert response.mimetype == "text/html"


@pytest.mark.slow  # seconds: lays out PDFs or runs many requests
def test_the_checker_offers_the_slip_of_the_hand_it_shows(client):
    h = encode_hand_link(CHECKED)
    page = client.get("/check", query_string={"h": h}).get_data(as_text=True)
    links = re.findall(r'href="(/check/slip\.pdf\?h=[^"]+)"', page)
    assert links, "the checker shows no slip link"
    response = client.get(links[0].replace("&amp;", "&"))
    assert response.status_code == 200
    assert response.mimetype == "application/pdf"


# --- the fetcher -----------------------------------------------------------------------


@pytest.mark.parametrize(
    "url",
    [
        "http://example.com/x.png",
        "https://example.com/static/css/app.css",
        "https://ledger.invalid.example.com/static/css/app.css",
        "https://user@ledger.invalid/static/css/app.css",
        "https://ledger.invalid:8443/static/css/app.css",
        "file:///etc/passwd",
        "ftp://ledger.invalid/static/css/app.css",
        "https://ledger.invalid/etc/passwd",
        "https://ledger.invalid/static/../ledger/reports.py",
        "https://ledger.invalid/static/%2e%2e/ledger/reports.py",
        "https://ledger.invalid/static/css/%2e%2e%2f%2e%2e%2fpyproject.toml",
        "https://ledger.invalid/static/css/",
        "https://ledger.invalid/static/no-such-file.css",
        "https://ledger.invalid/static/css/app.css%00.png",
    ],
)
def test_the_fetcher_refuses_anything_but_static_files(app, url):
    fetcher = reports.StaticFetcher(app.static_folder)
    with pytest.raises(reports.FetchRefused):
        fetcher.fetch(url)


def test_the_fetcher_serves_static_files_and_data_urls(app):
    fetcher = reports.StaticFetcher(app.static_folder)
    css = fetcher.fetch(reports.BASE_URL + "static/css/pdf.css")
    assert css.content_type == "text/css" and b"@page" in css.read()
    font = fetcher.fetch(reports.BASE_URL + "static/fonts/NotoSansDevanagari-Regular.ttf")
    assert font.read(4) == b"\x00\x01\x00\x00"
    data = fetcher.fetch("data:text/plain;base64,aGk=")
    assert data.read() == b"hi" and data.content_type == "text/plain"


def test_a_document_that_asks_for_the_network_gets_nothing(app, fetch_log):
    html = (
        '<html><head><link rel="stylesheet" href="http://example.com/x.css"></head><body>'
        '<img src="http://example.com/x.png"><img src="file:///etc/hostname">'
        '<p style="background: url(https://example.com/bg.png)">Hello</p></body></html>'
    )
    with app.test_request_context():
        pdf = reports.render_pdf(html)
    assert "Hello" in pdf_text(pdf)
    outside = {u for u in fetch_log if not u.startswith(reports.BASE_URL + "static/")}
    assert outside == {
        "http://example.com/x.css",
        "http://example.com/x.png",
        "file:///etc/hostname",
        "https://example.com/bg.png",
    }


def test_the_same_thread_reuses_its_stylesheets(app):
    reports.clear_cache()
    with app.test_request_context():
        first = reports.kit_for()
        reports.render_pdf("<p>one</p>")
        assert reports.kit_for() is first


# --- pictures to look at -------------------------------------------------------------------


OUTPUT = Path(__file__).resolve().parents[2] / "test-output" / "pdf"


@pytest.mark.slow
@pytest.mark.skipif(not shutil.which("pdftoppm"), reason="no pdftoppm: run `make system-deps`")
def test_render_the_pdfs_to_png_for_a_person_to_look_at(app, client):
    """Writes test-output/pdf/*.pdf and their pages as PNG (pdftoppm -r 60), to be looked
    at: a long match with hostile and long names, on A4 and Letter, and the slips."""
    players = ["Asha", "राम", HOSTILE[0], HOSTILE[1], "W" * 40, "Bishnu Prasad Koirala", "Zoë"]
    with app.app_context():
        match = make_match(
            12, players=players, name="Tihar 2026 <b>night</b> " + "N" * 40, per_hand=5
        )
        public_id = match.public_id
        long_match = make_match(100, seed=11)
    outputs = {
        "summary-a4": f"/matches/{public_id}/summary.pdf",
        "summary-letter": f"/matches/{public_id}/summary.pdf?paper=letter",
        "slip": f"/matches/{public_id}/hands/3/slip.pdf",
        "check-slip": "/check/slip.pdf?h=" + encode_hand_link(CHECKED),
        "summary-100": f"/matches/{long_match.public_id}/summary.pdf",
    }
    OUTPUT.mkdir(parents=True, exist_ok=True)
    for name, url in outputs.items():
        response = client.get(url)
        assert response.status_code == 200, url
        pdf = OUTPUT / f"{name}.pdf"
        pdf.write_bytes(response.data)
        for old in OUTPUT.glob(f"{name}-*.png"):
            old.unlink()
        subprocess.run(
            ["pdftoppm", "-r", "60", "-png", "-l", "4", str(pdf), str(OUTPUT / name)],
            check=True,
            timeout=120,
        )
        pngs = sorted(OUTPUT.glob(f"{name}-*.png"))
        assert pngs and all(p.stat().st_size > 2000 for p in pngs), name


@pytest.mark.slow  # seconds: lays out a PDF
def test_the_summary_writes_a_shared_place_as_the_page_does(client):
    """Equal totals share a place, written "१=" on the match page; the summary PDF wrote
    the place alone, so a tie read as two players first with nothing said."""
    void = {
        "finish": "void",
        "winner": None,
        "players": [{"name": "Asha", "seen": "sequences"}, {"name": "Bikash", "seen": "unseen"}],
    }
    match = api_match(client, players=("Asha", "Bikash"), hands=[void])
    client.get("/lang/ne")
    text = pdf_text(client.get(f"/matches/{match['id']}/summary.pdf").data)
    assert re.search(r"१=\s*Asha", text) and re.search(r"१=\s*Bikash", text)


def test_the_appendix_names_a_printed_joker_once(app):
    """The summary's appendix line of a printed joker read "printed joker (Joker) 15"."""
    item = {"item": "printed_joker", "count": 2, "cards": ["JK", "JK"], "points": 15}
    alter = {"item": "alter", "count": 1, "cards": ["8D"], "points": 5}
    with app.test_request_context():
        assert maal_item_text(item) == "printed joker × 2 15"
        assert maal_item_text(alter) == "alter (8♦) 5"


def test_the_appendix_says_what_is_left_of_a_number_holding_a_tunnela(app):
    """A maal given as one number with a dealt tunnela: the tunnela's bonus is an item of
    its own, and the number's item is the rest (docs/rule-choices.md), not the number."""
    rest = {"item": "entered", "count": 0, "cards": [], "points": 5, "note": "rest_of_entered"}
    whole = {"item": "entered", "count": 0, "cards": [], "points": 25}
    with app.test_request_context():
        assert maal_item_text(rest) == "the rest of the number entered 5"
        assert maal_item_text(whole) == "entered as one number 25"
