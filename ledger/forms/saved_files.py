"""Loading a saved match or table in the browser: the file a page's "Load a saved ..."
form posts, which is a printed PDF (a match's summary or a table's season summary: each
carries its export, ``ledger.matches.pdf_export``) or the export's JSON.

``read_saved`` reads either; ``ledger.web.saved_files`` makes a new match or table of it
(new id, new edit key) exactly as ``POST /api/v1/matches/import`` or
``POST /api/v1/tables/import`` does, or puts every problem on the file field. The two
kinds differ only in their words and their importer (``SavedKind``).
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

from flask_babel import lazy_gettext as _l
from flask_wtf import FlaskForm
from flask_wtf.file import FileField
from msgspec import Struct

from ledger.engine import FieldError, Invalid
from ledger.i18n import N_
from ledger.matches import import_match
from ledger.matches.export import EXPORT_FORMAT, IMPORT_MAX_BYTES, TABLE_EXPORT_FORMAT
from ledger.matches.pdf_export import (
    HEADER,
    HEADER_WITHIN,
    MATCH_PDF,
    TABLE_PDF,
    NotAPdf,
    PdfWords,
    read_pdf_export,
)
from ledger.tables.export import import_table

#: What the file control accepts (browsers label files loosely: the content decides).
ACCEPT = ".pdf,.json,application/pdf,application/json"


class ImportMatchForm(FlaskForm):
    """What the "Load a saved match" part of the new-match page posts."""

    file = FileField(_l("Summary PDF or export.json"), render_kw={"accept": ACCEPT})


class ImportTableForm(FlaskForm):
    """What the "Load a saved table" part of the new-table page posts."""

    file = FileField(_l("Season PDF or export.json"), render_kw={"accept": ACCEPT})


class SavedKind(Struct, frozen=True):
    """A match or a table, as its import form reads it."""

    form: type[FlaskForm]
    #: The new match or table and its edit key, from an export (raises Invalid).
    load: Callable[[object], tuple[Any, str]]
    #: Said when the form is sent without a file.
    missing: str
    #: Said when the file is neither a PDF nor JSON.
    neither: str
    #: Said when a PDF is damaged or has no export attached (a hand's slip, any other PDF).
    pdf: PdfWords
    #: The other kind's export (a table's, chosen on the new-match page), by its format.
    elsewhere_format: str
    #: Said of it: where it is loaded, ``{load}`` a link to that page's form (the API's
    #: answer names the other import instead).
    elsewhere: str
    #: That page (its endpoint) and its form's title (the link's words).
    elsewhere_page: str
    elsewhere_title: str


MATCH = SavedKind(
    ImportMatchForm,
    import_match,
    N_("Choose the match's summary PDF or its export.json first."),
    N_(
        "This file is neither a match summary PDF nor a match's export.json. Choose the "
        "summary PDF the ledger printed, or the export.json it saved."
    ),
    MATCH_PDF,
    TABLE_EXPORT_FORMAT,
    N_(
        "This is a whole table's export, not one match's: load it on the New table page, "
        "under {load}."
    ),
    "tables.new",
    N_("Load a saved table"),
)
TABLE = SavedKind(
    ImportTableForm,
    import_table,
    N_("Choose the table's season PDF or its export.json first."),
    N_(
        "This file is neither a table's season PDF nor a table's export.json. Choose a "
        "season PDF the ledger printed for the table, or the export.json it saved."
    ),
    TABLE_PDF,
    EXPORT_FORMAT,
    N_(
        "This is one match's export, not a whole table's: load it on the New match page, "
        "under {load}."
    ),
    "matches.new",
    N_("Load a saved match"),
)


def read_saved(data: bytes, kind: SavedKind) -> object:
    """The export a file holds: the one a PDF carries, or the JSON itself (told apart by
    their first bytes: browsers label files loosely). Raises Invalid."""
    if HEADER in data[:HEADER_WITHIN]:
        try:
            return read_pdf_export(data, IMPORT_MAX_BYTES, kind.pdf)
        except NotAPdf as problem:
            raise Invalid([FieldError("", problem.args[0].template)]) from None
    try:
        return json.loads(data)
    except (ValueError, RecursionError):
        raise Invalid([FieldError("", kind.neither)]) from None
