"""PDF rendering with WeasyPrint: the end-of-match summary and the hand slips.

Every PDF is an archive copy (``ARCHIVE_OPTIONS``): PDF/A-3b, so that it still opens
as printed in years (fonts embedded, an sRGB output intent, XMP metadata), and tagged,
so that a screen reader gets its language, title, headings, tables and lists from the
structure tree. A PDF may carry files (``Attached``): the summary carries the match's
export (``ledger.pdf.archive``).

The renderer is sandboxed. WeasyPrint gets the HTML as a string with a fixed base URL
(``BASE_URL``, on the reserved ``.invalid`` domain) and a URL fetcher,
``StaticFetcher``, that answers only files under the app's static folder (addressed as
``/static/...``) and ``data:`` URLs. Everything else (``http(s)`` elsewhere, ``file:``
anywhere, ``ftp:``...) is refused, so nothing a player typed can make the renderer
fetch anything; the templates escape names anyway.

Text is set only in the vendored fonts (``static/fonts``: Noto Sans, Noto Sans
Devanagari and two symbol subsets), loaded through ``@font-face`` in the stylesheets.

The stylesheets, the font configuration and the colour profile are parsed once per
thread and reused (they are the slow part of a small PDF); they are read again when a
stylesheet file changes.

The routes do not call ``render_pdf`` in the serving process, nor import this module: they
hand a ``RenderJob`` (``ledger.pdf.jobs``) to a child process (``ledger.pdf.child``), which
imports it.
"""

from __future__ import annotations

import atexit
import mimetypes
import os
import threading
from collections.abc import Sequence
from datetime import UTC, datetime
from pathlib import Path
from typing import TYPE_CHECKING, Any
from urllib.parse import unquote, urlsplit
from urllib.request import DataHandler, Request

from msgspec import Struct
from weasyprint import CSS, HTML, Attachment
from weasyprint.text.fonts import FontConfiguration
from weasyprint.urls import URLFetcher, URLFetcherResponse

from ledger.i18n.numbers import MINUS
from ledger.pdf.jobs import DEFAULT_PAPER, PAPER_SIZES, STYLESHEETS, Attached, StaticFiles

if TYPE_CHECKING:
    import pydyf
    from weasyprint.document import Document

#: Every relative URL in a PDF's HTML or CSS resolves against this; nothing answers it.
HOST = "ledger.invalid"
BASE_URL = f"https://{HOST}/"
#: The output intent of every PDF (PDF/A needs one): the vendored sRGB profile.
OUTPUT_INTENT = "--srgb"
COLOR_PROFILE_CSS = "@color-profile --srgb { src: url(color/sRGB2014.icc); components: r g b; }"
#: What every PDF is written as: PDF/A-3 level B (PDF/A-3 allows attached files of any
#: kind) with a structure tree (WeasyPrint takes the language from ``<html lang>``, the
#: title from ``<title>``, and tags headings, tables with their header cells, lists and
#: figures, an SVG's ``<title>`` being its text alternative). The output intent is ours:
#: WeasyPrint's own ("srgb") opens its profile file for every PDF and never closes it.
ARCHIVE_OPTIONS = {"pdf_variant": "pdf/a-3b", "pdf_tags": True, "output_intent": OUTPUT_INTENT}


class FetchRefused(ValueError):
    """A URL the PDF renderer may not fetch."""


class StaticFetcher(URLFetcher):  # type: ignore[misc]  # WeasyPrint ships no types
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

    def fetch(self, url: str, headers: dict[str, str] | None = None) -> URLFetcherResponse:
        if url[:5].lower() == "data:":
            answer = DataHandler().data_open(Request(url))
            return URLFetcherResponse(url, answer.read(), dict(answer.headers.items()))
        path = self.path_for(url)
        if path is None:
            raise FetchRefused(f"the PDF renderer fetches only the app's static files: {url!r}")
        mime = mimetypes.guess_type(path.name)[0] or "application/octet-stream"
        return URLFetcherResponse(url, path.read_bytes(), {"Content-Type": mime})


