"""The hand pages store a hand once, and a match ends: the form's key and number, Back
then Save, two scorekeepers on one number, a key reused with other values, undo, and
playing on or stopping after the end (the test client; the browser tests drive the same
in Chromium)."""

import re
import threading
from datetime import timedelta
from html import unescape

import pytest
from lost_database import lost_after_commit
from match_pages_support import (
    BY_COUNTS,
    PLAYERS,
    THREE_PLAY,
    VOID,
    WORKED,
    add_hand,
    create_match,
    engine_nets,
    hand_form,
    hidden,
    page_totals,
    same_browser,
    squash,
)
from sqlalchemy import func, select, update

from ledger import matches
from ledger.extensions import db
from ledger.matches.hands_kept import kept_hands
from ledger.matches.models import Hand, HandVersion, Match


def hands_stored(app) -> list[int]:
    with app.app_context():
        return list(db.session.scalars(select(Hand.number).order_by(Hand.number)))


def new_form(client, url: str) -> tuple[str, str, str]:
    """The key, number and dealer of a freshly shown new-hand form (as a browser posts
    them back)."""
    html = client.get(f"{url}/hands/new").get_data(as_text=True)
    dealer = re.search(r'<option selected value="([^"]+)"', html).group(1)
    return hidden(html, "hand_key"), hidden(html, "hand_number"), dealer


def save(client, url: str, hand: dict, form: tuple[str, str, str], number: str | None = None):
    key, shown_number, dealer = form
    data = hand_form(hand, hand_key=key, hand_number=number or shown_number, dealer=dealer)
    return client.post(f"{url}/hands/new", data=data)


# --- once ----------------------------------------------------------------------------------


def test_the_form_carries_a_new_key_and_says_which_hand_it_adds(client):
    url = create_match(client)
    html = client.get(f"{url}/hands/new").get_data(as_text=True)
    assert "<h1>Adding hand 1</h1>" in html
    assert "Save hand 1" in html
    key = hidden(html, "hand_key")
    assert len(key) >= 20 and hidden(html, "hand_number") == "1"
    assert new_form(client, url)[0] != key  # each form its own
    add_hand(client, url, WORKED)
    assert "<h1>Adding hand 2</h1>" in client.get(f"{url}/hands/new").get_data(as_text=True)


def test_the_same_form_sent_again_goes_to_the_hand_it_stored(app, client):
    """Back then Save, a double tap, a resend: one hand."""
    url = create_match(client)
    form = new_form(client, url)
    first = save(client, url, WORKED, form)
    assert first.status_code == 303 and first.headers["Location"] == url
    again = save(client, url, WORKED, form)
    assert again.status_code == 303 and again.headers["Location"] == url
    html = client.get(url).get_data(as_text=True)
    assert "Hand 1 had already been saved from this form; it is stored once." in html
    assert hands_stored(app) == [1]
    assert page_totals(html) == engine_nets(WORKED)


def test_a_hand_someone_else_stored_first_is_shown_beside_mine(app, client):
    url = create_match(client)
    form = new_form(client, url)
    other = new_form(client, url)  # a second scorekeeper with hand 1 open
    assert save(client, url, BY_COUNTS, other).status_code == 303

    refused = save(client, url, WORKED, form)
    assert refused.status_code == 409
    html = squash(refused.get_data(as_text=True))
    assert "Not saved.</strong> Hand 1 was saved by someone else first." in html
    assert "<caption>Hand 1 as saved, and yours</caption>" in html
    theirs, mine = engine_nets(BY_COUNTS), engine_nets(WORKED)
    for name in PLAYERS:
        row = f'<th scope="row">{name}</th> <td class="num">{theirs[name]:+d}</td>'
        assert row + f'<td class="num">{mine[name]:+d}</td>' in html.replace("−", "-")
    assert "<h1>Adding hand 2</h1>" in html and "Save mine as hand 2" in html
    assert hidden(html, "hand_key") == form[0] and hidden(html, "hand_number") == "2"
    assert 'value="sequences"' in html and f'href="{url}">Drop mine</a>' in html
    assert hands_stored(app) == [1]

    # Mine is another hand: saved as hand 2, with the same key.
    assert save(client, url, WORKED, form, "2").status_code == 303
    assert hands_stored(app) == [1, 2]


