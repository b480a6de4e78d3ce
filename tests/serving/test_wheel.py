"""The package as a user gets it: built (sdist, then the wheel from it), installed into
a fresh virtualenv away from the repository, ``marriage-ledger init-db`` and ``serve``,
and every page fetched over HTTP in English and Nepali, with static files, a match,
its PDFs and the API.

The dependencies are installed from a wheelhouse kept in ``.venv/wheelhouse`` (made
once by pip from the wheel's own requirements), so the test needs the network only the
first time; the build itself runs without isolation (``setuptools`` and ``babel`` are
in the test extra; ``test_the_build_needs_only_what_it_declares`` keeps
``[build-system] requires`` honest).
"""

from __future__ import annotations

import ast
import base64
import hashlib
import io
import json
import re
import shlex
import shutil
import sys
import tomllib
import zipfile
from pathlib import Path

import pytest
from babel.messages.pofile import read_po
from pypdf import PdfReader
from served import REPOSITORY, Browser, clean_environment, run

from ledger import create_app

pytestmark = pytest.mark.slow  # builds and installs the package

PIP = Path(sys.executable).parent / "pip"
WHEELHOUSE = Path(sys.prefix) / "wheelhouse"  # in the virtualenv running the tests
PLAYERS = ["Asha", "Bikash", "Chandra", "Dipa"]
HAND = {
    "finish": "sequences",
    "winner": "Asha",
    "players": [
        {"name": "Asha", "seen": "sequences", "maal": 10},
        {"name": "Bikash", "seen": "sequences", "maal": 5},
        {"name": "Chandra", "seen": "unseen", "maal": 0},
        {"name": "Dipa", "seen": "sequences", "maal": 2},
    ],
}
CHECKED = (
    base64.urlsafe_b64encode(json.dumps({"rules": "sparkai", **HAND}).encode()).decode().rstrip("=")
)
#: The value of each part of a page's address; a new kind of part needs one here.
SAMPLE_VALUES = {"number": 1, "code": "ne", "style": "deva", "filename": "css/app.css"}
QUERIES = {"reports.check_slip_pdf": f"?h={CHECKED}"}
#: Endpoints answered with a redirect, and its status.
REDIRECTS = {
    "matches.join": 303,
    "tables.join": 303,
    "people.join": 303,
    "i18n.set_language": 303,
    "i18n.set_digits": 303,
    "home_screen.favicon": 302,  # to the icon, for browsers' PDF viewers
}
#: The big screens carry no menu: nothing on a TV is tapped.
NO_MENU = {"screen.show", "table_screen.show"}


# --- building and installing ------------------------------------------------------------


@pytest.fixture(scope="module")
def wheel(tmp_path_factory) -> Path:
    dist = tmp_path_factory.mktemp("dist")
    run(
        [sys.executable, "-m", "build", "--no-isolation", "--outdir", str(dist), "."],
        clean_environment(),
        REPOSITORY,
        timeout=300,
    )
    (built,) = dist.glob("marriage_ledger-*.whl")
    return built


def _wheelhouse(wheel: Path) -> Path:
    """Wheels of every dependency of ``wheel[postgres]``, made once per set of
    requirements (pip resolves them from the wheel's own metadata)."""
    with zipfile.ZipFile(wheel) as archive:
        (metadata,) = [n for n in archive.namelist() if n.endswith(".dist-info/METADATA")]
        requires = sorted(
            line
            for line in archive.read(metadata).decode().splitlines()
            if line.startswith("Requires-Dist:")
        )
    key = hashlib.sha256("\n".join([sys.version, *requires]).encode()).hexdigest()[:16]
    folder = WHEELHOUSE / key
    if not folder.is_dir():
        draft = WHEELHOUSE / f"{key}.draft"
        shutil.rmtree(draft, ignore_errors=True)
        run(
            [str(PIP), "wheel", "-q", "-w", str(draft), f"{wheel}[postgres]"],
            clean_environment(),
            REPOSITORY,
            timeout=600,
        )
        for own in draft.glob("marriage_ledger-*"):
            own.unlink()
        draft.rename(folder)
    return folder


@pytest.fixture(scope="module")
def installed(wheel, tmp_path_factory) -> Path:
    """A fresh virtualenv outside the repository with ``wheel[postgres]`` installed."""
    venv = tmp_path_factory.mktemp("fresh") / "venv"
    run(
        [sys.executable, "-m", "venv", "--without-pip", str(venv)], clean_environment(), venv.parent
    )
    run(
        [
            str(PIP),
            "--python",
            str(venv / "bin" / "python"),
            "install",
            "-q",
            "--no-compile",
            "--no-index",
            "--find-links",
            str(_wheelhouse(wheel)),
            f"{wheel}[postgres]",
        ],
        clean_environment(),
        venv.parent,
        timeout=600,
    )
    return venv


