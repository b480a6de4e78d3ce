"""``marriage-ledger serve``: waitress at the table (the LAN address and 127.0.0.1, the
address and its QR code printed, share links carrying the LAN address), settings under
which followers never lock the scorekeeper out, and a clean stop.

Requests go to 127.0.0.1 only: the LAN address is bound and printed, never called.
"""

import http.client
import io
import socket
import subprocess
import sys
import threading
import time

import pytest
import segno
from served import DEV_SCRIPT, HAND, PLAYERS, STARTUP_SECONDS, Browser

from ledger.serving import address, server
from ledger.serving.address import Listening, lan_address, plan_listening, print_banner
from ledger.serving.server import CONNECTION_LIMIT, SPARE_DESCRIPTORS

# --- where it listens ------------------------------------------------------------------


@pytest.fixture
def lan(monkeypatch):
    monkeypatch.setattr(address, "lan_address", lambda: "192.168.1.20")


def test_at_the_table_it_listens_on_the_lan_and_loopback(lan):
    assert plan_listening(None, 5000, None) == Listening(
        ("192.168.1.20:5000", "127.0.0.1:5000"),
        "http://192.168.1.20:5000",
        "http://127.0.0.1:5000",
    )
    public = plan_listening(None, 5000, "https://ledger.example.org")
    assert public.public_url == "https://ledger.example.org"


def test_without_a_network_it_stays_on_loopback(monkeypatch):
    monkeypatch.setattr(address, "lan_address", lambda: None)
    assert plan_listening(None, 5000, None) == Listening(
        ("127.0.0.1:5000",), None, "http://127.0.0.1:5000"
    )


@pytest.mark.parametrize(
    ("host", "expected"),
    [
        ("127.0.0.1", Listening(("127.0.0.1:80",), None, "http://127.0.0.1:80", True)),
        ("localhost", Listening(("localhost:80",), None, "http://localhost:80", True)),
        ("::1", Listening(("[::1]:80",), None, "http://[::1]:80", True)),
        (
            "0.0.0.0",
            Listening(("0.0.0.0:80",), "http://192.168.1.20:80", "http://127.0.0.1:80"),
        ),
        ("10.0.0.5", Listening(("10.0.0.5:80",), "http://10.0.0.5:80", None)),
        ("fd00::5", Listening(("[fd00::5]:80",), "http://[fd00::5]:80", None)),
    ],
)
def test_a_given_host(lan, host, expected):
    assert plan_listening(host, 80, None) == expected


def test_the_lan_address_is_one_of_this_computers():
    found = lan_address()
    if found is None:
        pytest.skip("this machine has no network address but loopback")
    assert not found.startswith("127.")
    with socket.socket() as s:  # only an address of this computer can be bound
        s.bind((found, 0))


def test_the_banner_shows_the_address_and_its_qr_code():
    out = io.StringIO()
    plan = Listening(
        ("192.168.1.20:5000", "127.0.0.1:5000"), "http://192.168.1.20:5000", "http://127.0.0.1:5000"
    )
    print_banner(plan, 8, 1000, out)
    expected_qr = io.StringIO()
    segno.make("http://192.168.1.20:5000/", error="m").terminal(out=expected_qr, compact=True)
    text = out.getvalue()
    assert "Phones at the table open:  http://192.168.1.20:5000/\n" in text
    assert "On this computer:          http://127.0.0.1:5000/\n" in text
    assert expected_qr.getvalue() in text
    assert "8 threads, up to 1000 connections" in text


@pytest.mark.parametrize(
    ("host", "said"),
    [
        # A hosted ledger behind a proxy: the computer has a network address all the same.
        ("127.0.0.1", "it listens on 127.0.0.1:8001 alone, as --host asked"),
        (None, "no network address to offer phones"),  # a computer with loopback only
    ],
)
def test_the_banner_says_why_only_this_computer_can_open_it(monkeypatch, host, said):
    monkeypatch.setattr(address, "lan_address", lambda: None if host is None else "10.0.0.5")
    out = io.StringIO()
    print_banner(plan_listening(host, 8001, None), 8, 1000, out)
    text = out.getvalue()
    assert "Only this computer can open it" in text and said in text
    assert "On this computer:          http://127.0.0.1:8001/" in text


