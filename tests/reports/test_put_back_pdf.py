"""A hand deleted and put back is as it was: the printed summary, the hand's slip and its
page say it was put back, not "changed" (a put-back takes the next version, as an edit
does), in English and in Nepali; a hand edited says so as before."""

from __future__ import annotations

import pytest
from api_hands import PLAYERS, add, play, table_night
from browser_support import TYPICAL_HAND
from pdf_support import letters, pdf_text

NE = {"Accept-Language": "ne"}

#: Per language: what hand 2 (edited) and hand 3 (deleted and put back) say.
SAID = {
    "en": {
        "edited": "Changed after it was saved (version 2).",
        "put_back": "Deleted, then put back as it was (version 2).",
        "page": "Deleted, then put back as it was.",
        "page_edited": "Changed 1 time.",
    },
    "ne": {
        "edited": "सेभ भएपछि बदलियो (संस्करण २)।",
        "put_back": "मेटिएर जस्ताको तस्तै फेरि राखियो (संस्करण २)।",
        "page": "मेटिएर जस्ताको तस्तै फेरि राखियो।",
        "page_edited": "१ पटक बदलियो।",
    },
}


@pytest.fixture
def put_back_match(client) -> str:
    """Three hands: hand 2 edited once, hand 3 deleted and put back."""
    made = client.post(
        "/api/v1/matches", json={"name": "Night", "players": PLAYERS, "rules": "sparkai"}
    ).get_json()
    match_id, key = made["id"], made["edit_key"]
    auth = {"Authorization": f"Bearer {key}"}
    play(client, match_id, key, [TYPICAL_HAND] * 3)
    edited = client.put(
        f"/api/v1/matches/{match_id}/hands/2",
        json={**TYPICAL_HAND, "winner": "Bikash", "version": 1},
        headers=auth,
    )
    assert edited.status_code == 200, edited.get_json()
    assert client.delete(f"/api/v1/matches/{match_id}/hands/3", headers=auth).status_code == 200
    restored = client.post(f"/api/v1/matches/{match_id}/hands/3/restore", headers=auth)
    assert restored.status_code == 200, restored.get_json()
    return match_id


@pytest.mark.parametrize("lang", ["en", "ne"])
def test_the_summary_and_the_slip_say_a_hand_was_put_back(client, put_back_match, lang):
    said = SAID[lang]
    headers = NE if lang == "ne" else {}
    summary = letters(
        pdf_text(client.get(f"/matches/{put_back_match}/summary.pdf", headers=headers).data)
    )
    assert letters(said["put_back"]) in summary
    assert summary.count(letters(said["edited"])) == 1  # hand 2's, not hand 3's
    slip = letters(
        pdf_text(client.get(f"/matches/{put_back_match}/hands/3/slip.pdf", headers=headers).data)
    )
    assert letters(said["put_back"]) in slip
    assert letters(said["edited"]) not in slip


@pytest.mark.parametrize("lang", ["en", "ne"])
def test_the_hand_page_says_it_was_put_back(client, put_back_match, lang):
    said = SAID[lang]
    headers = NE if lang == "ne" else {}
    put_back = client.get(f"/matches/{put_back_match}/hands/3", headers=headers)
    text = " ".join(put_back.get_data(as_text=True).split())
    assert said["page"] in text
    assert said["page_edited"] not in text
    edited = client.get(f"/matches/{put_back_match}/hands/2", headers=headers)
    assert said["page_edited"] in " ".join(edited.get_data(as_text=True).split())


def test_a_hand_changed_only_by_a_rename_prints_no_change(client):
    """A rename takes each hand's next version, as an edit does, but the play is as it
    was: the summary, the slip and the hand's page say nothing changed; a hand also
    edited says that it was."""
    table_id, auth, match_id = table_night(client, PLAYERS)
    for _ in range(2):
        add(client, match_id, auth, TYPICAL_HAND)
    match = {"id": match_id}
    edited = client.put(
        f"/api/v1/matches/{match['id']}/hands/2",
        json={**TYPICAL_HAND, "winner": "Bikash", "version": 1},
        headers=auth,
    )
    assert edited.status_code == 200, edited.get_json()
    renamed = client.patch(
        f"/api/v1/tables/{table_id}/players/Dipa", json={"name": "Deepa"}, headers=auth
    )
    assert renamed.status_code == 200, renamed.get_json()
    summary = letters(pdf_text(client.get(f"/matches/{match['id']}/summary.pdf").data))
    assert summary.count(letters("Changed after it was saved")) == 1  # hand 2's alone
    assert letters("Changed after it was saved (version 3).") in summary
    slip = letters(pdf_text(client.get(f"/matches/{match['id']}/hands/1/slip.pdf").data))
    assert letters("Changed after it was saved") not in slip and letters("Deepa") in slip
    page = " ".join(client.get(f"/matches/{match['id']}/hands/1").get_data(as_text=True).split())
    assert "Changed 1 time" not in page and "Deepa" in page
