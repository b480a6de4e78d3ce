"""Writes to one hand at the same instant: each is stored whole or refused (409, or 404
for an edit that comes after the delete), never a 500 (on PostgreSQL an edit and a
delete used to deadlock), and the hand and its history show what went through. A write
to a match or a table deleted meanwhile is a 404, as the next request's."""

import threading

import pytest
from at_once import at_once
from sqlalchemy import func, select

from ledger import matches
from ledger.extensions import db
from ledger.matches import service as match_service
from ledger.matches.models import Hand, HandVersion, Match
from ledger.tables import service as table_service

PLAYERS = ["Asha", "Bikash", "Chandra"]
ROUNDS = 15


def hand(maal: int) -> dict:
    return {
        "finish": "sequences",
        "winner": "Asha",
        "players": [
            {"name": "Asha", "seen": "sequences", "maal": maal},
            {"name": "Bikash", "seen": "sequences", "maal": 3},
            {"name": "Chandra", "seen": "unseen", "maal": 0},
        ],
    }


@pytest.fixture
def race_app(make_app):
    return make_app(PROPAGATE_EXCEPTIONS=False)  # a failure answers 500, as when served


def test_an_edit_and_a_delete_of_one_hand_at_once(race_app):
    with race_app.app_context():
        match, key = matches.create_match("Race", PLAYERS, "sparkai", None)
        public_id = match.public_id
    url = f"/api/v1/matches/{public_id}/hands"
    auth = {"Authorization": f"Bearer {key}"}
    editor, deleter = race_app.test_client(), race_app.test_client()
    seen = set()
    for round_ in range(ROUNDS):
        added = editor.post(url, json=hand(10), headers=auth)
        assert added.status_code == 201, added.get_json()
        number = added.get_json()["number"]
        edited, deleted = at_once(
            lambda n=number, r=round_: editor.put(f"{url}/{n}", json=hand(20 + r), headers=auth),
            lambda n=number: deleter.delete(f"{url}/{n}", headers=auth),
        )
        edit, delete = edited.status_code, deleted.status_code
        seen.add((edit, delete))
        # an edit that comes after the delete finds no hand: 404
        assert edit in (200, 404, 409) and delete in (200, 409), (round_, edit, delete)
        with race_app.app_context():
            stored = db.session.scalar(
                select(Hand).where(Hand.match_id == match.id, Hand.number == number)
            )
            history = matches.hand_history(db.session.get(type(match), match.id), number)
        actions = [v.action for v in history]
        if delete == 200:  # an edit saved just before the delete is in the history
            assert stored is None
            assert actions in (["delete"], ["edit", "delete"])
            assert (edit == 200) <= (actions == ["edit", "delete"])
            assert (edit == 404) <= (actions == ["delete"])
        else:
            assert edit == 200 and actions == ["edit"]
            assert stored.version == 2 and stored.input["players"][0]["maal"] == 20 + round_
        if actions[0] == "edit":
            assert history[0].version == 1 and history[0].input["players"][0]["maal"] == 10
    assert seen <= {(200, 200), (404, 200), (409, 200), (200, 409)}


def _refusals():
    import sqlite3

    import psycopg.errors

    return [
        psycopg.errors.DeadlockDetected("deadlock detected"),
        psycopg.errors.SerializationFailure("could not serialize access"),
        sqlite3.OperationalError("database is locked"),
    ]


