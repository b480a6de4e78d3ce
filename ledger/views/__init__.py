"""Blueprints for the pages people use (the JSON API lives in ledger.api)."""

from flask import Flask


def register_views(app: Flask) -> None:
    from ledger.views.checker import bp as checker_bp
    from ledger.views.filters import init_filters
    from ledger.views.hands import bp as hands_bp
    from ledger.views.main import bp as main_bp
    from ledger.views.matches import bp as matches_bp
    from ledger.views.reports import bp as reports_bp
    from ledger.views.rules import bp as rules_bp

    init_filters(app)
    app.register_blueprint(main_bp)
    app.register_blueprint(checker_bp)
    app.register_blueprint(rules_bp)
    app.register_blueprint(reports_bp)
    app.register_blueprint(matches_bp)
    app.register_blueprint(hands_bp)
