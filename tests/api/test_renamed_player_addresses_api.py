"""A renamed player's old address (a link bookmarked, or shared in the family chat)
leads to them: the API's record and the player's page answer 302 to the address of
their name now. A name taken since by a new player is theirs; a merged name leads to
the player it went into; a forgotten player is found by no name they had."""

from __future__ import annotations

from urllib.parse import quote

from api_support import bearer
from people_support import give_link
from tables_support import create_table


def _record(table, name: str, **query):
    return table.client.get(f"{table.url}/players/{quote(name)}", query_string=query)


def _page(table, name: str):
    return table.client.get(f"/tables/{table.id}/players/{quote(name)}")


def _leads_to(table, old: str, new: str) -> None:
    """Both addresses of ``old`` answer 302 to those of ``new``; the record is new's."""
    season = table.get()["seasons"][0]["id"]
    api = _record(table, old, season=season)
    assert api.status_code == 302, api.get_json()
    assert api.headers["Location"] == f"{table.url}/players/{quote(new)}?season={season}"
    page = _page(table, old)
    assert page.status_code == 302
    assert page.headers["Location"] == f"/tables/{table.id}/players/{quote(new)}"
    followed = table.client.get(api.headers["Location"])
    assert followed.status_code == 200 and followed.get_json()["name"] == new


def test_the_old_name_leads_to_the_renamed_player(client):
    table = create_table(client)
    table.patch("/players/Asha", {"name": "Asha K"})
    _leads_to(table, "Asha", "Asha K")
    _leads_to(table, "  aSHA ", "Asha K")  # as the roster compares names
    table.patch("/players/Asha K", {"name": "Asha Karki"})
    _leads_to(table, "Asha", "Asha Karki")  # every earlier name, not only the last
    _leads_to(table, "Asha K", "Asha Karki")
    # Writes go by the name now: an old name changes nothing.
    refused = client.patch(
        f"{table.url}/players/Asha", json={"name": "Someone"}, headers=table.auth
    )
    assert refused.status_code == 404
    # Renamed back: the name is theirs again, and the other leads to it.
    table.patch("/players/Asha Karki", {"name": "Asha"})
    assert _record(table, "Asha").status_code == 200
    _leads_to(table, "Asha Karki", "Asha")
    assert _record(table, "Nobody").status_code == 404


def test_a_name_taken_by_a_new_player_is_theirs(client):
    table = create_table(client)
    table.patch("/players/Asha", {"name": "Asha K"})
    table.new_match(["Asha", "Bikash", "Chandra"])  # a new Asha joins the roster
    assert [p["name"] for p in table.get()["players"] if p["name"].startswith("Asha")] == [
        "Asha K",
        "Asha",
    ]
    answer = _record(table, "Asha")
    assert answer.status_code == 200 and answer.get_json()["name"] == "Asha"
    assert _page(table, "Asha").status_code == 200
    table.patch("/players/Asha", {"name": "Asha Thapa"})  # and when she is renamed in turn
    _leads_to(table, "Asha", "Asha Thapa")
    table.patch("/players/Chandra", {"name": "Chandra S"})
    table.patch("/players/Bikash", {"name": "Chandra"})  # a renamed name taken by a rename
    assert _record(table, "Chandra").get_json()["name"] == "Chandra"


def test_a_name_a_mistaken_match_took_leads_on_when_its_newcomer_leaves(client):
    """Asha renamed "Asha K"; a match started by mistake brings a new "Asha", whose
    address is hers while she is on the roster. Deleted, the match takes her off it, and
    "Asha" leads to Asha K again (it was a 404 for good: the earlier name was dropped
    when the newcomer took it)."""
    table = create_table(client)
    table.patch("/players/Asha", {"name": "Asha K"})
    mistaken = table.new_match(["Asha", "Bikash", "Chandra"])
    assert _record(table, "Asha").get_json()["name"] == "Asha"
    gone = client.delete(f"/api/v1/matches/{mistaken['id']}", headers=table.auth)
    assert gone.status_code == 204
    assert "Asha" not in [p["name"] for p in table.get()["players"]]
    _leads_to(table, "Asha", "Asha K")


def test_a_merged_name_leads_to_the_player_it_went_into(client):
    table = create_table(client)
    table.patch("/players/Esha", {"name": "Esha R"})
    table.patch("/players/Esha R", {"merge_into": "Dipa"})
    _leads_to(table, "Esha R", "Dipa")
    _leads_to(table, "Esha", "Dipa")  # her earlier names go with her


def test_a_forgotten_player_is_found_by_no_name_they_had(client):
    table = create_table(client)
    table.patch("/players/Chandra", {"name": "Chandra K"})
    key = give_link(table, "Chandra K")
    assert client.delete("/api/v1/me", headers=bearer(key)).status_code == 204
    for name in ("Chandra", "Chandra K"):
        assert _record(table, name).status_code == 404
        assert _page(table, name).status_code == 404


def test_the_query_is_passed_on_as_it_came(client):
    """A key of the query is never taken as an instruction for the address made (such
    as url_for's ``_external``, ``_scheme`` or ``_anchor``)."""
    table = create_table(client)
    table.patch("/players/Asha", {"name": "Asha K"})
    query = "_external=1&_scheme=javascript&_anchor=x&season=all"
    moved = client.get(f"/tables/{table.id}/players/Asha?{query}")
    assert moved.status_code == 302
    assert moved.headers["Location"] == f"/tables/{table.id}/players/{quote('Asha K')}?{query}"


def test_a_query_not_percent_encoded_is_passed_on_byte_for_byte(client):
    """A client that sends its query's letters as they are (``é``, ``अ`` in UTF-8, not
    percent-encoded) gets them back in the address, percent-encoded, not as �."""
    table = create_table(client)
    table.patch("/players/Asha", {"name": "Asha K"})
    raw = "note=caféअ&season=all".encode()
    moved = client.get(
        f"/tables/{table.id}/players/Asha",
        environ_overrides={"QUERY_STRING": raw.decode("latin-1")},  # WSGI's bytes as text
    )
    assert moved.status_code == 302
    assert moved.headers["Location"].endswith(f"?{quote(raw, safe='=&')}")
