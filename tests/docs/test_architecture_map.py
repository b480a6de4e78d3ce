"""docs/architecture.md's file map cannot go stale: every module of ``ledger/`` is named
in it, and every file, folder and module it names exists.

The map is the code block under "## Layout": an entry starts at the line's first column
with its paths (``ledger/cli.py``, ``ledger/http/``, ``templates/ static/``), and a
package's entry names each of its modules by file name (``limits.py (...)``).
"""

from __future__ import annotations

import importlib
import re
from fnmatch import fnmatch
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
LEDGER = ROOT / "ledger"
#: Where an entry's text starts: its paths fill the columns before.
TEXT_COLUMN = 23
MODULE_FILE = re.compile(r"(?<![\w/.])(\w+\.py)\b")
DOTTED = re.compile(r"(?<![\w.])ledger(?:\.\w+)+")
#: A path in an entry's text: words with slashes ("I/O" and "export/import" are words,
#: not paths: a path ends in "/" or a file's extension, or starts at a top-level folder).
PATH = re.compile(r"(?<![\w./<-])((?:[\w.-]+/)+[\w.-]*)")


def map_entries() -> dict[str, str]:
    """Each entry's paths (as written) -> its text."""
    text = (ROOT / "docs" / "architecture.md").read_text(encoding="utf-8")
    block = text.split("## Layout", 1)[1].split("```", 2)[1]
    entries: dict[str, str] = {}
    head = ""
    for line in block.strip("\n").splitlines():
        if line[:1].strip():
            head = line[:TEXT_COLUMN].strip()
            assert head not in entries, f"{head} is in the map twice"
            entries[head] = ""
        else:
            assert head, "the map starts with an entry's paths"
        entries[head] += " " + line[TEXT_COLUMN:].strip()
    return entries


def is_path(word: str) -> bool:
    last = word.rstrip(".").split("/")[-1]
    return not last or "." in last or (ROOT / word.split("/")[0]).is_dir()


def git_ignored(path: str) -> bool:
    """A path .gitignore leaves out (made by ``make`` or by the app at run time)."""
    patterns = [
        line.rstrip("/")
        for line in (ROOT / ".gitignore").read_text(encoding="utf-8").splitlines()
        if line and not line.startswith(("#", "!"))
    ]
    parts = path.rstrip("/").split("/")
    prefixes = ["/".join(parts[: i + 1]) for i in range(len(parts))]
    return any(fnmatch(prefix, pattern) for pattern in patterns for prefix in prefixes)


def packages() -> list[Path]:
    return sorted(p.parent for p in LEDGER.rglob("__init__.py"))


def test_every_package_and_top_level_module_has_its_entry():
    heads = {path for head in map_entries() for path in head.split()}
    wanted = {f"{p.relative_to(ROOT).as_posix()}/" for p in packages() if p != LEDGER}
    wanted |= {f"ledger/{m.name}" for m in LEDGER.glob("*.py")}
    assert wanted - heads == set(), "not in docs/architecture.md's map"


def test_each_package_entry_names_exactly_its_modules():
    entries = map_entries()
    for package in packages():
        if package == LEDGER:
            continue
        head = f"{package.relative_to(ROOT).as_posix()}/"
        named = set(MODULE_FILE.findall(entries[head]))
        present = {m.name for m in package.glob("*.py")} - {"__init__.py"}
        assert present - named == set(), f"{head}: modules the map does not name"
        assert named - present == set(), f"{head}: named in the map, not in the package"


def test_every_path_the_map_gives_exists():
    for head, text in map_entries().items():
        for path in head.split():
            assert (ROOT / path).exists(), path
        for path in filter(is_path, PATH.findall(text)):
            if git_ignored(path):
                continue
            where = [ROOT, *(ROOT / h for h in head.split() if h.endswith("/"))]
            assert any((base / path.rstrip(".")).exists() for base in where), (head, path)


def test_every_module_or_name_the_map_gives_as_ledger_dotted_exists():
    for text in map_entries().values():
        for dotted in DOTTED.findall(text):
            parts = dotted.split(".")
            for cut in range(len(parts), 0, -1):  # the longest importable module, then names
                try:
                    found: object = importlib.import_module(".".join(parts[:cut]))
                except ModuleNotFoundError:
                    continue
                for name in parts[cut:]:
                    assert hasattr(found, name), dotted
                    found = getattr(found, name)
                break