# --- what the wheel holds ---------------------------------------------------------------


def test_the_wheel_carries_the_data_folders_and_compiled_catalogues(wheel):
    with zipfile.ZipFile(wheel) as archive:
        names = set(archive.namelist())
        entry_points = next(n for n in names if n.endswith("entry_points.txt"))
        assert "marriage-ledger = ledger.cli:main" in archive.read(entry_points).decode()
    for folder in ("templates", "static", "migrations"):
        in_repository = {
            f"ledger/{p.relative_to(REPOSITORY).as_posix()}"
            for p in (REPOSITORY / folder).rglob("*")
            if p.is_file() and "__pycache__" not in p.parts and p.name != ".gitkeep"
        }
        assert in_repository and in_repository <= names, folder
    catalogues = sorted(
        f"ledger/{p.relative_to(REPOSITORY / 'ledger').with_suffix('.mo').as_posix()}"
        for p in (REPOSITORY / "ledger" / "translations").glob("*/LC_MESSAGES/messages.po")
    )
    assert len(catalogues) == 2 and set(catalogues) <= names
    assert not [n for n in names if n.endswith((".po", ".pot")) or "__pycache__" in n]


def test_a_file_gone_from_the_checkout_is_gone_from_its_next_wheel(tmp_path):
    """``pip install .`` builds in the checkout's build/, which setuptools only adds to:
    a migration (or template, static file, module) removed since an earlier build must
    not ride along in the next one."""
    checkout = tmp_path / "checkout"
    ignored = shutil.ignore_patterns("__pycache__", "*.mo")
    for name in ("ledger", "templates", "static", "migrations"):
        shutil.copytree(REPOSITORY / name, checkout / name, ignore=ignored)
    for name in ("setup.py", "pyproject.toml", "MANIFEST.in", "README.md"):
        shutil.copy2(REPOSITORY / name, checkout / name)
    removed = checkout / "migrations" / "versions" / "0000_removed_since.py"
    removed.write_text('revision = "0000"\n')

    def built(into: str) -> set[str]:
        run(
            [str(PIP), "wheel", "-q", "--no-deps", "--no-build-isolation", "-w", into, "."],
            clean_environment(),
            checkout,
            timeout=300,
        )
        (made,) = (checkout / into).glob("marriage_ledger-*.whl")
        with zipfile.ZipFile(made) as archive:
            return set(archive.namelist())

    wanted = f"ledger/{removed.relative_to(checkout).as_posix()}"  # where the wheel puts it
    assert wanted in built("first")
    removed.unlink()
    second = built("second")
    assert wanted not in second and f"ledger/{Path('templates', 'base.html')}" in second


def test_the_build_needs_only_what_it_declares():
    """setup.py runs in pip's isolated build environment, which holds only the
    packages of ``[build-system] requires``."""
    declared = tomllib.loads((REPOSITORY / "pyproject.toml").read_text())["build-system"]
    names = {re.split(r"[<>=!~ \[]", r, maxsplit=1)[0].lower() for r in declared["requires"]}
    tree = ast.parse((REPOSITORY / "setup.py").read_text())
    imported = {
        (node.module if isinstance(node, ast.ImportFrom) else alias.name).split(".")[0]
        for node in ast.walk(tree)
        if isinstance(node, ast.Import | ast.ImportFrom)
        for alias in node.names
    }
    standard = set(sys.stdlib_module_names)
    assert imported - standard <= names, (imported - standard, names)


def _documented_upgrade() -> list[list[str]]:
    """The ``pip`` lines of docs/deployment.md's Upgrading section, as words."""
    doc = (REPOSITORY / "docs" / "deployment.md").read_text(encoding="utf-8")
    section = re.split(r"\n#{2,3} ", doc.split("\n### Upgrading\n", 1)[1], maxsplit=1)[0]
    block = section.split("```sh\n", 1)[1].split("```", 1)[0]
    return [
        shlex.split(line, comments=True)
        for line in block.splitlines()
        if line.startswith("/opt/ledger/bin/pip ")
    ]


