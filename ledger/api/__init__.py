"""The JSON API of docs/api.md, version 1."""

from flask import Blueprint

bp = Blueprint("api", __name__, url_prefix="/api/v1")

from ledger.api import errors, matches, openapi, people, settle, tables  # noqa: E402,F401  (routes register on bp)
