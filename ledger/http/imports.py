"""One import at a time, across every process that serves the app (issue 35).

An import settles every hand it carries again (a 200-match table: 2,400 hands), seconds
of Python that hold the serving process's interpreter lock and a core. Three at once on
a small machine made the scorekeeper's saves wait for the CPU, not for the database.
So an import holds a slot (``ledger.http.slots``: lock files in the instance folder's
``import-slots``): ``IMPORT_SLOTS`` (1) at once, the others waiting up to
``IMPORT_SLOT_WAIT`` (10) seconds for it, then answered 503 with Retry-After; nothing
is read or stored before the slot is held. Imports also have their own rate limit
(``RATELIMIT_IMPORT``, ``ledger.http.limits``).
"""

from __future__ import annotations

from collections.abc import Callable
from functools import wraps
from pathlib import Path
from typing import Any

from flask import Flask, Response, current_app
from werkzeug.exceptions import ServiceUnavailable

from ledger.http.errors import error_response
from ledger.http.no_store import unkept
from ledger.http.slots import SlotsBusy, render_slot
from ledger.i18n import N_, tr
from ledger.i18n.language import is_api_request
from ledger.settings import check_number

#: Each setting's default and its least value.
SETTINGS = {"IMPORT_SLOTS": (1, 1), "IMPORT_SLOT_WAIT": (10, 0)}
#: The folder in the instance folder that holds the slots' lock files.
FOLDER = "import-slots"
#: What a 503 asks the client to wait, in seconds.
RETRY_AFTER = 10
BUSY = {
    "api": "Another import is being read just now; nothing was stored. "
    "Try again in {seconds} seconds.",
    "page": N_(
        "The ledger is loading another saved match or table just now; nothing was stored. "
        "Please wait {seconds} seconds and try again."
    ),
}


class ImportsBusy(ServiceUnavailable):
    """The import slot stayed taken for the whole wait (503, with Retry-After)."""


def one_import_at_a_time(view: Callable[..., Any]) -> Callable[..., Any]:
    """The view, run while holding an import slot; ImportsBusy when none frees in time."""

    @wraps(view)
    def within_a_slot(*args: Any, **kwargs: Any) -> Any:
        config = current_app.config
        folder = Path(current_app.instance_path) / FOLDER
        try:
            with render_slot(folder, config["IMPORT_SLOTS"], config["IMPORT_SLOT_WAIT"]):
                return view(*args, **kwargs)
        except SlotsBusy:
            raise ImportsBusy(retry_after=RETRY_AFTER) from None

    return within_a_slot


def _busy(error: ImportsBusy) -> Response:
    if is_api_request():
        message = BUSY["api"].format(seconds=RETRY_AFTER)
    else:
        message = tr(BUSY["page"], seconds=RETRY_AFTER)
    response = unkept(error_response(error, message))
    response.headers["Retry-After"] = str(RETRY_AFTER)
    return response


def init_imports(app: Flask) -> None:
    for name, (default, least) in SETTINGS.items():
        app.config.setdefault(name, default)
        check_number(app.config, name, least)
    (Path(app.instance_path) / FOLDER).mkdir(parents=True, exist_ok=True)
    app.register_error_handler(ImportsBusy, _busy)
