"""A read-only link as a QR code: the SVG the match and table pages share (the link only,
never an edit key)."""

from __future__ import annotations

import io

from flask import Response, make_response
from markupsafe import Markup


def qr_svg(url: str, title: str) -> Response:
    """``url`` as an SVG QR code titled ``title`` (its alternative text), kept an hour by
    the browser."""
    import segno  # loaded by the first QR code, not at start

    out = io.BytesIO()
    segno.make(url, error="m").save(
        out,
        kind="svg",
        scale=5,
        border=2,
        xmldecl=False,
        svgclass=None,
        lineclass=None,
        dark="#000",
        light="#fff",
        title=title,
        omitsize=True,
    )
    response = make_response(out.getvalue())
    response.mimetype = "image/svg+xml"
    response.headers["Cache-Control"] = "private, max-age=3600"
    return response


def qr_inline(text: str, title: str) -> Markup:
    """``text`` as an inline SVG QR code titled ``title`` (segno escapes the title; the
    code's text is only modules): a player's payment QR, redrawn by the ledger from the
    text it read, never the image they uploaded."""
    import segno  # as qr_svg's

    svg = segno.make(text, error="m").svg_inline(
        scale=4, border=2, title=title, svgclass="qr pay-qr", lineclass=None, omitsize=False
    )
    return Markup(svg)  # noqa: S704 (segno's own SVG, title escaped)
