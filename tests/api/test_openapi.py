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
from ledger.api.openapi_paths import PARAMETERS, paths
from ledger.api.operations import described
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


def throwaway(public_id: str, payment_id: int) -> str:
    """A throwaway operation

    Its description, on two lines
    of its docstring.
    """
    return ""


def test_an_api_route_without_its_declaration_fails_the_document(app):
    app.add_url_rule("/api/v1/tables/<id:public_id>/throwaway/<int:payment_id>", "api.x", throwaway)
    with app.app_context(), pytest.raises(LookupError, match="throwaway.*api.x has no @described"):
        paths()


def test_a_declared_route_is_read_off_its_rule_and_docstring(app):
    app.add_url_rule(
        "/api/v1/tables/<id:public_id>/throwaway/<int:payment_id>",
        "api.x",
        described("tables", "404 422", "200 Table: The table.", key="edit")(throwaway),
        methods=["PUT"],
    )
    with app.app_context():
        operation = paths()["/api/v1/tables/{public_id}/throwaway/{payment_id}"]["put"]
    assert operation["summary"] == "A throwaway operation"
    assert operation["description"] == "Its description, on two lines of its docstring."
    assert [p["description"] for p in operation["parameters"]] == [
        PARAMETERS["tables/public_id"]["description"],
        "A payment's id.",
    ]
    assert set(operation["responses"]) == {"200", "404", "422"}
    assert operation["security"] == [{"editKey": []}]


def test_a_declared_route_without_a_docstring_fails_the_document(app):
    def undocumented() -> str:
        return ""

    app.add_url_rule(
        "/api/v1/undocumented", "api.x", described("meta", "", "204 -: Done.")(undocumented)
    )
    with app.app_context(), pytest.raises(LookupError, match="undocumented has no docstring"):
        paths()


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


@pytest.fixture
def seeded_person(app, seeded_table):
    """The own link of a player of the seeded table: the run's /me routes carry it."""
    from ledger.tables import people, service

    with app.app_context():
        _, key = people.give_link(service.get_table(seeded_table[0]), "Bikash")
        db.session.remove()
    return seeded_table[0], key


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
    # A request the document forbids is refused with a 4xx: on every operation.
    checks.negative_data_rejection,
    # A request the document allows is not refused as malformed (400/422): on every
    # operation but those of UNSAYABLE, on every case but those the filters below name.
    checks.positive_data_acceptance,
]

# Names are checked by what JSON Schema cannot say: compared after NFC and space folding
# (two spellings of one name are "listed twice", which uniqueItems cannot see), and refused
# for control, invisible, unassigned or bidirectional-override characters (Unicode general
# categories: an OpenAPI pattern has no \p{...} that Schemathesis can generate from).
NAMES = "player and match names: folded before compared, Unicode categories refused"
HAND = (
    "a hand's rules depend on other fields and on the match: its players must be the "
    "match's, its winner one of them, its maal given one way only, its cards allowed by "
    "the house rules (no printed jokers, how many packs)"
)
#: Operations where positive_data_acceptance cannot hold because the document cannot say
#: a rule the API enforces (every other rule of these operations is in the document, and
#: negative_data_rejection still runs on them).
UNSAYABLE = {
    "POST /api/v1/matches": (NAMES, "first_dealer must be one of players"),
    "PATCH /api/v1/matches/{public_id}": (
        NAMES,
        "new rules must settle the match's stored hands (422 naming those they refuse)",
        "a match of a staked table is staked in the table's currency",
    ),
    "POST /api/v1/matches/import": (HAND, NAMES, "the history must fit the hands"),
    "POST /api/v1/matches/{public_id}/hands": (HAND, NAMES),
    "PUT /api/v1/matches/{public_id}/hands/{number}": (HAND, NAMES),
    "POST /api/v1/settle": (HAND, NAMES, "names must differ (folded, see NAMES)"),
    "POST /api/v1/tables": (NAMES,),
    "PATCH /api/v1/tables/{public_id}": (NAMES,),
    "POST /api/v1/tables/import": (HAND, NAMES, "each match as a match's import"),
    "POST /api/v1/tables/{public_id}/matches": (
        NAMES,
        "match= must be a stored match, with its edit key; players on the roster",
    ),
    "POST /api/v1/tables/{public_id}/seasons": (NAMES,),
    "PATCH /api/v1/tables/{public_id}/seasons/{season_id}": (NAMES,),
    "PATCH /api/v1/tables/{public_id}/players/{name}": (
        NAMES,
        "the player and merge_into must be on the table's roster",
    ),
    "POST /api/v1/tables/{public_id}/payments": (
        "from and to must be players on the table's roster, and differ",
        "a table without a stake takes no payment",
        "season must be one of the table's seasons (stored data)",
    ),
    "PUT /api/v1/me/handles": ("handles and labels: Unicode categories refused (see NAMES)",),
    "POST /api/v1/me/qr": ("the image must hold exactly one readable QR code",),
}


