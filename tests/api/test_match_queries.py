"""Reading a match runs a fixed number of SQL queries, however many hands it has."""

from api_support import PLAYERS, hand
from sql_counting import counting_queries

from ledger import matches
from ledger.matches.players_kept import kept_players
from ledger.matches.running_kept import running_kept


def match_with_hands(client, n: int) -> str:
    """A match of ``n`` hands (made by import: one request), with some edits' history."""
    rotation = [
        hand(),
        hand("Esha", {"Esha": ("sequences", 4), "Gopal": ("unseen", 2)}),
        hand("Bikash", {"Bikash": ("dublees", 1), "Chandra": ("sequences", 3)}, "dublees"),
    ]
    document = {
        "name": f"{n} hands",
        "players": PLAYERS,
        "rules": "sparkai",
        "length": None,
        "hands": [
            {"number": i, "version": 2 if i == 1 else 1, "dealer": PLAYERS[(i - 1) % 6]}
            | rotation[i % 3]
            for i in range(1, n + 1)
        ],
        "history": [{"hand": 1, "version": 1, "dealer": "Asha", **hand()}],
    }
    response = client.post("/api/v1/matches/import", json=document)
    assert response.status_code == 201, response.get_json()
    return response.get_json()["id"]


def test_get_match_queries_do_not_grow_with_hands(app, client):
    small, large = match_with_hands(client, 2), match_with_hands(client, 200)
    counts = {}
    running_kept(app).clear()  # the totals after each hand are read, not taken up
    kept_players(app).clear()  # and the players
    for public_id in (small, large):
        with counting_queries(app) as statements:
            response = client.get(f"/api/v1/matches/{public_id}")
        assert response.status_code == 200
        counts[public_id] = len(statements)
    assert len(client.get(f"/api/v1/matches/{large}").get_json()["hands"]) == 200
    # the match, its players, the hands' fold records (the totals after each), their JSON
    assert counts[small] == counts[large] == 4


def test_match_view_queries_do_not_grow_with_hands(app, client):
    small, large = match_with_hands(client, 2), match_with_hands(client, 200)
    counts = []
    running_kept(app).clear()
    kept_players(app).clear()
    for public_id in (small, large):
        with app.app_context(), counting_queries(app) as statements:
            view = matches.match_view(matches.get_match(public_id))
            assert view.totals
            assert all(h.players() for h in view.hands)
        counts.append(len(statements))
    assert counts[0] == counts[1] == 4  # the match, its players, its hands, their moves
