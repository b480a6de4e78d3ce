"""A confirmed payment taken back counts no more but stays on the record (docs/tables.md,
"Payments that close"): the table's page and the season's PDF both list it, marked with
the day it was taken back, and leave it out of the balances; the page offers no "Take
back" for it."""

from __future__ import annotations

import re
import sys
from pathlib import Path

import pytest
from pdf_support import letters, pdf_text, squeezed

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "web"))
from api_hands import play  # noqa: E402
from table_pages_support import FOUR, ROSTER, create_table, edit_key, start_match  # noqa: E402

NE = {"Accept-Language": "ne"}


@pytest.fixture
def taken_back(client) -> tuple[str, dict]:
    """A table of four after one night: the first transfer paid, confirmed, taken back."""
    url = create_table(client)
    key = edit_key(client, url)
    auth = {"Authorization": f"Bearer {key}"}
    play(client, start_match(client, url, ROSTER), key, FOUR)
    owed = client.get(f"/api/v1{url}/settle-up").get_json()
    first = owed["transfers"][0]
    paid = client.post(
        f"/api/v1{url}/payments",
        json={"from": first["from"], "to": first["to"], "amount": first["amount"]},
        headers=auth,
    ).get_json()
    confirmed = client.post(f"/api/v1{url}/payments/{paid['id']}/confirm", headers=auth)
    assert confirmed.get_json()["state"] == "confirmed"
    assert client.delete(f"/api/v1{url}/payments/{paid['id']}", headers=auth).status_code == 204
    # Taken back: the balances are as before it was paid.
    assert client.get(f"/api/v1{url}/settle-up").get_json()["transfers"] == owed["transfers"]
    return url, first


def _paid_line(payer: str, payee: str) -> str:
    return f"{payer} paid {payee}"


def test_the_table_page_lists_it_marked_without_take_back(client, taken_back):
    url, first = taken_back
    body = client.get(url).get_data(as_text=True)
    items = re.findall(r'<li class="payment [^"]*taken-back[^"]*">(.*?)</li>', body, re.S)
    assert len(items) == 1, body
    text = " ".join(re.sub(r"<[^>]+>", " ", items[0]).split())
    assert _paid_line(first["from"], first["to"]) in text
    assert "taken back on" in text and "it no longer counts" in text
    assert "Take back" not in text
    nepali = client.get(url, headers=NE).get_data(as_text=True)
    assert "फिर्ता लिइयो" in nepali


@pytest.mark.parametrize("lang", ["en", "ne"])
def test_the_season_pdf_lists_it_as_the_page_does(client, taken_back, lang):
    url, first = taken_back
    text = squeezed(
        pdf_text(client.get(f"{url}/season.pdf", headers=NE if lang == "ne" else {}).data)
    )
    if lang == "en":
        assert squeezed(_paid_line(first["from"], first["to"])) in text
        assert squeezed("it no longer counts") in text
    else:
        # (pypdf reorders the letters of फिर्ता; the rest reads in order)
        assert letters("लिइयो: अब यो गनिँदैन") in letters(text)
