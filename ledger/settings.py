"""How the app reads its configuration, so that every process of one ledger agrees.

Later sources win:

1. the defaults below;
2. ``config.py`` in the instance folder (optional; not read when the tests pass
   their own configuration);
3. the environment: every ``LEDGER_<NAME>`` variable becomes the setting ``<NAME>``
   (Flask's ``from_prefixed_env``: a value that parses as JSON is read as JSON, so
   ``LEDGER_PROXY_COUNT=1`` is the number 1); ``LEDGER_DATABASE_URL`` is the
   database (``SQLALCHEMY_DATABASE_URI``); the secret key and the URLs stay text;
4. the test configuration given to ``create_app``.

The instance folder (the SQLite database, the generated secret key, ``config.py``) is
``$LEDGER_INSTANCE_PATH``, else Flask's choice: ``instance/`` beside the package in a
checkout, ``<prefix>/var/ledger-instance`` for an installed package.
"""

from __future__ import annotations

import functools
import logging
import os
import secrets
import sqlite3
from collections.abc import Mapping
from datetime import timedelta
from typing import Any
from urllib.parse import quote, urlsplit
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from flask import Flask
from sqlalchemy.engine import make_url
from sqlalchemy.exc import ArgumentError

log = logging.getLogger(__name__)
PREFIX = "LEDGER"
MAX_BODY_BYTES = 256 * 1024
#: Settings that are text even when they look like JSON (a key of digits stays a string).
TEXT_SETTINGS = ("SECRET_KEY", "DATABASE_URL", "PUBLIC_URL", "TIMEZONE")


def instance_path(test_value: object = None) -> str | None:
    """The instance folder asked for (absolute), or None for Flask's default. A leading
    ``~`` is the user's home: a value quoted in a unit file or a shell reaches here
    unexpanded, and made a folder named ``~`` in the working directory."""
    chosen = test_value if test_value is not None else os.environ.get(f"{PREFIX}_INSTANCE_PATH")
    if not chosen:
        return None
    path: str = os.fspath(chosen)  # type: ignore[call-overload]
    return os.path.abspath(os.path.expanduser(path))


def configure(app: Flask, overrides: Mapping[str, Any], read_instance_config: bool) -> None:
    """Fill ``app.config`` from the sources above, then check what must be right."""
    app.config.from_mapping(
        SQLALCHEMY_DATABASE_URI="sqlite:///" + os.path.join(app.instance_path, "ledger.sqlite3"),
        MAX_CONTENT_LENGTH=MAX_BODY_BYTES,
        SESSION_COOKIE_HTTPONLY=True,
        SESSION_COOKIE_SAMESITE="Lax",
        #: How long a browser keeps its edit rights and own links after its last visit:
        #: the most a browser keeps a cookie (400 days), so that a table that meets at each
        #: year's Dashain and Tihar finds its tables again (Flask's 31 days lost them).
        PERMANENT_SESSION_LIFETIME=timedelta(days=400),
        # Pages send no Referer (ledger.http.security): the CSRF token alone guards forms.
        WTF_CSRF_SSL_STRICT=False,
        #: Where phones and other computers reach this ledger (share links, QR codes);
        #: None: the address each request came to.
        PUBLIC_URL=None,
        #: How many proxies in front set X-Forwarded-For/-Proto/-Host/-Prefix (0: none,
        #: and those headers are not believed).
        PROXY_COUNT=0,
        #: The zone the pages show times and dates in (an IANA name such as
        #: "Asia/Kathmandu"); None: the server's own zone.
        TIMEZONE=None,
        #: How long a static file's version is taken as last seen before its size and
        #: time are looked at again (seconds; ledger.http.assets).
        STATIC_RECHECK_SECONDS=1.0,
        #: How long after a save its one-tap undo is offered and accepted (seconds;
        #: ledger.web.undo).
        UNDO_SECONDS=120,
    )
    if read_instance_config:
        app.config.from_pyfile("config.py", silent=True)
    app.config.from_prefixed_env(PREFIX)
    for name in TEXT_SETTINGS:
        if f"{PREFIX}_{name}" in os.environ:
            app.config[name] = os.environ[f"{PREFIX}_{name}"]
    if app.config.get("DATABASE_URL"):
        app.config["SQLALCHEMY_DATABASE_URI"] = app.config["DATABASE_URL"]
    app.config.from_mapping(overrides)

    if not app.config.get("SECRET_KEY"):
        app.config["SECRET_KEY"] = instance_secret_key(app.instance_path)
    app.config["PUBLIC_URL"] = check_public_url(app.config.get("PUBLIC_URL"))
    app.config["TIMEZONE"] = check_time_zone(app.config.get("TIMEZONE"))
    count = app.config.get("PROXY_COUNT")
    if not isinstance(count, int) or isinstance(count, bool) or count < 0:
        raise ValueError(f"{PREFIX}_PROXY_COUNT must be a whole number, 0 or more: got {count!r}")
    check_number(app.config, "STATIC_RECHECK_SECONDS", 0, whole=False)
    check_number(app.config, "UNDO_SECONDS", 0)
    check_database_url(app.config["SQLALCHEMY_DATABASE_URI"])
    if app.config["SQLALCHEMY_DATABASE_URI"].startswith("postgresql"):
        # A server restart leaves dead connections in the pool: test each before use.
        options = dict(app.config.get("SQLALCHEMY_ENGINE_OPTIONS") or {})
        options.setdefault("pool_pre_ping", True)
        app.config["SQLALCHEMY_ENGINE_OPTIONS"] = options
    read_only = read_only_sqlite_file(app.config["SQLALCHEMY_DATABASE_URI"])
    if read_only is not None:
        log.warning("%s is on a disk this process cannot write: serving it read-only", read_only)
        options = dict(app.config.get("SQLALCHEMY_ENGINE_OPTIONS") or {})
        options.setdefault("creator", functools.partial(_open_read_only, read_only))
        app.config["SQLALCHEMY_ENGINE_OPTIONS"] = options


