"""The session cookie is set by an answer only when the session changed, or once a day to
restart its lifetime (ledger/http/security.py). Flask set a permanent session's cookie on
every answer, as the session was when its request began: an answer that arrived after an
own link was opened meanwhile (the offline worker fetching the page's static files as it
first starts) took the link back, and the own page answered 403."""

from __future__ import annotations

import re
import time

from itsdangerous import TimestampSigner
from test_money_closes_pages import _night, _own_link

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


def test_an_unchanged_session_is_sent_again_once_a_day(app, client, monkeypatch):
    """The cookie keeps a browser's links for 400 days after its last visit: a visit a
    day or more after the cookie was last set sets it again, unchanged."""
    table_id = _night(client, "Asha")
    _own_link(client, table_id, "Dipa")
    client.get(f"/tables/{table_id}")  # its forms' CSRF token is kept in the session
    assert _session(client.get(f"/tables/{table_id}")) == []
    with app.test_request_context():
        serializer = app.session_interface.get_signing_serializer(app)
        data = serializer.loads(client.get_cookie("session").value)
        yesterday = int(time.time()) - DAY
        monkeypatch.setattr(TimestampSigner, "get_timestamp", lambda self: yesterday)
        client.set_cookie("session", serializer.dumps(data))  # as set a day ago
        monkeypatch.undo()
    refreshed = _session(client.get(f"/tables/{table_id}"))
    assert len(refreshed) == 1 and "Expires=" in refreshed[0]
    assert _session(client.get(f"/tables/{table_id}")) == []  # and not again that day
    assert client.get(f"/me/{table_id}").status_code == 200
