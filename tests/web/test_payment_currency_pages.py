"""A payment is shown in the currency it was handed over in: after the table drops its
stake (points only from then on) the table page and the player's own page still say
NPR 5.50, never a bare currency sign; after the table changes its currency, an old
payment keeps its own beside a new one in the new currency."""

from __future__ import annotations

import html

import pytest

NAMES = ["Asha", "Bikash", "Chandra", "Dipa"]


def _paid_table(client) -> dict:
    body = {
        "name": "Friday table",
        "players": NAMES,
        "rules": "sparkai",
        "stake": {"per_point": "1.00", "currency": "NPR"},
    }
    made = client.post("/api/v1/tables", json=body).get_json()
    table = {"id": made["id"], "auth": {"Authorization": f"Bearer {made['edit_key']}"}}
    paid = client.post(
        f"/api/v1/tables/{table['id']}/payments",
        json={"from": "Bikash", "to": "Asha", "amount": "5.50"},
        headers=table["auth"],
    )
    assert paid.status_code == 201, paid.get_json()
    return table


def _change_stake(client, table, stake) -> None:
    changed = client.patch(
        f"/api/v1/tables/{table['id']}", json={"stake": stake}, headers=table["auth"]
    )
    assert changed.status_code == 200, changed.get_json()


def _payment_lines(page: str) -> list[str]:
    """Each payment's line, its spaces (the no-break one too) made plain."""
    return [
        " ".join(html.unescape(line.split("</li>")[0]).split())
        for line in page.split('<li class="payment ')[1:]
    ]


@pytest.mark.parametrize(("lang", "amount"), [("en", "NPR 5.50"), ("ne", "रु ५.५०")])
def test_the_table_page_shows_a_payment_in_its_currency_after_the_stake_is_dropped(
    client, lang, amount
):
    table = _paid_table(client)
    _change_stake(client, table, None)
    client.set_cookie("lang", lang)
    page = client.get(f"/tables/{table['id']}").get_data(as_text=True)
    [line] = _payment_lines(page)
    assert amount in line and "¤" not in line, line


def test_the_players_own_page_shows_a_payment_in_its_currency_after_the_stake_is_dropped(
    client,
):
    table = _paid_table(client)
    link = client.post(
        f"/api/v1/tables/{table['id']}/players/Asha/link", headers=table["auth"]
    ).get_json()["url"]
    client.get(link.split("localhost", 1)[1])
    _change_stake(client, table, None)
    page = client.get(f"/me/{table['id']}").get_data(as_text=True)
    [line] = _payment_lines(page)
    assert "Bikash paid Asha NPR 5.50" in line and "¤" not in page, line
    listed = client.get("/me").get_data(as_text=True)
    assert "¤" not in listed and "points only" in listed


def test_after_a_stake_set_again_in_another_currency_each_payment_shows_its_own(client):
    table = _paid_table(client)
    _change_stake(client, table, None)
    _change_stake(client, table, {"per_point": "1.00", "currency": "INR"})
    paid = client.post(
        f"/api/v1/tables/{table['id']}/payments",
        json={"from": "Chandra", "to": "Asha", "amount": "2.00"},
        headers=table["auth"],
    )
    assert paid.status_code == 201
    lines = _payment_lines(client.get(f"/tables/{table['id']}").get_data(as_text=True))
    assert [line.split(" on ")[0].split('">')[1] for line in lines] == [
        "Bikash paid Asha NPR 5.50",
        "Chandra paid Asha ₹2.00",
    ]


def test_a_payment_whose_currency_is_not_known_shows_its_amount_alone(app, client):
    """One recorded before payments kept their currency, in a table that had dropped its
    stake by then (the migration leaves it without one): its amount, never a bare ¤."""
    from ledger.extensions import db
    from ledger.tables.models import TablePayment

    table = _paid_table(client)
    _change_stake(client, table, None)
    with app.app_context():
        db.session.execute(db.update(TablePayment).values(currency=None))
        db.session.commit()
    [line] = _payment_lines(client.get(f"/tables/{table['id']}").get_data(as_text=True))
    assert "Bikash paid Asha 5.50 on" in line and "¤" not in line, line
