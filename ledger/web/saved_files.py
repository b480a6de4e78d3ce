"""The route side of loading a saved match or table (``POST /matches/import``,
``POST /tables/import``): one function both use, so the two pages read a file alike.

The body is read under an import's size limit (the API's: ``IMPORT_MAX_BYTES``), not
the app's smaller one, before the CSRF token is checked (the token is in that body:
CSRFProtect, which checks every other form first, would read it under the small limit).
The views are ``csrf.exempt`` for that reason and call ``load_posted``, which checks it.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from flask import current_app, request, url_for
from flask_wtf import FlaskForm
from markupsafe import Markup
from werkzeug.exceptions import RequestEntityTooLarge

from ledger.engine import FieldError, Invalid
from ledger.extensions import csrf
from ledger.forms.saved_files import SavedKind, read_saved
from ledger.i18n import tr, translate
from ledger.matches.export import IMPORT_MAX_BYTES

IMPORT_MAX_MIB = IMPORT_MAX_BYTES // (1024 * 1024)


def load_posted(kind: SavedKind) -> tuple[FlaskForm, tuple[Any, str] | None, int]:
    """The posted form; the new match or table and its edit key (None when it could not
    be loaded: every problem is then on ``form.file``, and nothing is stored); and the
    status to answer a page showing the form again with (413: too large, else 422)."""
    request.max_content_length = IMPORT_MAX_BYTES
    try:
        request.files  # noqa: B018  (reads the body, within the limit)
    except RequestEntityTooLarge:
        form = kind.form(formdata=None)
        form.file.errors = [tr("This file is larger than {size} MiB.", size=IMPORT_MAX_MIB)]
        return form, None, 413
    if current_app.config["WTF_CSRF_ENABLED"]:  # as CSRFProtect checks every other form
        csrf.protect()
    form = kind.form()
    upload = form.file.data
    if upload is None or not upload.filename:
        form.file.errors = [tr(kind.missing)]
        return form, None, 422
    try:
        document = read_saved(upload.read(), kind)
        if isinstance(document, Mapping) and document.get("format") == kind.elsewhere_format:
            form.file.errors = [_elsewhere(kind)]
            return form, None, 422
        return form, kind.load(document), 422
    except Invalid as problem:
        form.file.errors = [_shown(error) for error in problem.errors]
        return form, None, 422


def _elsewhere(kind: SavedKind) -> Markup:
    """Where a file of the other kind is loaded: a link to that page's "Load a saved …"."""
    page = url_for(kind.elsewhere_page, _anchor="import")
    link = Markup('<a href="{}">{}</a>').format(page, tr(kind.elsewhere_title))
    return Markup(tr(kind.elsewhere, load=link))  # the catalogue's words, and the link


def _shown(error: FieldError) -> str:
    """An import problem as the page shows it: where in the export, then what."""
    return f"{error.field}: {translate(error)}" if error.field else translate(error)