def _pip_in(venv: Path, wheel: Path, words: list[str]) -> list[str]:
    """A documented ``/opt/ledger/bin/pip ...`` for ``venv`` and ``wheel``, offline."""
    assert words[0] == "/opt/ledger/bin/pip" and words[1] == "install", words
    arguments = [re.sub(r"^dist/marriage_ledger-[^\[]*\.whl", str(wheel), w) for w in words[2:]]
    assert any(a.startswith(str(wheel)) for a in arguments), words
    offline = ["-q", "--no-index", "--find-links", str(_wheelhouse(wheel))]
    return [str(PIP), "--python", str(venv / "bin" / "python"), "install", *offline, *arguments]


def test_the_documented_upgrade_replaces_a_build_of_the_same_version(wheel, installed):
    """Every build is 0.1.0: pip keeps an installed build when given another, so the
    doc's upgrade forces the package in. An older build is the installed one with its
    newest migration missing; after the doc's lines it is there."""
    (package,) = installed.glob("lib/python*/site-packages/ledger")
    newest = max((package / "migrations" / "versions").glob("*.py"))  # any one will do
    wanted = newest.read_bytes()
    newest.unlink()
    upgrade = _documented_upgrade()
    assert len(upgrade) == 2 and "--force-reinstall" in upgrade[0], upgrade
    env = clean_environment()
    run(_pip_in(installed, wheel, upgrade[1]), env, installed.parent, timeout=300)
    assert not newest.exists()  # installed as at first: pip kept the old build
    for words in upgrade:
        run(_pip_in(installed, wheel, words), env, installed.parent, timeout=300)
    assert newest.read_bytes() == wanted


def _commit_built() -> str:
    """The commit setup.py names for a build of the repository as it is now."""
    if not (REPOSITORY / ".git").exists():
        return "unknown"
    git = ["git", "-C", str(REPOSITORY)]
    commit = run([*git, "rev-parse", "--short=12", "HEAD"], clean_environment(), REPOSITORY)
    changed = run(
        [*git, "status", "--porcelain", "--untracked-files=no"], clean_environment(), REPOSITORY
    )
    return commit.strip() + ("+changes" if changed.strip() else "")


def test_the_installed_command_names_the_commit_it_was_built_from(installed, tmp_path):
    """The wheel is built from the sdist, which holds no .git: the sdist carries the
    commit to it."""
    shown = run(
        [str(installed / "bin" / "marriage-ledger"), "--version"], clean_environment(), tmp_path
    )
    assert shown == f"marriage-ledger 0.1.0 (commit {_commit_built()})\n"


# --- the installed app, served -------------------------------------------------------------


def _pages(
    public_id: str, key: str, table: tuple[str, str], person_key: str
) -> list[tuple[str, str]]:
    """(endpoint, path) of every GET route of the app, with sample values: a match's id
    and key, under /tables/ the table's, and under /me the table's id and a player's own
    link."""
    match_values = {**SAMPLE_VALUES, "public_id": public_id, "key": key, "name": PLAYERS[0]}
    table_values = {**match_values, "public_id": table[0], "key": table[1]}
    person_values = {**table_values, "key": person_key}
    app = create_app({"TESTING": True, "SECRET_KEY": "x", "SQLALCHEMY_DATABASE_URI": "sqlite://"})
    pages = []
    for rule in app.url_map.iter_rules():
        if "GET" not in rule.methods:
            continue
        if rule.rule.startswith(("/me", "/api/v1/me")):
            values = person_values
        else:
            values = table_values if "/tables/" in rule.rule else match_values
        missing = rule.arguments - values.keys()
        assert not missing, f"add a sample value for {missing} ({rule.rule}) to SAMPLE_VALUES"
        with app.test_request_context():
            path = app.url_for(rule.endpoint, **{a: values[a] for a in rule.arguments})
        pages.append((rule.endpoint, path + QUERIES.get(rule.endpoint, "")))
    return sorted(pages)


def _nav_word(language: str) -> str:
    """The menu's "New match" in ``language`` (every page has it), from the catalogue in
    the repository: the installed app must have compiled it in."""
    if language == "en":
        return "New match"
    po = REPOSITORY / "ledger" / "translations" / language / "LC_MESSAGES" / "messages.po"
    with po.open("rb") as f:
        return read_po(f).get("New match").string


