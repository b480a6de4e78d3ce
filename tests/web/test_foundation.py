"""The app's frame: pages, security headers, error handling, secret key."""

import os
import re
import stat

import pytest

from ledger import create_app


def test_index_renders(client):
    response = client.get("/")
    assert response.status_code == 200
    html = response.get_data(as_text=True)
    assert "Marriage ledger" in html
    for href in ("/matches/new", "/check", "/rules"):
        assert f'href="{href}"' in html
    assert 'name="viewport"' in html
    # Static files are named with a hash of their content (tests/web/test_assets.py).
    assert re.search(r'src="/static/js/htmx\.min\.[0-9a-f]{12}\.js"', html)
    assert re.search(r'href="/static/css/app\.[0-9a-f]{12}\.css"', html)


def test_no_inline_scripts_or_styles(client):
    html = client.get("/").get_data(as_text=True)
    assert "<style" not in html
    assert " style=" not in html
    assert "<script>" not in html  # every script has a src
    assert " on" + "click=" not in html


def test_security_headers(client):
    response = client.get("/")
    csp = response.headers["Content-Security-Policy"]
    assert "default-src 'self'" in csp
    assert "script-src 'self'" in csp
    assert "frame-ancestors 'none'" in csp
    assert "unsafe-inline" not in csp
    assert "unsafe-eval" not in csp
    assert response.headers["X-Content-Type-Options"] == "nosniff"
    assert response.headers["Referrer-Policy"] == "no-referrer"
    assert response.headers["X-Frame-Options"] == "DENY"


def test_security_headers_on_errors_and_api(client):
    for path in ("/no-such-page", "/api/v1/no-such-thing"):
        response = client.get(path)
        assert "Content-Security-Policy" in response.headers


def test_static_assets_are_vendored(client):
    for path in (
        "/static/js/htmx.min.js",
        "/static/css/app.css",
        "/static/fonts/NotoSans-Regular.ttf",
        "/static/fonts/NotoSansDevanagari-Regular.ttf",
    ):
        response = client.get(path)
        assert response.status_code == 200, path
        response.close()


def test_unknown_api_path_is_json_404(client):
    response = client.get("/api/v1/xyz")
    assert response.status_code == 404
    assert response.is_json
    body = response.get_json()
    assert set(body) == {"errors"}
    assert body["errors"][0]["field"] == ""
    assert body["errors"][0]["message"]


def test_unknown_page_is_html_404(client):
    response = client.get("/no-such-page")
    assert response.status_code == 404
    assert response.mimetype == "text/html"
    assert "There is no page at this address" in response.get_data(as_text=True)


def test_page_405_is_html(client):
    response = client.post("/")
    assert response.status_code == 405
    assert response.mimetype == "text/html"
    assert "GET" in response.headers["Allow"]


@pytest.fixture
def probe_app(make_app):
    """An app with extra /api/ and page routes that read the body or fail."""
    from flask import request

    app = make_app(PROPAGATE_EXCEPTIONS=False)

    @app.post("/api/v1/_probe")
    def api_probe():
        return {"got": request.get_json()}

    @app.get("/api/v1/_boom")
    def api_boom():
        raise RuntimeError("secret internal detail")

    @app.get("/_boom")
    def page_boom():
        raise RuntimeError("secret internal detail")

    return app


def test_api_bad_json_is_400(probe_app):
    response = probe_app.test_client().post(
        "/api/v1/_probe", data="{not json", content_type="application/json"
    )
    assert response.status_code == 400
    assert response.get_json()["errors"][0]["message"] == "The request body is not valid JSON."


def test_api_405_is_json(probe_app):
    response = probe_app.test_client().get("/api/v1/_probe")
    assert response.status_code == 405
    assert response.is_json
    assert "GET" in response.get_json()["errors"][0]["message"]


def test_api_oversize_body_is_413_json(probe_app):
    body = b'{"x": "' + b"a" * (256 * 1024) + b'"}'
    response = probe_app.test_client().post(
        "/api/v1/_probe", data=body, content_type="application/json"
    )
    assert response.status_code == 413
    assert response.get_json() == {
        "errors": [{"field": "", "message": "The request is larger than 256 KiB"}]
    }