@pytest.mark.parametrize("lang", ["en", "ne"])
def test_a_hand_number_nobody_saved_is_not_said_to_be_saved_by_someone_else(app, client, lang):
    """A form for hand 2 whose hand was saved and undone on another phone, or hand 3
    sent while the match's next is 2 (kept offline behind a hand that was dropped): not
    saved, and the page says why, in the page's language; it never says someone saved
    a hand nobody has."""
    client.set_cookie("lang", lang)
    url = create_match(client)
    add_hand(client, url, WORKED)
    ahead = save(client, url, BY_COUNTS, new_form(client, url), "3")
    assert ahead.status_code == 409
    html = unescape(squash(ahead.get_data(as_text=True)))
    words = {
        "en": ("This match's next hand is 2, not 3.", "someone else first"),
        "ne": ("यो म्याचको अर्को बाजी २ हो, ३ होइन।", "अरू कसैले पहिल्यै"),
    }[lang]
    assert words[0] in html and words[1] not in html
    assert hands_stored(app) == [1]


def test_a_form_saved_then_changed_is_not_saved_over_its_hand(app, client):
    """Back, change a value, Save: the form's key stored hand 1 with other values."""
    url = create_match(client)
    form = new_form(client, url)
    save(client, url, WORKED, form)
    refused = save(client, url, VOID, form)
    assert refused.status_code == 409
    html = squash(refused.get_data(as_text=True))
    assert "This form was already saved as hand 1, with other values." in html
    assert "<caption>Hand 1 as saved, and yours</caption>" in html
    new_key = hidden(html, "hand_key")
    assert new_key != form[0] and hidden(html, "hand_number") == "2"
    assert hands_stored(app) == [1]
    assert save(client, url, VOID, (new_key, "2", form[2])).status_code == 303
    assert hands_stored(app) == [1, 2]


def test_a_form_without_a_key_still_saves(app, client):
    """Forms from before this change (and the tests' own posts) carry no key."""
    url = create_match(client)
    add_hand(client, url, WORKED)
    add_hand(client, url, WORKED)
    assert hands_stored(app) == [1, 2]


def test_a_tampered_key_is_a_problem_on_the_page(app, client):
    url = create_match(client)
    response = save(client, url, WORKED, ("tab\tkey", "1", "Asha"))
    assert response.status_code == 422
    assert "printable ASCII" in response.get_data(as_text=True)
    assert hands_stored(app) == []


# --- undo ----------------------------------------------------------------------------------


def test_undo_is_offered_once_to_the_browser_that_saved(app, client):
    url = create_match(client)
    add_hand(client, url, WORKED)
    html = client.get(url).get_data(as_text=True)
    assert f'action="{url}/hands/1/undo"' in html and "Undo hand 1" in html
    seconds = int(html.split('data-undo-seconds="')[1].split('"')[0])
    assert 100 < seconds <= 120
    assert "Undo hand 1" not in client.get(url).get_data(as_text=True)  # shown once
    # A co-scorekeeper's browser is not offered it.
    add_hand(client, url, BY_COUNTS)
    other = app.test_client()
    edit_link = re.search(r'id="edit-link" type="url" readonly value="([^"]+)"', html).group(1)
    assert other.get(edit_link).status_code == 303  # joins by the edit link
    assert "Enter hand 3" in other.get(url).get_data(as_text=True)  # an editor ...
    assert "Undo hand" not in other.get(url).get_data(as_text=True)  # ... not offered it
    assert "Undo hand 2" in client.get(url).get_data(as_text=True)


def test_undo_deletes_the_hand_and_keeps_its_history(app, client):
    url = create_match(client)
    add_hand(client, url, WORKED)
    add_hand(client, url, BY_COUNTS)
    response = client.post(f"{url}/hands/2/undo", data={"version": "1"})
    assert response.status_code == 303 and response.headers["Location"] == url
    html = client.get(url).get_data(as_text=True)
    assert "Hand 2 undone. Its record stays in its history." in html
    assert page_totals(html) == engine_nets(WORKED)
    assert hands_stored(app) == [1]
    with app.app_context():
        kept = db.session.scalars(select(HandVersion)).one()
    assert (kept.hand_number, kept.action) == (2, "delete")
    assert "This hand was deleted" in client.get(f"{url}/hands/2").get_data(as_text=True)
    again = client.post(f"{url}/hands/2/undo", data={"version": "1"}, follow_redirects=True)
    assert "had already been deleted" in again.get_data(as_text=True)


