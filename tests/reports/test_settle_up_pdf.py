"""Who pays whom on paper: the settle-up slip (/matches/<id>/settle-up.pdf, one page) and
the summary's "Who pays whom" section, in points and money, in English and Nepali; none
for a points race. The expected rows come from the API's settle-up and Babel's format."""

from __future__ import annotations

from decimal import Decimal

import pytest
from babel.numbers import format_currency
from pdf_support import (
    api_created_match,
    page_sizes,
    pdf_reader,
    pdf_text,
    squeezed,
)
from settle_up_support import GREEDY_HANDS, SIX

A4 = (595, 842)
LETTER = (612, 792)
NE = {"Accept-Language": "ne-NP,ne;q=0.9"}
DEVANAGARI = str.maketrans("0123456789", "०१२३४५६७८९")


def stake_match(client, stake=None, rules="sparkai", hands=GREEDY_HANDS) -> str:
    """A match of six made through the API with this stake and the hands; its id."""
    body = {"name": "Tihar 2026", "players": SIX, "rules": rules, "length": None, "stake": stake}
    return api_created_match(client, body, hands)["id"]


def money_text(amount: str, currency: str, locale: str = "en") -> str:
    """An amount as the PDF writes it: Babel's format (रु for Nepal's rupees on a Nepali
    page, where CLDR writes नेरू), the page's digits, ASCII minus."""
    value = Decimal(amount)
    text = format_currency(abs(value), currency, locale=locale, decimal_quantization=False)
    text = text.replace("नेरू", "रु")
    text = ("-" if value < 0 else "") + text
    return text.translate(DEVANAGARI) if locale == "ne" else text


def expected_rows(client, match_id: str, locale: str = "en") -> list[str]:
    """Each transfer as a row of the PDF's text, from the API's settle-up (whitespace
    squeezed out): payer, payee, points, money."""
    body = client.get(f"/api/v1/matches/{match_id}/settle-up").get_json()
    stake = body["stake"]
    digits = str.maketrans({}) if locale == "en" else DEVANAGARI
    rows = []
    for t in body["transfers"]:
        money = money_text(t["amount"], stake["currency"], locale) if stake else ""
        rows.append(squeezed(f"{t['from']} {t['to']} {str(t['points']).translate(digits)} {money}"))
    return rows


def test_the_settle_up_slip_in_english(client):
    match_id = stake_match(client, {"per_point": "0.50", "currency": "NPR"})
    response = client.get(f"/matches/{match_id}/settle-up.pdf")
    assert response.status_code == 200
    assert response.mimetype == "application/pdf"
    assert 'filename="tihar-2026-settle-up.pdf"' in response.headers["Content-Disposition"]
    assert len(pdf_reader(response.data).pages) == 1
    assert page_sizes(response.data) == {A4}
    text = pdf_text(response.data)
    flat = squeezed(text)
    assert "settle-up slip" in text and "Who pays whom" in text
    assert squeezed("Stake: NPR 0.50 a point.") in flat  # a space after the letters
    assert "Pays To Points Money Paid" in text
    rows = expected_rows(client, match_id)
    assert len(rows) == 4
    for row in rows:
        assert row in flat, row
    assert "4 payments settle the table; no fewer can." in text
    assert squeezed("Dipa -5 -NPR2.50") in flat  # a balance, in points and money


def test_the_slip_on_us_letter_and_without_a_stake(client):
    match_id = stake_match(client)
    response = client.get(f"/matches/{match_id}/settle-up.pdf?paper=letter")
    assert page_sizes(response.data) == {LETTER}
    text = pdf_text(response.data)
    assert "No stake: the payments are in points." in text
    assert "Money" not in text
    flat = squeezed(text)
    for row in expected_rows(client, match_id):
        assert row in flat, row


def test_the_settle_up_slip_in_nepali(client):
    match_id = stake_match(client, {"per_point": "0.50", "currency": "NPR"})
    response = client.get(f"/matches/{match_id}/settle-up.pdf", headers=NE)
    assert response.status_code == 200
    assert len(pdf_reader(response.data).pages) == 1
    text = pdf_text(response.data)
    flat = squeezed(text)
    assert "Stake" not in text and "Pays" not in text and "Who pays whom" not in text
    rows = expected_rows(client, match_id, "ne")
    for row in rows:
        assert row in flat, row
    assert squeezed("Dipa -५ -रु २.५०") in flat
    assert "रु ०.५०" in text.replace("\N{NO-BREAK SPACE}", " ")


@pytest.mark.parametrize(("currency", "symbol"), [("GBP", "£"), ("EUR", "€"), ("INR", "₹")])
def test_currency_symbols_are_set_in_the_vendored_fonts(client, currency, symbol):
    """The autouse fixture fails the test if any glyph is drawn as a box."""
    match_id = stake_match(client, {"per_point": "1.25", "currency": currency})
    text = pdf_text(client.get(f"/matches/{match_id}/settle-up.pdf").data)
    assert f"{symbol}1.25" in text


@pytest.mark.slow  # seconds: lays out PDFs or runs many requests
def test_the_summary_has_who_pays_whom(client):
    match_id = stake_match(client, {"per_point": "0.35", "currency": "USD"})
    for headers, locale in (({}, "en"), (NE, "ne")):
        text = pdf_text(client.get(f"/matches/{match_id}/summary.pdf", headers=headers).data)
        flat = squeezed(text)
        for row in expected_rows(client, match_id, locale):
            assert row in flat, (locale, row)
    english = pdf_text(client.get(f"/matches/{match_id}/summary.pdf").data)
    assert "Who pays whom" in english and "Stake: $0.35 a point." in english


@pytest.mark.slow  # seconds: lays out PDFs or runs many requests
def test_a_points_race_has_no_settle_up_on_paper(client):
    match_id = stake_match(client, {"per_point": "1", "currency": "NPR"}, rules="gamerules")
    response = client.get(f"/matches/{match_id}/settle-up.pdf")
    assert response.status_code == 404
    assert "points race" in response.get_data(as_text=True)
    text = pdf_text(client.get(f"/matches/{match_id}/summary.pdf").data)
    assert "Who pays whom" not in text and "Stake" not in text


def test_an_unknown_match_has_no_slip(client):
    assert client.get("/matches/nope/settle-up.pdf").status_code == 404


@pytest.mark.slow  # seconds: lays out a PDF
def test_the_balances_caption_is_one_line_without_a_stake(client):
    """Without a stake the balances table is two narrow columns, and its caption wrapped
    over two lines ("Each player's / balance") above it."""
    text = pdf_text(client.get(f"/matches/{stake_match(client)}/summary.pdf").data)
    assert "Each player's balance" in text
