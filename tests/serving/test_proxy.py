"""Behind a proxy: its X-Forwarded-* headers are believed only with PROXY_COUNT; over
https the session cookie is Secure, HSTS is sent and share links start with https."""

import logging
import re

import pytest
from served import PLAYERS

from ledger import matches

HTTPS = {
    "X-Forwarded-Proto": "https",
    "X-Forwarded-Host": "ledger.example.org",
    "X-Forwarded-For": "203.0.113.7",
}
NEW_MATCH = {
    "name": "Behind the proxy",
    "first_dealer": "0",
    "rules-profile": "sparkai",
    "length_kind": "hands",
    "length_count": "8",
    **{f"players-{i}": name for i, name in enumerate(PLAYERS)},
}


def joined(app, headers):
    """A client that joined a new match through its edit link; the join answer, and
    the match page as that client then sees it."""
    with app.app_context():
        match, key = matches.create_match("Proxy", PLAYERS, "sparkai", None)
        public_id = match.public_id
    client = app.test_client()
    join = client.get(f"/matches/{public_id}/join/{key}", headers=headers)
    page = client.get(f"/matches/{public_id}", headers=headers)
    return public_id, join, page


def test_without_a_proxy_count_its_headers_are_not_believed(make_app, caplog):
    app = make_app()
    with caplog.at_level(logging.INFO, logger="ledger.requests"):
        public_id, join, page = joined(app, HTTPS)
    assert "Secure" not in join.headers["Set-Cookie"]
    assert "Strict-Transport-Security" not in page.headers
    html = page.get_data(as_text=True)
    assert f'value="http://localhost/matches/{public_id}"' in html
    assert "ledger.example.org" not in html
    assert "203.0.113.7" not in caplog.text


def test_behind_a_proxy_over_https(make_app, caplog):
    app = make_app(PROXY_COUNT=1)
    with caplog.at_level(logging.INFO, logger="ledger.requests"):
        public_id, join, page = joined(app, HTTPS)
    cookie = join.headers["Set-Cookie"]
    assert cookie.startswith("session=") and "; Secure" in cookie and "HttpOnly" in cookie
    assert page.headers["Strict-Transport-Security"] == "max-age=31536000"
    html = page.get_data(as_text=True)
    assert f'value="https://ledger.example.org/matches/{public_id}"' in html
    assert any(
        re.match(r'203\.0\.113\.7 "GET /matches/\S+ HTTP/1\.1" 200 ', line)
        for line in caplog.messages
    )


def test_behind_a_proxy_over_plain_http(make_app):
    app = make_app(PROXY_COUNT=1)
    public_id, join, page = joined(app, {**HTTPS, "X-Forwarded-Proto": "http"})
    assert "Secure" not in join.headers["Set-Cookie"]
    assert "Strict-Transport-Security" not in page.headers
    assert f'value="http://ledger.example.org/matches/{public_id}"' in page.get_data(True)


def test_with_two_proxies_the_client_is_the_second_address_from_the_right(make_app, caplog):
    app = make_app(PROXY_COUNT=2)
    headers = {"X-Forwarded-For": "198.51.100.66, 203.0.113.7, 10.0.0.2"}
    with caplog.at_level(logging.INFO, logger="ledger.requests"):
        app.test_client().get("/healthz", headers=headers)
    assert caplog.messages[0].startswith('203.0.113.7 "GET /healthz')
    assert "198.51.100.66" not in caplog.text


def test_a_header_with_fewer_entries_than_proxies_is_not_believed(make_app):
    app = make_app(PROXY_COUNT=2)
    page = app.test_client().get("/", headers={"X-Forwarded-Proto": "https"})
    assert "Strict-Transport-Security" not in page.headers


@pytest.mark.parametrize("always", [False, True])
def test_session_cookie_secure_can_be_forced(make_app, always):
    app = make_app(SESSION_COOKIE_SECURE=always)
    _, join, _ = joined(app, {})
    assert ("; Secure" in join.headers["Set-Cookie"]) is always


def test_a_form_over_https_needs_its_token_but_no_referer(make_app):
    """The pages send no Referer (Referrer-Policy: no-referrer): a form posted over
    https must still work, and still needs its CSRF token."""
    app = make_app(PROXY_COUNT=1, WTF_CSRF_ENABLED=True)
    client = app.test_client()
    form = client.get("/matches/new", headers=HTTPS)
    assert form.headers["Referrer-Policy"] == "no-referrer"
    token = re.search(r'name="csrf_token" value="([^"]+)"', form.get_data(True)).group(1)
    without = client.post("/matches/new", data=NEW_MATCH, headers=HTTPS)
    assert without.status_code == 400
    made = client.post("/matches/new", data={**NEW_MATCH, "csrf_token": token}, headers=HTTPS)
    assert made.status_code == 303, made.get_data(True)
    assert made.headers["Location"].startswith("/matches/")
