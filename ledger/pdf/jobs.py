"""What a PDF is made from (``RenderJob``) and how a route answers with one, without
WeasyPrint: the serving process only builds jobs and sends their bytes, while a render
child lays them out (``ledger.pdf.child``), so importing the app never loads WeasyPrint
(1 s and tens of MB the server would carry for nothing). ``ledger.pdf.render`` is the
layout itself, imported where a PDF is made.
"""

from __future__ import annotations

import secrets
from datetime import datetime
from pathlib import Path

from flask import Response, current_app, request
from msgspec import Struct

#: The paper sizes a PDF can have (``?paper=``), as CSS page sizes.
PAPER_SIZES = {"a4": "A4", "letter": "letter"}
DEFAULT_PAPER = "a4"
#: Shared with the pages (app.css, report.css) and for WeasyPrint only (pdf.css), in order.
STYLESHEETS = ("css/app.css", "css/report.css", "css/pdf.css")


class StaticFiles(Struct, frozen=True):
    """Where the renderer finds the app's static files: the folder, and the URL path the
    HTML and CSS address them by (Flask's ``static_url_path``)."""

    folder: str
    url_path: str = "/static"

    @classmethod
    def of_app(cls) -> StaticFiles:
        """The current app's static files."""
        folder = Path(current_app.static_folder or "static").resolve()
        return cls(str(folder), current_app.static_url_path or "/static")

    def stamp(self) -> tuple[object, ...]:
        """Changes when a stylesheet does (its parsed form is then stale)."""
        root = Path(self.folder)
        return (self, *((root / name).stat().st_mtime_ns for name in STYLESHEETS))


class Attached(Struct, frozen=True):
    """A file that a PDF carries (a PDF/A-3 associated file of the whole document)."""

    name: str
    data: bytes
    description: str
    moment: datetime
    #: How it relates to the pages (ISO 32000-2, 7.11.3): "Data" is what they show.
    relationship: str = "Data"


class RenderJob(Struct, frozen=True):
    """Everything one PDF is made from: what a render child gets (``ledger.pdf.child``)."""

    html: str
    paper: str = DEFAULT_PAPER
    extra_css: tuple[str, ...] = ()
    attachments: tuple[Attached, ...] = ()
    static: StaticFiles | None = None

    def render(self) -> bytes:
        from ledger.pdf.render import render_pdf  # WeasyPrint: only where PDFs are made

        return render_pdf(self.html, self.paper, self.extra_css, self.attachments, self.static)


def paper_size(value: object) -> str:
    """The paper a request asks for: ``letter``, else A4."""
    return "letter" if isinstance(value, str) and value.strip().lower() == "letter" else "a4"


#: A readable cookie each PDF answer changes: the page that asked for it stops saying
#: "Preparing the PDF…" (static/js/pdf-links.js) even where the browser downloads it.
READY_COOKIE = "pdf_ready"


def pdf_response(pdf: bytes, filename: str) -> Response:
    """The PDF to show in the browser, with a safe ASCII file name for saving it."""
    response = Response(pdf, mimetype="application/pdf")
    response.headers["Content-Disposition"] = f'inline; filename="{filename}"'
    response.set_cookie(
        READY_COOKIE,
        secrets.token_hex(4),
        samesite="Lax",
        secure=request.is_secure,
        path=request.script_root or "/",
    )
    return response
