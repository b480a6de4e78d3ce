"""A points table that falls on the pages (docs/rules.md §9): the new-match form and
the What if…? picker re-show the form with a clear message beside the setting, in
English and in Nepali; a match kept with such a table from before shows its hands and
refuses a new one with a message, never a 500."""

from __future__ import annotations

from match_pages_support import (
    WORKED,
    add_hand,
    create_match,
    field_errors,
    hand_form,
    new_match_form,
)

from ledger.extensions import db
from ledger.matches.models import Match

FALLING = {"rules-poplu": "100 / 0"}


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


def test_the_what_if_picker_and_the_rules_change_refuse_a_falling_table(client):
    url = create_match(client)
    response = client.get(f"{url}/what-if", query_string={"rules-profile": "sparkai", **FALLING})
    assert response.status_code == 422
    assert field_errors(response.get_data(as_text=True), "rules-poplu")
    response = client.post(f"{url}/rules", data={"rules-profile": "sparkai", **FALLING})
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


def test_a_sparkai_hand_form_takes_a_dealt_tunnela_it_never_scores(client):
    # docs/rules.md §9: kept without bonus, its cards counted: three poplus 10
    url = create_match(client)  # sparkai
    assert 'id="players-0-dealt_tunnelas"' in client.get(f"{url}/hands/new").get_data(as_text=True)
    hand = {
        "tiplu": "8H",
        "finish": "sequences",
        "winner": "Asha",
        "players": [
            {"name": "Asha", "seen": "sequences", "maal_cards": []},
            {"name": "Bikash", "seen": "sequences", "maal_cards": []},
        ],
    }
    add_hand(client, url, hand, **{"players-1-dealt_tunnelas": "9H"})
    public_id = url.rsplit("/", 1)[-1]
    stored = client.get(f"/api/v1/matches/{public_id}").get_json()["hands"][0]
    bikash = next(p for p in stored["players"] if p["name"] == "Bikash")
    assert stored["hand"]["players"][1]["dealt_tunnelas"] == ["9H"]
    assert bikash["maal"] == 10
    assert bikash["breakdown"][0]["reason"] == "kind_not_scored"
    page = client.get(f"{url}/hands/1").get_data(as_text=True)
    assert "these house rules score no dealt tunnela of this kind" in page
