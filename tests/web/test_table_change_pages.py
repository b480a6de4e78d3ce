"""The table changed from its page: its name, the rules and stake of its next nights,
players who join its roster (before, only the API could)."""

from __future__ import annotations

from table_pages_support import ROSTER, create_table, new_table_form, start_match


def _api(client, url: str) -> dict:
    return client.get(f"/api/v1/tables/{url.rsplit('/', 1)[1]}").get_json()


def _posted(**changes) -> dict:
    """The change form as the page fills it for a table made by new_table_form()."""
    form = {k: v for k, v in new_table_form().items() if k != "players"}
    return {**form, **changes}


def test_the_form_starts_from_the_table_as_it_is(client):
    url = create_table(client, **{"rules-fee_seen": "5"})
    page = client.get(url).get_data(as_text=True)
    assert f"{url}/change" in page and "Change the table…" in page
    form = client.get(f"{url}/change").get_data(as_text=True)
    assert 'value="Friday table"' in form and 'value="1.50"' in form
    assert '<option selected value="sparkai">' in form or 'value="sparkai" selected' in form
    assert 'name="rules-fee_seen"' in form and 'value="5"' in form


def test_the_stake_and_rules_of_the_next_nights_change_and_a_player_joins(client):
    url = create_table(client)
    played = start_match(client, url, ROSTER)
    done = client.post(
        f"{url}/change",
        data=_posted(
            **{
                "name": "Saturday table",
                "stake-per_point": "2",
                "rules-profile": "amarnepal",
                "players": "Esha",
            }
        ),
    )
    assert done.status_code == 303, done.get_data(as_text=True)
    table = _api(client, url)
    assert table["name"] == "Saturday table"
    assert table["stake"] == {"per_point": "2.00", "currency": "NPR"}
    assert table["rules"]["profile"] == "amarnepal"
    assert [p["name"] for p in table["players"]] == [*ROSTER, "Esha"]
    night = client.get(f"/api/v1/matches/{played}").get_json()
    assert night["stake"]["per_point"] == "1.50" and night["rules"]["profile"] == "sparkai"
    assert "The table is changed" in client.get(url).get_data(as_text=True)


def test_a_stake_left_empty_plays_for_points_and_problems_are_said_at_their_fields(client):
    url = create_table(client)
    refused = client.post(
        f"{url}/change", data=_posted(**{"name": "", "stake-per_point": "abc", "players": "Asha"})
    )
    assert refused.status_code == 422
    page = refused.get_data(as_text=True)
    assert page.count('aria-invalid="true"') >= 3  # name, stake, the player already there
    assert _api(client, url)["name"] == "Friday table"
    done = client.post(f"{url}/change", data=_posted(**{"stake-per_point": ""}))
    assert done.status_code == 303
    assert _api(client, url)["stake"] is None


def test_only_its_scorekeeper_and_with_a_token(client, app, csrf_client):
    url = create_table(client)
    stranger = app.test_client()
    assert "Change the table…" not in stranger.get(url).get_data(as_text=True)
    assert stranger.get(f"{url}/change").status_code == 403
    assert stranger.post(f"{url}/change", data=_posted(name="Mine")).status_code == 403
    made = csrf_client.post(
        "/api/v1/tables", json={"name": "Oops", "players": ROSTER, "rules": "sparkai"}
    ).get_json()
    csrf_client.get(f"/tables/{made['id']}/join/{made['edit_key']}")
    assert csrf_client.post(f"/tables/{made['id']}/change", data={"name": "X"}).status_code == 400
    assert _api(client, url)["name"] == "Friday table"


def test_in_nepali(client):
    url = create_table(client)
    client.set_cookie("lang", "ne")
    form = client.get(f"{url}/change").get_data(as_text=True)
    assert "टेबल बदल्नुहोस्" in form
    # The stake in its box is in the page's digits, as every other number of the page.
    assert 'value="१.५०"' in form and 'value="1.50"' not in form


def test_what_the_form_does_not_show_is_kept(client):
    """The deal's direction is no choice of the form: a table that passes the deal to the
    right keeps it when its name is changed on the page."""
    made = client.post(
        "/api/v1/tables",
        json={
            "name": "Right-handed",
            "players": ROSTER,
            "rules": {"profile": "sparkai", "deal_passes": "right", "fee_seen": 5},
        },
    ).get_json()
    url = f"/tables/{made['id']}"
    client.get(f"{url}/join/{made['edit_key']}")
    form = {
        "name": "Renamed",
        "rules-profile": "sparkai",
        "rules-fee_seen": "5",
        "stake-per_point": "",
    }
    assert client.post(f"{url}/change", data=form).status_code == 303
    assert _api(client, url)["rules"] == {
        "profile": "sparkai",
        "deal_passes": "right",
        "fee_seen": 5,
    }


def test_a_followers_match_page_leads_back_to_the_table_by_its_new_name(client, app):
    """The read-only match page is kept whole by the match's version; a table renamed
    from its page changes no match, and the kept page led back to "← Friday table"."""
    url = create_table(client)
    tonight = start_match(client, url, ROSTER)
    follower = app.test_client()
    assert "← Friday table" in follower.get(f"/matches/{tonight}").get_data(as_text=True)
    renamed = client.post(f"{url}/change", data=_posted(name="Saturday table"))
    assert renamed.status_code == 303
    page = follower.get(f"/matches/{tonight}").get_data(as_text=True)
    assert "← Saturday table" in page and "← Friday table" not in page


def test_a_name_typed_twice_among_those_who_join_is_said_so(client):
    """It was said to be "already on the table's roster", where it was not."""
    url = create_table(client)
    refused = client.post(f"{url}/change", data=_posted(players="Esha\nesha")).get_data(
        as_text=True
    )
    assert "&#39;esha&#39; is listed twice; each player needs their own name." in refused
    assert "already on the table" not in refused
    again = client.post(f"{url}/change", data=_posted(players="asha")).get_data(as_text=True)
    assert "asha is already on the table&#39;s roster" in again
    assert [p["name"] for p in _api(client, url)["players"]] == ROSTER
