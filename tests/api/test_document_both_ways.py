"""The OpenAPI document and the server agree both ways where Schemathesis's run against a
served ledger found they did not (issue 35): what the document allows the server takes,
and what the server refuses the document forbids."""

from __future__ import annotations

import jsonschema

from ledger.api.openapi import document

MATCH = {"name": "Tihar", "players": ["Asha", "Bikash", "Chandra"], "rules": "sparkai"}


def schema_of(name: str) -> dict:
    """The component ``name`` as a JSON Schema (its references resolved in the document)."""
    return {**document(), "$ref": f"#/components/schemas/{name}"}


def test_the_imports_address_allows_the_imports_method_only(client):
    for path in ("/api/v1/matches/import", "/api/v1/tables/import"):
        allowed = client.options(path).headers["Allow"]
        assert set(allowed.replace(" ", "").split(",")) == {"POST", "OPTIONS"}, path
        refused = client.get(path)
        assert refused.status_code == 405, path
        assert refused.headers["Allow"] == allowed
    made = client.post("/api/v1/matches", json=MATCH).get_json()
    assert client.get(f"/api/v1/matches/{made['id']}").status_code == 200


def test_a_table_export_needs_what_the_import_needs(client):
    validator = jsonschema.Draft202012Validator(schema_of("TableExport"))
    bare = {"format": "marriage-ledger-table"}
    whole = {
        **bare,
        "name": "Friday",
        "players": ["Asha"],
        "rules": "sparkai",
        "seasons": [{"name": "1"}],
    }
    assert not list(validator.iter_errors(whole))
    assert client.post("/api/v1/tables/import", json=whole).status_code == 201
    for needed in ("name", "rules", "seasons"):
        short = {k: v for k, v in whole.items() if k != needed}
        assert [e.validator for e in validator.iter_errors(short)] == ["required"], needed
        refused = client.post("/api/v1/tables/import", json=short)
        assert refused.status_code == 422, needed
        assert {e["field"] for e in refused.get_json()["errors"]} == {needed}
