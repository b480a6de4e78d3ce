"""Export (JSON and CSV) and import of a match through the API."""

import csv
import io
import json

import pytest
from api_support import PLAYERS, bearer, hand
from sqlalchemy import func, select

from ledger.extensions import db
from ledger.matches.models import Match

# What may differ between a match and its imported copy.
VOLATILE = {"id", "version", "edit_key"}


def comparable(match: dict) -> dict:
    out = {k: v for k, v in match.items() if k not in VOLATILE}
    out["hands"] = [
        {k: v for k, v in h.items() if k not in ("created_at", "updated_at")}
        for h in match["hands"]
    ]
    return out


def played_match(create_match, **fields):
    m = create_match(**fields)
    m.post_hand(hand())
    m.post_hand(hand("Esha", {"Bikash": ("unseen", 3), "Esha": ("sequences", 9)}))
    m.post_hand(hand("Bikash"))
    m.put_hand(2, hand("Bikash", {"Bikash": ("sequences", 3), "Esha": ("sequences", 9)}))
    m.delete_hand(3)
    m.post_hand(
        {
            "tiplu": "8H",
            "finish": "sequences",
            "winner": "Gopal",
            "players": [
                {"name": "Gopal", "seen": "sequences", "maal_cards": ["7H", "8H", "9H"]},
                {"name": "Dipa", "seen": "unseen", "maal_counts": {"alter": 1}},
            ],
        }
    )
    return m


def test_export_then_import_gives_an_equal_match_with_a_new_id_and_key(client, create_match):
    m = played_match(create_match, rules={"profile": "sparkai", "unseen_maal": "keep"})
    exported = client.get(f"{m.url}/export.json")
    assert exported.status_code == 200
    assert "attachment" in exported.headers["Content-Disposition"]
    document = exported.get_json()
    assert [h["number"] for h in document["hands"]] == [1, 2, 4]

    imported = client.post("/api/v1/matches/import", json=document)
    assert imported.status_code == 201, imported.get_json()
    copy = imported.get_json()
    assert copy["id"] != m.id
    assert copy["edit_key"] != m.key
    original = m.get()
    assert comparable(copy) == comparable(original)
    assert copy["next_hand_number"] == original["next_hand_number"] == 5
    assert copy["rules"]["unseen_maal"] == "keep"

    url = f"/api/v1/matches/{copy['id']}"
    assert client.get(f"{url}/hands/2").get_json()["history"][0]["hand"]["winner"] == "Esha"
    # The keys stay apart: each opens only its own match.
    assert client.post(f"{url}/hands", json=hand(), headers=bearer(m.key)).status_code == 403
    added = client.post(f"{url}/hands", json=hand(), headers=bearer(copy["edit_key"]))
    assert added.get_json()["number"] == 5
    assert len(m.get()["hands"]) == 3  # the original is untouched

    again = client.get(f"{url}/export.json").get_json()
    assert again["history"] == document["history"]  # timestamps included
    assert [h["created_at"] for h in again["hands"][:3]] == [
        h["created_at"] for h in document["hands"]
    ]


def test_import_recomputes_the_scores_it_is_given(client, create_match):
    m = played_match(create_match)
    document = client.get(f"{m.url}/export.json").get_json()
    document["hands"][0]["nets"] = {"Asha": 1000, "Bikash": -1000}
    document["totals"] = {"Asha": 99999}
    copy = client.post("/api/v1/matches/import", json=document).get_json()
    assert copy["players"] == m.get()["players"]


@pytest.mark.parametrize(
    ("change", "field"),
    [
        (lambda d: d["hands"][0]["players"][0].update(name="Zed"), "hands.0.players.0.name"),
        (lambda d: d["hands"][1].update(winner="Nobody"), "hands.1.winner"),
        (lambda d: d["hands"][1].update(number=1), "hands.1.number"),
        (lambda d: d["hands"][0].update(dealer="Zed"), "hands.0.dealer"),
        (lambda d: d["history"][0].update(action="undo"), "history.0.action"),
        (lambda d: d.update(players=["Asha"]), "players"),
        (lambda d: d.update(format="something else"), "format"),
        (lambda d: d.update(hands={}), "hands"),
    ],
)
def test_an_invalid_import_is_422_and_stores_nothing(app, client, create_match, change, field):
    m = played_match(create_match)
    document = client.get(f"{m.url}/export.json").get_json()
    change(document)
    response = client.post("/api/v1/matches/import", json=document)
    assert response.status_code == 422
    assert field in [e["field"] for e in response.get_json()["errors"]]
    with app.app_context():
        assert db.session.scalar(select(func.count()).select_from(Match)) == 1


