"""``marriage-ledger serve`` keeps a follower's connection open from poll to poll
(``ledger.serving.keepalive``): waitress alone closed it after every 204."""

import http.client
import socket

import pytest
from served import PLAYERS, Browser


@pytest.fixture
def followed(ledger_env, init_db, serve):
    """A served ledger and the polls of one of its matches: (port, the poll while
    unchanged, a poll from an older version)."""
    init_db(ledger_env)
    served = serve(ledger_env, "--host", "127.0.0.1")
    made = Browser(served.base).post(
        "/api/v1/matches",
        json_body={"name": "Followed", "players": PLAYERS, "rules": "sparkai", "length": None},
    )
    assert made.status == 201, made.text
    match = made.json()
    live = f"/matches/{match['id']}/live"
    return served.port, f"{live}?v={match['version']}", f"{live}?v={match['version'] - 1}"


def get(connection: http.client.HTTPConnection, path: str, **headers: str):
    connection.request("GET", path, headers=headers)
    answer = connection.getresponse()
    return answer, answer.read()


def test_polls_follow_one_another_on_one_connection(followed):
    port, poll, stale_poll = followed
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
    try:
        answer, body = get(connection, poll)
        assert (answer.status, body, answer.will_close) == (204, b"", False)
        assert answer.getheader("Connection") is None
        kept = connection.sock
        for path, status in ((poll, 204), (stale_poll, 200), (poll, 204)):
            answer, body = get(connection, path)
            assert (answer.status, answer.will_close) == (status, False)
            assert connection.sock is kept  # http.client reconnects when a server closed
            assert (b'data-version="1"' in body) == (status == 200)

        answer, _ = get(connection, poll, Connection="close")  # the client's wish stands
        assert (answer.status, answer.will_close) == (204, True)
        assert answer.getheader("Connection") == "close"
    finally:
        connection.close()


def test_an_http_1_0_poll_still_closes(followed):
    """HTTP/1.0 has no keep-alive without a length: waitress's rule stays."""
    port, poll, _ = followed
    with socket.create_connection(("127.0.0.1", port), timeout=10) as raw:
        raw.sendall(f"GET {poll} HTTP/1.0\r\nHost: 127.0.0.1\r\n\r\n".encode())
        received = b""
        while chunk := raw.recv(4096):
            received += chunk
    assert received.startswith(b"HTTP/1.0 204 ")
    assert b"\r\nConnection: close\r\n" in received
