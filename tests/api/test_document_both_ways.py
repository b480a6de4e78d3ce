"""The OpenAPI document and the server agree both ways where Schemathesis's run against a
served ledger found they did not (issue 35): what the document allows the server takes,
and what the server refuses the document forbids."""

from __future__ import annotations

import jsonschema

from ledger.api.openapi import components

MATCH = {"name": "Tihar", "players": ["Asha", "Bikash", "Chandra"], "rules": "sparkai"}


def schema_of(name: str) -> dict:
    """The component ``name`` as a JSON Schema (its references resolved among the
    document's components: no app needed)."""
    return {"components": components(), "$ref": f"#/components/schemas/{name}"}


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


def _fits(schema: str, body: dict) -> bool:
    return not list(jsonschema.Draft202012Validator(schema_of(schema)).iter_errors(body))


def test_one_number_per_card_is_bounded_alike_in_the_document_and_the_server(client):
    """One number per card is written out as the totals for 1, 2, 3 cards, each at most
    1000: the document says 333 at most, as the server takes; a table given 333 still
    makes its matches (a larger number was stored, then refused on every new match)."""
    for setting in ("alter", "tiplu"):
        for per_card, taken in ((333, True), (334, False), (409, False)):
            rules = {"profile": "sparkai", setting: per_card}
            assert _fits("NewMatch", {**MATCH, "rules": rules}) == taken, (setting, per_card)
            assert _fits("NewTable", {**MATCH, "rules": rules}) == taken, (setting, per_card)
            made = client.post("/api/v1/matches", json={**MATCH, "rules": rules})
            assert made.status_code == (201 if taken else 422), made.get_json()
            table = client.post("/api/v1/tables", json={**MATCH, "rules": rules})
            assert table.status_code == (201 if taken else 422), table.get_json()
            if not taken:
                fields = {e["field"] for e in table.get_json()["errors"]}
                assert fields == {f"rules.{setting}"}
                continue
            created = table.get_json()
            night = client.post(
                f"/api/v1/tables/{created['id']}/matches",
                json={"name": "Night", "players": MATCH["players"]},
                headers={"Authorization": f"Bearer {created['edit_key']}"},
            )
            assert night.status_code == 201, night.get_json()
            assert night.get_json()["rules"][setting] == [per_card, 2 * per_card, 3 * per_card]


def test_a_tunnela_bonus_is_one_number_up_to_1000_in_both(client):
    for bonus, taken in ((1000, True), (1001, False)):
        rules = {"profile": "sparkai", "tunnela_alter": bonus}
        assert _fits("NewMatch", {**MATCH, "rules": rules}) == taken, bonus
        made = client.post("/api/v1/matches", json={**MATCH, "rules": rules})
        assert made.status_code == (201 if taken else 422), made.get_json()


def test_an_empty_list_for_an_optional_table_is_described_and_taken_as_none(client):
    for setting in ("alter", "printed_joker", "marriage_shown"):
        rules = {"profile": "sparkai", setting: []}
        assert _fits("NewMatch", {**MATCH, "rules": rules}), setting
        assert _fits("NewTable", {**MATCH, "rules": rules}), setting
        made = client.post("/api/v1/matches", json={**MATCH, "rules": rules})
        assert made.status_code == 201, made.get_json()
        assert made.get_json()["rules"][setting] is None
        table = client.post("/api/v1/tables", json={**MATCH, "rules": rules}).get_json()
        night = client.post(
            f"/api/v1/tables/{table['id']}/matches",
            json={"name": "Night", "players": MATCH["players"]},
            headers={"Authorization": f"Bearer {table['edit_key']}"},
        )
        assert night.status_code == 201, night.get_json()
    required = {"profile": "sparkai", "jhiplu": []}  # a table that must hold a number
    assert not _fits("NewMatch", {**MATCH, "rules": required})
    assert client.post("/api/v1/matches", json={**MATCH, "rules": required}).status_code == 422


