"""Static files and pages as a phone gets them: fingerprinted URLs, long cache lifetimes,
compression (ledger/http/assets.py, ledger/http/compression.py), and nothing fetched from
elsewhere."""

from __future__ import annotations

import gzip
import os
import re
import shutil
from pathlib import Path

import brotli
import pytest
from flask import url_for

from ledger.http import assets

ROOT = Path(__file__).resolve().parents[2]
FINGERPRINTED = re.compile(r"^/static/(?P<name>.+)\.(?P<digest>[0-9a-f]{12})(?P<ext>\.\w+)$")
YEAR = "max-age=31536000"


@pytest.fixture
def own_static(app, tmp_path):
    """The app serving a copy of the static folder, which a test may change: each file's
    version looked at on every use."""
    folder = tmp_path / "static"
    shutil.copytree(app.static_folder, folder)
    app.static_folder = str(folder)
    app.config["STATIC_RECHECK_SECONDS"] = 0
    return folder


def static_url(app, filename: str) -> str:
    with app.test_request_context():
        return url_for("static", filename=filename)


def rewrite(path: Path, text: str) -> None:
    """Change a file's content, with a modification time surely different."""
    before = path.stat().st_mtime_ns
    path.write_text(text, encoding="utf-8")
    os.utime(path, ns=(before + 2_000_000_000, before + 2_000_000_000))


def page_static_urls(html: str) -> list[str]:
    return re.findall(r'(?:href|src)="(/static/[^"]+)"', html)


def test_static_urls_carry_a_hash_of_the_content(app, own_static):
    first = static_url(app, "css/app.css")
    assert FINGERPRINTED.match(first)["name"] == "css/app"
    css = own_static / "css" / "app.css"
    original = css.read_text(encoding="utf-8")
    rewrite(css, original + "\n.changed { color: red; }\n")
    changed = static_url(app, "css/app.css")
    assert changed != first and FINGERPRINTED.match(changed)
    rewrite(css, original)  # the same content again: the same URL, whatever the file's time
    assert static_url(app, "css/app.css") == first


def test_a_stylesheet_names_its_fonts_by_hash_and_changes_with_them(app, client, own_static):
    sheet = static_url(app, "css/fonts.css")
    css = client.get(sheet).get_data(as_text=True)
    font = static_url(app, "fonts/web/NotoSans-Regular.woff2")
    # Relative to the stylesheet, as in the file: ../fonts/web/NotoSans-Regular.<hash>.woff2
    assert f'url("../{font.removeprefix("/static/")}")' in css
    assert '.woff2")' in css and not re.search(r"NotoSans-Regular\.woff2", css)

    woff2 = own_static / "fonts" / "web" / "NotoSans-Regular.woff2"
    before = woff2.stat().st_mtime_ns
    woff2.write_bytes(woff2.read_bytes() + b"\0")
    os.utime(woff2, ns=(before + 2_000_000_000, before + 2_000_000_000))
    assert static_url(app, "fonts/web/NotoSans-Regular.woff2") != font
    assert static_url(app, "css/fonts.css") != sheet  # its content names the new font


def test_fingerprinted_files_are_kept_for_a_year(app, client):
    for filename in (
        "css/app.css",
        "js/htmx.min.js",
        "fonts/web/NotoSans-Bold.woff2",
        "favicon.svg",
    ):
        response = client.get(static_url(app, filename))
        assert response.status_code == 200, filename
        cache = response.headers["Cache-Control"]
        assert YEAR in cache and "immutable" in cache and "public" in cache, (filename, cache)
        response.close()


def test_plain_and_outdated_names_are_revalidated(app, client):
    plain = client.get("/static/css/app.css")
    assert plain.status_code == 200
    assert plain.headers["Cache-Control"] == "no-cache"
    etag = plain.headers["ETag"]
    again = client.get("/static/css/app.css", headers={"If-None-Match": etag})
    assert again.status_code == 304
    # A page from before a change asks for the old hash: it gets today's file, not kept.
    old = client.get("/static/css/app.0123456789ab.css")
    assert old.status_code == 200
    assert old.headers["Cache-Control"] == "no-cache"
    assert old.data == plain.data
    assert client.get("/static/css/nothing.0123456789ab.css").status_code == 404
    assert client.get("/static/css/nothing.css").status_code == 404
    assert client.get("/static/../ledger/__init__.py").status_code == 404


