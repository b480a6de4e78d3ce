"""The season PDF prints a payment in the currency it was handed over in, after the
table has dropped its stake as before."""

from __future__ import annotations

import pytest
from pdf_support import pdf_text, squeezed


def _paid_table(client) -> tuple[dict, str, dict]:
    """A table staked in NPR where Bikash paid Asha NPR 5.50: the table's answer, its
    API address and its key's header."""
    body = {
        "name": "Friday table",
        "players": ["Asha", "Bikash", "Chandra"],
        "stake": {"per_point": "1.00", "currency": "NPR"},
    }
    made = client.post("/api/v1/tables", json=body).get_json()
    url, auth = f"/api/v1/tables/{made['id']}", {"Authorization": f"Bearer {made['edit_key']}"}
    paid = {"from": "Bikash", "to": "Asha", "amount": "5.50"}
    assert client.post(f"{url}/payments", json=paid, headers=auth).status_code == 201
    return made, url, auth


@pytest.mark.slow  # seconds: lays out a PDF
def test_the_season_pdf_prints_a_payment_in_its_currency_after_the_stake_is_dropped(client):
    made, url, auth = _paid_table(client)
    assert client.patch(url, json={"stake": None}, headers=auth).status_code == 200
    text = squeezed(pdf_text(client.get(f"/tables/{made['id']}/season.pdf").data))
    assert squeezed("Bikash paid Asha NPR") in text and "5.50" in text
    assert "¤" not in text


@pytest.mark.slow  # seconds: lays out a PDF
def test_a_payment_in_another_currency_says_it_is_left_out(client):
    """The table dropped its stake and set one again in US$: an NPR payment printed
    beside balances in US$ says it is left out of them, as its nights are; a table
    whose payments are all in its currency has no such line (nor one whose currency was
    put right: its payments moved with it)."""
    made, url, auth = _paid_table(client)
    note = squeezed("is left out of these balances")

    def shown() -> tuple[str, str]:
        pdf = squeezed(pdf_text(client.get(f"/tables/{made['id']}/season.pdf").data))
        return pdf, squeezed(client.get(f"/tables/{made['id']}").get_data(as_text=True))

    assert all(note not in text for text in shown())
    put_right = {"stake": {"per_point": "1.00", "currency": "INR"}}
    assert client.patch(url, json=put_right, headers=auth).status_code == 200
    assert all(note not in text for text in shown())
    assert client.patch(url, json={"stake": None}, headers=auth).status_code == 200
    moved = {"stake": {"per_point": "1.00", "currency": "USD"}}
    assert client.patch(url, json=moved, headers=auth).status_code == 200
    pdf, page = shown()
    assert squeezed("Bikash paid Asha ₹") in pdf and note in pdf
    assert note in page
