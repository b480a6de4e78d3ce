"""The followers' poll of an unchanged match is answered in front of the app
(``ledger.http.polls``): as the app would answer it, and only then."""

import re
import threading
import time

import pytest
from flask import request
from served import HAND, PLAYERS
from sqlalchemy.exc import OperationalError
from werkzeug.test import Client

from ledger.http import compression, polls
from ledger.http.errors import RETRY_AFTER
from ledger.http.logs import RequestLog
from ledger.http.polls import UnchangedPolls

#: What the app's own 204 says that the shortcut's leaves out (see the module).
NOT_REPEATED = {"Vary", "Content-Type"}
CSRF_TOKEN = re.compile(rb'"X-CSRFToken": "[^"]+"')  # one per session: two clients differ


@pytest.fixture
def match(client, reached):
    made = client.post(
        "/api/v1/matches",
        json={"name": "Followed", "players": PLAYERS, "rules": "sparkai", "length": None},
    )
    assert made.status_code == 201, made.get_data(as_text=True)
    reached.clear()
    return made.get_json()


def shortcut_of(app) -> UnchangedPolls:
    log = app.wsgi_app
    assert isinstance(log, RequestLog) and isinstance(log.app, UnchangedPolls)
    return log.app


def the_apps_own(app, path: str, base_url: str = "http://localhost"):
    """The answer of the app without the shortcut in front of it."""
    return Client(shortcut_of(app).wsgi_app).get(path, base_url=base_url)


def version_of(client, public_id: str) -> int:
    return client.get(f"/api/v1/matches/{public_id}").get_json()["version"]


@pytest.mark.parametrize("base_url", ["http://localhost", "https://localhost"])
def test_an_unchanged_match_is_answered_without_the_app(app, client, match, reached, base_url):
    poll = f"/matches/{match['id']}/live?v={match['version']}"
    answer = client.get(poll, base_url=base_url)
    assert (answer.status_code, answer.data) == (204, b"")
    assert reached == []
    own = the_apps_own(app, poll, base_url)
    assert own.status_code == 204 and reached == ["matches.live"]
    expected = {k: v for k, v in own.headers.items() if k not in NOT_REPEATED}
    assert dict(answer.headers) == expected
    assert ("Strict-Transport-Security" in answer.headers) == base_url.startswith("https")


def test_a_changed_match_is_the_apps_to_answer(client, match, reached):
    auth = {"Authorization": f"Bearer {match['edit_key']}"}
    stored = client.post(f"/api/v1/matches/{match['id']}/hands", json=HAND, headers=auth)
    assert stored.status_code == 201, stored.get_data(as_text=True)
    reached.clear()
    version = version_of(client, match["id"])
    assert version != match["version"]

    stale = client.get(f"/matches/{match['id']}/live?v={match['version']}")
    assert stale.status_code == 200 and f'data-version="{version}"' in stale.text
    assert reached == ["api.get_match", "matches.live"]
    fresh = client.get(f"/matches/{match['id']}/live?v={version}")
    assert fresh.status_code == 204 and len(reached) == 2


@pytest.mark.parametrize("query", ["", "?v=", "?v=one", "?v=1.0", "?w=1", "?v=99"])
def test_a_poll_without_the_matchs_version_is_the_apps(app, client, match, reached, query):
    path = f"/matches/{match['id']}/live{query}"
    answer = client.get(path)
    assert answer.status_code == 200 and reached == ["matches.live"]


@pytest.mark.parametrize("public_id", ["NoSuchMatch0000000000a", "bad!id", "x" * 200, "%00"])
def test_no_match_gets_the_apps_404(app, client, reached, public_id):
    path = f"/matches/{public_id}/live?v=1"
    answer = client.get(path)
    assert answer.status_code == 404
    own = the_apps_own(app, path)
    assert CSRF_TOKEN.sub(b"", answer.data) == CSRF_TOKEN.sub(b"", own.data)
    assert reached == ["matches.live"] * 2


