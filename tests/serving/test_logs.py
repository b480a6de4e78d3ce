"""Logging to standard error, one line per request or error."""

import logging
import re

import pytest

from ledger.http.logs import configure_logging


@pytest.fixture
def stderr_log(capsys):
    """``stderr_log()``: from then on the process logs as ``marriage-ledger serve`` sets
    it up; returns a function giving the lines written to stderr so far. The test's own
    logging comes back after."""
    root = logging.getLogger()
    saved = root.handlers[:], root.level

    def start():
        configure_logging()  # in the test's body: its stderr is the one captured
        return lambda: capsys.readouterr().err.splitlines()

    yield start
    root.handlers[:], level = saved
    root.setLevel(level)


def test_one_line_per_request(make_app, stderr_log):
    app = make_app()
    client = app.test_client()
    stderr_log = stderr_log()
    client.get("/healthz")
    client.get("/matches/abc/join/the-secret-key?x=1")
    client.get("/no%0Asuch%0D%0Apage")
    lines = stderr_log()
    assert len(lines) == 3
    assert re.fullmatch(
        r"\d{4}-\d\d-\d\d \S+ INFO ledger\.requests: "
        r'127\.0\.0\.1 "GET /healthz HTTP/1\.1" 200 2 \d+\.\dms',
        lines[0],
    )
    assert '"GET /matches/abc/join/<key>?x=1 HTTP/1.1" 404 ' in lines[1]
    assert "the-secret-key" not in lines[1]
    assert '"GET /no\\x0asuch\\x0d\\x0apage HTTP/1.1" 404 ' in lines[2]


def test_an_error_is_one_line_with_its_traceback(make_app, stderr_log):
    app = make_app(PROPAGATE_EXCEPTIONS=False)

    @app.get("/_boom")
    def boom():
        raise RuntimeError("the detail")

    stderr_log = stderr_log()
    assert app.test_client().get("/_boom").status_code == 500
    lines = stderr_log()
    errors = [line for line in lines if " ERROR " in line]
    assert len(errors) == 1
    assert "Exception on /_boom [GET]\\nTraceback (most recent call last):\\n" in errors[0]
    assert errors[0].endswith("RuntimeError: the detail")
    assert any('"GET /_boom HTTP/1.1" 500 ' in line for line in lines)
    assert len(lines) == 2


def test_nothing_is_logged_below_info(make_app, capsys):
    app = make_app()
    app.test_client().get("/healthz")
    assert capsys.readouterr().err == ""


def test_no_raw_control_character_reaches_a_log_line(make_app, stderr_log):
    """Flask's error line quotes the request's path as sent: escaped like the request
    log's, so that an escape sequence cannot drive the terminal reading the log."""
    app = make_app(PROPAGATE_EXCEPTIONS=False)

    @app.get("/_boom/<path:rest>")
    def boom(rest):
        raise RuntimeError(f"about {rest}")

    stderr_log = stderr_log()
    assert app.test_client().get("/_boom/a%1B[2J%00%07b").status_code == 500
    lines = stderr_log()
    assert len(lines) == 2
    for line in lines:
        assert not re.search(r"[\x00-\x1f\x7f]", line), line
    error = next(line for line in lines if " ERROR " in line)
    assert "Exception on /_boom/a\\x1b[2J\\x00\\x07b [GET]" in error


def test_a_key_sent_in_the_query_string_is_not_logged(make_app, stderr_log):
    app = make_app()
    client = app.test_client()
    stderr_log = stderr_log()
    client.get("/matches/abc?key=the-secret-key&x=1")
    client.get("/api/v1/matches/abc?edit_key=the-secret-key")
    lines = stderr_log()
    assert len(lines) == 2
    assert '"GET /matches/abc?key=<key>&x=1 HTTP/1.1" 404 ' in lines[0]
    assert '"GET /api/v1/matches/abc?edit_key=<key> HTTP/1.1" 404 ' in lines[1]
    assert not any("the-secret-key" in line for line in lines)