@pytest.mark.slow  # seconds: lays out PDFs or runs many requests
def test_open_files_are_raised_for_the_connection_limit_or_it_is_lowered():
    script = """
import resource
from ledger.serving.server import connection_limit
soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
resource.setrlimit(resource.RLIMIT_NOFILE, (256, hard))
print(connection_limit(), resource.getrlimit(resource.RLIMIT_NOFILE)[0])
resource.setrlimit(resource.RLIMIT_NOFILE, (256, 300))
print(connection_limit(), resource.getrlimit(resource.RLIMIT_NOFILE)[0])
"""
    out = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, check=True
    ).stdout.split()
    wanted = CONNECTION_LIMIT
    assert out == [str(wanted), str(wanted + SPARE_DESCRIPTORS), "236", "300"]


# --- served for real --------------------------------------------------------------------


def test_serving_at_the_table(ledger_env, init_db, serve):
    served = serve(ledger_env)
    lan = lan_address()
    out = served.stdout()
    if lan is None:
        assert "Only this computer can open it" in out
        public = served.base
    else:
        public = f"http://{lan}:{served.port}"
        assert f"Phones at the table open:  {public}/\n" in out
        qr = io.StringIO()
        segno.make(public + "/", error="m").terminal(out=qr, compact=True)
        assert qr.getvalue() in out
    assert f"On this computer:          {served.base}/\n" in out
    assert "Warning: the database has no tables yet" in served.stderr()

    browser = Browser(served.base)
    assert browser.get("/readyz").status == 503
    assert "Initialised the database" in init_db(ledger_env)
    ready = browser.get("/readyz")
    assert (ready.status, ready.text) == (200, "ready\n")
    assert ready.headers["Server"] == "marriage-ledger"  # waitress, as we set it up

    made = browser.post(
        "/api/v1/matches",
        json_body={"name": "Table", "players": PLAYERS, "rules": "sparkai", "length": None},
    )
    assert made.status == 201, made.text
    public_id, key = made.json()["id"], made.json()["edit_key"]
    assert browser.get(f"/matches/{public_id}/join/{key}").status == 303
    page = browser.get(f"/matches/{public_id}").text
    assert f'value="{public}/matches/{public_id}"' in page
    assert f'value="{public}/matches/{public_id}/join/{key}"' in page
    if lan is not None:
        assert "127.0.0.1" not in page

    assert served.stop() == 0  # SIGTERM: waitress closes its sockets and returns
    log = served.stderr()
    assert f"waitress: Serving on {served.base}" in log
    assert f'ledger.requests: 127.0.0.1 "GET /matches/{public_id}/join/<key> HTTP/1.1" 303' in log
    assert key not in log


FOLLOWERS = 200
IDLE_CONNECTIONS = 300  # phones that loaded the page and keep their connections open
POLL_SECONDS = 3
FOLLOW_SECONDS = 6
WRITE_LIMIT_SECONDS = 3