def _check_page(endpoint: str, answer, language: str) -> None:
    where = f"{endpoint} in {language}"
    if endpoint in REDIRECTS:
        assert answer.status == REDIRECTS[endpoint], where
        return
    assert answer.status == 200, (where, answer.status, answer.body[:300])
    kind = answer.headers.get_content_type()
    if kind == "text/html" and answer.text.startswith("<!doctype html>"):  # not a part
        assert f'<html lang="{language}"' in answer.text, where
        assert endpoint in NO_MENU or f">{_nav_word(language)}</a>" in answer.text, where
    elif kind == "application/pdf":
        assert answer.body.startswith(b"%PDF-"), where
        assert len(PdfReader(io.BytesIO(answer.body)).pages) >= 1, where
    assert answer.body, where


def test_the_installed_app_serves_every_page(
    installed, empty_database_url, init_db, serve, tmp_path
):
    script = installed / "bin" / "marriage-ledger"
    located = run(
        [str(installed / "bin" / "python"), "-c", "import ledger; print(ledger.__file__)"],
        clean_environment(),
        tmp_path,
    )
    assert located.strip().startswith(str(installed))  # not the repository's
    env = clean_environment()
    if not empty_database_url.startswith("sqlite"):
        env["LEDGER_DATABASE_URL"] = empty_database_url  # else the installed default
    assert "Initialised the database" in init_db(env, script=script)
    if "LEDGER_DATABASE_URL" not in env:  # Flask's instance folder of an installed package
        assert (installed / "var" / "ledger-instance" / "ledger.sqlite3").is_file()
    served = serve(env, "--host", "127.0.0.1", script=script)

    english = Browser(served.base, {"Accept-Language": "en"})
    assert english.get("/readyz").text == "ready\n"
    made = english.post(
        "/api/v1/matches",
        json_body={"name": "Wheel test", "players": PLAYERS, "rules": "sparkai", "length": None},
    )
    assert made.status == 201, made.text
    public_id, key = made.json()["id"], made.json()["edit_key"]
    auth = {"Authorization": f"Bearer {key}"}
    for _ in range(2):
        added = english.post(f"/api/v1/matches/{public_id}/hands", json_body=HAND, headers=auth)
        assert added.status == 201, added.text
    nepali = Browser(served.base, {"Accept-Language": "ne"})
    for browser in (english, nepali):  # editors: every page is theirs to see
        assert browser.get(f"/matches/{public_id}/join/{key}").status == 303

    table = english.post(
        "/api/v1/tables", json_body={"name": "Wheel table", "players": PLAYERS, "stake": None}
    )
    assert table.status == 201, table.text
    table_id, table_key = table.json()["id"], table.json()["edit_key"]
    tonight = english.post(
        f"/api/v1/tables/{table_id}/matches",
        json_body={"name": "Tonight", "players": PLAYERS, "length": None},
        headers={"Authorization": f"Bearer {table_key}"},
    )
    assert tonight.status == 201, tonight.text
    for browser in (english, nepali):
        assert browser.get(f"/tables/{table_id}/join/{table_key}").status == 303
    link = english.post(
        f"/api/v1/tables/{table_id}/players/{PLAYERS[0]}/link",
        headers={"Authorization": f"Bearer {table_key}"},
    )
    assert link.status == 201, link.text
    person_key = link.json()["person_key"]
    for browser in (english, nepali):  # and holders of a player's own link
        assert browser.get(f"/me/join/{person_key}").status == 303
    as_player = {"Authorization": f"Bearer {person_key}"}

    pages = _pages(public_id, key, (table_id, table_key), person_key)
    assert {"matches.show", "hands.edit", "reports.summary_pdf", "static"} <= dict(pages).keys()
    for language, browser in (("en", english), ("ne", nepali)):
        for endpoint, path in pages:
            if endpoint in ("i18n.set_language", "i18n.set_digits"):
                answer = Browser(served.base).get(path)  # a switch sets the browser's cookies
            elif endpoint == "api.me":  # the API reads the own link from the header
                answer = browser.get(path, headers=as_player)
            else:
                answer = browser.get(path)
            _check_page(endpoint, answer, language)

    summary = english.get(f"/matches/{public_id}/summary.pdf")
    text = "".join(page.extract_text() for page in PdfReader(io.BytesIO(summary.body)).pages)
    assert "Wheel test" in text
    stylesheet = english.get("/static/css/app.css")
    assert stylesheet.headers.get_content_type() == "text/css" and b"{" in stylesheet.body
    font = english.get("/static/fonts/NotoSansDevanagari-Regular.ttf")
    assert font.status == 200 and len(font.body) > 100_000
    match_page = nepali.get(f"/matches/{public_id}").text
    assert "म्याच" in match_page or "बाजी" in match_page
    assert served.stop() == 0
