"""Static files as a phone wants them: fingerprinted, compressed, kept for a year.

Every ``url_for("static", filename=...)`` (the templates' one way to a static file)
gives a URL that carries a hash of the file's content (``css/app.css`` →
``/static/css/app.1f3a9c0d2e7b.css``), so a
browser may keep it for a year without asking again (``Cache-Control: public,
max-age=31536000, immutable``): a changed file gets another URL. The plain name still
answers, with ``no-cache`` (revalidated by its ETag), and so does an outdated hash (the
current content, ``no-cache``: a page from before a deployment still gets its styles).

A stylesheet is served with its ``url()``s of other static files (the fonts) rewritten to
their fingerprinted names, so those are kept for a year too, and a new font gives its
stylesheet a new hash. The files on disk are left as they are (the PDF renderer reads
them there).

Text files (CSS, JavaScript, SVG) are compressed once per version and process, with
brotli and gzip at their best levels, and sent in the best encoding the browser accepts
(``Vary: Accept-Encoding``); fonts (WOFF2 is compressed already) and images are sent from
disk. Files are read from ``app.static_folder``, wherever that is; a file's version is its
size and modification time (and those of the files a stylesheet names), looked at again
when it was last looked at more than ``STATIC_RECHECK_SECONDS`` (1 s) ago: a page names a
dozen static files, and looking at each (a stylesheet's fonts too) on every page cost it
some fifty system calls.
"""

from __future__ import annotations

import gzip
import hashlib
import mimetypes
import os
import posixpath
import re
import threading
import time
from typing import Any

import brotli
from flask import Flask, Response, abort, current_app, request, send_file
from msgspec import Struct, field
from werkzeug.security import safe_join

from ledger.http.compression import choose_encoding

#: A year: the longest lifetime caches honour.
IMMUTABLE = "public, max-age=31536000, immutable"
REVALIDATE = "no-cache"
DIGEST_LENGTH = 12
#: Not left to the system's mime.types, which differ between machines.
TYPES = {
    ".css": "text/css",
    ".js": "text/javascript",
    ".svg": "image/svg+xml",
    ".json": "application/json",
    ".txt": "text/plain",
    ".md": "text/markdown",
    ".woff2": "font/woff2",
    ".ttf": "font/ttf",
}
COMPRESSED_TYPES = {
    "text/css",
    "text/javascript",
    "image/svg+xml",
    "application/json",
    "text/plain",
    "text/markdown",
}
FINGERPRINTED = re.compile(
    rf"^(?P<stem>.+)\.(?P<digest>[0-9a-f]{{{DIGEST_LENGTH}}})(?P<ext>\.[^./]+)?$"
)
CSS_URL = re.compile(r"""url\(\s*(?P<quote>["']?)(?P<url>[^"')]+)(?P=quote)\s*\)""")


class Asset(Struct):
    """One static file as served: its hash, and its bytes when they are sent from memory."""

    path: str
    stamps: dict[str, tuple[int, int] | None]  # this file and those its body names: (mtime, size)
    digest: str
    mimetype: str
    body: bytes | None = None  # text: the body (rewritten, for CSS); None: sent from disk
    encoded: dict[str, bytes] = field(default_factory=dict)  # "br", "gzip": compressed body
    seen: float = field(default_factory=time.monotonic)  # when its stamps were last checked


_assets: dict[str, Asset] = {}
_lock = threading.RLock()  # a stylesheet finds the files it names while built


def _stamp(path: str) -> tuple[int, int] | None:
    """The file's modification time and size; None when ``path`` is no file (ValueError:
    a NUL in the name, which no file has)."""
    try:
        st = os.stat(path)
    except (OSError, ValueError):
        return None
    return (st.st_mtime_ns, st.st_size) if os.path.isfile(path) else None


def _fresh(found: Asset) -> bool:
    return all(_stamp(path) == stamp for path, stamp in found.stamps.items())


def find(folder: str, filename: str) -> Asset | None:
    """The static file ``filename`` (a path under ``folder``) as served, or None."""
    path = safe_join(folder, filename)
    if path is None:
        return None
    found = _assets.get(path)
    now = time.monotonic()
    if found is not None and now - found.seen < _recheck_seconds():
        return found
    if _stamp(path) is None:
        return None
    if found is not None and _fresh(found):
        found.seen = now
        return found
    with _lock:
        found = _assets.get(path)
        if found is None or not _fresh(found):
            found = _assets[path] = _build(folder, filename, path)
    return found


