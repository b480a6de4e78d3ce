"""The JSON API of shared/API.md, version 1."""

from flask import Blueprint

bp = Blueprint("api", __name__, url_prefix="/api/v1")

from ledger.api import matches, openapi, problems, settle, tables  # noqa: E402,F401  (routes register on bp)
