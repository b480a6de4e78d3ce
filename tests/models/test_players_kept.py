"""A match's players are kept from one version of the match to the next
(``ledger.matches.players_kept``, issue 41): the first page after a hand reads none;
any other write (a rename, a guest who joins the roster) reads them again (a forget
emptying them: tests/web/test_kept_parts.py)."""

from __future__ import annotations

from api_hands import PLAYERS, add, hand, new_match
from sql_counting import counting_queries

from ledger import matches
from ledger.matches.membership import rename_player
from ledger.matches.players_kept import kept_players


def player_reads(statements: list[str]) -> list[str]:
    return [s for s in statements if "match_players" in s]


def test_the_first_page_after_a_hand_reads_no_players(app, client):
    public_id, auth = new_match(client, 3)
    assert client.get(f"/matches/{public_id}").status_code == 200
    add(client, public_id, auth, hand("Dipa"))
    with counting_queries(app) as statements:
        page = client.get(f"/matches/{public_id}")
    assert page.status_code == 200 and ">4</a>" in page.text
    assert player_reads(statements) == []


def test_a_rename_is_read_again_and_kept_after(app, client):
    public_id, auth = new_match(client, 3)
    assert "Bikash" in client.get(f"/matches/{public_id}").text
    with app.app_context():
        rename_player([matches.get_match(public_id)], "Bikash", "Bikas")
    with counting_queries(app) as statements:
        page = client.get(f"/matches/{public_id}")
    assert page.status_code == 200 and "Bikas" in page.text and "Bikash" not in page.text
    assert len(player_reads(statements)) == 1
    add(client, public_id, auth, hand("Bikas", players=["Asha", "Bikas", "Chandra", "Dipa"]))
    with counting_queries(app) as statements:
        page = client.get(f"/matches/{public_id}")
    assert "Bikash" not in page.text and player_reads(statements) == []
    with app.app_context():
        assert kept_players(app).get(public_id).names == ("Asha", "Bikas", "Chandra", "Dipa")


def test_a_guest_who_joins_the_roster_is_no_guest_on_the_next_read(client):
    table = client.post(
        "/api/v1/tables", json={"name": "Guests", "players": PLAYERS[:3], "rules": "sparkai"}
    ).get_json()
    auth = {"Authorization": f"Bearer {table['edit_key']}"}
    made = client.post(
        f"/api/v1/tables/{table['id']}/matches",
        json={"name": "Night", "players": PLAYERS, "guests": ["Dipa"], "first_dealer": "Asha"},
        headers=auth,
    )
    assert made.status_code == 201, made.get_data(as_text=True)
    match = made.get_json()
    url = f"/api/v1/matches/{match['id']}"
    add(client, match["id"], auth, hand("Asha"))

    def guests() -> list[str]:
        return [p["name"] for p in client.get(url).get_json()["players"] if p["guest"]]

    assert guests() == ["Dipa"]
    joined = client.patch(f"/api/v1/tables/{table['id']}", json={"players": ["Dipa"]}, headers=auth)
    assert joined.status_code == 200, joined.get_data(as_text=True)
    assert guests() == []


def test_a_write_reads_the_players_as_it_holds_them(app, client):
    """Inside a write the players are the session's (the write may be changing them), not
    the kept ones of the version it started from."""
    public_id, _ = new_match(client, 2)
    client.get(f"/matches/{public_id}")
    with app.app_context():
        match = matches.get_match(public_id)
        rename_player([match], "Asha", "Aasha")
        assert matches.match_view(match, newest=2).players[0] == "Aasha"