@pytest.mark.parametrize(
    ("method", "suffix", "status"),
    [
        ("HEAD", "/live", 204),  # the app's own answer, the same
        ("POST", "/live", 405),
        ("GET", "/live/", 404),
    ],
)
def test_other_requests_are_the_apps(client, match, reached, method, suffix, status):
    path = f"/matches/{match['id']}{suffix}?v={match['version']}"
    assert client.open(path, method=method).status_code == status
    assert len(reached) == 1


def assert_unreachable(answer) -> None:
    """The poll's 503 when the database cannot be reached: a line of text saying to try
    again, ``Retry-After``, the headers of every answer; never the server's bare 500."""
    assert answer.status_code == 503
    assert answer.headers["Retry-After"] == str(RETRY_AFTER)
    assert answer.headers["Cache-Control"] == "no-store"
    assert answer.headers["X-Content-Type-Options"] == "nosniff"
    assert answer.mimetype == "text/plain"
    assert "cannot reach its database" in answer.get_data(as_text=True)


def test_a_database_error_is_a_503_in_front_of_the_app(app, client, match, reached, monkeypatch):
    shortcut = shortcut_of(app)

    class Broken:
        def connect(self):
            raise OperationalError("SELECT version", {}, Exception("the database is away"))

    monkeypatch.setattr(shortcut, "engine", lambda: Broken())
    assert_unreachable(client.get(f"/matches/{match['id']}/live?v={match['version']}"))
    assert reached == []


@pytest.fixture
def teardown_fails(app) -> list[bool]:
    """While it holds True, the app's teardown (which gives the connection back) meets a
    database that went away."""
    away: list[bool] = []

    @app.teardown_request
    def give_back(error):
        if away:
            raise OperationalError("ROLLBACK", {}, Exception("server closed the connection"))

    return away


@pytest.mark.parametrize("cookie", [False, True])
def test_a_poll_failing_for_the_database_after_the_app_answered_is_a_503(
    app, teardown_fails, match, reached, cookie
):
    """PostgreSQL going away between the app's answer and its teardown: the failure
    leaves the app, and the server would answer it with a bare 500."""
    client = app.test_client(use_cookies=cookie)
    if cookie:
        client.set_cookie("session", "x")
    poll = f"/matches/{match['id']}/live?v={match['version'] - 1}"
    teardown_fails.append(True)
    assert_unreachable(client.get(poll))
    assert reached == ["matches.live"]
    teardown_fails.clear()
    assert client.get(poll).status_code == 200


def test_the_followers_of_a_change_share_one_compression(client, match, monkeypatch):
    """Every phone fetches the same live part after a hand: it is compressed once."""
    compressed = []
    monkeypatch.setattr(
        compression, "_compress", lambda data, encoding: compressed.append(encoding) or b"squeezed"
    )
    compression._compress_kept.cache_clear()
    stale = f"/matches/{match['id']}/live?v=0"
    for _ in range(3):
        answer = client.get(stale, headers={"Accept-Encoding": "br"})
        assert (answer.status_code, answer.headers["Content-Encoding"]) == (200, "br")
        assert answer.data == b"squeezed"
    assert compressed == ["br"]
    client.get(stale, headers={"Accept-Encoding": "gzip"})
    assert compressed == ["br", "gzip"]


def test_behind_a_trusted_proxy_the_short_answer_knows_https(make_app):
    """The shortcut sits inside the app's ProxyFix: HSTS when the proxy says https."""
    app = make_app(PROXY_COUNT=1)
    reached = []
    app.before_request(lambda: reached.append(request.endpoint))
    client = app.test_client()
    made = client.post(
        "/api/v1/matches",
        json={"name": "Proxied", "players": PLAYERS, "rules": "sparkai", "length": None},
    ).get_json()
    poll = f"/matches/{made['id']}/live?v={made['version']}"
    for proto, hsts in (("https", True), ("http", False)):
        answer = client.get(poll, headers={"X-Forwarded-Proto": proto})
        assert answer.status_code == 204
        assert ("Strict-Transport-Security" in answer.headers) is hsts
    assert reached == ["api.create_match"]


