"""What the first match page after a hand reads (issue 41): not the first answers kept
for replays of idempotent writes, and for the chart only the moves of the newest hands,
read with them."""

from __future__ import annotations

from sql_counting import counting_queries
from sqlalchemy import event

from ledger.matches.models import Hand

PLAYERS = ["Asha", "Bikash", "Chandra", "Dipa"]


def hand(winner: str) -> dict:
    return {
        "finish": "sequences",
        "winner": winner,
        "players": [{"name": n, "seen": "sequences", "maal": 3} for n in PLAYERS],
    }


def made_match(client, name: str) -> tuple[dict, str, dict[str, str]]:
    """A match made through the API: its answer, its API address, its edit key's header."""
    made = client.post(
        "/api/v1/matches",
        json={"name": name, "players": PLAYERS, "rules": "sparkai", "first_dealer": "Asha"},
    ).get_json()
    return made, f"/api/v1/matches/{made['id']}", {"Authorization": f"Bearer {made['edit_key']}"}


def test_the_first_page_after_a_hand_reads_only_what_it_shows(app, client):
    made, url, auth = made_match(client, "Reads")
    for i in range(6):
        key = {"Idempotency-Key": f"hand-{i}"}
        assert (
            client.post(f"{url}/hands", json=hand(PLAYERS[i % 4]), headers=auth | key).status_code
            == 201
        )
    assert client.get(f"/matches/{made['id']}").status_code == 200
    client.post(f"{url}/hands", json=hand("Dipa"), headers=auth | {"Idempotency-Key": "hand-6"})
    with counting_queries(app) as statements:
        page = client.get(f"/matches/{made['id']}")
    assert page.status_code == 200 and ">7</a>" in page.text
    assert not [s for s in statements if "first_answer" in s]
    # the moves of the newest hands, read with them: not every hand's
    (moves,) = [s for s in statements if "hands.moves" in s]
    assert "LIMIT" in moves


def test_the_match_pages_read_their_hands_as_rows_not_entities(app, client):
    """A dozen ORM entities (identity map, change tracking) cost a page more than the
    query that reads them: the match page and the list of hands read columns."""
    made, url, auth = made_match(client, "Rows")
    for i in range(3):
        assert client.post(f"{url}/hands", json=hand(PLAYERS[i]), headers=auth).status_code == 201
    loaded: list[int] = []

    def on_load(target, context):
        loaded.append(target.number)

    event.listen(Hand, "load", on_load)
    try:
        page = client.get(f"/matches/{made['id']}")
        listed = client.get(f"/matches/{made['id']}/hands")
    finally:
        event.remove(Hand, "load", on_load)
    assert page.status_code == listed.status_code == 200
    assert ">3</a>" in page.text and 'href="/matches/' in listed.text
    assert loaded == []
