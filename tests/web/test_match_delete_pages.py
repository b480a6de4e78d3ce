"""A match started by mistake, deleted from its page: offered only while it has no hand,
confirmed first, back to its table."""

from __future__ import annotations

from api_hands import play, won_by
from table_pages_support import ROSTER, create_table, edit_key, start_match


def test_a_mistaken_night_is_deleted_from_its_page_back_to_the_table(client):
    url = create_table(client)
    mistaken = start_match(client, url, ROSTER[:3])
    page = client.get(f"/matches/{mistaken}").get_data(as_text=True)
    assert "Started by mistake?" in page and f"/matches/{mistaken}/delete" in page
    confirm = client.get(f"/matches/{mistaken}/delete").get_data(as_text=True)
    assert "No hand is in it, so nothing counts" in confirm
    done = client.post(f"/matches/{mistaken}/delete")
    assert done.status_code == 303 and done.headers["Location"] == url
    table_page = client.get(url).get_data(as_text=True)
    assert "is deleted." in table_page and f"/matches/{mistaken}" not in table_page
    assert client.get(f"/matches/{mistaken}").status_code == 404


def test_a_match_with_a_hand_offers_no_delete_and_refuses_one(client):
    url = create_table(client)
    played = start_match(client, url, ROSTER)
    play(client, played, edit_key(client, url), [won_by("Asha", ROSTER)])
    page = client.get(f"/matches/{played}").get_data(as_text=True)
    assert "Started by mistake?" not in page
    refused = client.post(f"/matches/{played}/delete", follow_redirects=True)
    assert "This match has 1 hand in it, so it is kept" in refused.get_data(as_text=True)
    assert client.get(f"/api/v1/matches/{played}").get_json()["hands_played"] == 1


def test_its_deleted_hands_are_named_before_they_go(client):
    url = create_table(client)
    public_id = start_match(client, url, ROSTER)
    key = edit_key(client, url)
    play(client, public_id, key, [won_by("Asha", ROSTER)])
    gone = client.delete(
        f"/api/v1/matches/{public_id}/hands/1", headers={"Authorization": f"Bearer {key}"}
    )
    assert gone.status_code == 200
    confirm = client.get(f"/matches/{public_id}/delete").get_data(as_text=True)
    assert "Its 1 deleted hand goes with it and can no longer be put back." in confirm


def test_a_reader_without_the_key_cannot_delete(client, app):
    url = create_table(client)
    public_id = start_match(client, url, ROSTER)
    stranger = app.test_client()
    assert "Started by mistake?" not in stranger.get(f"/matches/{public_id}").get_data(as_text=True)
    assert stranger.post(f"/matches/{public_id}/delete").status_code == 403
    assert stranger.get(f"/matches/{public_id}/delete").status_code == 403
    assert client.get(f"/matches/{public_id}").status_code == 200


def _lone_match(client, name: str) -> dict:
    """A lone match made through the API, and this client its scorekeeper (its edit link)."""
    made = client.post(
        "/api/v1/matches", json={"name": name, "players": ROSTER, "rules": "sparkai"}
    ).get_json()
    assert client.get(f"/matches/{made['id']}/join/{made['edit_key']}").status_code == 303
    return made


def test_the_delete_is_a_form_with_csrf(csrf_client):
    made = _lone_match(csrf_client, "Oops")
    assert "Started by mistake?" in csrf_client.get(f"/matches/{made['id']}").get_data(as_text=True)
    assert csrf_client.post(f"/matches/{made['id']}/delete").status_code == 400
    assert csrf_client.get(f"/matches/{made['id']}").status_code == 200


def test_a_lone_match_deleted_goes_back_to_the_start_in_nepali(client):
    made = _lone_match(client, "गल्ती")
    client.set_cookie("lang", "ne")
    confirm = client.get(f"/matches/{made['id']}/delete").get_data(as_text=True)
    assert "“गल्ती” मेटाउने?" in confirm
    done = client.post(f"/matches/{made['id']}/delete")
    assert done.status_code == 303 and done.headers["Location"] == "/"
    assert "म्याच “गल्ती” मेटाइयो।" in client.get("/").get_data(as_text=True)


def test_a_follower_of_a_deleted_match_is_told_it_may_have_been_deleted(client, app):
    """The read-only link of a match deleted since said only "Check the link", as if the
    follower had mistyped it; in Nepali too."""
    url = create_table(client)
    mistaken = start_match(client, url, ROSTER[:3])
    follower = app.test_client()
    assert follower.get(f"/matches/{mistaken}").status_code == 200
    assert client.post(f"/matches/{mistaken}/delete").status_code == 303
    gone = follower.get(f"/matches/{mistaken}")
    assert gone.status_code == 404
    assert "a match started by mistake may have been deleted" in gone.get_data(as_text=True)
    follower.set_cookie("lang", "ne")
    said = follower.get(f"/matches/{mistaken}").get_data(as_text=True)
    assert "गल्तीले सुरु भएको म्याच मेटाइएको पनि हुन सक्छ" in said