@pytest.mark.parametrize("refusal", _refusals(), ids=lambda e: type(e).__name__)
def test_a_write_refused_for_meeting_another_is_a_409_and_stores_nothing(
    race_app, monkeypatch, refusal
):
    from sqlalchemy.exc import OperationalError

    with race_app.app_context():
        match, key = matches.create_match("Race", PLAYERS, "sparkai", None)
        matches.add_hand(match, hand(10))
        public_id, match_id = match.public_id, match.id
    url = f"/api/v1/matches/{public_id}/hands"
    auth = {"Authorization": f"Bearer {key}"}
    client = race_app.test_client()

    def refuse():
        raise OperationalError("COMMIT", {}, refusal)

    monkeypatch.setattr(db.session, "commit", refuse)
    edited = client.put(f"{url}/1", json=hand(30), headers=auth)
    added = client.post(url, json=hand(40), headers=auth)
    deleted = client.delete(f"{url}/1", headers=auth)
    monkeypatch.undo()

    assert (edited.status_code, added.status_code, deleted.status_code) == (409, 409, 409)
    assert edited.get_json()["errors"][0]["field"] == "version"
    assert "Reload it" in edited.get_json()["errors"][0]["message"]
    assert added.get_json()["errors"] == [
        {
            "field": "",
            "message": "Another change to this match was being saved at the same moment. "
            "Please try again.",
        }
    ]
    with race_app.app_context():
        stored = db.session.scalars(select(Hand).where(Hand.match_id == match_id)).all()
        assert [(h.number, h.version, h.input["players"][0]["maal"]) for h in stored] == [
            (1, 1, 10)
        ]
        assert db.session.scalar(select(func.count()).select_from(HandVersion)) == 0


def _deleted_meanwhile(monkeypatch, service, delete) -> list[int]:
    """The first write of this thread to take its row (``service._touch``) finds it
    deleted by another phone's request (``delete``, in a thread of its own) just before;
    the list gets that request's status."""
    hold = service._touch
    deleted: list[int] = []

    def touch(row, **options):
        if threading.current_thread() is threading.main_thread() and not deleted:
            deleting = threading.Thread(target=lambda: deleted.append(delete().status_code))
            deleting.start()
            deleting.join()
        return hold(row, **options)

    monkeypatch.setattr(service, "_touch", touch)
    return deleted


def test_a_hand_added_as_its_match_is_deleted_is_a_404(race_app, monkeypatch):
    """A night started by mistake is deleted on one phone while another adds a hand to
    it: the hand is told the match is gone (404; the page's kept hands say so), not 500."""
    client = race_app.test_client()
    made = client.post(
        "/api/v1/matches", json={"name": "Race", "players": PLAYERS, "rules": "sparkai"}
    )
    url = f"/api/v1/matches/{made.get_json()['id']}"
    auth = {"Authorization": f"Bearer {made.get_json()['edit_key']}"}
    deleted = _deleted_meanwhile(
        monkeypatch, match_service, lambda: race_app.test_client().delete(url, headers=auth)
    )
    added = client.post(f"{url}/hands", json=hand(10), headers=auth)
    assert deleted == [204]
    assert added.status_code == 404
    assert added.get_json()["errors"][0]["message"].startswith("There is no match at this address.")
    with race_app.app_context():
        assert db.session.scalar(select(func.count()).select_from(Hand)) == 0


@pytest.mark.parametrize(
    "write",
    [
        ("post", "/matches", {"name": "Night", "players": PLAYERS}),
        ("post", "/seasons", {"name": "Tihar"}),
        ("patch", "", {"players": ["Esha"]}),
        ("post", "/players/Asha/link", None),
    ],
    ids=["night", "season", "roster", "own-link"],
)
def test_a_write_to_a_table_deleted_meanwhile_is_a_404(race_app, monkeypatch, write):
    """A table made by mistake is deleted on one phone while another starts a night in
    it (or a season, a roster change, an own link): 404, and nothing is stored."""
    client = race_app.test_client()
    made = client.post("/api/v1/tables", json={"name": "T", "players": PLAYERS}).get_json()
    url = f"/api/v1/tables/{made['id']}"
    auth = {"Authorization": f"Bearer {made['edit_key']}"}
    deleted = _deleted_meanwhile(
        monkeypatch, table_service, lambda: race_app.test_client().delete(url, headers=auth)
    )
    method, path, body = write
    answer = getattr(client, method)(url + path, json=body, headers=auth)
    assert deleted == [204]
    assert answer.status_code == 404
    assert answer.get_json()["errors"][0]["message"].startswith(
        "There is no table at this address."
    )
    with race_app.app_context():
        assert db.session.scalar(select(func.count()).select_from(Match)) == 0