@pytest.mark.parametrize(
    "filename", ["css/app.css", "css/fonts.css", "js/htmx.min.js", "js/hand-form.js", "favicon.svg"]
)
def test_text_files_are_sent_compressed_when_accepted(app, client, filename):
    url = static_url(app, filename)
    plain = client.get(url)
    assert "Content-Encoding" not in plain.headers  # nothing accepted: as it is
    assert "Accept-Encoding" in plain.headers["Vary"]
    with open(os.path.join(app.static_folder, filename), "rb") as f:
        on_disk = f.read()
    if filename.endswith(".css"):
        assert len(plain.data) > 0  # a stylesheet's font URLs are rewritten
    else:
        assert plain.data == on_disk

    br = client.get(url, headers={"Accept-Encoding": "gzip, deflate, br"})
    assert br.headers["Content-Encoding"] == "br"
    assert brotli.decompress(br.data) == plain.data
    assert len(br.data) < len(plain.data)

    gz = client.get(url, headers={"Accept-Encoding": "gzip, br;q=0"})
    assert gz.headers["Content-Encoding"] == "gzip"
    assert gzip.decompress(gz.data) == plain.data

    none = client.get(url, headers={"Accept-Encoding": "identity"})
    assert "Content-Encoding" not in none.headers and none.data == plain.data
    # Each encoding is its own representation, with its own validator.
    assert len({plain.headers["ETag"], br.headers["ETag"], gz.headers["ETag"]}) == 3
    revalidated = client.get(
        url, headers={"Accept-Encoding": "br", "If-None-Match": br.headers["ETag"]}
    )
    assert revalidated.status_code == 304


def test_fonts_are_sent_as_they_are(app, client):
    response = client.get(
        static_url(app, "fonts/web/NotoSans-Regular.woff2"), headers={"Accept-Encoding": "br, gzip"}
    )
    assert response.mimetype == "font/woff2"
    assert "Content-Encoding" not in response.headers  # WOFF2 is compressed already
    assert response.data[:4] == b"wOF2"
    response.close()


def test_pages_and_json_are_compressed_when_accepted(client):
    for path in ("/rules", "/glossary", "/api/v1/rules"):
        plain = client.get(path)
        assert plain.status_code == 200, path
        assert "Accept-Encoding" in plain.headers["Vary"]
        assert "Content-Encoding" not in plain.headers
        br = client.get(path, headers={"Accept-Encoding": "br;q=0.9, gzip;q=0.8"})
        assert br.headers["Content-Encoding"] == "br"
        gz = client.get(path, headers={"Accept-Encoding": "gzip"})
        assert gz.headers["Content-Encoding"] == "gzip"
        if path.startswith("/api/"):
            assert brotli.decompress(br.data) == plain.data
            assert gzip.decompress(gz.data) == plain.data
        else:  # a page's CSRF token differs between requests; the rest is the same
            token = re.compile(rb'"X-CSRFToken": "[^"]*"')
            assert token.sub(b"", brotli.decompress(br.data)) == token.sub(b"", plain.data)
            assert token.sub(b"", gzip.decompress(gz.data)) == token.sub(b"", plain.data)
        assert len(br.data) < len(plain.data) / 3


def test_small_and_empty_answers_are_left_alone(client):
    response = client.get("/healthz", headers={"Accept-Encoding": "gzip, br"})
    assert response.status_code == 200
    assert len(response.data) < 1024
    assert "Content-Encoding" not in response.headers


def test_a_compressed_json_answer_keeps_its_etag(client):
    """The API's ETags are hand versions that clients send back in If-Match."""
    created = client.post(
        "/api/v1/matches",
        json={
            "name": "Etag",
            "players": ["A", "B", "C"],
            "rules": "amarnepal",
            "length": None,
            "first_dealer": "A",
        },
    )
    assert created.status_code == 201
    match = created.get_json()
    auth = {"Authorization": f"Bearer {match['edit_key']}"}
    hand = {
        "finish": "sequences",
        "winner": "A",
        "players": [
            {
                "name": name,
                "seen": "sequences" if name == "A" else "unseen",
                "maal_counts": {"tiplu": 1 if name == "A" else 0},
            }
            for name in ("A", "B", "C")
        ],
    }
    assert (
        client.post(f"/api/v1/matches/{match['id']}/hands", json=hand, headers=auth).status_code
        == 201
    )
    url = f"/api/v1/matches/{match['id']}/hands/1"
    plain = client.get(url)
    packed = client.get(url, headers={"Accept-Encoding": "gzip"})
    assert len(plain.data) >= 1024 and packed.headers["Content-Encoding"] == "gzip"
    assert plain.headers["ETag"] and packed.headers["ETag"] == plain.headers["ETag"]
    assert gzip.decompress(packed.data) == plain.data


