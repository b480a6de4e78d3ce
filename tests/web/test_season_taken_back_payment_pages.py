"""Two phones of one table: one takes the new season back (started by mistake) while the
other marks a payment on that season's page. Nothing is recorded, and the page says why
in words, with what was typed kept, on the season that is current again."""

from __future__ import annotations

import re

from table_pages_support import create_table, edit_key


def test_a_payment_marked_in_a_season_taken_back_meanwhile_is_said_so(client, app):
    url = create_table(client)
    other_phone = app.test_client()
    assert other_phone.get(f"{url}/join/{edit_key(client, url)}").status_code == 303
    assert client.post(f"{url}/seasons", data={"name": "Tihar 2083"}).status_code == 303
    page = other_phone.get(url).get_data(as_text=True)
    mistaken = re.search(r"seasons/([\w-]+)/take-back", page).group(1)
    form = re.search(r'<form[^>]*/payments".*?</form>', page, flags=re.S).group(0)
    assert f'name="season" value="{mistaken}"' in form  # the page's season

    assert client.post(f"{url}/seasons/{mistaken}/take-back").status_code == 303
    sent = {"payer": "Bikash", "payee": "Asha", "amount": "150", "season": mistaken}
    refused = other_phone.post(f"{url}/payments", data={**sent, "payment_key": "k" * 22})
    said = refused.get_data(as_text=True)
    assert refused.status_code == 409
    assert "was taken back on another phone meanwhile, so nothing was recorded" in said
    assert "must be the id" not in said
    assert 'value="150"' in said  # what was typed is kept
    assert f'name="season" value="{mistaken}"' not in said  # sent again, it goes through
    payments = client.get(f"/api/v1{url}/payments?season=all").get_json()
    assert payments["payments"] == []

    other_phone.set_cookie("lang", "ne")
    again = other_phone.post(f"{url}/payments", data={**sent, "payment_key": "m" * 22})
    assert "अर्को फोनमा फिर्ता लिइयो" in again.get_data(as_text=True)
