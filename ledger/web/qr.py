"""A read-only link as a QR code: the SVG the match and table pages share (the link only,
never an edit key)."""

from __future__ import annotations

import io

import segno
from flask import Response, make_response


def qr_svg(url: str, title: str) -> Response:
    """``url`` as an SVG QR code titled ``title`` (its alternative text), kept an hour by
    the browser."""
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