def _recheck_seconds() -> float:
    seconds = current_app.config["STATIC_RECHECK_SECONDS"]  # 0: looked at on every use
    return float(seconds)


def _build(folder: str, filename: str, path: str) -> Asset:
    stamps = {path: _stamp(path)}
    ext = os.path.splitext(filename)[1].lower()
    mimetype = TYPES.get(ext) or mimetypes.guess_type(filename)[0] or "application/octet-stream"
    with open(path, "rb") as f:
        content = f.read()
    if mimetype == "text/css":
        content = _rewrite_urls(folder, filename, content, stamps)
    digest = hashlib.sha256(content).hexdigest()[:DIGEST_LENGTH]
    if mimetype not in COMPRESSED_TYPES:
        return Asset(path, stamps, digest, mimetype)
    encoded = {
        "br": brotli.compress(content, quality=11),
        "gzip": gzip.compress(content, compresslevel=9, mtime=0),
    }
    smaller = {name: data for name, data in encoded.items() if len(data) < len(content)}
    return Asset(path, stamps, digest, mimetype, content, smaller)


def _rewrite_urls(
    folder: str, filename: str, css: bytes, stamps: dict[str, tuple[int, int] | None]
) -> bytes:
    """The stylesheet with each ``url()`` of another static file fingerprinted."""
    here = posixpath.dirname(filename)

    def fingerprint(match: re.Match[str]) -> str:
        url = match["url"].strip()
        if re.match(r"^[a-z][a-z0-9+.-]*:|^/|^#", url, re.IGNORECASE):
            return match[0]  # data:, another site, an absolute path, a fragment: as it is
        target = posixpath.normpath(posixpath.join(here, url))
        found = find(folder, target) if target != filename else None
        if found is None:
            return match[0]
        stamps.update(found.stamps)
        relative = posixpath.relpath(fingerprinted_name(target, found.digest), here or ".")
        return f'url("{relative}")'

    return CSS_URL.sub(fingerprint, css.decode("utf-8")).encode("utf-8")


def fingerprinted_name(filename: str, digest: str) -> str:
    stem, ext = posixpath.splitext(filename)
    return f"{stem}.{digest}{ext}"


def _fingerprint_url(endpoint: str, values: dict[str, Any]) -> None:
    """``url_for("static", filename=...)`` names the file with its hash (when it exists)."""
    if endpoint != "static" or not isinstance(values.get("filename"), str):
        return
    found = find(_folder(), values["filename"])
    if found is not None:
        values["filename"] = fingerprinted_name(values["filename"], found.digest)


def _folder() -> str:
    folder = current_app.static_folder
    if folder is None:
        raise RuntimeError("the app has no static folder")
    return folder


def send_static(filename: str) -> Response:
    """The static route: a fingerprinted name for a year, a plain one revalidated."""
    folder = _folder()
    found = find(folder, filename)
    current = False
    if found is None:
        named = FINGERPRINTED.match(filename)
        if named is None:
            abort(404)
        found = find(folder, named["stem"] + (named["ext"] or ""))
        if found is None:
            abort(404)
        current = named["digest"] == found.digest
    if found.body is None:
        response = send_file(
            found.path, mimetype=found.mimetype, etag=found.digest, conditional=True, max_age=None
        )
    else:
        encoding = choose_encoding(request.accept_encodings, found.encoded)
        body = found.encoded.get(encoding, found.body) if encoding else found.body
        response = Response(body, mimetype=found.mimetype)
        response.vary.add("Accept-Encoding")
        if encoding:
            response.headers["Content-Encoding"] = encoding
        # Each encoding is its own representation: its own strong validator.
        response.set_etag(f"{found.digest}-{encoding}" if encoding else found.digest)
        response.make_conditional(request)
    response.headers["Cache-Control"] = IMMUTABLE if current else REVALIDATE
    return response


def init_assets(app: Flask) -> None:
    if app.has_static_folder:
        app.view_functions["static"] = send_static
        app.url_defaults(_fingerprint_url)
