"""A table's night through its pages (issue 38): tonight's match is open unless a number
of hands is typed; "End the night" on the match page ends it after its last hand, in
one tap, and its undo takes the end back."""

from table_pages_support import FOUR, ROSTER, create_table, edit_key, play, start_match


def _match(client, public_id: str) -> dict:
    return client.get(f"/api/v1/matches/{public_id}").get_json()


def test_tonights_match_is_open_and_the_night_ends_when_the_table_says(client):
    url = create_table(client, **{"rules-profile": "amarnepal"})  # usually 4 hands
    key = edit_key(client, url)
    match_id = start_match(client, url, ROSTER)
    assert _match(client, match_id)["length"] is None
    play(client, match_id, key, [*FOUR, FOUR[0]])  # five hands: past amarnepal's four
    page = client.get(f"/matches/{match_id}").get_data(as_text=True)
    assert "The match is over." not in page
    assert f"/matches/{match_id}/end" in page and "End the night" in page

    response = client.post(f"/matches/{match_id}/end")
    assert response.status_code == 303
    body = _match(client, match_id)
    assert body["finished"] is True and body["hands_played"] == 5
    page = client.get(f"/matches/{match_id}").get_data(as_text=True)
    assert "The match is over." in page and f"/matches/{match_id}/reopen" in page
    # The hand form says the night was ended and points back to the match page.
    form = client.get(f"/matches/{match_id}/hands/new")
    assert form.status_code == 303 and form.headers["Location"].endswith(f"/matches/{match_id}")

    assert client.post(f"/matches/{match_id}/reopen").status_code == 303
    assert _match(client, match_id)["finished"] is False
    assert client.get(f"/matches/{match_id}/hands/new").status_code == 200


def test_tonights_match_takes_a_number_of_hands(client):
    url = create_table(client)
    match_id = start_match(client, url, ROSTER, hands="६")
    assert _match(client, match_id)["length"] == {"hands": 6}


def test_a_bad_number_of_hands_is_refused_on_its_field(client):
    url = create_table(client)
    response = client.post(f"{url}/matches", data={"players": ROSTER, "hands": "many"})
    assert response.status_code == 422
    page = response.get_data(as_text=True)
    assert "a whole number from 1 to 1000, or leave it empty" in page
    assert client.get(f"/api/v1/tables/{url.rsplit('/', 1)[1]}").get_json()["matches"] == []


def test_end_the_night_needs_edit_rights(app, client):
    url = create_table(client)
    key = edit_key(client, url)
    match_id = start_match(client, url, ROSTER)
    play(client, match_id, key, FOUR[:1])
    reader = app.test_client()
    assert reader.post(f"/matches/{match_id}/end").status_code == 403
    assert _match(client, match_id)["finished"] is False


def test_guests_typed_then_ticked_play_without_joining_the_roster(client):
    url = create_table(client)
    key = edit_key(client, url)
    table_id = url.rsplit("/", 1)[1]
    first = start_match(client, url, ROSTER[:3], guests="Ram, Sita")
    body = _match(client, first)
    assert {p["name"]: p["guest"] for p in body["players"]} == {
        "Asha": False,
        "Bikash": False,
        "Chandra": False,
        "Ram": True,
        "Sita": True,
    }
    roster = [p["name"] for p in client.get(f"/api/v1/tables/{table_id}").get_json()["players"]]
    assert roster == ROSTER
    hand = {
        "finish": "sequences",
        "winner": "Ram",
        "players": [
            {"name": n, "seen": "sequences", "maal": m}
            for n, m in (("Asha", 3), ("Ram", 9), ("Sita", 1))
        ],
    }
    play(client, first, key, [hand])
    page = client.get(url).get_data(as_text=True)
    assert page.count('class="guest-mark"') >= 2  # the standings and the money mark them
    assert 'name="known_guests" type="checkbox" value="Ram"' in page
    second = start_match(client, url, ROSTER[:3], known_guests=["Ram"])
    names = {p["name"]: p["guest"] for p in _match(client, second)["players"]}
    assert names == {"Asha": False, "Bikash": False, "Chandra": False, "Ram": True}


def test_a_guest_already_on_the_roster_is_refused_on_the_guests_field(client):
    url = create_table(client)
    response = client.post(f"{url}/matches", data={"players": ROSTER[:3], "guests": "dipa"})
    assert response.status_code == 422
    assert "on the table&#39;s roster" in response.get_data(as_text=True)
