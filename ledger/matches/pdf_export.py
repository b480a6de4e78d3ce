"""A match read back out of its summary PDF, or a table out of a season PDF, for an import.

``summary.pdf`` attaches ``export.json`` (``ledger.pdf.archive``): the very bytes that
``GET /api/v1/matches/<id>/export.json`` answers for the version it prints.
``read_pdf_export`` finds that file again in posted bytes, which may be hostile: they
are at most the import limit long (the caller bounds the body), pypdf reads them with
every stream capped at that limit (a small compressed stream cannot inflate into
gigabytes) and without its slow repair of broken compressed data, and whatever pypdf
raises on a damaged file becomes a sentence for the person who sent it.
"""

from __future__ import annotations

import io
import json
from typing import TYPE_CHECKING

from msgspec import Struct

from ledger.engine import FieldError, Invalid
from ledger.i18n import N_, Msg

if TYPE_CHECKING:
    from pypdf import PdfReader

#: The attached file's name, as the API's download of it is called in docs/api.md.
EXPORT_NAME = "export.json"
#: Where in its first bytes a PDF says that it is one (ISO 32000: within the first 1024).
HEADER = b"%PDF-"
HEADER_WITHIN = 1024

NOT_A_PDF = N_("This is not a PDF: a PDF file starts with %PDF-.")


class PdfWords(Struct, frozen=True):
    """What a PDF that cannot be loaded is called, and what to do, by what was to be
    loaded from it: a match (from its summary) or a table (from a season PDF)."""

    #: Said when pypdf cannot open it.
    damaged: str
    #: Said when it carries no export.json (a hand's slip, any other PDF).
    no_export: str


MATCH_PDF = PdfWords(
    N_("This PDF is damaged: the ledger cannot read it. Print the summary again."),
    N_(
        "This PDF carries no match: it has no attached export.json. Import a match "
        "summary printed by the ledger, or the match's export.json itself."
    ),
)
TABLE_PDF = PdfWords(
    N_(
        "This season PDF is damaged: the ledger cannot read it. Print the season PDF "
        "again from the table's page, or load the table's export.json instead."
    ),
    N_(
        "This PDF carries no table: it has no attached export.json. Choose a season PDF "
        "the ledger printed for the table, or the table's export.json itself."
    ),
)
UNREADABLE_EXPORT = N_(
    "The export.json attached to this PDF cannot be read: the PDF is damaged or locked."
)
TOO_LARGE = N_("The export.json attached to this PDF is larger than {size} MiB.")
NOT_JSON = N_(
    "The export.json attached to this PDF is not JSON: the ledger can load nothing from it."
)


class NotAPdf(ValueError):
    """Posted bytes that are no readable PDF (a 400: the request is wrong, not its match);
    its argument is a ``Msg``."""


def read_pdf_export(data: bytes, limit: int, words: PdfWords = MATCH_PDF) -> object:
    """The export a PDF carries, as parsed JSON (``ledger.matches.import_match`` or
    ``ledger.tables.export.import_table`` checks it). ``limit``: the most bytes the
    attached export may have; ``words``: what the PDF is called in a problem (a match's
    summary, a table's season PDF).

    Raises ``NotAPdf`` when ``data`` is not a PDF pypdf can open, and ``Invalid`` (one
    error, field "") when the PDF carries no export or one that is damaged, too large
    or not JSON.
    """
    if HEADER not in data[:HEADER_WITHIN]:
        raise NotAPdf(Msg(NOT_A_PDF))
    # pypdf is imported here, by the rare import of a PDF, not by every serving process.
    from pypdf import PdfReader, apply_configuration
    from pypdf.errors import LimitReachedError

    limits = {
        name: limit
        for name in (
            "maximum_declared_stream_length",
            "array_based_stream_maximum_output_length",
            "zlib_maximum_output_length",
            "lzw_maximum_output_length",
            "run_length_maximum_output_length",
            "jbig2_maximum_output_length",
            "brotli_maximum_output_length",
            "stream_decoding_work_maximum_length",
        )
    }
    with apply_configuration(**limits, zlib_maximum_recovery_input_length=0):  # type: ignore[arg-type]
        try:
            reader = PdfReader(io.BytesIO(data), strict=False)
            reader.root_object  # noqa: B018  (reads the trailer and the catalog)
        except Exception:  # a hostile file can make pypdf raise nearly anything
            raise NotAPdf(Msg(words.damaged)) from None
        try:
            content = _attached_export(reader, words)
        except LimitReachedError:
            raise _problem(TOO_LARGE, size=limit // (1024 * 1024)) from None
        except Invalid:
            raise
        except Exception:
            raise _problem(UNREADABLE_EXPORT) from None
    try:
        return json.loads(content)
    except (ValueError, RecursionError):
        raise _problem(NOT_JSON) from None


def _attached_export(reader: PdfReader, words: PdfWords) -> bytes:
    """The content of the attached ``export.json`` (the first, if a hand-made PDF has
    several); Invalid when there is none."""
    for entry in reader.attachment_list:
        if entry.name == EXPORT_NAME:
            return entry.content
    raise _problem(words.no_export)


def _problem(template: str, **values: object) -> Invalid:
    return Invalid([FieldError("", template, **values)])
