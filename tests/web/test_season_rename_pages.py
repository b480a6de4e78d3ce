"""A season's name put right, from the table's page and through the API."""

from __future__ import annotations

import re

from match_pages_support import field_errors
from sqlalchemy import select
from table_pages_support import create_table, edit_key

from ledger.extensions import db
from ledger.tables.models import Season


def _seasons(client, url: str) -> list[dict]:
    public_id = url.rsplit("/", 1)[1]
    return client.get(f"/api/v1/tables/{public_id}").get_json()["seasons"]


def test_a_season_s_typo_is_put_right_on_the_table_page(client):
    url = create_table(client)
    assert client.post(f"{url}/seasons", data={"name": "Tihar 2038"}).status_code == 303
    season = _seasons(client, url)[1]
    page = client.get(url).get_data(as_text=True)
    assert 'value="Tihar 2038"' in page  # the form starts from the name as it is
    done = client.post(
        f"{url}/seasons/{season['id']}/rename",
        data={f"{season['id']}-name": "Tihar 2083"},
        follow_redirects=True,
    )
    assert "The season is now “Tihar 2083”." in done.get_data(as_text=True)
    assert [s["name"] for s in _seasons(client, url)] == ["1", "Tihar 2083"]


def test_a_name_that_is_no_name_is_said_at_its_field(client):
    url = create_table(client)
    first = _seasons(client, url)[0]
    refused = client.post(f"{url}/seasons/{first['id']}/rename", data={f"{first['id']}-name": " "})
    assert refused.status_code == 422
    page = refused.get_data(as_text=True)
    field = re.search(r'<details class="roster-edit" open>.*?</details>', page, re.S).group(0)
    assert f'id="{first["id"]}-name"' in field and 'aria-invalid="true"' in field
    assert [s["name"] for s in _seasons(client, url)] == ["1"]


def test_through_the_api(client):
    url = create_table(client)
    key = {"Authorization": f"Bearer {edit_key(client, url)}"}
    api = f"/api/v1/tables/{url.rsplit('/', 1)[1]}"
    first = _seasons(client, url)[0]
    renamed = client.patch(
        f"{api}/seasons/{first['id']}", json={"name": "Dashain 2083"}, headers=key
    )
    assert renamed.status_code == 200
    assert renamed.get_json() == {**first, "name": "Dashain 2083"}
    refused = client.patch(f"{api}/seasons/{first['id']}", json={"name": ""}, headers=key)
    assert refused.status_code == 422 and refused.get_json()["errors"][0]["field"] == "name"
    assert client.patch(f"{api}/seasons/nope", json={"name": "X"}, headers=key).status_code == 404
    assert client.patch(f"{api}/seasons/{first['id']}", json={"name": "X"}).status_code == 401


CLASH = "The table already has a season called “{}”: choose another name."


def test_a_season_is_not_renamed_to_another_season_s_name(client):
    url = create_table(client)
    client.post(f"{url}/seasons", data={"name": "Dashain"})
    first, second = _seasons(client, url)
    for name, clash in ((" dashain ", "Dashain"), ("DASHAIN", "Dashain")):
        refused = client.post(
            f"{url}/seasons/{first['id']}/rename", data={f"{first['id']}-name": name}
        )
        assert refused.status_code == 422
        errors = field_errors(refused.get_data(as_text=True), f"{first['id']}-name")
        assert errors == [CLASH.format(clash)]
    key = {"Authorization": f"Bearer {edit_key(client, url)}"}
    api = f"/api/v1/tables/{url.rsplit('/', 1)[1]}/seasons"
    refused = client.patch(f"{api}/{second['id']}", json={"name": "1"}, headers=key)
    assert refused.status_code == 422
    assert refused.get_json()["errors"] == [{"field": "name", "message": CLASH.format("1")}]
    assert [s["name"] for s in _seasons(client, url)] == ["1", "Dashain"]
    # Its own name, in another case or spacing, is no clash: the spelling is put right.
    done = client.patch(f"{api}/{second['id']}", json={"name": " DASHAIN "}, headers=key)
    assert done.status_code == 200, done.get_json()
    assert [s["name"] for s in _seasons(client, url)] == ["1", "DASHAIN"]
    page = client.post(f"{url}/seasons/{first['id']}/rename", data={f"{first['id']}-name": "1"})
    assert page.status_code == 303


def test_the_first_season_s_name_reads_in_nepali_in_its_rename_box(client):
    """The first season is "1": Nepali pages show it "१" in the list and in its rename
    box, and "१" sent back (or typed for a new season) is the same number, kept "1"."""
    url = create_table(client)
    client.set_cookie("lang", "ne")
    first = _seasons(client, url)[0]
    page = client.get(url).get_data(as_text=True)
    box = re.search(rf'<input[^>]*id="{first["id"]}-name"[^>]*>', page).group(0)
    assert 'value="१"' in box
    kept = client.post(f"{url}/seasons/{first['id']}/rename", data={f"{first['id']}-name": "१"})
    assert kept.status_code == 303
    assert client.post(f"{url}/seasons", data={"name": "२"}).status_code == 303
    assert [s["name"] for s in _seasons(client, url)] == ["1", "2"]
    # A clash is said with the season's number in the page's digits.
    refused = client.post(f"{url}/seasons", data={"name": "१"})
    assert refused.status_code == 422
    (error,) = field_errors(refused.get_data(as_text=True), "season-name")
    assert "“१”" in error and "1" not in error and "season" not in error


def test_digits_in_either_script_make_one_season_name(app, client):
    """A season named "२" before number names were kept in Western digits did not clash
    with a new season "2"; nor "Tihar २०८३" with "Tihar 2083". Digits compare alike
    in either script, as a Nepali page shows them."""
    url = create_table(client)
    assert client.post(f"{url}/seasons", data={"name": "Tihar २०८३"}).status_code == 303
    with app.app_context():  # the first season, as an earlier version kept "२"
        first = db.session.scalars(select(Season).order_by(Season.id)).first()
        first.name = "२"
        db.session.commit()
    refused = client.post(f"{url}/seasons", data={"name": "2"})
    assert refused.status_code == 422
    assert field_errors(refused.get_data(as_text=True), "season-name") == [CLASH.format("२")]
    first, second = _seasons(client, url)
    refused = client.post(
        f"{url}/seasons/{first['id']}/rename", data={f"{first['id']}-name": "tihar 2083"}
    )
    assert refused.status_code == 422
    errors = field_errors(refused.get_data(as_text=True), f"{first['id']}-name")
    assert errors == [CLASH.format("Tihar २०८३")]
    assert [s["name"] for s in _seasons(client, url)] == ["२", "Tihar २०८३"]
