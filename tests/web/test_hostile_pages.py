"""Hostile input to the pages: refused on its field with a sentence, nothing stored,
never a 5xx (the pages and the API share the service's checks)."""

from __future__ import annotations

import base64
import json
import re

import pytest
from match_pages_support import BY_COUNTS, hand_form, new_match_form
from row_counts import rows
from sqlalchemy import select

from ledger.extensions import db
from ledger.matches.models import Hand, Match

HOSTILE = {
    "NUL": ("Tih\x00ar", "A name cannot hold control characters"),
    "escape": ("\x1b[2JTihar", "A name cannot hold control characters"),
    "right-to-left override": ("\u202eTihar", "A name cannot hold characters that turn"),
    "zero-width space": ("Ti\u200bhar", "A name cannot hold invisible characters"),
}


def field_error(html: str, field_id: str) -> str:
    found = re.search(rf'id="{field_id}-errors">\s*<li>([^<]*)', html)
    assert found, f"no error on {field_id}"
    return found.group(1)


@pytest.mark.parametrize("kind", HOSTILE)
def test_the_new_match_page_puts_the_refusal_on_the_field(app, client, kind):
    bad, sentence = HOSTILE[kind]
    response = client.post("/matches/new", data=new_match_form(name=bad))
    assert response.status_code == 422
    assert field_error(response.get_data(as_text=True), "name").startswith(sentence)
    players = ["Asha", bad.replace("Tihar", "Bikash"), "Chandra"]
    response = client.post("/matches/new", data=new_match_form(players))
    assert response.status_code == 422
    assert field_error(response.get_data(as_text=True), "players-1").startswith(sentence)
    assert rows(app, Match) == 0


@pytest.mark.parametrize("typed", ["²", "٣٣٣٣٣", "9" * 5000, "-1", "1e3"])
def test_numbers_typed_into_the_new_match_page_never_fail(app, client, typed):
    response = client.post("/matches/new", data=new_match_form(length_count=typed))
    assert response.status_code == 422
    assert field_error(response.get_data(as_text=True), "length_count").startswith(
        "Enter how many hands"
    )
    response = client.post("/matches/new", data=new_match_form(first_dealer=typed))
    assert response.status_code == 422
    assert "Choose a player with a name to deal first" in response.get_data(as_text=True)
    assert rows(app, Match) == 0


def test_devanagari_digits_are_numbers(app, client):
    response = client.post("/matches/new", data=new_match_form(length_count="१२"))
    assert response.status_code == 303
    with app.app_context():
        assert db.session.scalars(select(Match)).one().length == {"hands": 12}


@pytest.mark.parametrize("number", ["2147483648", "99999999999999999999", "9" * 5000])
def test_a_hand_number_past_the_largest_is_a_404_page(client, match_url, number):
    for path in ("", "/edit", "/delete", "/slip.pdf"):
        response = client.get(f"{match_url}/hands/{number}{path}")
        assert response.status_code == 404, path
        assert "There is no page at this address" in response.get_data(as_text=True)
    for path in ("/edit", "/delete"):
        response = client.post(f"{match_url}/hands/{number}{path}", data={"version": "1"})
        assert response.status_code == 404, path


@pytest.mark.parametrize("public_id", ["%00", "a%00b", "x" * 65])
def test_an_id_that_cannot_be_a_match_is_a_404_page(client, public_id):
    for path in ("", "/live", "/qr.svg", "/summary.pdf", "/hands/1", "/join/key"):
        assert client.get(f"/matches/{public_id}{path}").status_code == 404, path


@pytest.mark.parametrize("typed", ["²", "9" * 5000])
def test_form_numbers_that_are_not_numbers_never_fail(app, client, match_url, typed):
    response = client.post(f"{match_url}/hands/new", data=hand_form(BY_COUNTS, winner=typed))
    assert response.status_code == 422
    # A version that is no number is never the hand's: the edit and the delete are stale.
    response = client.post(f"{match_url}/hands/1/edit", data=hand_form(BY_COUNTS, version=typed))
    assert response.status_code == 409
    response = client.post(f"{match_url}/hands/1/delete", data={"version": typed})
    assert response.status_code == 409
    assert rows(app, Hand) == 1


def share_link(data: dict) -> str:
    text = json.dumps(data)  # "\ud800" stays an escape: valid JSON
    return base64.urlsafe_b64encode(text.encode()).rstrip(b"=").decode()


def test_a_shared_link_holding_no_text_is_damaged(client):
    h = share_link(
        {
            "rules": "sparkai",
            "finish": "void",
            "players": [{"name": "\ud800", "seen": "unseen"}, {"name": "B", "seen": "unseen"}],
        }
    )
    for url in (f"/check?h={h}", f"/check/slip.pdf?h={h}"):
        response = client.get(url)
        assert response.status_code == 400, url
        assert "damaged" in response.get_data(as_text=True)


def test_a_shared_link_with_a_hostile_name_says_so_on_the_field(client):
    h = share_link(
        {
            "rules": "sparkai",
            "finish": "void",
            "players": [{"name": "A\x00", "seen": "unseen"}, {"name": "B", "seen": "unseen"}],
        }
    )
    response = client.get(f"/check?h={h}")
    assert response.status_code == 200
    assert "A name cannot hold control characters" in response.get_data(as_text=True)


def test_a_page_too_large_names_the_limit(client):
    response = client.post("/matches/new", data={"name": "x" * (300 * 1024)})
    assert response.status_code == 413
    assert "What you sent is larger than 256 KiB." in response.get_data(as_text=True)


def test_a_form_of_too_many_parts_is_not_called_too_large(client):
    data = {f"f{i}": "x" for i in range(1200)}
    response = client.post("/matches/new", data=data, content_type="multipart/form-data")
    assert response.status_code == 413
    html = response.get_data(as_text=True)
    assert "What you sent has too many parts." in html
    assert "KiB" not in html


@pytest.mark.parametrize("sent", ["x" * 20000, "9" * 5000])
def test_a_flood_in_a_house_rule_is_not_repeated_whole_in_its_refusal(app, client, sent):
    """A setting of a few words sent 20,000 characters long: the refusal names the field
    and what it may be, and repeats the value cut (it repeated all of it)."""
    response = client.post("/matches/new", data=new_match_form(**{"rules-foul": sent}))
    assert response.status_code == 422
    said = field_error(response.get_data(as_text=True), "rules-foul")
    assert said.startswith("“Foul” must be one of off, to this hand")
    assert f"&#39;{sent[:40]}…&#39;" in said and len(said) < 300
    assert rows(app, Match) == 0
