"""Shared fixtures: app, client, runner (CSRF off), csrf_app/csrf_client (CSRF on),
make_app, empty_database_url and unmigrated_app, reached (the endpoints requests reach),
live_server and page (headless Chromium, for tests marked ``browser``), axe_source
(axe-core, for the accessibility checks).

The suite runs on SQLite, or on PostgreSQL with ``--db=postgresql`` (or the
environment variable ``LEDGER_TEST_DB=postgresql``): see ``database_support``.
Tests marked ``sqlite_only`` are about SQLite itself and skipped on PostgreSQL.
"""

import os
import shutil
import subprocess
from collections.abc import Iterator
from pathlib import Path

import pytest
from browser_support import CHROMIUM, CHROMIUM_ARGS, fresh_page
from compiled_once import share_route_builders, share_templates
from database_support import CHOICES, open_databases
from flask import Flask, request

from ledger import create_app
from ledger.extensions import db
from ledger.serving.server import serving_in_thread


def pytest_addoption(parser):
    parser.addoption(
        "--db",
        choices=CHOICES,
        default=os.environ.get("LEDGER_TEST_DB") or "sqlite",
        help="the database the app's fixtures use (default: $LEDGER_TEST_DB, else sqlite)",
    )


def pytest_configure(config):
    share_route_builders()


def pytest_report_header(config):
    return f"database: {config.getoption('--db')}"


#: Fixtures that run the app's console script in another process: their tests are slow.
OTHER_PROCESSES = {"init_db", "serve", "wheel", "installed"}


def pytest_collection_modifyitems(config, items):
    for item in items:
        if OTHER_PROCESSES & set(getattr(item, "fixturenames", ())):
            item.add_marker(pytest.mark.slow)
    if config.getoption("--db") == "sqlite":
        return
    skip = pytest.mark.skip(reason="about SQLite itself")
    for item in items:
        if "sqlite_only" in item.keywords:
            item.add_marker(skip)


def pytest_sessionstart(session):
    """The compiled catalogues (git-ignored) are built by `make`; a run of pytest alone
    builds any that are missing or older than their .po file."""
    from babel.messages.mofile import write_mo
    from babel.messages.pofile import read_po

    from ledger.i18n.switches import TRANSLATIONS

    for po in TRANSLATIONS.glob("*/LC_MESSAGES/messages.po"):
        mo = po.with_suffix(".mo")
        if mo.exists() and mo.stat().st_mtime >= po.stat().st_mtime:
            continue
        with po.open("rb") as f:
            catalog = read_po(f, locale=po.parent.parent.name)
        with mo.open("wb") as f:
            write_mo(f, catalog)


@pytest.fixture(scope="session")
def databases(request, tmp_path_factory):
    """Where the apps' databases are made (SQLite files, or a PostgreSQL cluster started
    for the session on first use)."""
    found = open_databases(request.config.getoption("--db"), tmp_path_factory.mktemp("db"))
    yield found
    found.close()


@pytest.fixture
def empty_database_url(databases, tmp_path) -> Iterator[str]:
    """The URL of a new database without tables (for the migrations and init-db)."""
    url = databases.create(tmp_path / "empty", schema=False)
    yield url
    databases.drop(url)


@pytest.fixture
def unmigrated_app(empty_database_url, tmp_path) -> Flask:
    """An app on a new database without tables: for the migrations and ``init-db``."""
    return create_app(
        {
            "TESTING": True,
            "INSTANCE_PATH": str(tmp_path / "instance"),
            "SQLALCHEMY_DATABASE_URI": empty_database_url,
            "SECRET_KEY": "test",
        }
    )


def _make_app(databases, folder: Path, **overrides) -> Iterator[Flask]:
    """An app on a database of its own with the models' tables (unless the overrides
    name another database, whose tables it makes), dropped at the end."""
    own = "SQLALCHEMY_DATABASE_URI" not in overrides
    config = {
        "TESTING": True,
        "INSTANCE_PATH": str(folder / "instance"),
        "SECRET_KEY": "test-secret-key",
        "WTF_CSRF_ENABLED": False,
        "RATELIMIT_ENABLED": False,  # tests/web/test_limits.py turns it on
    }
    if own:
        config["SQLALCHEMY_DATABASE_URI"] = databases.create(folder)
    config.update(overrides)
    app = create_app(config)
    share_templates(app)
    if not own:
        with app.app_context():
            db.create_all()
    yield app
    with app.app_context():
        db.session.remove()
        if not own:
            db.drop_all()
        db.engine.dispose()
    if own:
        databases.drop(config["SQLALCHEMY_DATABASE_URI"])


@pytest.fixture
def make_app(databases, tmp_path):
    """A factory: ``make_app(**config_overrides)`` builds an app on a fresh database."""
    made = []

    def factory(**overrides) -> Flask:
        gen = _make_app(databases, tmp_path / f"app{len(made)}", **overrides)
        made.append(gen)
        return next(gen)

    yield factory
    for gen in made:
        next(gen, None)


@pytest.fixture
def app(databases, tmp_path):
    yield from _make_app(databases, tmp_path)


@pytest.fixture
def client(app):
    return app.test_client()


@pytest.fixture
def reached(app):
    """The endpoints of the requests that reach the app (from now on: asked for before
    the first request, every one)."""
    seen: list[str | None] = []
    app.before_request(lambda: seen.append(request.endpoint))
    return seen


@pytest.fixture
def runner(app):
    return app.test_cli_runner()


@pytest.fixture
def csrf_app(databases, tmp_path):
    yield from _make_app(databases, tmp_path, WTF_CSRF_ENABLED=True)


@pytest.fixture
def csrf_client(csrf_app):
    return csrf_app.test_client()


@pytest.fixture
def live_server(databases, tmp_path):
    """The app (CSRF on) served on 127.0.0.1 at a free port; yields its base URL."""
    gen = _make_app(databases, tmp_path, WTF_CSRF_ENABLED=True, TESTING=False)
    app = next(gen)
    try:
        with serving_in_thread(app) as port:  # waitress, as `marriage-ledger serve`
            yield f"http://127.0.0.1:{port}"
    finally:
        next(gen, None)


@pytest.fixture(scope="session")
def browser():
    if not (os.access(CHROMIUM, os.X_OK) or shutil.which("chromium")):
        pytest.skip("no /usr/bin/chromium: run `make system-deps`")
    from playwright.sync_api import sync_playwright

    with sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        yield browser
        browser.close()


AXE = Path(__file__).parent / "a11y" / "node_modules" / "axe-core" / "axe.min.js"


@pytest.fixture(scope="session")
def axe_source() -> str:
    """axe-core's script (`make node-deps` installs it; a run of pytest alone installs it
    when npm is there, as it builds the catalogues)."""
    if not AXE.exists() and shutil.which("npm"):
        subprocess.run(
            ["npm", "ci", "--prefix", str(AXE.parents[2]), "--no-audit", "--no-fund"],
            check=True,
            capture_output=True,
        )
    if not AXE.exists():
        pytest.skip("no axe-core: run `make node-deps` (needs npm)")
    return AXE.read_text(encoding="utf-8")


@pytest.fixture
def page(browser):
    """A fresh page (phone-sized). ``page.console_errors`` collects console errors,
    CSP violations included; tests should assert it stays empty."""
    with fresh_page(browser) as page:
        yield page
