"""The Marriage ledger: a Flask app that keeps score for the card game Marriage."""

from ledger.collector import kept_for_good

# The app's modules and the libraries they use: the process's for good (ledger.collector).
with kept_for_good():
    import os
    from collections.abc import Callable, Mapping
    from pathlib import Path
    from typing import Any

    from flask import Flask

    from ledger import api, settings
    from ledger.cli import copy_db_command, init_db_command
    from ledger.engine.player_figures import percent
    from ledger.extensions import csrf, db
    from ledger.http.assets import init_assets
    from ledger.http.compression import init_compression
    from ledger.http.converters import init_converters
    from ledger.http.errors import init_errors
    from ledger.http.front import init_front
    from ledger.http.imports import init_imports
    from ledger.http.limits import init_limits
    from ledger.http.security import init_security
    from ledger.i18n import switches
    from ledger.i18n.switches import filters_at_render, init_i18n
    from ledger.i18n.words import (
        AWARD_TITLES,
        ITEM_NOTE_WORDS,
        KIND_WORDS,
        NO_BONUS_WHY,
        PROFILE_NAMES,
        SETTING_MEANINGS,
        TUNNELA_GROUP_NAMES,
        shown_cards,
    )
    from ledger.matches.chart import short_name
    from ledger.migrating import add_migrations
    from ledger.pdf import routes as pdf_routes
    from ledger.pdf import table_pdf
    from ledger.serving import Ledger
    from ledger.settings import MAX_BODY_BYTES
    from ledger.web import (
        checker,
        filters,
        glossary,
        hands,
        home_screen,
        main,
        rules,
        screen,
        table_screen,
        table_what_if,
        what_if,
    )
    from ledger.web import matches as match_pages
    from ledger.web import people as people_pages
    from ledger.web import tables as table_pages

__all__ = ["MAX_BODY_BYTES", "create_app"]

PACKAGE = Path(__file__).resolve().parent


def data_folder(name: str) -> str:
    """``templates``, ``static`` or ``migrations``: inside the package when installed
    (the wheel's build puts them there), else at the top of the repository."""
    inside = PACKAGE / name
    return str(inside if inside.is_dir() else PACKAGE.parent / name)


def create_app(test_config: Mapping[str, Any] | None = None) -> Flask:
    """Build the app, configured as ``ledger.settings`` describes.

    ``test_config`` overrides every other setting. Its key ``INSTANCE_PATH`` (an
    absolute path) is special: it replaces the instance folder (database, secret key)
    and is consumed before Flask is constructed.
    """
    overrides = dict(test_config or {})
    instance_path = settings.instance_path(overrides.pop("INSTANCE_PATH", None))

    app = Ledger(
        __name__,
        instance_path=instance_path,
        instance_relative_config=True,
        template_folder=data_folder("templates"),
        static_folder=data_folder("static"),
    )
    try:
        os.makedirs(app.instance_path, exist_ok=True)
    except OSError as error:  # a package installed as root, init-db run as its user
        raise ValueError(
            f"The instance folder {app.instance_path} cannot be made: {error.strerror}. Make"
            " it and give it to the user that runs the ledger (as root: mkdir -p FOLDER &&"
            " chown USER FOLDER), or set LEDGER_INSTANCE_PATH to a folder that user may"
            " write."
        ) from error
    settings.configure(app, overrides, read_instance_config=test_config is None)

    db.init_app(app)
    add_migrations(app, data_folder("migrations"))
    csrf.init_app(app)

    from ledger.matches import models  # noqa: F401  (registers the tables)
    from ledger.tables import models as table_models  # noqa: F401

    init_converters(app)
    init_security(app)
    init_assets(app)
    init_compression(app)
    init_i18n(app)
    init_errors(app)
    init_front(app)
    init_imports(app)
    _register_templates(app)
    app.cli.add_command(init_db_command)
    app.cli.add_command(copy_db_command)
    for blueprint in (
        main.bp,
        home_screen.bp,
        checker.bp,
        rules.bp,
        glossary.bp,
        match_pages.bp,
        what_if.bp,
        hands.bp,
        screen.bp,
        table_pages.bp,
        table_what_if.bp,
        table_pdf.bp,
        table_screen.bp,
        people_pages.bp,
        pdf_routes.bp,
        switches.bp,
        api.bp,
    ):
        app.register_blueprint(blueprint)
    csrf.exempt(api.bp)  # the API authenticates by edit key, not cookies
    init_limits(app)  # wraps the views of the routes it limits: after the blueprints
    filters_at_render(app)  # after the blueprints too: they add filters

    return app


def _register_templates(app: Flask) -> None:
    """The templates' filters and globals beyond the words and numbers of the reader's
    language (``init_i18n``)."""
    template_filters: dict[str, Callable[..., Any]] = {
        "card": filters.card,
        "cards": filters.cards,
        "rule_value": filters.rule_value,
        "setting_label": filters.setting_label,
        "season_name": filters.season_name,
        "season_title": filters.season_title,
        "kind_word": filters.kind_word,
        "shown_cards": shown_cards,  # a maal item's cards, unless its name says them
        "name_width": filters.name_width,
        "short_name": short_name,  # a long name cut where a letter ends
    }
    for name, function in template_filters.items():
        app.add_template_filter(function, name)
    template_globals: dict[str, Any] = {
        "tiplu_family": filters.tiplu_family,
        "changed_settings": filters.changed_settings,
        "profile_titles": PROFILE_NAMES,
        "setting_help": SETTING_MEANINGS,
        "tunnela_group_names": TUNNELA_GROUP_NAMES,
        "kind_labels": KIND_WORDS,
        "no_bonus_why": NO_BONUS_WHY,
        "screen_lines": screen.screen_lines,
        "screen_density": screen.density,
        "screen_x_labels": screen.x_labels,
        "item_notes": ITEM_NOTE_WORDS,
        "award_titles": AWARD_TITLES,
        "percent": percent,
    }
    for name, value in template_globals.items():
        app.add_template_global(value, name)