def names_a_season(case) -> bool:
    """Whether the case asks for a season by id: it must be one of this table's seasons
    (stored data, 422 if not), which the document cannot list; positive_data_acceptance
    skips exactly those cases (``all`` or no season is still checked)."""
    return (case.query or {}).get("season", "all") != "all"


def rules_across_settings(case) -> bool:
    """Whether the case's house rules hold a setting whose bound depends on another one
    in a way the document does not say: printed_jokers needs printed_joker's totals (the
    engine's consistency check); positive_data_acceptance skips exactly those cases."""
    rules = case.body.get("rules") if isinstance(case.body, dict) else None
    return isinstance(rules, dict) and rules.get("printed_jokers") is True


def written_with_a_point(value: object) -> bool:
    """Whether a JSON value holds a whole number written as 767.0: an integer to JSON
    Schema, refused by the API (points are whole numbers), a difference no keyword can
    express; positive_data_acceptance skips exactly those cases."""
    if isinstance(value, float):
        return value.is_integer()
    if isinstance(value, dict):
        return any(written_with_a_point(item) for item in value.values())
    if isinstance(value, list):
        return any(written_with_a_point(item) for item in value)
    return False


def exercise(schema, operation, public_id: str, key: str) -> None:
    """One operation: its documented examples, then cases that fit the document and cases
    that break it (hostile bodies, headers and paths), on the seeded match, with its key;
    every answer is checked against the document."""
    fixed = {"public_id": public_id} if "{public_id}" in operation.path else {}
    unsayable = operation.label in UNSAYABLE
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
        skip = (
            unsayable
            or written_with_a_point(case.body)
            or names_a_season(case)
            or rules_across_settings(case)
        )
        to_run = [c for c in CHECKS if not (skip and c is checks.positive_data_acceptance)]
        case.call_and_validate(headers=headers, checks=to_run)

    run()


@pytest.mark.slow  # seconds: lays out PDFs or runs many requests
def test_the_api_keeps_to_its_document(app, seeded, seeded_table, seeded_person):
    schema = api_schema(app)
    operations = [result.ok() for result in schema.get_all_operations()]
    # The seeded hands last; the own link's renewal after every other /me route.
    operations.sort(key=lambda op: (op.path == "/api/v1/me/link", op.method.upper() == "DELETE"))
    for operation in operations:
        on_table = operation.path.startswith("/api/v1/tables/{public_id}")
        on_me = operation.path.startswith("/api/v1/me")
        seed_of = seeded_person if on_me else seeded_table if on_table else seeded
        exercise(schema, operation, *seed_of)
    assert len(operations) == len(app_operations(app))
    labels = {operation.label for operation in operations}
    assert set(UNSAYABLE) <= labels  # each exclusion names an operation that is run
    assert "POST /api/v1/matches/{public_id}/rescore" in labels
    assert len([label for label in labels if "/tables" in label]) >= 15


# --- the document's money and currency say what the readers take ---------------------


def _stake(field: str) -> dict:
    from ledger.api.openapi import schemas

    return schemas()["Stake"]["properties"][field]


def _takes_stake(per_point: str, currency: str) -> bool:
    from ledger.engine import Invalid
    from ledger.matches.reading import read_stake

    try:
        read_stake({"per_point": per_point, "currency": currency})
    except Invalid:
        return False
    return True


@seed(SEED)
@settings(max_examples=400, deadline=None, database=None)
@given(
    per_point=st.one_of(
        st.text(alphabet="0123456789.-", max_size=16),
        st.decimals(min_value=0, max_value=10**11, places=3).map(str),
        st.sampled_from(["0", "0.00", "0.01", "00.5", "9999999999.99", "10000000000", "1.0"]),
    )
)
def test_the_stake_pattern_is_the_readers_rule(per_point):
    """A per-point amount (and a payment's amount, the same schema) fits the document's
    pattern exactly when the API takes it (positive_data_acceptance cannot reach it on the
    routes excluded above, so it is checked here)."""
    from ledger.api.openapi_tables import table_schemas
    from ledger.engine import Invalid
    from ledger.tables.reading import read_payment

    fits = re.fullmatch(_stake("per_point")["pattern"], per_point) is not None
    assert fits == _takes_stake(per_point, "NPR"), per_point
    amount = table_schemas()["NewPayment"]["properties"]["amount"]
    assert amount["pattern"] == _stake("per_point")["pattern"]
    payment = {"from": "Asha", "to": "Dipa", "amount": per_point}
    try:
        read_payment(payment, lambda name: name, "NPR")
    except Invalid:
        assert not fits, per_point
    else:
        assert fits, per_point


@seed(SEED)
@settings(max_examples=200, deadline=None, database=None)
@given(code=st.text(alphabet="ABCDEFGHIJKLMNOPQRSTUVWXYZ", min_size=3, max_size=3))
def test_the_currency_list_is_the_readers(code):
    assert (code in _stake("currency")["enum"]) == _takes_stake("1", code), code
