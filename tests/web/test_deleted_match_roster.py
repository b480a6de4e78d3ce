"""A match deleted because it was started by mistake takes off the roster the player
its start added ("Someone new" typed for it), unless anything else at the table is
theirs; nobody who was on the roster before is touched."""

from __future__ import annotations

from table_pages_support import ROSTER, create_table, edit_key, start_match


def _roster(client, url: str) -> list[str]:
    table = client.get(f"/api/v1/tables/{url.rsplit('/', 1)[1]}").get_json()
    return [p["name"] for p in table["players"]]


def test_the_newcomer_of_a_mistaken_match_leaves_with_it(client):
    url = create_table(client)
    mistake = start_match(client, url, ["Asha", "Bikash"], newcomer="Esha")
    assert _roster(client, url) == [*ROSTER, "Esha"]
    done = client.post(f"/matches/{mistake}/delete")
    assert done.status_code == 303 and done.headers["Location"] == url
    assert _roster(client, url) == ROSTER  # as before the mistake: Asha and Bikash stay
    # Through the API too.
    auth = {"Authorization": f"Bearer {edit_key(client, url)}"}
    mistake = start_match(client, url, ["Asha", "Bikash"], newcomer="Esha")
    assert client.delete(f"/api/v1/matches/{mistake}", headers=auth).status_code == 204
    assert _roster(client, url) == ROSTER


def test_a_newcomer_with_anything_else_at_the_table_stays(client):
    url = create_table(client)
    table_id = url.rsplit("/", 1)[1]
    auth = {"Authorization": f"Bearer {edit_key(client, url)}"}
    # Esha plays in another match of the table too.
    mistake = start_match(client, url, ["Asha", "Bikash"], newcomer="Esha")
    kept = start_match(client, url, ["Asha", "Esha"])
    assert client.delete(f"/api/v1/matches/{mistake}", headers=auth).status_code == 204
    assert "Esha" in _roster(client, url)
    assert client.delete(f"/api/v1/matches/{kept}", headers=auth).status_code == 204
    assert "Esha" in _roster(client, url)  # the kept match did not add her
    # Gopal is paid meanwhile; Hari gets his own link.
    mistake = start_match(client, url, ["Asha", "Bikash"], newcomer="Gopal")
    paid = {"from": "Asha", "to": "Gopal", "amount": "5.00"}
    answer = client.post(f"/api/v1/tables/{table_id}/payments", json=paid, headers=auth)
    assert answer.status_code == 201, answer.get_json()
    assert client.delete(f"/api/v1/matches/{mistake}", headers=auth).status_code == 204
    assert "Gopal" in _roster(client, url)
    mistake = start_match(client, url, ["Asha", "Bikash"], newcomer="Hari")
    link = client.post(f"/api/v1/tables/{table_id}/players/Hari/link", headers=auth)
    assert link.status_code == 201, link.get_json()
    assert client.delete(f"/api/v1/matches/{mistake}", headers=auth).status_code == 204
    assert _roster(client, url) == [*ROSTER, "Esha", "Gopal", "Hari"]


def test_a_newcomer_renamed_keeps_the_name_and_stays(client):
    """A rename is a record of its own (the old name's address leads to them)."""
    url = create_table(client)
    table_id = url.rsplit("/", 1)[1]
    auth = {"Authorization": f"Bearer {edit_key(client, url)}"}
    mistake = start_match(client, url, ["Asha", "Bikash"], newcomer="Eshaa")
    renamed = client.patch(
        f"/api/v1/tables/{table_id}/players/Eshaa", json={"name": "Esha"}, headers=auth
    )
    assert renamed.status_code == 200, renamed.get_json()
    assert client.delete(f"/api/v1/matches/{mistake}", headers=auth).status_code == 204
    assert _roster(client, url) == [*ROSTER, "Esha"]


def test_the_confirmation_names_who_leaves_and_the_page_says_who_left(client):
    """The page asks with the names the delete will take off the roster (Esha, new with
    the match; not Gopal, new with it too but paid meanwhile), then says who left."""
    url = create_table(client)
    table_id = url.rsplit("/", 1)[1]
    auth = {"Authorization": f"Bearer {edit_key(client, url)}"}
    plain = start_match(client, url, ["Asha", "Bikash"])
    confirm = client.get(f"/matches/{plain}/delete").get_data(as_text=True)
    assert "roster" not in confirm  # nobody joined with it
    started = client.post(
        f"/api/v1/tables/{table_id}/matches",
        json={"name": "Mistake", "players": ["Asha", "Esha", "Gopal"], "rules": "gamerules"},
        headers=auth,
    )
    assert started.status_code == 201, started.get_json()
    mistake = started.get_json()["id"]
    paid = {"from": "Asha", "to": "Gopal", "amount": "5.00"}
    answer = client.post(f"/api/v1/tables/{table_id}/payments", json=paid, headers=auth)
    assert answer.status_code == 201, answer.get_json()
    confirm = client.get(f"/matches/{mistake}/delete").get_data(as_text=True)
    assert "Esha joined the table's roster with this match and has" in confirm
    assert "Gopal" not in confirm.split("<h1>", 1)[1]  # paid meanwhile: stays
    done = client.post(f"/matches/{mistake}/delete", follow_redirects=True)
    page = done.get_data(as_text=True)
    assert "Esha left the table&#39;s roster with it." in page
    assert _roster(client, url) == [*ROSTER, "Gopal"]
