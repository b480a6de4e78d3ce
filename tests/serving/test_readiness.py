"""``/readyz`` touches the database: ready only when it can be reached, is at this
code's migration and takes writes. ``/healthz`` keeps answering "ok" (liveness)."""

import socket

import pytest
from sqlalchemy import create_engine, make_url, text

from ledger import create_app, matches
from ledger.extensions import db


@pytest.fixture
def served(tmp_path):
    """``served(url)``: an app on the database at ``url``, its engine closed at the end."""
    made = []

    def make(url: str):
        app = create_app(
            {
                "TESTING": True,
                "INSTANCE_PATH": str(tmp_path / "instance"),
                "SQLALCHEMY_DATABASE_URI": url,
                "SECRET_KEY": "k",
            }
        )
        made.append(app)
        return app

    yield make
    for app in made:
        with app.app_context():
            db.engine.dispose()


def init_db(app):
    result = app.test_cli_runner().invoke(args=["init-db"])
    assert result.exit_code == 0, result.output


def readiness(app):
    client = app.test_client()
    health = client.get("/healthz")
    assert (health.status_code, health.get_data(True)) == (200, "ok")  # whatever the database
    answer = client.get("/readyz")
    assert answer.mimetype == "text/plain"
    assert answer.headers["Cache-Control"] == "no-store"
    return answer.status_code, answer.get_data(as_text=True)


def test_ready_after_init_db_and_still_writable_after(served, empty_database_url):
    app = served(empty_database_url)
    assert readiness(app) == (
        503,
        "not ready: the database has no tables yet: run `marriage-ledger init-db`\n",
    )
    init_db(app)
    with app.app_context():
        head = db.session.scalar(text("SELECT version_num FROM alembic_version"))
    assert readiness(app) == (200, "ready\n")
    with app.app_context():  # the check's own write was undone and holds no lock
        match, _ = matches.create_match("After", ["Asha", "Bikash"], "sparkai", None)
        assert match.id
        assert db.session.scalars(text("SELECT version_num FROM alembic_version")).all() == [head]
    assert readiness(app) == (200, "ready\n")


def test_a_database_behind_this_code_is_not_ready(served, empty_database_url):
    app = served(empty_database_url)
    init_db(app)
    with app.app_context():
        head = db.session.scalar(text("SELECT version_num FROM alembic_version"))
        db.session.execute(text("UPDATE alembic_version SET version_num = 'older'"))
        db.session.commit()
    code, body = readiness(app)
    assert code == 503
    assert body == (
        f"not ready: the database is at migration older, this code needs {head}: "
        "run `marriage-ledger init-db`\n"
    )


def _read_only(url: str) -> str:
    """The same database, refusing writes."""
    parsed = make_url(url)
    if parsed.get_backend_name() == "sqlite":  # root may write any file: ask SQLite itself
        return f"sqlite:///file:{parsed.database}?mode=ro&uri=true"
    engine = create_engine(url, isolation_level="AUTOCOMMIT")
    with engine.connect() as connection:
        connection.execute(
            text(f'ALTER DATABASE "{parsed.database}" SET default_transaction_read_only = on')
        )
    engine.dispose()
    return url


def test_a_read_only_database_is_not_ready(served, empty_database_url):
    init_db(served(empty_database_url))
    app = served(_read_only(empty_database_url))
    code, body = readiness(app)
    assert code == 503
    assert body.startswith("not ready: the database cannot be used (")


def test_a_database_that_cannot_be_reached_is_not_ready(served, empty_database_url, tmp_path):
    parsed = make_url(empty_database_url)
    if parsed.get_backend_name() == "sqlite":
        unreachable = f"sqlite:///{tmp_path / 'no-such-folder' / 'ledger.sqlite3'}"
    else:
        with socket.socket() as s:  # a port nothing listens on
            s.bind(("127.0.0.1", 0))
            port = s.getsockname()[1]
        unreachable = parsed.set(port=port).render_as_string(hide_password=False)
    code, body = readiness(served(unreachable))
    assert (code, body) == (503, "not ready: the database cannot be used (OperationalError)\n")


def test_an_instance_folder_this_user_cannot_write_is_not_ready(
    served, empty_database_url, tmp_path, unwritable
):
    """Installed and initialised as root, served as another user: every PDF and import
    would fail on its lock file, so /readyz says which folder and what to do."""
    app = served(empty_database_url)
    init_db(app)
    assert readiness(app) == (200, "ready\n")
    pdf_cache = tmp_path / "instance" / "pdf-cache"
    unwritable(pdf_cache)  # as a folder owned by another user is (even to root)
    status, said = readiness(app)
    assert status == 503, said
    assert f"cannot write {pdf_cache}: give the instance folder to the user" in said