def test_every_static_file_a_page_names_is_fingerprinted_and_served(app, client):
    for path in ("/", "/check", "/rules", "/glossary", "/matches/new"):
        html = client.get(path).get_data(as_text=True)
        urls = page_static_urls(html)
        assert urls, path
        for url in urls:
            assert FINGERPRINTED.match(url), (path, url)
            response = client.get(url)
            assert response.status_code == 200, url
            assert "immutable" in response.headers["Cache-Control"]
            response.close()


def test_templates_name_static_files_only_through_url_for():
    for template in sorted((ROOT / "templates").rglob("*.html")):
        text = template.read_text(encoding="utf-8")
        assert not re.search(r"""(?:href|src)=["']/?static/""", text), template


def test_each_page_loads_only_the_css_it_needs(app, client):
    report = static_url(app, "css/report.css")
    home = client.get("/").get_data(as_text=True)
    # The report's styles are print-only here: fetched, but they do not hold up the page.
    assert f'<link rel="stylesheet" href="{report}" media="print">' in home
    blocking = re.findall(r'<link rel="stylesheet" href="([^"]+)">', home)
    assert blocking == [static_url(app, "css/fonts.css"), static_url(app, "css/app.css")]


def test_nothing_is_fetched_from_elsewhere():
    """Offline at the table: every script, style, font and image is vendored."""
    external = re.compile(
        r"""(?:<script[^>]+src|<link[^>]+href|<img[^>]+src|<source[^>]+src)=["'](?:https?:)?//"""
        r"""|url\(\s*["']?(?:https?:)?//|@import\s+(?:url\()?["']?(?:https?:)?//""",
        re.IGNORECASE,
    )
    files = [*(ROOT / "templates").rglob("*.html"), *(ROOT / "static" / "css").glob("*.css")]
    assert files
    for path in files:
        assert not external.search(path.read_text(encoding="utf-8")), path


def test_no_transform_and_streamed_answers_are_left_alone(app, client):
    text = "a line of text that repeats\n" * 100

    @app.get("/test-text")
    def plain_text():
        return text, 200, {"Content-Type": "text/plain; charset=utf-8"}

    @app.get("/test-no-transform")
    def no_transform():
        return (
            text,
            200,
            {"Content-Type": "text/plain; charset=utf-8", "Cache-Control": "no-transform"},
        )

    @app.get("/test-streamed")
    def streamed():
        return app.response_class((line for line in [text]), mimetype="text/plain")

    accept = {"Accept-Encoding": "gzip"}
    assert client.get("/test-text", headers=accept).headers["Content-Encoding"] == "gzip"
    for path in ("/test-no-transform", "/test-streamed"):
        response = client.get(path, headers=accept)
        assert "Content-Encoding" not in response.headers, path
        assert response.get_data(as_text=True) == text


@pytest.mark.parametrize(
    "path", ["/static/css/app%00.css", "/static/%00", "/static/css/app.css%00.map"]
)
def test_a_static_name_that_cannot_be_a_file_is_a_404(client, path):
    assert client.get(path).status_code == 404


def test_a_page_looks_at_no_static_file_again_within_a_second(app, client, monkeypatch):
    """A page names a dozen static files (a stylesheet its fonts too): their versions
    are taken as last seen for STATIC_RECHECK_SECONDS, not looked at on every page."""
    app.config["STATIC_RECHECK_SECONDS"] = 3600  # however slow the machine
    first = client.get("/")
    looked: list[str] = []
    stamp = assets._stamp

    def counted(path):
        looked.append(path)
        return stamp(path)

    monkeypatch.setattr(assets, "_stamp", counted)
    again = client.get("/")
    assert looked == [] and page_static_urls(again.text) == page_static_urls(first.text)
    app.config["STATIC_RECHECK_SECONDS"] = 0
    assert page_static_urls(client.get("/").text) == page_static_urls(first.text)
    assert any(path.endswith("fonts.css") for path in looked)