def test_a_changed_poll_is_rendered_once_for_the_followers_without_cookies(
    app, client, match, reached
):
    """After a hand, the first follower's poll is the app's; the next followers who ask
    the same (no cookies, same language and encoding) get those very bytes without it;
    another language, or a phone with a session, is the app's again."""
    live = f"/matches/{match['id']}/live?v=0"
    headers = {"HX-Request": "true", "Accept-Encoding": "br"}
    first = Client(app.wsgi_app).get(live, headers=headers)
    assert first.status_code == 200 and reached == ["matches.live"]
    for port in range(5):
        again = Client(app.wsgi_app).get(
            live, headers=headers, environ_base={"REMOTE_PORT": str(40000 + port)}
        )
        assert again.status_code == 200
        assert again.get_data() == first.get_data()
        assert again.headers == first.headers
    assert reached == ["matches.live"]
    nepali = Client(app.wsgi_app).get(live, headers={**headers, "Accept-Language": "ne"})
    assert nepali.status_code == 200 and nepali.get_data() != first.get_data()
    assert reached == ["matches.live", "matches.live"]
    with_session = Client(app.wsgi_app)
    with_session.set_cookie("session", "anything")
    assert with_session.get(live, headers=headers).status_code == 200
    assert len(reached) == 3


def test_many_followers_are_asked_to_poll_more_slowly(app, client, match):
    """The live part's pace: every 3 s for a table's followers, every 15 s for a
    thousand (one process's ``POLLS_PER_SECOND`` spread over them)."""
    live = f"/matches/{match['id']}/live?v=0"

    def pace() -> str:
        body = client.get(live, headers={"HX-Request": "true"}).get_data(as_text=True)
        return re.search(r'hx-trigger="every (\d+)s"', body).group(1)

    assert pace() == "3"
    followers = Client(app.wsgi_app)
    for port in range(1000):
        followers.get(
            f"/matches/{match['id']}/live?v={match['version']}",
            environ_base={"REMOTE_PORT": str(20000 + port)},
        )
    assert pace() == "15"


def test_a_version_is_believed_for_a_second_unless_a_poll_has_seen_a_newer(
    app, client, match, reached, monkeypatch
):
    """A write that does not pass this process's shortcut (another process's) is seen
    once the version believed is a second old; a follower who saw it already (through
    the other process) is never told the older one."""
    now = [1000.0]
    monkeypatch.setattr(polls.time, "monotonic", lambda: now[0])
    old = f"/matches/{match['id']}/live?v={match['version']}"
    assert client.get(old).status_code == 204
    auth = {"Authorization": f"Bearer {match['edit_key']}"}
    elsewhere = Client(shortcut_of(app).wsgi_app)
    assert (
        elsewhere.post(f"/api/v1/matches/{match['id']}/hands", json=HAND, headers=auth).status_code
        == 201
    )
    version = version_of(elsewhere, match["id"])
    reached.clear()
    now[0] = 1000.5
    assert client.get(old).status_code == 204  # believed: within the second
    new = f"/matches/{match['id']}/live?v={version}"
    assert client.get(new).status_code == 204  # newer than believed: asked again
    assert client.get(old).status_code == 200 and reached == ["matches.live"]
    now[0] = 1002.0
    assert client.get(new).status_code == 204 and reached == ["matches.live"]


def test_followers_asking_at_once_share_one_render(app, match, reached, monkeypatch):
    """After a change, the followers who ask while its answer is being rendered wait for
    those bytes: the app renders it once."""
    shortcut = shortcut_of(app)
    render = shortcut.wsgi_app

    def slowly(environ, start_response):  # a render that takes a while
        time.sleep(0.3)
        return render(environ, start_response)

    monkeypatch.setattr(shortcut, "wsgi_app", slowly)
    live = f"/matches/{match['id']}/live?v=0"
    start = threading.Barrier(8)
    answers: list = []

    def follow(port: int) -> None:
        follower = Client(app.wsgi_app)
        start.wait()
        answer = follower.get(live, environ_base={"REMOTE_PORT": str(30000 + port)})
        answers.append((answer.status_code, answer.get_data()))

    followers = [threading.Thread(target=follow, args=(n,)) for n in range(8)]
    for thread in followers:
        thread.start()
    for thread in followers:
        thread.join(10)
    assert reached == ["matches.live"]
    assert len(answers) == 8 and len(set(answers)) == 1 and answers[0][0] == 200
