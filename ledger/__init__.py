"""The Marriage ledger: a Flask app that keeps score for the card game Marriage."""

import os
import secrets
from collections.abc import Mapping
from typing import Any

from flask import Flask

from ledger import api
from ledger.assets import init_assets
from ledger.cli import init_db_command
from ledger.compression import init_compression
from ledger.errors import init_errors
from ledger.extensions import csrf, db, migrate
from ledger.i18n import (
    current_language,
    digit_style,
    digits,
    money,
    num,
    signed,
    switches,
    tr,
    translate,
)
from ledger.i18n.language import LANGUAGES
from ledger.i18n.switches import here, init_i18n
from ledger.i18n.words import PROFILE_NAMES, SETTING_MEANINGS, TUNNELA_GROUP_NAMES
from ledger.pdf import routes as pdf_routes
from ledger.security import init_security
from ledger.web import checker, filters, glossary, hands, main, rules
from ledger.web import matches as match_pages

MAX_BODY_BYTES = 256 * 1024


def create_app(test_config: Mapping[str, Any] | None = None) -> Flask:
    """Build the app.

    ``test_config`` overrides every other setting. Its key ``INSTANCE_PATH`` (an
    absolute path) is special: it replaces the instance folder (database, secret key)
    and is consumed before Flask is constructed.
    """
    overrides = dict(test_config or {})
    instance_path = overrides.pop("INSTANCE_PATH", None)

    app = Flask(
        __name__,
        instance_path=os.fspath(instance_path) if instance_path is not None else None,
        instance_relative_config=True,
        template_folder="../templates",
        static_folder="../static",
    )
    os.makedirs(app.instance_path, exist_ok=True)

    default_db = "sqlite:///" + os.path.join(app.instance_path, "ledger.sqlite3")
    app.config.from_mapping(
        SQLALCHEMY_DATABASE_URI=os.environ.get("LEDGER_DATABASE_URL") or default_db,
        MAX_CONTENT_LENGTH=MAX_BODY_BYTES,
        SESSION_COOKIE_HTTPONLY=True,
        SESSION_COOKIE_SAMESITE="Lax",
    )
    if test_config is None:
        app.config.from_pyfile("config.py", silent=True)  # instance/config.py, optional
    app.config.from_mapping(overrides)
    if not app.config.get("SECRET_KEY"):
        app.config["SECRET_KEY"] = os.environ.get("LEDGER_SECRET_KEY") or _instance_secret_key(
            app.instance_path
        )

    db.init_app(app)
    # batch mode: ALTER TABLE on SQLite; the folder is found from any working directory
    migrations = os.path.join(os.path.dirname(os.path.dirname(__file__)), "migrations")
    migrate.init_app(app, db, directory=migrations, render_as_batch=True)
    csrf.init_app(app)

    from ledger.matches import models  # noqa: F401  (registers the tables)

    init_security(app)
    init_assets(app)
    init_compression(app)
    init_i18n(app)
    init_errors(app)
    _register_templates(app)
    app.cli.add_command(init_db_command)
    for blueprint in (
        main.bp,
        checker.bp,
        rules.bp,
        glossary.bp,
        match_pages.bp,
        hands.bp,
        pdf_routes.bp,
        switches.bp,
        api.bp,
    ):
        app.register_blueprint(blueprint)
    csrf.exempt(api.bp)  # the API authenticates by edit key, not cookies

    return app


def _instance_secret_key(instance_path: str) -> str:
    """The key in instance/secret_key, generated (mode 0600) on first use."""
    path = os.path.join(instance_path, "secret_key")
    try:
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    except FileExistsError:
        with open(path, encoding="ascii") as f:
            key = f.read().strip()
        if not key:
            raise RuntimeError(f"{path} is empty: delete it to generate a new key") from None
        return key
    key = secrets.token_hex(32)
    with os.fdopen(fd, "w", encoding="ascii") as f:
        f.write(key + "\n")
    return key


def _register_templates(app: Flask) -> None:
    """Every filter and global the templates use."""
    for name, function in {
        "num": num,
        "signed": signed,
        "money": money,
        "digits": digits,
        "tr": translate,
        "card": filters.card,
        "cards": filters.cards,
        "rule_value": filters.rule_value,
        "setting_label": filters.setting_label,
        "kind_word": filters.kind_word,
    }.items():
        app.add_template_filter(function, name)
    for name, value in {
        "tr": tr,
        "current_language": current_language,
        "digit_style": digit_style,
        "here": here,
        "languages": LANGUAGES,
        "tiplu_family": filters.tiplu_family,
        "changed_settings": filters.changed_settings,
        "profile_titles": PROFILE_NAMES,
        "setting_help": SETTING_MEANINGS,
        "tunnela_group_names": TUNNELA_GROUP_NAMES,
    }.items():
        app.add_template_global(value, name)
