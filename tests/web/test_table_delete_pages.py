"""A table made by mistake, deleted from its page: offered only while nothing is in it,
asked first, back to the start page."""

from __future__ import annotations

from table_pages_support import ROSTER, create_table, start_match


def test_a_mistaken_table_is_deleted_from_its_page(client):
    url = create_table(client, name="Oops table")
    page = client.get(url).get_data(as_text=True)
    assert "Made by mistake?" in page and f"{url}/delete" in page
    assert "Oops table" in client.get("/").get_data(as_text=True)  # "Your tables"
    confirm = client.get(f"{url}/delete").get_data(as_text=True)
    assert "No match and no payment is in it, so nothing counts" in confirm
    done = client.post(f"{url}/delete")
    assert done.status_code == 303 and done.headers["Location"] == "/"
    home = client.get("/").get_data(as_text=True)
    assert "The table “Oops table” is deleted." in home
    assert "Oops table" not in home.split("is deleted.", 1)[1]
    gone = client.get(url)  # its link, kept by a follower, says why it may be gone
    assert gone.status_code == 404
    assert "a table made by mistake may have been deleted" in gone.get_data(as_text=True)


def test_a_table_with_a_night_offers_no_delete_and_refuses_one(client):
    url = create_table(client)
    start_match(client, url, ROSTER)
    assert "Made by mistake?" not in client.get(url).get_data(as_text=True)
    refused = client.post(f"{url}/delete", follow_redirects=True).get_data(as_text=True)
    assert "This table has a match or a payment in it, so it is kept" in refused
    assert client.get(url).status_code == 200


def test_a_reader_may_not_delete(client, app):
    url = create_table(client)
    stranger = app.test_client()
    assert "Made by mistake?" not in stranger.get(url).get_data(as_text=True)
    assert stranger.post(f"{url}/delete").status_code == 403
    assert client.get(url).status_code == 200


def test_in_nepali(client):
    url = create_table(client, name="गल्ती टेबल")
    client.set_cookie("lang", "ne")
    confirm = client.get(f"{url}/delete").get_data(as_text=True)
    assert "“गल्ती टेबल” मेटाउने?" in confirm
    assert "यसको नामावली, सिजन" in confirm  # the roster's word, as on the table's page
    client.post(f"{url}/delete")
    assert "टेबल “गल्ती टेबल” मेटाइयो।" in client.get("/").get_data(as_text=True)


def test_the_delete_is_a_form_with_csrf(csrf_client):
    made = csrf_client.post(
        "/api/v1/tables", json={"name": "Oops", "players": ROSTER, "rules": "sparkai"}
    ).get_json()
    url = f"/tables/{made['id']}"
    assert csrf_client.get(f"{url}/join/{made['edit_key']}").status_code == 303
    assert "Made by mistake?" in csrf_client.get(url).get_data(as_text=True)
    assert csrf_client.post(f"{url}/delete").status_code == 400
    assert csrf_client.get(url).status_code == 200
