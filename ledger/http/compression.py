"""Responses compressed on the wire: pages, JSON and other text of 1 KiB or more, in
brotli or gzip, whichever the client accepts (``Accept-Encoding``), else as they are.

The app's own responses are compressed as they leave (brotli at a middle quality: a
match page takes a millisecond or two), and a body sent again soon after (the live part
that every follower of a match fetches after a hand) is compressed once, kept among
the last few of up to 256 KiB; static files come compressed already
(``ledger.http.assets``), and files sent from disk, PDFs and streamed bodies are left alone.
Every response that could be compressed says ``Vary: Accept-Encoding``; one that says
``Cache-Control: no-transform`` is left as it is. The ETag stays
that of the content: the API's ETags are hand versions, which clients send back in
``If-Match``.
"""

from __future__ import annotations

import functools
import gzip
from collections.abc import Container

import brotli
from flask import Flask, Response, request
from werkzeug.datastructures import Accept

from ledger.matches.forgettable import holds_names

MIN_SIZE = 1024
KEPT_SIZE = 256 * 1024
KEPT_BODIES = 32
TYPES = {
    "text/html",
    "text/plain",
    "text/csv",
    "text/css",
    "text/javascript",
    "application/json",
    "application/problem+json",
    "image/svg+xml",
}
#: The encodings we make, best first.
ENCODINGS = ("br", "gzip")


def choose_encoding(accepted: Accept, available: Container[str] = ENCODINGS) -> str | None:
    """The best encoding the client accepts (q > 0) among ``available``; None: none."""
    best = None
    best_q = 0.0
    for name in ENCODINGS:
        q = accepted[name] if name in accepted.values() else accepted["*"]
        if name in available and q > best_q:
            best, best_q = name, q
    return best


def compress(data: bytes, encoding: str) -> bytes:
    if len(data) <= KEPT_SIZE:
        return _compress_kept(data, encoding)
    return _compress(data, encoding)


@holds_names  # a page's body holds its players' names
@functools.lru_cache(maxsize=KEPT_BODIES)
def _compress_kept(data: bytes, encoding: str) -> bytes:
    return _compress(data, encoding)


def _compress(data: bytes, encoding: str) -> bytes:
    if encoding == "br":
        compressed: bytes = brotli.compress(data, quality=5)
        return compressed
    return gzip.compress(data, compresslevel=6, mtime=0)


def compress_response(response: Response) -> Response:
    if (
        response.status_code < 200
        or response.status_code in (204, 206, 304)
        or response.direct_passthrough
        or response.is_streamed
        or "Content-Encoding" in response.headers
        or response.mimetype not in TYPES
        or "no-transform" in response.cache_control
    ):
        return response
    data = response.get_data()
    if len(data) < MIN_SIZE:
        return response
    response.vary.add("Accept-Encoding")
    encoding = choose_encoding(request.accept_encodings)
    if encoding is not None:
        response.set_data(compress(data, encoding))
        response.headers["Content-Encoding"] = encoding
    return response


def init_compression(app: Flask) -> None:
    app.after_request(compress_response)
