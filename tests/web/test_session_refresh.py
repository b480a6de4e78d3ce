"""The session cookie is set by an answer only when the session changed, or once a day to
restart its lifetime (ledger/http/security.py). Flask set a permanent session's cookie on
every answer, as the session was when its request began: an answer that arrived after an
own link was opened meanwhile (the offline worker fetching the page's static files as it
first starts) took the link back, and the own page answered 403."""

from __future__ import annotations

import re
import time

import pytest
from itsdangerous import TimestampSigner
from match_pages_support import WORKED, add_hand, create_match, hand_form, same_browser
from test_money_closes_pages import _night, _own_link

from ledger.http.security import BACKGROUND_HEADER, OWN_COOKIES

DAY = 24 * 3600


def _session(response) -> list[str]:
    return [h for h in response.headers.getlist("Set-Cookie") if h.startswith("session=")]


def _static_file(client, table_id: str) -> str:
    page = client.get(f"/tables/{table_id}").text
    return re.findall(r'(?:href|src)="(/static/[^"]+)"', page)[0]


def test_an_answer_begun_before_an_own_link_was_opened_does_not_take_it_back(app, client):
    table_id = _night(client, "Asha")
    asset = _static_file(client, table_id)
    before = client.get_cookie("session").value  # the editor's, as a request began with it
    _own_link(client, table_id, "Dipa")
    assert client.get(f"/me/{table_id}").status_code == 200
    late = app.test_client()
    late.set_cookie("session", before)
    for answer in (late.get(asset), late.get(f"/tables/{table_id}")):
        assert answer.status_code == 200
        for header in _session(answer):  # the browser takes whatever cookie it is sent
            client.set_cookie("session", header.split(";", 1)[0].split("=", 1)[1])
    assert client.get(f"/me/{table_id}").status_code == 200


def _taken(client, answer) -> None:
    """``answer``'s cookies taken by the browser of ``client``, as a browser takes them."""
    for header in answer.headers.getlist("Set-Cookie"):
        name, value = header.split(";", 1)[0].split("=", 1)
        client.set_cookie(name, value)


def test_an_answer_that_changed_something_else_does_not_take_back_an_own_link(app, client):
    """Two tabs of one browser: a season started in one, begun before an own link was
    opened in the other and answered after it. Its answer changed the session (its
    message) and set the whole session as it was when it began: the link was lost and
    the own page answered 403. Each cookie of the session is now set only by an answer
    that changed what it holds: both the link and the message are kept."""
    table_id = _night(client, "Asha")
    client.get(f"/tables/{table_id}")  # its forms' CSRF token is kept in the session
    late = same_browser(app, client)  # its request begins now
    _own_link(client, table_id, "Dipa")
    answer = late.post(f"/tables/{table_id}/seasons", data={"name": "Tihar"})
    assert answer.status_code == 303
    _taken(client, answer)
    assert "The season “Tihar” has begun." in client.get(f"/tables/{table_id}").text
    assert client.get(f"/me/{table_id}").status_code == 200


def test_an_answer_that_changed_something_else_does_not_take_back_a_new_match(app, client):
    """The same with a match started in one tab (its key kept) while the other saved a
    hand of another match (its message, its undo offer): the new match stays editable."""
    first = create_match(client)
    late = same_browser(app, client)
    second = create_match(client)
    answer = late.post(f"{first}/hands/new", data=hand_form(WORKED))
    assert answer.status_code == 303
    _taken(client, answer)
    assert "Hand 1 saved." in client.get(first).text
    assert client.get(f"{second}/hands/new").status_code == 200


@pytest.mark.parametrize("cookie", ["session", *OWN_COOKIES])
def test_an_unchanged_session_is_sent_again_once_a_day(app, client, monkeypatch, cookie):
    """The cookies keep a browser's links for 400 days after its last visit: a visit a
    day or more after one was last set sets it again, unchanged, and it alone (each of
    the session's cookies is set when what it holds changes, so each keeps its day)."""
    table_id = _night(client, "Asha")
    _own_link(client, table_id, "Dipa")
    client.get(f"/tables/{table_id}")  # its forms' CSRF token is kept in the session
    assert client.get(f"/tables/{table_id}").headers.getlist("Set-Cookie") == []
    with app.test_request_context():
        serializer = app.session_interface.get_signing_serializer(app)
        data = serializer.loads(client.get_cookie(cookie).value)
        yesterday = int(time.time()) - DAY
        monkeypatch.setattr(TimestampSigner, "get_timestamp", lambda self: yesterday)
        client.set_cookie(cookie, serializer.dumps(data))  # as set a day ago
        monkeypatch.undo()
    refreshed = client.get(f"/tables/{table_id}").headers.getlist("Set-Cookie")
    assert len(refreshed) == 1 and refreshed[0].startswith(f"{cookie}=")
    assert "Expires=" in refreshed[0]
    again = client.get(f"/tables/{table_id}")
    assert again.headers.getlist("Set-Cookie") == []  # and not again that day
    assert client.get(f"/me/{table_id}").status_code == 200


def test_a_session_of_one_cookie_keeps_its_keys_and_splits_at_its_next_change(app, client):
    """A browser's cookie from before the session was split holds the edit keys and own
    links itself: they still work, and move to their cookies when the session changes."""
    table_id = _night(client, "Asha")
    _own_link(client, table_id, "Dipa")
    with app.test_request_context():
        serializer = app.session_interface.get_signing_serializer(app)
        whole = serializer.loads(client.get_cookie("session").value)
        for name in OWN_COOKIES:
            whole.update(serializer.loads(client.get_cookie(name).value))
            client.delete_cookie(name)
        client.set_cookie("session", serializer.dumps(whole))  # as set before the split
    assert client.get(f"/me/{table_id}").status_code == 200
    assert client.post(f"/tables/{table_id}/seasons", data={"name": "Tihar"}).status_code == 303
    with app.test_request_context():
        rest = serializer.loads(client.get_cookie("session").value)
    assert not set(OWN_COOKIES.values()) & set(rest)
    assert all(client.get_cookie(name) is not None for name in OWN_COOKIES)
    assert client.get(f"/me/{table_id}").status_code == 200
    assert "Tihar" in client.get(f"/tables/{table_id}").text


def test_a_background_fetch_leaves_the_pages_messages_for_the_page(client):
    """Hands kept with no connection are sent one after the other, each answer adding its
    "sent and saved" to the session for the match page they lead to. A page's script
    fetching meanwhile in the background (the new-hand form kept for no connection, a
    fresh form token) rendered a page and took the messages: the match page had none."""
    url = create_match(client)
    client.get(f"{url}/hands/new")  # the form's token is in the session from here on
    add_hand(client, url, WORKED)  # its "Hand 1 saved." waits for the next page
    background = client.get(f"{url}/hands/new", headers={BACKGROUND_HEADER: "1"})
    assert background.status_code == 200 and "Hand 1 saved" not in background.text
    assert _session(background) == []
    assert "Hand 1 saved" in client.get(url).text
