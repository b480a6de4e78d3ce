"""The PDFs' page boxes in the page's language and digits."""

from __future__ import annotations

import re

from flask_babel import gettext

from ledger.i18n.language import digit_style


def _css_string(text: str) -> str:
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"').replace("\n", " ") + '"'


def pdf_page_css() -> str:
    """The PDFs' margin boxes in the page's language and digits: the title at the top
    right and "page N of M" at the foot (CSS counters, in Devanagari when chosen), and
    the numbers of ordered lists (the chart's legend, the players) in the same digits."""
    style = "devanagari" if digit_style() == "deva" else "decimal"
    counters = {"page": f"counter(page, {style})", "pages": f"counter(pages, {style})"}
    parts = []
    for piece in re.split(r"(\{page\}|\{pages\})", gettext("page {page} of {pages}")):
        if piece in ("{page}", "{pages}"):
            parts.append(counters[piece[1:-1]])
        elif piece:
            parts.append(_css_string(piece))
    fonts = '"Noto Sans", "Noto Sans Devanagari"'
    return (
        f"@page {{ @top-right {{ content: {_css_string(gettext('Marriage ledger'))}; "
        f"font-family: {fonts}; }} "
        f"@bottom-right {{ content: {' '.join(parts)}; font-family: {fonts}; }} }} "
        "@page :first { @top-right { content: none; } } "
        f"ol {{ list-style-type: {style}; }}"
    )
