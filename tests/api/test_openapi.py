"""GET /api/v1/openapi.json: it validates, it lists every /api/ route of the app, and a
property-based run generated from it (Schemathesis, in-process) finds no server error
and no answer that breaks the document."""

from __future__ import annotations

import re

import pytest
import schemathesis
from hypothesis import HealthCheck, given, seed, settings
from hypothesis import strategies as st
from openapi_spec_validator import validate
from schemathesis import checks
from schemathesis.generation.modes import GenerationMode

from ledger import matches
from ledger.extensions import db

SEED = 20261113
EXAMPLES = 50  # per operation: the whole run stays well under a minute
HANDS = [
    {
        "finish": "sequences",
        "winner": "Asha",
        "players": [
            {"name": "Asha", "seen": "sequences", "maal": 10},
            {"name": "Bikash", "seen": "sequences", "maal": 5},
            {"name": "Chandra", "seen": "unseen", "maal": 8},
        ],
    },
    {
        "finish": "void",
        "players": [
            {"name": "Dipa", "seen": "sequences", "maal": 3},
            {"name": "Asha", "seen": "dublees", "maal": 0},
        ],
    },
]


def document(client) -> dict:
    response = client.get("/api/v1/openapi.json")
    assert response.status_code == 200
    assert response.mimetype == "application/json"
    return response.get_json()


def app_operations(app) -> set[tuple[str, str]]:
    """Every (method, OpenAPI path) the app routes under /api/."""
    found = set()
    for rule in app.url_map.iter_rules():
        if not rule.rule.startswith("/api/"):
            continue
        path = re.sub(r"<(?:[a-z_]+(?:\([^)]*\))?:)?([a-z_]+)>", r"{\1}", rule.rule)
        for method in rule.methods - {"HEAD", "OPTIONS"}:
            found.add((method.lower(), path))
    return found


def test_the_document_is_valid_openapi_3_1(client):
    doc = document(client)
    assert doc["openapi"].startswith("3.1")
    validate(doc)  # raises with the first problem


def test_every_api_route_of_the_app_is_in_the_document(app, client):
    paths = document(client)["paths"]
    described = {(method, path) for path, item in paths.items() for method in item}
    missing = app_operations(app) - described
    assert not missing
    assert ("post", "/api/v1/matches/{public_id}/hands") in described  # the check sees paths


def test_every_operation_answers_errors_in_the_api_shape(client):
    doc = document(client)
    errors = doc["components"]["schemas"]["Errors"]
    assert errors["required"] == ["errors"]
    for path, item in doc["paths"].items():
        for method, operation in item.items():
            for status, answer in operation["responses"].items():
                if int(status) >= 400:
                    assert answer == {"$ref": f"#/components/responses/E{status}"}, (path, method)


def test_the_settings_are_the_engines(client):
    from ledger.engine import PROFILES

    spec = document(client)["components"]["schemas"]["RulesSpec"]["anyOf"][1]
    settings_described = set(spec["properties"]) - {"profile"}
    assert settings_described == set(PROFILES["sparkai"].to_json()) - {"profile"}


# --- the property-based run ----------------------------------------------------------


@pytest.fixture
def seeded(app):
    """A match of four players with two hands: the run's cases address it, with its key."""
    with app.app_context():
        match, key = matches.create_match(
            "Schemathesis", ["Asha", "Bikash", "Chandra", "Dipa"], "sparkai", None, None
        )
        for hand in HANDS:
            matches.add_hand(match, hand)
        public_id = match.public_id
        db.session.remove()
    return public_id, key


@pytest.fixture
def seeded_table(app):
    """A table of four with a staked match of two hands, a second season and a payment:
    the run's table routes address it, with its key."""
    from ledger.tables import service as tables

    with app.app_context():
        table, key = tables.create_table(
            {
                "name": "Schemathesis",
                "players": ["Asha", "Bikash", "Chandra", "Dipa"],
                "rules": "sparkai",
                "stake": {"per_point": "1.00", "currency": "NPR"},
            }
        )
        match, _ = tables.new_match(
            table, {"name": "Night", "players": ["Asha", "Bikash", "Chandra", "Dipa"]}
        )
        for hand in HANDS:
            matches.add_hand(match, hand)
        tables.start_season(table, {"name": "Tihar"})
        tables.add_payment(table, {"from": "Asha", "to": "Dipa", "amount": "2.00"})
        public_id = table.public_id
        db.session.remove()
    return public_id, key


def api_schema(app):
    """The app's own document, limited to the operations the app has (the document may
    describe routes that other branches are adding)."""
    names = [f"{method.upper()} {path}" for method, path in app_operations(app)]
    return schemathesis.openapi.from_wsgi("/api/v1/openapi.json", app).include(name=names)


CHECKS = [
    checks.not_a_server_error,
    checks.status_code_conformance,
    checks.content_type_conformance,
    checks.response_headers_conformance,
    checks.response_schema_conformance,
]


def exercise(schema, operation, public_id: str, key: str) -> None:
    """One operation: its documented examples, then cases that fit the document and cases
    that break it (hostile bodies, headers and paths), on the seeded match, with its key;
    every answer is checked against the document."""
    fixed = {"public_id": public_id} if "{public_id}" in operation.path else {}
    strategies = [
        *schema.get_strategies_from_examples(operation),
        *(
            operation.as_strategy(mode, path_parameters=fixed or None)
            for mode in (GenerationMode.POSITIVE, GenerationMode.NEGATIVE)
        ),
    ]

    @seed(SEED)
    @settings(
        max_examples=EXAMPLES,
        deadline=None,
        database=None,
        suppress_health_check=list(HealthCheck),
    )
    @given(case=st.one_of(strategies), stored=st.sampled_from([None, 1, 2]))
    def run(case, stored):
        case.path_parameters = {**(case.path_parameters or {}), **fixed}
        if stored and "number" in case.path_parameters:
            case.path_parameters["number"] = stored  # a seeded hand, two times in three
        # In-process calls are not decoded: ask for the body as it is (tests/web/test_assets.py
        # checks the compressed answers).
        headers = {"Authorization": f"Bearer {key}", "Accept-Encoding": "identity"}
        case.call_and_validate(headers=headers, checks=CHECKS)

    run()


@pytest.mark.slow  # seconds: lays out PDFs or runs many requests
def test_the_api_keeps_to_its_document(app, seeded, seeded_table):
    schema = api_schema(app)
    operations = [result.ok() for result in schema.get_all_operations()]
    operations.sort(key=lambda op: op.method.upper() == "DELETE")  # the seeded hands last
    for operation in operations:
        on_table = operation.path.startswith("/api/v1/tables/{public_id}")
        exercise(schema, operation, *(seeded_table if on_table else seeded))
    assert len(operations) == len(app_operations(app))
