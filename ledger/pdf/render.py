"""PDF rendering with WeasyPrint: the end-of-match summary and the hand slips.

The renderer is sandboxed. WeasyPrint gets the HTML as a string with a fixed base URL
(``BASE_URL``, on the reserved ``.invalid`` domain) and a URL fetcher,
``StaticFetcher``, that answers only files under the app's static folder (addressed as
``/static/...``) and ``data:`` URLs. Everything else (``http(s)`` elsewhere, ``file:``
anywhere, ``ftp:``...) is refused, so nothing a player typed can make the renderer
fetch anything; the templates escape names anyway.

Text is set only in the vendored fonts (``static/fonts``: Noto Sans, Noto Sans
Devanagari and two symbol subsets), loaded through ``@font-face`` in the stylesheets.

The stylesheets and the font configuration are parsed once per thread and reused (they
are the slow part of a small PDF); they are read again when a stylesheet file changes.
"""

from __future__ import annotations

import mimetypes
import os
import threading
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import unquote, urlsplit
from urllib.request import DataHandler, Request

from flask import Response, current_app
from weasyprint import CSS, HTML
from weasyprint.text.fonts import FontConfiguration
from weasyprint.urls import URLFetcher, URLFetcherResponse

#: Every relative URL in a PDF's HTML or CSS resolves against this; nothing answers it.
HOST = "ledger.invalid"
BASE_URL = f"https://{HOST}/"
#: The paper sizes a PDF can have (``?paper=``), as CSS page sizes.
PAPER_SIZES = {"a4": "A4", "letter": "letter"}
DEFAULT_PAPER = "a4"
#: Shared with the pages (app.css, report.css) and for WeasyPrint only (pdf.css), in order.
STYLESHEETS = ("css/app.css", "css/report.css", "css/pdf.css")


class FetchRefused(ValueError):
    """A URL the PDF renderer may not fetch."""


class StaticFetcher(URLFetcher):
    """Answers ``BASE_URL`` + ``static/<file>`` from the static folder and ``data:``
    URLs; refuses everything else (WeasyPrint then leaves the resource out)."""

    def __init__(self, static_folder: str | os.PathLike[str], static_url_path: str = "/static"):
        super().__init__(allowed_protocols=("https", "data"), allow_redirects=False)
        self.root = Path(static_folder).resolve()
        self.prefix = "/" + static_url_path.strip("/") + "/"

    def path_for(self, url: str) -> Path | None:
        """The static file a URL names, or None when it names nothing we serve."""
        try:
            parts = urlsplit(url)
        except ValueError:
            return None
        if parts.scheme != "https" or parts.netloc != HOST or parts.username or parts.port:
            return None
        path = unquote(parts.path)
        if not path.startswith(self.prefix) or "\\" in path or "\0" in path:
            return None
        found = (self.root / path[len(self.prefix) :]).resolve()
        if not found.is_relative_to(self.root) or not found.is_file():
            return None
        return found

    def fetch(self, url: str, headers=None) -> URLFetcherResponse:
        if url[:5].lower() == "data:":
            answer = DataHandler().data_open(Request(url))
            return URLFetcherResponse(url, answer.read(), dict(answer.headers.items()))
        path = self.path_for(url)
        if path is None:
            raise FetchRefused(f"the PDF renderer fetches only the app's static files: {url!r}")
        mime = mimetypes.guess_type(path.name)[0] or "application/octet-stream"
        return URLFetcherResponse(url, path.read_bytes(), {"Content-Type": mime})


@dataclass
class _Kit:
    """What every PDF of one thread reuses: fonts, fetcher, parsed stylesheets."""

    stamp: tuple
    fetcher: StaticFetcher
    font_config: FontConfiguration
    stylesheets: list[CSS]
    paper: dict[str, CSS]


_local = threading.local()


def _stamp(root: Path, static_url_path: str) -> tuple:
    files = (root / name for name in STYLESHEETS)
    return (str(root), static_url_path, *(f.stat().st_mtime_ns for f in files))


def _kit() -> _Kit:
    root = Path(current_app.static_folder or "static").resolve()
    url_path = current_app.static_url_path or "/static"
    stamp = _stamp(root, url_path)
    kit = getattr(_local, "kit", None)
    if kit is None or kit.stamp != stamp:
        fetcher = StaticFetcher(root, url_path)
        fonts = FontConfiguration()
        prefix = BASE_URL + url_path.strip("/") + "/"
        sheets = [
            CSS(url=prefix + name, url_fetcher=fetcher, font_config=fonts) for name in STYLESHEETS
        ]
        paper = {
            key: CSS(string=f"@page {{ size: {size}; }}", font_config=fonts)
            for key, size in PAPER_SIZES.items()
        }
        kit = _local.kit = _Kit(stamp, fetcher, fonts, sheets, paper)
    return kit


def clear_cache() -> None:
    """Forget this thread's parsed stylesheets and fonts (tests; a changed static folder)."""
    _local.kit = None


def paper_size(value: object) -> str:
    """The paper a request asks for: ``letter``, else A4."""
    return "letter" if isinstance(value, str) and value.strip().lower() == "letter" else "a4"


#: Programs read these PDFs' text (the acceptance checks look for ``-18``): numbers are
#: written with the ASCII hyphen-minus, not the true minus sign the pages use.
MINUS_SIGN = "\N{MINUS SIGN}"


def render_document(html: str, paper: str = DEFAULT_PAPER, extra_css: Sequence[str] = ()):
    """The laid-out pages (a WeasyPrint Document) of an HTML document on A4 or US Letter."""
    kit = _kit()
    sheets = [
        *kit.stylesheets,
        *(CSS(string=css, font_config=kit.font_config) for css in extra_css),
        kit.paper[paper if paper in PAPER_SIZES else DEFAULT_PAPER],
    ]
    html = html.replace(MINUS_SIGN, "-")
    document = HTML(string=html, base_url=BASE_URL, url_fetcher=kit.fetcher)
    return document.render(stylesheets=sheets, font_config=kit.font_config)


def render_pdf(html: str, paper: str = DEFAULT_PAPER, extra_css: Sequence[str] = ()) -> bytes:
    """The PDF of an HTML document (a whole page, as a string) on A4 or US Letter."""
    return render_document(html, paper, extra_css).write_pdf()


def pdf_response(pdf: bytes, filename: str) -> Response:
    """The PDF to show in the browser, with a safe ASCII file name for saving it."""
    response = Response(pdf, mimetype="application/pdf")
    response.headers["Content-Disposition"] = f'inline; filename="{filename}"'
    return response
