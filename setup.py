"""The build step that makes an installed ledger whole (the rest is in pyproject.toml).

The repository keeps ``templates/``, ``static/`` and ``migrations/`` at its top, beside
the package, and the catalogues only as ``.po`` files. A wheel carries all of it inside
the package: ``ledger/templates``, ``ledger/static``, ``ledger/migrations`` and the
compiled ``ledger/translations/*/LC_MESSAGES/messages.mo`` (``ledger.data_folder`` and
Flask-Babel look there first). An editable install reads the repository instead.

Every build is version 0.1.0, so each also carries the commit it was made from
(``ledger/BUILD_COMMIT``, which ``marriage-ledger --version`` prints): git's, in a
checkout; in an sdist, which holds no ``.git``, the one its own build wrote beside
``setup.py`` (``python -m build`` makes the wheel from the sdist).
"""

import shutil
import subprocess
from pathlib import Path

from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po
from setuptools import setup
from setuptools.command.build_py import build_py
from setuptools.command.sdist import sdist

ROOT = Path(__file__).resolve().parent
DATA_FOLDERS = ("templates", "static", "migrations")
SKIPPED = ("__pycache__", "*.pyc", ".gitkeep")
COMMIT_FILE = "BUILD_COMMIT"


def _git(*args: str) -> str:
    return subprocess.run(
        ["git", *args], cwd=ROOT, capture_output=True, text=True, check=True
    ).stdout.strip()


def build_commit() -> str | None:
    """The commit this build is made from, ``+changes`` when tracked files differ from
    it; None when neither git nor an sdist says (a copy of the files alone)."""
    if (ROOT / ".git").exists():  # only this checkout's git, not a repository around it
        try:
            commit = _git("rev-parse", "--short=12", "HEAD")
            changed = _git("status", "--porcelain", "--untracked-files=no")
        except (OSError, subprocess.CalledProcessError):
            return None
        return commit + ("+changes" if changed else "")
    kept = ROOT / COMMIT_FILE
    return kept.read_text(encoding="ascii").strip() if kept.is_file() else None


class sdist_with_commit(sdist):
    def make_release_tree(self, base_dir: str, files: list[str]) -> None:
        super().make_release_tree(base_dir, files)
        commit = build_commit()
        if commit:
            (Path(base_dir) / COMMIT_FILE).write_text(commit + "\n", encoding="ascii")


class build_py_with_data(build_py):
    def run(self) -> None:
        package = Path(self.build_lib) / "ledger"
        if not self.editable_mode:
            # ``pip install .`` builds in the checkout's build/lib and setuptools only
            # adds to it: a template, static file, module or migration removed from the
            # checkout since an earlier build would stay in every later wheel (a renamed
            # migration: two heads). The package is built afresh each time.
            shutil.rmtree(package, ignore_errors=True)
        super().run()
        if self.editable_mode:
            return
        for name in DATA_FOLDERS:
            self._copy_folder(ROOT / name, package / name)
        for po in sorted((ROOT / "ledger" / "translations").glob("*/LC_MESSAGES/messages.po")):
            mo = package / po.relative_to(ROOT / "ledger").with_suffix(".mo")
            self.mkpath(str(mo.parent))
            with po.open("rb") as source:
                catalog = read_po(source, locale=po.parent.parent.name)
            with mo.open("wb") as target:
                write_mo(target, catalog, use_fuzzy=False)
        commit = build_commit()
        if commit:
            (package / COMMIT_FILE).write_text(commit + "\n", encoding="ascii")

    def _copy_folder(self, source: Path, target: Path) -> None:
        for path in sorted(source.rglob("*")):
            if path.is_dir() or any(path.match(pattern) for pattern in SKIPPED):
                continue
            if any(part == "__pycache__" for part in path.parts):
                continue
            destination = target / path.relative_to(source)
            self.mkpath(str(destination.parent))
            self.copy_file(str(path), str(destination))


setup(cmdclass={"build_py": build_py_with_data, "sdist": sdist_with_commit})
