"""The summary PDF as a complete record of its match: it carries the match's export
(an import reads it back: ``ledger.matches.pdf_export``)."""

from __future__ import annotations

from datetime import datetime

from ledger.i18n import tr
from ledger.matches.pdf_export import EXPORT_NAME
from ledger.pdf.jobs import Attached


def export_attachment(export: bytes, match_name: str, exported_at: datetime) -> Attached:
    """The match's export (``export`` as the API answers it) as the summary's attachment."""
    return Attached(
        name=EXPORT_NAME,
        data=export,
        description=tr(
            "The match “{match}” as the Marriage ledger exports it, to import again.",
            match=match_name,
        ),
        moment=exported_at,
    )
