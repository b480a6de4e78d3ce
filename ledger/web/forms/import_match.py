"""Loading a saved match in the browser: its summary PDF (which carries the match's
export, ``ledger.matches.pdf_export``) or the export's JSON, chosen on the new-match page.

``submit_import`` makes a new match of it (new id, new edit key) exactly as
``POST /api/v1/matches/import`` does, or puts every problem on the file field.
"""

from __future__ import annotations

import json

from flask_babel import lazy_gettext as _l
from flask_wtf import FlaskForm
from flask_wtf.file import FileField

from ledger.engine import FieldError, Invalid
from ledger.i18n import N_, tr, translate
from ledger.matches import import_match
from ledger.matches.export import IMPORT_MAX_BYTES
from ledger.matches.models import Match
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


def submit_import(form: ImportMatchForm) -> tuple[Match, str] | None:
    """The new match and its edit key, or None with the problems on ``form.file``."""
    upload = form.file.data
    if upload is None or not upload.filename:
        form.file.errors = [tr("Choose the match's summary PDF or its export.json first.")]
        return None
    try:
        return import_match(read_saved_match(upload.read()))
    except Invalid as problem:
        form.file.errors = [_shown(error) for error in problem.errors]
        return None


def _shown(error: FieldError) -> str:
    """An import problem as the page shows it: where in the export, then what."""
    return f"{error.field}: {translate(error)}" if error.field else translate(error)