class Kit(Struct):
    """What every PDF of one thread reuses: fonts, fetcher, parsed stylesheets."""

    stamp: tuple[object, ...]
    fetcher: StaticFetcher
    font_config: FontConfiguration
    stylesheets: list[CSS]
    paper: dict[str, CSS]
    #: The output intent's profile, by name (``COLOR_PROFILE_CSS`` read once).
    color_profiles: dict[str, Any]

    @classmethod
    def build(cls, static: StaticFiles) -> Kit:
        fetcher = StaticFetcher(static.folder, static.url_path)
        fonts = FontConfiguration()
        prefix = BASE_URL + static.url_path.strip("/") + "/"
        sheets = [
            CSS(url=prefix + name, url_fetcher=fetcher, font_config=fonts) for name in STYLESHEETS
        ]
        paper = {
            key: CSS(string=f"@page {{ size: {size}; }}", font_config=fonts)
            for key, size in PAPER_SIZES.items()
        }
        profiles: dict[str, Any] = {}  # filled by reading the @color-profile rule
        CSS(string=COLOR_PROFILE_CSS, base_url=prefix, url_fetcher=fetcher, color_profiles=profiles)
        return cls(static.stamp(), fetcher, fonts, sheets, paper, profiles)


#: Each thread's kit (WeasyPrint's objects are not shared between threads), by thread id.
#: Not a ``threading.local``: a kit must be freed before the interpreter exits (see below).
_kits: dict[int, Kit] = {}


def kit_for(static: StaticFiles | None = None) -> Kit:
    """This thread's kit for ``static`` (default: the current app's static files), made
    again when a stylesheet changed."""
    static = static or StaticFiles.of_app()
    found = _kits.get(threading.get_ident())
    if found is None or found.stamp != static.stamp():
        found = _kits[threading.get_ident()] = Kit.build(static)
    return found


def clear_cache() -> None:
    """Forget this thread's parsed stylesheets and fonts (tests; a changed static folder)."""
    _kits.pop(threading.get_ident(), None)


@atexit.register
def _free_kits() -> None:
    """Free every thread's fonts while WeasyPrint's C libraries are still loaded: a font
    configuration freed after them (from a thread's state, as the interpreter ends)
    crashes the process."""
    _kits.clear()


#: Programs read these PDFs' text (the acceptance checks look for ``-18``): numbers are
#: written with the ASCII hyphen-minus, not the true minus sign the pages use.


def render_document(
    html: str,
    paper: str = DEFAULT_PAPER,
    extra_css: Sequence[str] = (),
    static: StaticFiles | None = None,
) -> Document:
    """The laid-out pages (a WeasyPrint Document) of an HTML document on A4 or US Letter;
    ``static``: the static files it may use (default: the current app's)."""
    kit = kit_for(static)
    sheets = [
        *kit.stylesheets,
        *(CSS(string=css, font_config=kit.font_config) for css in extra_css),
        kit.paper[paper if paper in PAPER_SIZES else DEFAULT_PAPER],
    ]
    html = html.replace(MINUS, "-")
    document = HTML(string=html, base_url=BASE_URL, url_fetcher=kit.fetcher)
    return document.render(
        stylesheets=sheets,
        font_config=kit.font_config,
        color_profiles=kit.color_profiles,
        output_intent=OUTPUT_INTENT,
    )


def render_pdf(
    html: str,
    paper: str = DEFAULT_PAPER,
    extra_css: Sequence[str] = (),
    attachments: Sequence[Attached] = (),
    static: StaticFiles | None = None,
) -> bytes:
    """The PDF of an HTML document (a whole page, as a string) on A4 or US Letter, as
    an archive copy (``ARCHIVE_OPTIONS``) carrying ``attachments``; ``static``: the static
    files it may use (default: the current app's)."""
    kit = kit_for(static)
    files = [
        Attachment(
            string=item.data,
            url_fetcher=kit.fetcher,
            name=item.name,
            description=item.description,
            created=_naive_utc(item.moment),
            modified=_naive_utc(item.moment),
            relationship=item.relationship,
        )
        for item in attachments
    ]
    document = render_document(html, paper, extra_css, static)
    pdf: bytes = document.write_pdf(
        **ARCHIVE_OPTIONS, attachments=files, finisher=_one_af_entry_each
    )
    return pdf


def _one_af_entry_each(_document: Document, pdf: pydyf.PDF) -> None:
    """WeasyPrint 70 lists each attached file twice in the catalog's ``/AF``: once each."""
    listed = pdf.catalog.get("AF")
    if listed:
        pdf.catalog["AF"] = type(listed)(dict.fromkeys(listed))


def _naive_utc(moment: datetime) -> datetime:
    """WeasyPrint writes an attachment's dates as UTC ("Z") without converting them."""
    return moment.astimezone(UTC).replace(tzinfo=None) if moment.tzinfo else moment