def test_undo_is_refused_when_too_late_or_changed_and_asks_to_confirm(app, client):
    url = create_match(client)
    add_hand(client, url, WORKED)
    add_hand(client, url, VOID)
    with app.app_context():
        saved = db.session.scalar(select(Hand.created_at).where(Hand.number == 1))
        three_minutes_ago = saved - timedelta(minutes=3)
        db.session.execute(
            update(Hand).where(Hand.number == 1).values(created_at=three_minutes_ago)
        )
        db.session.commit()
    kept_hands(app).clear()  # changed behind the app's back, no write counted: read again
    late = client.post(f"{url}/hands/1/undo", data={"version": "1"})
    assert late.status_code == 303 and late.headers["Location"] == f"{url}/hands/1/delete"
    page = client.get(late.headers["Location"]).get_data(as_text=True)
    assert "can no longer be undone in one tap" in page
    changed = client.post(f"{url}/hands/2/undo", data={"version": "7"})
    assert changed.headers["Location"] == f"{url}/hands/2/delete"
    assert hands_stored(app) == [1, 2]


def test_undo_needs_edit_rights(app, client):
    url = create_match(client)
    add_hand(client, url, WORKED)
    stranger = app.test_client()
    assert stranger.post(f"{url}/hands/1/undo", data={"version": "1"}).status_code == 403
    assert hands_stored(app) == [1]


def test_undo_in_time_is_a_configured_while(make_app):
    app = make_app(UNDO_SECONDS=0)
    client = app.test_client()
    url = create_match(client)
    add_hand(client, url, WORKED)
    assert "Undo hand" not in client.get(url).get_data(as_text=True)
    late = client.post(f"{url}/hands/1/undo", data={"version": "1"})
    assert late.headers["Location"] == f"{url}/hands/1/delete"


# --- the end of a match ------------------------------------------------------------------


def test_a_finished_match_takes_no_more_hands_on_the_page(app, client):
    url = create_match(client, length_count="2")
    form = new_form(client, url)
    add_hand(client, url, WORKED)
    add_hand(client, url, THREE_PLAY)
    # A form opened before the end, sent without a number: refused, the hand kept.
    refused = save(client, url, VOID, (form[0], "", form[2]))
    assert refused.status_code == 409
    html = squash(refused.get_data(as_text=True))
    assert "The match is over: its 2 hands are played." in html
    assert f'href="{url}/length">Play on…</a>' in html and 'value="7"' in html
    # A new form is not offered: the page leads to playing on.
    response = client.get(f"{url}/hands/new")
    assert response.status_code == 303 and response.headers["Location"] == f"{url}/length"
    assert hands_stored(app) == [1, 2]


def test_play_on_asks_the_new_length(app, client):
    url = create_match(client, length_count="2")
    add_hand(client, url, WORKED)
    add_hand(client, url, THREE_PLAY)
    page = client.get(f"{url}/length").get_data(as_text=True)
    assert ">Play on</h1>" in page and "Stop here" not in page
    assert 'value="6"' in page  # one more round of deals than the length: 2 + 4 players
    for bad, message in (("two", "Enter how many hands"), ("1", "2 hands played")):
        refused = client.post(f"{url}/length", data={"action": "play_on", "count": bad})
        assert refused.status_code == 422
        assert message in refused.get_data(as_text=True)
    played_on = client.post(f"{url}/length", data={"action": "play_on", "count": "3"})
    assert played_on.status_code == 303
    html = client.get(url).get_data(as_text=True)
    assert "The match goes on." in html and "Enter hand 3" in html
    assert "2 hands played of 3." in html
    add_hand(client, url, VOID)
    assert "The match is over." in client.get(url).get_data(as_text=True)


def test_stop_here_ends_the_match_after_the_hands_played(app, client):
    url = create_match(client, length_kind="open")
    assert "Stop here" not in client.get(url).get_data(as_text=True)  # no hands yet
    add_hand(client, url, WORKED)
    html = client.get(url).get_data(as_text=True)
    # An open match offers End the night on its page (issue 38); its length page still
    # stops it here.
    assert f'action="{url}/end"' in html
    assert "The match ends after the 1 hand played" in client.get(f"{url}/length").get_data(
        as_text=True
    )
    stopped = client.post(f"{url}/length", data={"action": "stop"})
    assert stopped.status_code == 303
    html = client.get(url).get_data(as_text=True)
    assert "The match ends here, after 1 hand." in html
    assert "The match is over." in html
    with app.app_context():
        assert db.session.scalars(select(Match)).one().length == {"hands": 1}


