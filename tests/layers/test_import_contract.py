"""The import contract of ``make check`` (``[tool.importlinter]`` in pyproject.toml) holds
on the tree, and an import planted against it in a copy of the package breaks it: the
layers are checked by a machine, not only promised."""

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
LINT_IMPORTS = Path(sys.executable).parent / "lint-imports"

pytestmark = pytest.mark.slow  # lint-imports in another process, on a copy of the package


def lint_imports(tree: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [str(LINT_IMPORTS), "--config", str(tree / "pyproject.toml"), "--no-cache"],
        cwd=tree,
        env={**os.environ, "PYTHONPATH": str(tree)},  # the copy, before the installed tree
        capture_output=True,
        text=True,
        timeout=120,
    )


@pytest.fixture
def tree(tmp_path) -> Path:
    copy = tmp_path / "tree"
    shutil.copytree(
        ROOT / "ledger",
        copy / "ledger",
        ignore=shutil.ignore_patterns("__pycache__", "translations"),
    )
    shutil.copy(ROOT / "pyproject.toml", copy)
    return copy


def test_the_tree_keeps_the_contract(tree):
    kept = lint_imports(tree)
    assert kept.returncode == 0, kept.stdout + kept.stderr
    assert "0 broken" in kept.stdout


@pytest.mark.parametrize(
    "planted, named",
    [
        ("from ledger.matches import service", "ledger.engine.cards -> ledger.matches"),
        ("from ledger.web import hands", "ledger.engine.cards -> ledger.web"),
        ("import flask", "ledger.engine.cards -> flask"),
        ("import sqlalchemy", "ledger.engine.cards -> sqlalchemy"),
    ],
)
def test_an_import_planted_in_the_engine_breaks_it(tree, planted, named):
    cards = tree / "ledger" / "engine" / "cards.py"
    cards.write_text(cards.read_text(encoding="utf-8") + f"\n{planted}  # planted\n")
    broken = lint_imports(tree)
    assert broken.returncode != 0
    assert "BROKEN" in broken.stdout and named in broken.stdout, broken.stdout


@pytest.mark.parametrize(
    "module, planted, named",
    [
        ("api/settle.py", "from ledger.web import hands", "ledger.api.settle -> ledger.web"),
        ("pdf/cache.py", "from ledger.api import matches", "ledger.pdf.cache -> ledger.api"),
        ("matches/view.py", "from ledger.http import errors", "ledger.matches.view -> ledger"),
        ("web/undo.py", "from sqlalchemy import select", "ledger.web.undo -> sqlalchemy"),
    ],
)
def test_a_sideways_or_upward_import_between_the_packages_breaks_it(tree, module, planted, named):
    path = tree / "ledger" / module
    path.write_text(path.read_text(encoding="utf-8") + f"\n{planted}  # planted\n")
    broken = lint_imports(tree)
    assert broken.returncode != 0
    assert "BROKEN" in broken.stdout and named in broken.stdout, broken.stdout
