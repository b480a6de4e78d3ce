"""Reading request bodies and answering problems in the API's error format."""

from __future__ import annotations

import json
from typing import Any

from flask import jsonify, request
from flask.typing import ResponseReturnValue

from ledger.api import bp
from ledger.engine import FieldError, Invalid
from ledger.matches.answers import Errors


class ApiError(Exception):
    """An answer with status and errors; nothing has been stored."""

    def __init__(
        self, status: int, errors: list[FieldError], headers: dict[str, str] | None = None
    ):
        super().__init__(status, errors)
        self.status = status
        self.errors = errors
        self.headers = headers or {}

    @classmethod
    def one(
        cls, status: int, message: str, field: str = "", headers: dict[str, str] | None = None
    ) -> ApiError:
        return cls(status, [FieldError(field, message)], headers)


@bp.errorhandler(ApiError)
def _api_error(error: ApiError) -> ResponseReturnValue:
    return jsonify(errors_json(error.errors)), error.status, error.headers


@bp.errorhandler(Invalid)
def _invalid(error: Invalid) -> ResponseReturnValue:
    return jsonify(errors_json(error.errors)), 422


def errors_json(errors: list[FieldError]) -> Errors:
    """The API's error body (docs/api.md): every problem, each on its field."""
    return {"errors": [{"field": e.field, "message": e.message} for e in errors]}


def json_object() -> dict[str, Any]:
    """The request body as a JSON object, whatever its Content-Type; 400 if it is not one."""
    try:
        data = json.loads(request.get_data(cache=False) or b"")
    except (ValueError, RecursionError):
        raise ApiError.one(400, "The request body is not valid JSON.") from None
    if not isinstance(data, dict):
        raise ApiError.one(400, "The request body must be a JSON object.")
    return data
