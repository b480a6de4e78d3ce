""" "Start a new season" tapped twice (a double tap, a retry on flaky Wi-Fi) starts one
season: the same name again, while the season it started has no match and no payment,
answers that season instead of a second, empty one of the same name. Once the season
has a night, the same name is refused (no two seasons are called the same); under
another name a new season begins as before."""

from __future__ import annotations

from api_hands import play
from match_pages_support import field_errors
from table_pages_support import FOUR, ROSTER, create_table, edit_key, start_match


def _seasons(client, url: str) -> list[str]:
    return [s["name"] for s in client.get(f"/api/v1{url}").get_json()["seasons"]]


def test_the_same_new_season_sent_twice_starts_one(client):
    url = create_table(client)
    for _ in range(2):
        done = client.post(f"{url}/seasons", data={"name": "Dashain"})
        assert done.status_code == 303
    assert _seasons(client, url) == ["1", "Dashain"]
    again = client.post(f"{url}/seasons", data={"name": " dashain "})
    assert again.status_code == 303
    assert _seasons(client, url) == ["1", "Dashain"]


def test_the_api_answers_the_season_it_already_started(client):
    url = create_table(client)
    auth = {"Authorization": f"Bearer {edit_key(client, url)}"}
    first = client.post(f"/api/v1{url}/seasons", json={"name": "Tihar"}, headers=auth)
    again = client.post(f"/api/v1{url}/seasons", json={"name": "Tihar"}, headers=auth)
    assert first.status_code == again.status_code == 201
    assert again.get_json() == first.get_json()
    assert _seasons(client, url) == ["1", "Tihar"]


def test_a_season_with_a_night_is_followed_by_one_of_another_name_only(client):
    """Two seasons of one name would make the season picker ambiguous: once the season
    has a night, the same name (or an older season's) is refused at its field."""
    url = create_table(client)
    client.post(f"{url}/seasons", data={"name": "Dashain"})
    play(client, start_match(client, url, ROSTER), edit_key(client, url), FOUR[:1])
    for name in ("Dashain", " DASHAIN ", "1"):
        refused = client.post(f"{url}/seasons", data={"name": name})
        assert refused.status_code == 422
        clash = "Dashain" if name != "1" else "1"
        assert f"The table already has a season called “{clash}”: choose another name." in (
            field_errors(refused.get_data(as_text=True), "season-name")
        )
    auth = {"Authorization": f"Bearer {edit_key(client, url)}"}
    api = client.post(f"/api/v1{url}/seasons", json={"name": "dashain"}, headers=auth)
    assert api.status_code == 422
    assert api.get_json()["errors"] == [
        {
            "field": "name",
            "message": "The table already has a season called “Dashain”: choose another name.",
        }
    ]
    assert client.post(f"{url}/seasons", data={"name": "Tihar"}).status_code == 303
    assert _seasons(client, url) == ["1", "Dashain", "Tihar"]
