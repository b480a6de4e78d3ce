"""The PDFs already made, on disk, so that asking again costs a file read.

A match's ``version`` goes up with every write to it, so the PDF of one version never
goes stale: the key holds the match's id and version and everything else that changes
the bytes (which PDF, paper, language, digits, the printed date, the address printed
in it), and the code that printed it (``code_stamp``). Nothing is ever invalidated:
the files of old versions are simply no longer asked for, and they go first when the
cache is full.

The files live in ``<instance>/pdf-cache/`` (``PDF_CACHE_FOLDER``), which every process
serving the app shares. One file per key, named by the key's SHA-256. A new file is
written aside and renamed into place (``os.replace``), so a reader sees a whole PDF or
none. The cache keeps at most ``PDF_CACHE_FILES`` files and ``PDF_CACHE_MB`` MiB:
after each write, the least recently used go (a hit touches its file, so the
modification time is the last use). A ``*.tmp`` left by a process that died while
writing goes after an hour.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
import tempfile
import time
from collections.abc import Sequence
from functools import cache
from importlib.metadata import PackageNotFoundError, version
from pathlib import Path

#: The suffix of a cached PDF, and of a file being written.
SUFFIX, DRAFT = ".pdf", ".tmp"
#: A draft older than this was left by a process that died while writing it.
DRAFT_SECONDS = 3600


class PdfCache:
    """PDFs by key (a sequence of strings and numbers), in ``folder``."""

    def __init__(self, folder: Path, max_files: int, max_bytes: int):
        self.folder = folder
        self.max_files = max_files
        self.max_bytes = max_bytes

    def path(self, key: Sequence[str | int]) -> Path:
        digest = hashlib.sha256(json.dumps(list(key)).encode()).hexdigest()
        return self.folder / f"{digest}{SUFFIX}"

    def get(self, key: Sequence[str | int]) -> bytes | None:
        """The PDF kept under ``key`` (now the most recently used), or None."""
        path = self.path(key)
        try:
            data = path.read_bytes()
            os.utime(path)
        except FileNotFoundError:  # never made, or pruned meanwhile
            return None
        return data

    def put(self, key: Sequence[str | int], pdf: bytes) -> None:
        """Keep ``pdf`` under ``key``, then prune to the bounds."""
        fd, draft = tempfile.mkstemp(dir=self.folder, suffix=DRAFT)
        try:
            with os.fdopen(fd, "wb") as file:
                file.write(pdf)
            os.replace(draft, self.path(key))
        except BaseException:
            with contextlib.suppress(FileNotFoundError):
                os.unlink(draft)
            raise
        self.prune()

    def clear(self) -> None:
        """Remove every kept PDF (a player was forgotten: their old name may be in any; a
        database was restored: its versions went back)."""
        for path in self.folder.glob(f"*{SUFFIX}"):
            with contextlib.suppress(FileNotFoundError):
                path.unlink()

    def prune(self) -> None:
        """Remove the least recently used PDFs beyond the bounds, and stale drafts."""
        kept: list[tuple[float, int, str]] = []
        now = time.time()
        with os.scandir(self.folder) as entries:
            for entry in entries:
                try:
                    if entry.name.endswith(SUFFIX):
                        stat = entry.stat()
                        kept.append((stat.st_mtime, stat.st_size, entry.path))
                    elif entry.name.endswith(DRAFT) and now - entry.stat().st_mtime > DRAFT_SECONDS:
                        os.unlink(entry.path)
                except FileNotFoundError:  # another process removed it first
                    continue
        kept.sort(reverse=True)  # the most recently used first
        total = 0
        for count, (_, size, path) in enumerate(kept, 1):
            total += size
            if count > self.max_files or total > self.max_bytes:
                with contextlib.suppress(FileNotFoundError):
                    os.unlink(path)


@cache
def code_stamp(*folders: str) -> str:
    """What printed the PDFs: the ledger's version and when its code, templates,
    stylesheets, fonts and catalogues last changed (read once per process: a deploy
    restarts it). Every build is 0.1.0 for now, so the version alone would keep a PDF
    of a fixed figure as it was; compiled bytecode is left out, as each process may
    write more of it."""
    try:
        stamp = [version("marriage-ledger")]
    except PackageNotFoundError:  # run from a checkout that is not installed
        stamp = ["unknown"]
    for folder in folders:
        latest = 0
        for root, dirs, files in os.walk(folder):
            dirs[:] = [name for name in dirs if name != "__pycache__"]
            for name in files:
                latest = max(latest, os.stat(os.path.join(root, name)).st_mtime_ns)
        stamp.append(str(latest))
    return "-".join(stamp)