@pytest.mark.slow  # seconds: lays out PDFs or runs many requests
def test_import_of_a_large_match_is_not_held_to_the_usual_body_limit(client, create_match):
    m = create_match()
    document = client.get(f"{m.url}/export.json").get_json()
    document["hands"] = [
        {
            "number": n,
            "dealer": "Asha",
            **hand(players={f"{p}": ("sequences", 1) for p in PLAYERS[:5]}),
        }
        for n in range(1, 1501)
    ]
    body = json.dumps(document).encode()
    assert len(body) > 256 * 1024
    response = client.post("/api/v1/matches/import", data=body, content_type="application/json")
    assert response.status_code == 201
    assert len(response.get_json()["hands"]) == 1500


# --- CSV -------------------------------------------------------------------------------


def test_csv_has_a_row_per_hand_and_the_totals(client, create_match):
    m = played_match(create_match)
    response = client.get(f"{m.url}/export.csv")
    assert response.status_code == 200
    assert response.mimetype == "text/csv"
    assert response.headers["Content-Disposition"] == 'attachment; filename="tihar-2026.csv"'
    rows = list(csv.reader(io.StringIO(response.get_data(as_text=True))))
    assert rows[0] == ["Hand", "Dealer", "Finish", "Winner", *PLAYERS]
    assert [r[0] for r in rows[1:]] == ["1", "2", "4", "Total"]
    match = m.get()
    hand_one = {p["name"]: p["net"] for p in match["hands"][0]["players"]}
    assert rows[1][4:] == [str(hand_one[p]) if p in hand_one else "" for p in PLAYERS]
    assert rows[-1][4:] == [str(p["total"]) for p in match["players"]]
    assert any(cell.startswith("-") for cell in rows[1][4:])  # numbers stay numbers


def test_csv_escapes_cells_that_a_spreadsheet_would_run(client):
    evil = ['=HYPERLINK("http://x.io","hi")', "+1", "@SUM(A1)", "-x", "-5"]
    body = {"name": "=1+1", "players": [*evil, "Asha"], "rules": "sparkai"}
    match = client.post("/api/v1/matches", json=body).get_json()
    data = hand(evil[0], {evil[0]: ("sequences", 5), "Asha": ("sequences", 0)})
    url = f"/api/v1/matches/{match['id']}"
    assert (
        client.post(f"{url}/hands", json=data, headers=bearer(match["edit_key"])).status_code == 201
    )
    text = client.get(f"{url}/export.csv").get_data(as_text=True)
    rows = list(csv.reader(io.StringIO(text)))
    assert rows[0][4:] == ["'" + name for name in evil] + ["Asha"]
    assert rows[1][1] == "'" + evil[0]  # the dealer
    assert rows[1][3] == "'" + evil[0]  # the winner
    assert rows[1][4] == str(match_net(client, url, evil[0]))
    for row in rows:
        for cell in row:
            assert not cell.startswith(("=", "+", "@", "\t", "\r")), cell
            if cell.startswith("-"):
                int(cell)  # only numbers may start with a minus
    assert "'-5" in rows[0]  # a name that looks like a number is still a name


def match_net(client, url, name):
    players = client.get(url).get_json()["hands"][0]["players"]
    return next(p["net"] for p in players if p["name"] == name)


def _played_earlier(document: dict) -> dict:
    """The export of a match as if it had been played on 20 Oct 2025 (every time in it
    moved back): a match kept for a year, then loaded from its summary PDF."""
    today = document["hands"][0]["created_at"][:10]
    return json.loads(json.dumps(document).replace(f'"{today}T', '"2025-10-20T'))


def test_an_imported_match_keeps_when_it_was_made_and_last_changed(client, create_match):
    """An import made the copy on the day of the import: a match played in 2025 and loaded
    from its summary PDF printed "Played 20 Oct 2025 · created 7 Dec 2026 · last change
    7 Dec 2026", and a table moved in dated every night the day it moved."""
    m = played_match(create_match)
    document = _played_earlier(client.get(f"{m.url}/export.json").get_json())
    assert document["created_at"].startswith("2025-10-20T")
    copy = client.post("/api/v1/matches/import", json=document).get_json()
    assert (copy["created_at"], copy["updated_at"]) == (
        document["created_at"],
        document["updated_at"],
    )
    again = client.get(f"/api/v1/matches/{copy['id']}/export.json").get_json()
    assert (again["created_at"], again["updated_at"]) == (
        document["created_at"],
        document["updated_at"],
    )


def test_an_export_without_the_matchs_times_takes_them_from_its_hands(client, create_match):
    """An export (a summary PDF) printed before the match's own times were in it: the
    match was made when its first hand was saved, and last changed at its newest time."""
    m = played_match(create_match)
    document = _played_earlier(client.get(f"{m.url}/export.json").get_json())
    del document["created_at"], document["updated_at"]
    copy = client.post("/api/v1/matches/import", json=document).get_json()
    times = [h[k] for h in document["hands"] for k in ("created_at", "updated_at")]
    times += [h[k] for h in document["history"] for k in ("saved_at", "replaced_at")]
    assert copy["created_at"] == min(times)
    assert copy["updated_at"] == max(times)
