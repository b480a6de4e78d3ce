"""Loading a saved match in the browser: its summary PDF (which carries the match's
export, ``ledger.matches.pdf_export``) or the export's JSON, chosen on the new-match page.

``read_saved_match`` reads it; the route (``ledger.web.matches.submit_import``) makes a
new match of it (new id, new edit key) exactly as
``POST /api/v1/matches/import`` does, or puts every problem on the file field.
"""

from __future__ import annotations

import json

from flask_babel import lazy_gettext as _l
from flask_wtf import FlaskForm
from flask_wtf.file import FileField

from ledger.engine import FieldError, Invalid
from ledger.i18n import N_
from ledger.matches.export import IMPORT_MAX_BYTES
from ledger.matches.pdf_export import HEADER, HEADER_WITHIN, NotAPdf, read_pdf_export

NEITHER = N_(
    "This file is neither a match summary PDF nor a match's export.json. Choose the "
    "summary PDF the ledger printed, or the export.json it saved."
)


class ImportMatchForm(FlaskForm):
    """What the "Load a saved match" part of the new-match page posts."""

    file = FileField(
        _l("Summary PDF or export.json"),
        render_kw={"accept": ".pdf,.json,application/pdf,application/json"},
    )


def read_saved_match(data: bytes) -> object:
    """The export a file holds: the one a PDF carries, or the JSON itself (told apart by
    their first bytes: browsers label files loosely). Raises Invalid."""
    if HEADER in data[:HEADER_WITHIN]:
        try:
            return read_pdf_export(data, IMPORT_MAX_BYTES)
        except NotAPdf as problem:
            raise Invalid([FieldError("", problem.args[0].template)]) from None
    try:
        return json.loads(data)
    except (ValueError, RecursionError):
        raise Invalid([FieldError("", NEITHER)]) from None
