"""The newest hands' views are kept from one version of a match to the next
(``ledger.matches.hands_kept``, issue 41): the first match page after a hand decodes
that hand's stored JSON alone, not the dozen it shows; any other write (a rename, an
edit) reads them again, so no page shows what a hand was before."""

from __future__ import annotations

import json

import pytest
from api_hands import add, hand, new_match

from ledger import matches
from ledger.matches.hands_kept import kept_hands
from ledger.matches.membership import rename_player
from ledger.web.score_table import RECENT_HANDS


@pytest.mark.parametrize("edit_before", [False, True])
def test_the_first_page_after_a_hand_decodes_that_hand_alone(make_app, edit_before):
    """A hand's result, as stored, is decoded once for the page after it was added: the
    other eleven the page shows are the views kept from the version before, also when an
    older hand, not shown, was edited in between (their kept JSON compared as text)."""
    results: list[int] = []

    def loads(text: str):
        value = json.loads(text)
        if isinstance(value, dict) and {"payments", "total_maal"} <= value.keys():
            results.append(value["n"])
        return value

    app = make_app(SQLALCHEMY_ENGINE_OPTIONS={"json_deserializer": loads})
    client = app.test_client()
    public_id, auth = new_match(client, RECENT_HANDS + 3)
    assert client.get(f"/matches/{public_id}").status_code == 200
    if edit_before:
        edited = client.put(
            f"/api/v1/matches/{public_id}/hands/2", json=hand("Dipa", 7), headers=auth
        )
        assert edited.status_code == 200
    add(client, public_id, auth, hand("Chandra", 9))
    results.clear()
    page = client.get(f"/matches/{public_id}")
    assert page.status_code == 200 and f">{RECENT_HANDS + 4}</a>" in page.text
    assert len(results) == 1  # the new hand's result: not the dozen shown
    with app.app_context():  # and the views are the hands as a fresh read gives them
        kept = matches.match_view(matches.get_match(public_id), newest=RECENT_HANDS)
        kept_hands(app).clear()
        fresh = matches.match_view(matches.get_match(public_id), newest=RECENT_HANDS)
    assert kept.hands == fresh.hands and len(kept.hands) == RECENT_HANDS


def test_a_rename_then_a_hand_shows_the_new_name_in_every_hand(app, client):
    public_id, auth = new_match(client, RECENT_HANDS + 2)
    assert "Bikash" in client.get(f"/matches/{public_id}").text  # the views kept
    with app.app_context():
        rename_player([matches.get_match(public_id)], "Bikash", "Bikas")
    add(client, public_id, auth, hand("Bikas", players=["Asha", "Bikas", "Chandra", "Dipa"]))
    page = client.get(f"/matches/{public_id}")
    assert page.status_code == 200 and "Bikash" not in page.text
    with app.app_context():
        view = matches.match_view(matches.get_match(public_id), newest=RECENT_HANDS)
    assert len(view.hands) == RECENT_HANDS
    for shown in view.hands:
        assert shown.sitting_out == () and "Bikas" in shown.nets and "Bikash" not in shown.nets


def test_an_edited_hand_then_a_new_one_shows_the_edit(app, client):
    public_id, auth = new_match(client, RECENT_HANDS)
    client.get(f"/matches/{public_id}")
    edited = client.put(
        f"/api/v1/matches/{public_id}/hands/{RECENT_HANDS - 1}",
        json=hand("Dipa", 11),
        headers=auth,
    )
    assert edited.status_code == 200
    add(client, public_id, auth, hand("Asha"))
    with app.app_context():
        view = matches.match_view(matches.get_match(public_id), newest=RECENT_HANDS)
        shown = view.hand(RECENT_HANDS - 1)
        assert shown is not None and shown.winner == "Dipa" and shown.version == 2
        kept_hands(app).clear()
        assert matches.match_view(matches.get_match(public_id), newest=RECENT_HANDS) == view