def test_dublees_for_more_players_than_three_packs_seat_need_packs_4_in_both(client):
    four = ["Asha", "Bikash", "Chandra", "Dipa"]
    for rules, taken in (
        ({"profile": "classic", "dublees_min_players": 5}, True),
        ({"profile": "classic", "dublees_min_players": 6}, False),
        ({"profile": "classic", "dublees_min_players": 6, "packs": 4}, True),
        ({"profile": "classic", "dublees_min_players": 7, "packs": 3}, False),
    ):
        body = {**MATCH, "players": four, "rules": rules}
        assert _fits("NewMatch", body) == taken, rules
        made = client.post("/api/v1/matches", json=body)
        assert made.status_code == (201 if taken else 422), (rules, made.get_json())


def test_a_finish_given_as_null_takes_the_winners_route_in_both(client):
    hand = {
        "rules": "amarnepal",
        "finish": None,
        "winner": "Asha",
        "players": [
            {"name": "Asha", "seen": "dublees", "maal": 4},
            {"name": "Bikash", "seen": "sequences", "maal": 2},
            {"name": "Chandra", "seen": "unseen", "maal": 0},
        ],
    }
    assert _fits("SettleRequest", hand)
    settled = client.post("/api/v1/settle", json=hand)
    assert settled.status_code == 200, settled.get_json()
    assert settled.get_json()["finish"] == "dublees"


def test_an_imports_totals_are_ignored_whatever_they_hold_in_both(client):
    made = client.post("/api/v1/matches", json=MATCH).get_json()
    document = client.get(f"/api/v1/matches/{made['id']}/export.json").get_json()
    for totals in ([None, None], {"Asha": 5}, "none"):
        body = {**document, "totals": totals}
        assert _fits("Export", body), totals
        assert client.post("/api/v1/matches/import", json=body).status_code == 201, totals


def test_what_an_import_ignores_may_hold_anything_in_both(client):
    made = client.post("/api/v1/matches", json=MATCH).get_json()
    document = client.get(f"/api/v1/matches/{made['id']}/export.json").get_json()
    for field in ("id", "exported_at"):
        body = {**document, field: {}}
        assert _fits("Export", body), field
        assert client.post("/api/v1/matches/import", json=body).status_code == 201, field


def test_a_seasons_start_is_a_time_in_1970_to_9999_in_both(client):
    table = {"format": "marriage-ledger-table", "name": "Friday", "rules": "sparkai"}
    for started, taken in (
        ("2026-11-01T18:30:00+05:45", True),
        ("2026-11-01T18:30:00.25Z", True),
        (None, True),
        ("", False),
        ("1969-12-31T23:59:59Z", False),
        ("tomorrow", False),
    ):
        body = {**table, "seasons": [{"name": "1", "started_at": started}]}
        assert _fits("TableExport", body) == taken, started
        answer = client.post("/api/v1/tables/import", json=body)
        assert answer.status_code == (201 if taken else 422), (started, answer.get_json())


def test_a_name_listed_twice_is_refused_in_both(client):
    twice = ["Asha", "Bikash", "Asha"]
    assert not _fits("NewMatch", {**MATCH, "players": twice})
    assert client.post("/api/v1/matches", json={**MATCH, "players": twice}).status_code == 422
    assert not _fits("NewTable", {**MATCH, "players": twice})
    assert client.post("/api/v1/tables", json={**MATCH, "players": twice}).status_code == 422


def test_an_imports_first_dealer_may_be_null_in_both(client):
    made = client.post("/api/v1/matches", json=MATCH).get_json()
    document = client.get(f"/api/v1/matches/{made['id']}/export.json").get_json()
    body = {**document, "first_dealer": None}
    assert _fits("Export", body)
    imported = client.post("/api/v1/matches/import", json=body)
    assert imported.status_code == 201, imported.get_json()
    assert imported.get_json()["first_dealer"] == MATCH["players"][0]