def test_followers_never_lock_the_scorekeeper_out(ledger_env, init_db, serve):
    """Three times waitress's default connection limit stay open while 200 phones poll
    every 3 s: the scorekeeper's hands are still stored at once, and no follower errs."""
    init_db(ledger_env)
    served = serve(ledger_env, "--host", "127.0.0.1")
    scorekeeper = Browser(served.base)
    made = scorekeeper.post(
        "/api/v1/matches",
        json_body={"name": "Followed", "players": PLAYERS, "rules": "sparkai", "length": None},
    )
    public_id, key = made.json()["id"], made.json()["edit_key"]
    page = f"/matches/{public_id}"

    idle = []
    for _ in range(IDLE_CONNECTIONS):
        connection = http.client.HTTPConnection("127.0.0.1", served.port, timeout=30)
        connection.request("GET", page)
        answer = connection.getresponse()
        answer.read()
        assert answer.status == 200 and not answer.will_close
        idle.append(connection)

    stop = threading.Event()
    polls: list[int] = []
    failures: list[str] = []

    def follow(first: int):
        """Ten phones, each polling every 3 s."""
        next_poll = [time.monotonic() + (first + i) * POLL_SECONDS / FOLLOWERS for i in range(10)]
        while not stop.is_set():
            i = min(range(10), key=next_poll.__getitem__)
            time.sleep(max(0.0, next_poll[i] - time.monotonic()))
            next_poll[i] += POLL_SECONDS
            try:
                connection = http.client.HTTPConnection("127.0.0.1", served.port, timeout=30)
                connection.request("GET", f"{page}/live?v=1")
                answer = connection.getresponse()
                answer.read()
                connection.close()
                polls.append(answer.status)
            except OSError as error:
                failures.append(repr(error))

    phones = [threading.Thread(target=follow, args=(n * 10,)) for n in range(FOLLOWERS // 10)]
    for phone in phones:
        phone.start()
    writes = []
    try:
        deadline = time.monotonic() + FOLLOW_SECONDS
        while time.monotonic() < deadline:
            started = time.monotonic()
            stored = Browser(served.base).post(  # a new connection, as after a phone sleeps
                f"/api/v1/matches/{public_id}/hands",
                json_body=HAND,
                headers={"Authorization": f"Bearer {key}"},
                timeout=WRITE_LIMIT_SECONDS * 4,
            )
            writes.append((stored.status, time.monotonic() - started))
            time.sleep(1)
    finally:
        stop.set()
        for phone in phones:
            phone.join(timeout=60)
        for connection in idle:
            connection.close()

    assert failures == []
    assert len(polls) >= FOLLOWERS and set(polls) <= {200, 204}
    assert len(writes) >= 4
    assert all(status == 201 for status, _ in writes), writes
    assert max(seconds for _, seconds in writes) < WRITE_LIMIT_SECONDS, writes


def test_behind_a_proxy_waitress_hands_its_headers_to_the_app(ledger_env, init_db, serve):
    """With LEDGER_PROXY_COUNT, waitress keeps the X-Forwarded-* headers (it drops them
    by default) and the app believes them: https links, Secure cookie, HSTS, the
    client's address in the log. Without it, they are dropped."""
    init_db(ledger_env)
    proxy = {
        "X-Forwarded-Proto": "https",
        "X-Forwarded-Host": "ledger.example.org",
        "X-Forwarded-For": "203.0.113.9",
    }
    for count in ("1", "0"):
        served = serve({**ledger_env, "LEDGER_PROXY_COUNT": count}, "--host", "127.0.0.1")
        browser = Browser(served.base, proxy)
        made = browser.post(
            "/api/v1/matches",
            json_body={"name": "Proxied", "players": PLAYERS, "rules": "sparkai", "length": None},
        )
        public_id, key = made.json()["id"], made.json()["edit_key"]
        joined = browser.get(f"/matches/{public_id}/join/{key}")
        cookies = joined.headers.get_all("Set-Cookie")  # the session's (edit_rights, session)
        session = "; ".join(cookie.split(";")[0] for cookie in cookies)  # as passed on
        page = browser.get(f"/matches/{public_id}", headers={"Cookie": session})
        served.stop()
        if count == "1":
            assert all("; Secure" in cookie for cookie in cookies)
            assert page.headers["Strict-Transport-Security"] == "max-age=31536000"
            assert f'value="https://ledger.example.org/matches/{public_id}"' in page.text
            assert '203.0.113.9 "GET /matches/' in served.stderr()
        else:
            assert not any("Secure" in cookie for cookie in cookies)
            assert "Strict-Transport-Security" not in page.headers
            assert f'value="{served.base}/matches/{public_id}"' in page.text
            assert "203.0.113.9" not in served.stderr()


def test_the_pdf_renderer_starts_once_the_first_request_is_answered(app, monkeypatch):
    """Not before: the first pages do not share the processor with WeasyPrint's import.
    Once only, however many answers follow."""
    started = []
    monkeypatch.setattr(server, "start_renderer", lambda: started.append(True))
    server.renderer_after_first_answer(app)
    assert started == []
    client = app.test_client()
    assert client.get("/healthz").status_code == 200
    assert started == [True]
    assert client.get("/").status_code == 200
    assert started == [True]


def test_a_port_in_use_is_one_sentence_not_a_traceback(ledger_env, tmp_path):
    """``serve`` on a port another program holds (a ``serve`` left running) says so and
    exits 1, before printing an address and QR code that lead nowhere; it was a
    traceback of waitress's under the banner."""
    with socket.socket() as held:
        held.bind(("127.0.0.1", 0))
        held.listen()
        port = held.getsockname()[1]
        done = subprocess.run(
            [str(DEV_SCRIPT), "serve", "--host", "127.0.0.1", "--port", str(port)],
            env=ledger_env,
            cwd=tmp_path,
            capture_output=True,
            text=True,
            timeout=STARTUP_SECONDS,
        )
    assert done.returncode == 1
    assert "Traceback" not in done.stderr and "On this computer" not in done.stdout
    assert f"Error: Cannot listen on 127.0.0.1:{port}: Address already in use. " in done.stderr