def test_body_just_under_limit_is_accepted(probe_app):
    body = b'{"x": "' + b"a" * (256 * 1024 - 20) + b'"}'
    response = probe_app.test_client().post(
        "/api/v1/_probe", data=body, content_type="application/json"
    )
    assert response.status_code == 200


def test_500_never_shows_a_traceback(probe_app):
    client = probe_app.test_client()
    api = client.get("/api/v1/_boom")
    assert api.status_code == 500
    assert api.is_json
    assert "secret internal detail" not in api.get_data(as_text=True)
    page = client.get("/_boom")
    assert page.status_code == 500
    assert page.mimetype == "text/html"
    text = page.get_data(as_text=True)
    assert "secret internal detail" not in text
    assert "Traceback" not in text


def test_csrf_failure_on_a_page_says_reload(csrf_app):
    @csrf_app.post("/_form")
    def form():
        return "ok"

    response = csrf_app.test_client().post("/_form", data={"x": "1"})
    assert response.status_code == 400
    assert response.mimetype == "text/html"
    assert "Reload the page" in response.get_data(as_text=True)


def test_csrf_token_is_offered_to_htmx(csrf_client):
    html = csrf_client.get("/").get_data(as_text=True)
    assert "hx-headers=" in html
    assert "X-CSRFToken" in html


def test_secret_key_generated_once_and_reused(tmp_path, monkeypatch):
    monkeypatch.delenv("LEDGER_SECRET_KEY", raising=False)
    instance = tmp_path / "instance"
    config = {"INSTANCE_PATH": str(instance), "SQLALCHEMY_DATABASE_URI": "sqlite://"}
    first = create_app(dict(config))
    key_file = instance / "secret_key"
    assert key_file.exists()
    assert stat.S_IMODE(os.stat(key_file).st_mode) == 0o600
    key = first.config["SECRET_KEY"]
    assert len(key) == 64
    int(key, 16)
    second = create_app(dict(config))
    assert second.config["SECRET_KEY"] == key
    assert second.instance_path == str(instance)


def test_secret_key_from_env(tmp_path, monkeypatch):
    monkeypatch.setenv("LEDGER_SECRET_KEY", "from-the-environment")
    app = create_app({"INSTANCE_PATH": str(tmp_path), "SQLALCHEMY_DATABASE_URI": "sqlite://"})
    assert app.config["SECRET_KEY"] == "from-the-environment"
    assert not (tmp_path / "secret_key").exists()


def test_database_url_from_env(tmp_path, monkeypatch):
    url = f"sqlite:///{tmp_path / 'elsewhere.sqlite3'}"
    monkeypatch.setenv("LEDGER_DATABASE_URL", url)
    app = create_app({"INSTANCE_PATH": str(tmp_path), "SECRET_KEY": "x"})
    assert app.config["SQLALCHEMY_DATABASE_URI"] == url


def test_default_database_is_in_instance(tmp_path, monkeypatch):
    monkeypatch.delenv("LEDGER_DATABASE_URL", raising=False)
    app = create_app({"INSTANCE_PATH": str(tmp_path), "SECRET_KEY": "x"})
    uri = app.config["SQLALCHEMY_DATABASE_URI"]
    assert uri == f"sqlite:///{tmp_path / 'ledger.sqlite3'}"


@pytest.mark.sqlite_only
def test_sqlite_pragmas(app):
    from ledger.extensions import db

    with app.app_context():
        with db.engine.connect() as conn:
            assert conn.exec_driver_sql("PRAGMA foreign_keys").scalar() == 1
            assert conn.exec_driver_sql("PRAGMA journal_mode").scalar() == "wal"


def test_session_cookie_settings(app):
    assert app.config["SESSION_COOKIE_HTTPONLY"] is True
    assert app.config["SESSION_COOKIE_SAMESITE"] == "Lax"
    assert app.config["MAX_CONTENT_LENGTH"] == 256 * 1024


def test_init_db_command_migrates_an_empty_database_twice(unmigrated_app):
    fresh = unmigrated_app
    runner = fresh.test_cli_runner()
    for _ in range(2):  # a second run finds the database up to date
        result = runner.invoke(args=["init-db"])
        assert result.exit_code == 0, result.output
        assert "Initialised" in result.output
    with fresh.app_context():
        from sqlalchemy import inspect

        from ledger.extensions import db

        assert {"matches", "hands"} <= set(inspect(db.engine).get_table_names())
        db.engine.dispose()
