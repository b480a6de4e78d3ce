"""A roster name holding a '/' ("Ram/Shyam") has its record, its rename and merge, its own
link and its handles in the API, as its figures page has: the routes took the '/' as
the end of the name and answered 404. A client sends the '/' as it is (``requests`` and
browsers do) or percent-encoded as %2F: the server decodes %2F before routing, so both
reach the same player. The ``/link`` and ``/handles`` of a plain name still route there."""

from __future__ import annotations

import re

import pytest
from api_support import bearer
from people_support import STAKE, give_link, me
from tables_support import ROSTER, create_table

SLASHED = "Ram/Shyam"


@pytest.fixture
def table(client):
    return create_table(client, players=[*ROSTER, SLASHED], stake=STAKE)


@pytest.mark.parametrize("written", ["Ram/Shyam", "Ram%2FShyam", "ram/shyam"])
def test_the_record_of_a_slashed_name(client, table, written):
    response = client.get(f"{table.url}/players/{written}")
    assert response.status_code == 200, response.get_json()
    assert response.get_json()["name"] == SLASHED


def test_a_slashed_name_is_renamed_and_its_old_address_follows(client, table):
    renamed = client.patch(
        f"{table.url}/players/{SLASHED}", json={"name": "Hari/Gita"}, headers=table.auth
    )
    assert renamed.status_code == 200, renamed.get_json()
    assert "Hari/Gita" in [p["name"] for p in renamed.get_json()["players"]]
    moved = client.get(f"{table.url}/players/{SLASHED}?season=all")
    assert moved.status_code == 302
    assert moved.headers["Location"] == f"{table.url}/players/Hari/Gita?season=all"
    assert client.get(moved.headers["Location"]).get_json()["name"] == "Hari/Gita"


def test_a_slashed_name_is_merged_into_another(client, table):
    merged = client.patch(
        f"{table.url}/players/{SLASHED}", json={"merge_into": "Asha"}, headers=table.auth
    )
    assert merged.status_code == 200, merged.get_json()
    assert SLASHED not in [p["name"] for p in merged.get_json()["players"]]


def test_a_slashed_name_gets_revokes_and_loses_handles_of_its_own_link(client, table):
    key = give_link(table, SLASHED)
    assert me(client, key)["name"] == SLASHED
    handles = {"handles": [{"kind": "esewa", "handle": "98"}]}
    assert client.put("/api/v1/me/handles", json=handles, headers=bearer(key)).status_code == 200
    url = f"{table.url}/players/{SLASHED}"
    assert client.delete(f"{url}/handles", headers=table.auth).status_code == 204
    assert me(client, key)["handles"] == []
    assert client.delete(f"{url}/link", headers=table.auth).status_code == 204
    me(client, key, 401)


def test_a_plain_names_link_and_handles_still_route_there(client, table):
    key = give_link(table, "Asha")
    assert me(client, key)["name"] == "Asha"
    url = f"{table.url}/players/Asha"
    assert client.delete(f"{url}/handles", headers=table.auth).status_code == 204
    assert client.delete(f"{url}/link", headers=table.auth).status_code == 204
    me(client, key, 401)
    assert client.get(url).get_json()["name"] == "Asha"
    # A GET of /link is the record of a player called "Asha/link": there is none.
    missing = client.get(f"{url}/link")
    assert missing.status_code == 404 and missing.is_json


def test_a_name_ending_in_link_keeps_its_record_and_its_own_link(client):
    table = create_table(client, players=[*ROSTER, "Ram/link"], stake=STAKE)
    assert client.get(f"{table.url}/players/Ram/link").get_json()["name"] == "Ram/link"
    key = give_link(table, "Ram/link")
    assert me(client, key)["name"] == "Ram/link"


@pytest.mark.parametrize("name", ["/Hari", "Ram//Shyam", "Gita/"])
def test_a_name_with_a_slash_at_either_end_or_two_has_its_record_and_page(client, name):
    """A slash first, last or doubled is kept as typed: the address's "//" is not merged
    into one (which made "/Hari" a redirect to "Hari", nobody's record)."""
    table = create_table(client, players=[*ROSTER, name], stake=STAKE)
    record = client.get(f"{table.url}/players/{name}")
    assert record.status_code == 200, record.get_data(as_text=True)
    assert record.get_json()["name"] == name
    page = client.get(table.url.replace("/api/v1", "")).get_data(as_text=True)
    links = set(re.findall(rf'href="(/tables/[^"]+/players/{re.escape(name)})"', page))
    assert links
    for link in links:
        assert client.get(link).status_code == 200, link
    key = give_link(table, name)
    assert me(client, key)["name"] == name
    assert client.delete(f"{table.url}/players/{name}/link", headers=table.auth).status_code == 204


@pytest.mark.parametrize("name", [".", "..", "Ram/..", "../Hari", "a/./b"])
def test_a_name_a_browser_would_resolve_into_another_address_is_refused(client, name):
    """A browser resolves "." and ".." between slashes in an address, even written %2E:
    "Ram/.." would open the roster's address, not Ram's page. Refused where a name is
    typed, saying which field and why; "Ram." and "..." are names."""
    body = {"name": "Friday", "players": ["Asha", "Bikash", name]}
    refused = client.post("/api/v1/tables", json=body)
    assert refused.status_code == 422
    [error] = refused.get_json()["errors"]
    assert error["field"] == "players.2" and "“..”" in error["message"]
    table = create_table(client)
    renamed = client.patch(f"{table.url}/players/Asha", json={"name": name}, headers=table.auth)
    assert renamed.status_code == 422, renamed.get_json()
    assert create_table(client, players=["Ram.", "...", "Asha"]).get()["players"]
