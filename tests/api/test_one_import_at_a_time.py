"""One import at a time across the serving processes (ledger/http/imports.py, issue 35):
while another import holds the slot, an import waits up to IMPORT_SLOT_WAIT seconds,
then is answered 503 with Retry-After and stores nothing; the slot is given back
however an import ends."""

from __future__ import annotations

import io
import json
from pathlib import Path

import pytest
from api_support import THREE_PLAYER_HAND
from row_counts import rows

from ledger.http.imports import FOLDER, RETRY_AFTER
from ledger.http.slots import render_slot
from ledger.matches.models import Match
from ledger.tables.models import Table

PLAYERS = ["Asha", "Bikash", "Chandra"]
NE = {"Accept-Language": "ne-NP,ne;q=0.9"}


@pytest.fixture
def documents(app, client) -> dict[str, dict]:
    """A match's export and a table's export (one match of one hand), by import path;
    imports never wait for the slot in these tests."""
    app.config["IMPORT_SLOT_WAIT"] = 0
    body = {"name": "Tihar", "players": PLAYERS, "rules": "sparkai"}
    match = client.post("/api/v1/matches", json=body).get_json()
    auth = {"Authorization": f"Bearer {match['edit_key']}"}
    assert (
        client.post(
            f"/api/v1/matches/{match['id']}/hands", json=THREE_PLAYER_HAND, headers=auth
        ).status_code
        == 201
    )
    table = client.post("/api/v1/tables", json=body).get_json()
    return {
        "/api/v1/matches/import": client.get(
            f"/api/v1/matches/{match['id']}/export.json"
        ).get_json(),
        "/api/v1/tables/import": client.get(f"/api/v1/tables/{table['id']}/export.json").get_json(),
    }


def stored(app) -> tuple[int, int]:
    return tuple(rows(app, model) for model in (Match, Table))


def import_slot(app):
    """The slot an import holds (as another process's import would hold it)."""
    return render_slot(Path(app.instance_path) / FOLDER, app.config["IMPORT_SLOTS"], 0)


def test_an_import_while_another_runs_is_503_and_stores_nothing(app, client, documents):
    before = stored(app)
    with import_slot(app):
        for path, document in documents.items():
            busy = client.post(path, json=document)
            assert busy.status_code == 503, path
            assert busy.headers["Retry-After"] == str(RETRY_AFTER)
            assert busy.headers["Cache-Control"] == "no-store"
            (error,) = busy.get_json()["errors"]
            assert "Another import" in error["message"] and "nothing was stored" in error["message"]
        assert stored(app) == before
    for path, document in documents.items():
        assert client.post(path, json=document).status_code == 201, path


def test_the_slot_is_given_back_after_a_refused_import(app, client, documents):
    for path in documents:
        refused = client.post(path, json={"format": "something else"})
        assert refused.status_code == 422, path
    for path, document in documents.items():
        assert client.post(path, json=document).status_code == 201, path


def test_the_page_import_says_so_in_the_pages_language(app, client, documents):
    data = json.dumps(documents["/api/v1/matches/import"]).encode()
    with import_slot(app):
        for headers, words in (({}, "another saved match"), (NE, "अर्को")):
            page = client.post(
                "/matches/import",
                data={"file": (io.BytesIO(data), "export.json")},
                content_type="multipart/form-data",
                headers=headers,
            )
            assert page.status_code == 503
            assert page.headers["Retry-After"] == str(RETRY_AFTER)
            assert words in page.get_data(as_text=True)
    assert (
        client.post(
            "/matches/import",
            data={"file": (io.BytesIO(data), "export.json")},
            content_type="multipart/form-data",
        ).status_code
        == 303
    )
