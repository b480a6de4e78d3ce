"""A points table that falls on the pages (docs/rules.md §9): the new-match form and
the What if…? picker re-show the form with a clear message beside the setting, in
English and in Nepali; a match kept with such a table from before shows its hands and
refuses a new one with a message, never a 500."""

from __future__ import annotations

import re

from match_pages_support import WORKED, add_hand, create_match, hand_form, new_match_form

from ledger.extensions import db
from ledger.matches.models import Match

FALLING = {"rules-poplu": "100 / 0"}


def field_errors(html: str, field_id: str) -> list[str]:
    found = re.search(
        rf'<ul class="field-errors" id="{re.escape(field_id)}-errors">(.*?)</ul>', html, re.S
    )
    return re.findall(r"<li>(.*?)</li>", found.group(1)) if found else []


def test_the_new_match_form_refuses_a_falling_table_beside_it(client):
    response = client.post("/matches/new", data=new_match_form(**FALLING))
    assert response.status_code == 422
    (message,) = field_errors(response.get_data(as_text=True), "rules-poplu")
    assert "must not fall" in message and "less than 100" in message
    client.get("/lang/ne")
    response = client.post("/matches/new", data=new_match_form(**FALLING))
    (message,) = field_errors(response.get_data(as_text=True), "rules-poplu")
    assert "घट्नु हुँदैन" in message and "१००" in message
    assert "poplu" not in message and "100" not in message  # no id, no Western digits


def test_the_what_if_picker_refuses_a_falling_table(client):
    url = create_match(client)
    response = client.get(f"{url}/what-if", query_string={"rules-profile": "sparkai", **FALLING})
    assert response.status_code == 422
    assert field_errors(response.get_data(as_text=True), "rules-poplu")


def test_a_match_kept_with_a_falling_table_shows_its_hands_and_refuses_a_new_one(app, client):
    url = create_match(client)
    add_hand(client, url, WORKED)
    public_id = url.rsplit("/", 1)[-1]
    with app.app_context():  # kept from before docs/rules.md §9 refused such a table
        row = db.session.scalar(db.select(Match).where(Match.public_id == public_id))
        row.rules = {"profile": "sparkai", "overrides": {"poplu": [100, 0]}}
        db.session.commit()
    assert client.get(url).status_code == 200
    assert (
        client.get(f"{url}/what-if", query_string={"rules-profile": "classic"}).status_code == 200
    )
    response = client.post(f"{url}/hands/new", data=hand_form(WORKED))
    assert response.status_code == 422
    assert "must not fall" in response.get_data(as_text=True)