def check_number(config: Mapping[str, Any], key: str, least: float, whole: bool = True) -> None:
    """ValueError naming ``LEDGER_<key>`` unless it holds a number (a whole one when
    ``whole``) of at least ``least``: a setting read only once a request needs it would
    fail that request (a 500 on every page), not the start."""
    value = config[key]
    kinds = int if whole else int | float
    if isinstance(value, bool) or not isinstance(value, kinds) or value < least:
        what = "a whole number" if whole else "a number"
        raise ValueError(f"{PREFIX}_{key} must be {what}, at least {least}: got {value!r}")


def check_switch(config: Mapping[str, Any], key: str) -> None:
    """ValueError unless ``LEDGER_<key>`` is true or false: ``off`` or ``no`` are text,
    which Python takes as true."""
    if not isinstance(config[key], bool):
        raise ValueError(f"{PREFIX}_{key} must be true or false: got {config[key]!r}")


def read_only_sqlite_file(uri: str) -> str | None:
    """The path of the SQLite file at ``uri`` when the disk holding it takes no writes
    from this process (mounted read-only, or a folder it may not write in); else None.

    SQLite cannot even read a database in WAL mode there, opened as usual: a reader
    needs the ``-shm`` file beside it. Opened as immutable it reads the file as it is,
    which is right while nobody can write it; every write is then refused (a 503 saying
    nothing was changed) and ``/readyz`` says the database takes no writes."""
    url = make_url(uri)
    if url.get_backend_name() != "sqlite" or url.database in (None, "", ":memory:"):
        return None
    path = os.path.abspath(url.database)
    if url.query or not os.path.isfile(path):
        return None  # a URI of SQLite's own, or a database init-db has still to make
    if os.access(path, os.W_OK) and os.access(os.path.dirname(path), os.W_OK):
        return None
    return path


def _open_read_only(path: str) -> sqlite3.Connection:
    return sqlite3.connect(
        f"file:{quote(path)}?mode=ro&immutable=1", uri=True, check_same_thread=False
    )


def check_time_zone(name: object) -> str | None:
    """The zone's name if it is one the machine knows (None or "" for the server's)."""
    if name is None or name == "":
        return None
    try:
        ZoneInfo(name)  # type: ignore[arg-type]
    except (ZoneInfoNotFoundError, ValueError, TypeError):
        raise ValueError(
            f"{PREFIX}_TIMEZONE must be a time zone name such as Asia/Kathmandu or "
            f"Europe/London: got {name!r}"
        ) from None
    return str(name)


def check_database_url(uri: str) -> None:
    """A URL SQLAlchemy can read, else ValueError with a sentence that does not repeat it
    (it holds the password). A password with an ``@``, ``:`` or ``/`` written as it is
    splits the URL in the wrong places: SQLAlchemy's own message ("invalid literal for
    int() with base 10: 'w'") named neither the setting nor the cure, and showed a piece of
    the password."""
    try:
        url = make_url(uri)
    except (ValueError, ArgumentError):
        raise ValueError(
            f"{PREFIX}_DATABASE_URL is not a database URL that can be read, such as "
            "postgresql+psycopg://ledger:PASSWORD@db.example.org/ledger: write any @, :, / "
            "or % in the user's name or password as %40, %3A, %2F or %25."
        ) from None
    try:
        url.get_dialect()  # "postgres://", as some hosts write it, is no dialect's name
    except ArgumentError:
        raise ValueError(
            f"{PREFIX}_DATABASE_URL names no kind of database the ledger knows "
            f"({url.drivername!r}): PostgreSQL's URL begins postgresql+psycopg://, "
            "SQLite's sqlite:///."
        ) from None


def check_public_url(url: object) -> str | None:
    """``http(s)://host[:port][/path]`` without a trailing slash, or None; else ValueError."""
    if url is None or url == "":
        return None
    parts = urlsplit(url) if isinstance(url, str) else None
    if parts is None or parts.scheme not in ("http", "https") or not parts.hostname:
        raise ValueError(
            f"{PREFIX}_PUBLIC_URL must be an address like http://192.168.1.20:5000 or "
            f"https://ledger.example.org: got {url!r}"
        )
    if parts.query or parts.fragment:
        raise ValueError(f"{PREFIX}_PUBLIC_URL must not have a query or a fragment: got {url!r}")
    assert isinstance(url, str)  # parts is None otherwise
    return url.rstrip("/")


def instance_secret_key(folder: str) -> str:
    """The key in ``<instance>/secret_key``, generated (mode 0600) on first use.

    Processes that share the instance folder share the key: the file appears whole or
    not at all (written aside, then linked into place), so two processes starting at
    once agree on one key. Processes on different machines need ``LEDGER_SECRET_KEY``.
    """
    path = os.path.join(folder, "secret_key")
    if not os.path.exists(path):
        draft = f"{path}.{os.getpid()}.{secrets.token_hex(4)}"
        fd = os.open(draft, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
        try:
            with os.fdopen(fd, "w", encoding="ascii") as f:
                f.write(secrets.token_hex(32) + "\n")
            os.link(draft, path)
        except FileExistsError:
            pass  # another process was first: use its key
        finally:
            os.unlink(draft)
    with open(path, encoding="ascii") as f:
        key = f.read().strip()
    if not key:
        raise RuntimeError(f"{path} is empty: delete it to generate a new key")
    return key