def test_stop_here_counts_a_hand_saved_at_the_same_moment(make_app, monkeypatch):
    """The length page showed 1 hand; another phone saves hand 2 before the stop is
    stored: the match ends after 2 (it was a 500: a length below the hands played)."""
    app = make_app(PROPAGATE_EXCEPTIONS=False)  # a failure answers 500, as when served
    client = app.test_client()
    url = create_match(client, length_kind="open")
    add_hand(client, url, WORKED)
    other = same_browser(app, client)
    held = matches.stop_here

    def after_another_hand(match):
        saving = threading.Thread(target=add_hand, args=(other, url, WORKED))
        saving.start()
        saving.join()
        return held(match)

    monkeypatch.setattr(matches, "stop_here", after_another_hand)
    stopped = client.post(f"{url}/length", data={"action": "stop"})
    monkeypatch.undo()
    assert stopped.status_code == 303
    html = client.get(url).get_data(as_text=True)
    assert "The match ends here, after 2 hands." in html
    assert "The match is over." in html
    assert hands_stored(app) == [1, 2]
    with app.app_context():
        assert db.session.scalars(select(Match)).one().length == {"hands": 2}


def test_the_length_page_needs_edit_rights(app, client):
    url = create_match(client, length_count="2")
    stranger = app.test_client()
    assert stranger.get(f"{url}/length").status_code == 403
    assert stranger.post(f"{url}/length", data={"action": "stop"}).status_code == 403
    with app.app_context():
        assert db.session.scalar(select(func.count()).select_from(Match)) == 1
        assert db.session.scalars(select(Match)).one().length == {"hands": 2}


@pytest.mark.parametrize("typed", ["²", "٣٣٣٣٣", "9" * 5000, "0", "-1"])
def test_play_on_refuses_what_is_no_length_on_its_field(app, client, typed):
    url = create_match(client, length_count="2")
    refused = client.post(f"{url}/length", data={"action": "play_on", "count": typed})
    assert refused.status_code == 422
    assert "Enter how many hands: a whole number from 1 to 1000." in refused.get_data(as_text=True)


def test_a_hand_saved_before_the_database_went_still_says_saved(app, client):
    """The answer after the commit is made from what the save knew: the page never says
    a stored hand was not saved (nor answers 500) because the database went meanwhile."""
    url = create_match(client)
    form = new_form(client, url)
    with lost_after_commit(app) as lost:
        answer = save(client, url, WORKED, form)
    assert lost["lost"]
    assert answer.status_code == 303, answer.get_data(as_text=True)
    assert answer.headers["Location"].endswith(url)
    assert hands_stored(app) == [1]
    assert "Hand 1 saved." in client.get(url).get_data(as_text=True)


def test_a_change_saved_before_the_database_went_still_says_changed(app, client):
    url = create_match(client)
    add_hand(client, url, WORKED)
    changed = {**WORKED, "players": [{**WORKED["players"][0], "maal": 12}, *WORKED["players"][1:]]}
    with lost_after_commit(app) as lost:
        answer = client.post(f"{url}/hands/1/edit", data=hand_form(changed, version="1"))
    assert lost["lost"]
    assert answer.status_code == 303, answer.get_data(as_text=True)
    html = client.get(url).get_data(as_text=True)
    assert "Hand 1 changed; the earlier version is in its history." in html
    assert page_totals(html) == engine_nets(changed)


def test_the_match_pages_background_copy_of_the_form_does_not_take_back_an_undo(client):
    """The editor's match page fetches the new-hand form in the background (kept for a
    tap with no connection: static/js/offline-entry.js). Its answer sets no session
    cookie: one answered after an undo tapped meanwhile set the session as it was before
    it (an editor's session is refreshed by every answer), and the page after the undo
    lost its message and its "put back" offer."""
    url = create_match(client)
    add_hand(client, url, WORKED)
    add_hand(client, url, BY_COUNTS)
    client.get(url)  # the match page, whose script asks for the form
    copy = client.get(f"{url}/hands/new", headers={"X-Ledger-Background": "1"})
    assert copy.status_code == 200 and 'name="hand_key"' in copy.get_data(as_text=True)
    late = [h for h in copy.headers.getlist("Set-Cookie") if h.startswith("session=")]
    assert client.post(f"{url}/hands/2/undo", data={"version": "1"}).status_code == 303
    for header in late:  # the copy's answer, arriving after the undo's
        client.set_cookie("session", header.split(";", 1)[0].split("=", 1)[1])
    html = client.get(url).get_data(as_text=True)
    assert "Hand 2 undone." in html and "Put hand 2 back" in html
