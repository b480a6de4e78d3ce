"""Every reference the code and the documents make resolves, so none can go stale: a dotted
``ledger.…`` name imports (a module, then attributes down from it), a ``docs/….md`` file
exists, a ``docs/….md#section`` names one of its headings, and a ``docs/rules.md §N``
one of its numbered sections."""

import importlib
import re
import unicodedata
from functools import cache
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]

#: Where references are written: the package, the tests, the scripts and the documents.
SOURCES = sorted(
    [
        *ROOT.glob("ledger/**/*.py"),
        *ROOT.glob("tests/**/*.py"),
        *ROOT.glob("scripts/*.py"),
        *ROOT.glob("bench/*.py"),
        *ROOT.glob("docs/*.md"),
        *ROOT.glob("templates/**/*.html"),
        ROOT / "README.md",
        ROOT / "Makefile",
        ROOT / "pyproject.toml",
    ]
)

# Not after a path, a word or a dash: ``instance/ledger.sqlite3``, ``marriage-ledger.service``.
DOTTED = re.compile(r"(?<![\w/.-])ledger(?:\.[A-Za-z_]\w*)+")
DOC = re.compile(r"docs/([\w-]+\.md)(?:#([\w-]+))?")
SECTION = re.compile(r"docs/rules\.md §(\d+)")
HEADING = re.compile(r"^#{1,6} (.+)$", re.M)
#: A path in the repository (not a pattern: ``match_*.html``, ``<id>``, ``{lang}``).
PATH = re.compile(
    r"(?<![\w/.-])((?:ledger|templates|tests|scripts|bench|static)/[\w./-]*[\w/])(?![\w*<{])"
)
#: Paths that are made, not kept: git-ignored builds and installs.
MADE = ("tests/a11y/node_modules", "test-output", ".mo")
#: Dotted words that are no Python names: a file, host names, a logger, keys of a store.
NOT_NAMES = {
    "ledger.sqlite3",
    "ledger.example.org",
    "ledger.invalid",
    "ledger.requests",
    "ledger.unsent",
    "ledger.migration_heads",
    "ledger.migrations_folder",
    "ledger.match_page_cache",
    "ledger.match_running_totals",
    "ledger.table_match_lines",
    "ledger.kept_parts",
    "ledger.report_hand_rows",
}


def slug(heading: str) -> str:
    """The anchor GitHub gives a heading: lower case, punctuation dropped, spaces as dashes."""
    kept = "".join(c for c in heading.lower() if c in " -_" or unicodedata.category(c)[0] in "LN")
    return kept.replace(" ", "-")


@cache
def anchors(doc: str) -> set[str]:
    return {slug(h) for h in HEADING.findall((ROOT / "docs" / doc).read_text("utf-8"))}


def resolves(name: str) -> bool:
    parts = name.split(".")
    for cut in range(len(parts), 0, -1):
        try:
            target = importlib.import_module(".".join(parts[:cut]))
        except ModuleNotFoundError:
            continue
        for attribute in parts[cut:]:
            fields = getattr(target, "__dataclass_fields__", {})
            if attribute in fields or attribute in getattr(target, "__annotations__", {}):
                target = fields.get(attribute, target)
                continue
            if not hasattr(target, attribute):
                return False
            target = getattr(target, attribute)
        return True
    return False


def references(pattern: re.Pattern[str]) -> list[tuple[str, int, re.Match[str]]]:
    found = []
    for path in SOURCES:
        for number, line in enumerate(path.read_text("utf-8").splitlines(), 1):
            for match in pattern.finditer(line):
                found.append((f"{path.relative_to(ROOT)}:{number}", number, match))
    return found


def test_there_are_references_to_check():
    assert len(references(DOTTED)) > 50
    assert len(references(SECTION)) > 30


def test_every_dotted_name_resolves():
    wrong = [
        f"{where}: {m.group(0)}"
        for where, _, m in references(DOTTED)
        if m.group(0) not in NOT_NAMES and not resolves(m.group(0))
    ]
    assert not wrong, "\n".join(wrong)


def test_every_path_names_a_file_of_the_repository():
    wrong = [
        f"{where}: {m.group(1)}"
        for where, _, m in references(PATH)
        if not any(made in m.group(1) for made in MADE) and not (ROOT / m.group(1)).exists()
    ]
    assert not wrong, "\n".join(wrong)


def test_every_document_and_section_exists():
    wrong = []
    for where, _, match in references(DOC):
        doc, anchor = match.groups()
        if not (ROOT / "docs" / doc).exists():
            wrong.append(f"{where}: no docs/{doc}")
        elif anchor and anchor not in anchors(doc):
            wrong.append(f"{where}: docs/{doc} has no section #{anchor}")
    assert not wrong, "\n".join(wrong)


def test_every_rules_section_exists():
    numbered = {h.split()[0] for h in HEADING.findall((ROOT / "docs/rules.md").read_text("utf-8"))}
    assert {f"§{n}" for n in range(1, 9)} <= numbered
    wrong = [
        f"{where}: docs/rules.md has no §{m.group(1)}"
        for where, _, m in references(SECTION)
        if f"§{m.group(1)}" not in numbered
    ]
    assert not wrong, "\n".join(wrong)


def test_the_documents_link_to_sections_they_have():
    wrong = []
    for doc in sorted((ROOT / "docs").glob("*.md")):
        for target, anchor in re.findall(r"\]\(([\w-]+\.md)?#([\w-]+)\)", doc.read_text("utf-8")):
            if anchor not in anchors(target or doc.name):
                wrong.append(f"{doc.name}: {target or doc.name}#{anchor}")
    assert not wrong, "\n".join(wrong)


def test_no_reference_leaves_the_repository():
    """The team's specification outside the repository is never cited."""
    outside = re.compile(r"RULES\.md|(?<![\w/])API\.md|\.\./shared|/work/|shared/")
    wrong = [where for where, _, _ in references(outside) if not where.startswith("tests/docs/")]
    assert not wrong, "\n".join(wrong)
