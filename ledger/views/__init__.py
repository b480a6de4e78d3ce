"""Blueprints for the pages people use (the JSON API lives in ledger.api)."""

from flask import Flask


def register_views(app: Flask) -> None:
    from ledger.views.main import bp as main_bp

    app.register_blueprint(main_bp)
