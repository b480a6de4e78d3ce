"""Which build of the ledger this process runs: the package's version and the commit it
was built from.

Every build is version 0.1.0 for now, so the version alone cannot tell an upgraded
server from one still on the old package; ``setup.py`` writes the commit into the
package (``BUILD_COMMIT``) when it builds a wheel. A checkout or an editable install has
no such file.
"""

from __future__ import annotations

from importlib.metadata import PackageNotFoundError, version
from pathlib import Path

COMMIT_FILE = Path(__file__).with_name("BUILD_COMMIT")


def describe() -> str:
    """``0.1.0 (commit 3b51aaa0c1d2)``; ``(commit unknown)`` when not built by setup.py."""
    try:
        number = version("marriage-ledger")
    except PackageNotFoundError:  # a checkout on the path, not installed
        number = "not installed"
    try:
        commit = COMMIT_FILE.read_text(encoding="ascii").strip() or "unknown"
    except FileNotFoundError:
        commit = "unknown"
    return f"{number} (commit {commit})"
