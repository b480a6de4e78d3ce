"""Placeholder for the JSON API blueprint (shared/API.md); to be replaced by the real one."""

from flask import Blueprint

bp = Blueprint("api", __name__, url_prefix="/api/v1")
