"""How a route gets its PDF: the copy kept for this match version and request
(``ledger.pdf.cache``), else a new one, laid out in a child process
(``ledger.pdf.child``) while holding a render slot (``ledger.http.slots``), then kept.

Settings (``instance/config.py`` or ``LEDGER_<NAME>``), with their defaults:

- ``PDF_SLOTS`` (2): how many PDFs may be laid out at once by all the processes that
  share the instance folder; ``PDF_SLOT_WAIT`` (3): how many seconds a request waits for
  a slot before it is answered 503 with Retry-After.
- ``PDF_CACHE_FILES`` (200) and ``PDF_CACHE_MB`` (100): the most PDFs, and MiB, that
  ``<instance>/pdf-cache/`` keeps.
- ``PDF_CHILD_PROCESS`` (true): lay PDFs out in a child process; false lays them out in
  the serving process (whose memory then keeps what a long PDF took).
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from datetime import datetime
from pathlib import Path

from flask import current_app, request
from flask.sansio.app import App
from msgspec import Struct
from werkzeug.exceptions import ServiceUnavailable

from ledger.http.forgetting import on_forget
from ledger.http.slots import SlotsBusy, render_slot
from ledger.i18n import N_, current_language, digit_style, tr
from ledger.i18n.numbers import local, time_zone
from ledger.pdf.cache import PdfCache, code_stamp
from ledger.pdf.child import render_in_child
from ledger.pdf.jobs import RenderJob
from ledger.settings import check_number, check_switch

log = logging.getLogger(__name__)

DEFAULTS = {
    "PDF_SLOTS": 2,
    "PDF_SLOT_WAIT": 3,
    "PDF_CACHE_FILES": 200,
    "PDF_CACHE_MB": 100,
    "PDF_CHILD_PROCESS": True,
}
EXTENSION = "ledger.pdf"
#: The folder in the instance folder: the kept PDFs and the slots' lock files.
FOLDER = "pdf-cache"
#: What a 503 asks the browser to wait, in seconds.
RETRY_AFTER = 10
BUSY = N_(
    "The ledger is busy making other PDFs just now. Please wait {seconds} seconds and try again."
)


class PdfBusy(ServiceUnavailable):
    """No render slot freed in time (503, with Retry-After)."""


class Printer(Struct, frozen=True):
    """An app's PDF cache and render slots."""

    cache: PdfCache
    slots: int
    wait: float
    #: What the PDFs are made from (``code_stamp``): templates, static files, the package
    #: (its code and catalogues).
    sources: tuple[str, ...]


def init_printer(app: App) -> None:
    """Read and check the settings, make the folder (at the blueprint's registration)."""
    for key, value in DEFAULTS.items():
        app.config.setdefault(key, value)
    for key, whole, least in (
        ("PDF_SLOTS", True, 1),
        ("PDF_SLOT_WAIT", False, 0),
        ("PDF_CACHE_FILES", True, 1),
        ("PDF_CACHE_MB", False, 1),
    ):
        check_number(app.config, key, least, whole)
    check_switch(app.config, "PDF_CHILD_PROCESS")
    folder = Path(app.instance_path) / FOLDER
    folder.mkdir(parents=True, exist_ok=True)
    cache = PdfCache(
        folder, int(app.config["PDF_CACHE_FILES"]), int(app.config["PDF_CACHE_MB"] * 1024 * 1024)
    )
    on_forget(app, cache.clear)
    app.extensions[EXTENSION] = Printer(
        cache,
        app.config["PDF_SLOTS"],
        float(app.config["PDF_SLOT_WAIT"]),
        (
            str(app.template_folder or ""),
            str(app.static_folder or ""),
            str(Path(__file__).resolve().parents[1]),
        ),
    )


def printer() -> Printer:
    found: Printer = current_app.extensions[EXTENSION]
    return found


def request_key(
    kind: str, public_id: str, version: int, now: datetime, *parts: str | int
) -> list[str | int]:
    """The cache key of a match's PDF for this request: which PDF, the match version,
    and all else that changes its bytes (``parts``: the paper and the route's own)."""
    return [
        kind,
        public_id,
        version,
        *parts,
        current_language(),
        digit_style(),
        local(now).date().isoformat(),  # the date it prints, on the table's clock
        str(time_zone()),
        # the address it prints (links back to the ledger): the configured one when there
        # is one (ledger.serving.links), so that no Host header can multiply the files
        current_app.config.get("PUBLIC_URL") or request.url_root,
        code_stamp(*printer().sources),
    ]


def kept_pdf(key: Sequence[str | int], make: Callable[[], RenderJob]) -> bytes:
    """The PDF kept under ``key``, else the PDF of ``make()``'s job, kept: only a miss
    builds the job (the match's view, the HTML) and renders it."""
    cache = printer().cache
    pdf = cache.get(key)
    if pdf is None:
        with _slot():
            pdf = cache.get(key)  # made meanwhile by a request that held a slot
            if pdf is None:
                pdf = render_job(make())
                try:
                    cache.put(key, pdf)
                except OSError as error:  # a full disk: the PDF is made, give it anyway
                    log.warning("the PDF could not be kept in the cache: %s", error)
    return pdf


def new_pdf(make: Callable[[], RenderJob]) -> bytes:
    """The PDF of ``make()``'s job, made within a slot (a PDF of no match: not kept)."""
    with _slot():
        return render_job(make())


def render_job(job: RenderJob) -> bytes:
    """The PDF of a job, in a child process unless ``PDF_CHILD_PROCESS`` is off."""
    return render_in_child(job) if current_app.config["PDF_CHILD_PROCESS"] else job.render()


@contextmanager
def _slot() -> Iterator[None]:
    """Hold a render slot for the ``with`` block; PdfBusy when none frees in time."""
    settings = printer()
    try:
        with render_slot(settings.cache.folder, settings.slots, settings.wait):
            yield
    except SlotsBusy:
        raise PdfBusy(tr(BUSY, seconds=RETRY_AFTER), retry_after=RETRY_AFTER) from None
