"""Loading a saved match in the browser (POST /matches/import from the new-match page):
its summary PDF or its export.json becomes a new match that this browser may edit."""

from __future__ import annotations

import json
import re

import pytest
from match_pages_support import BY_COUNTS, PLAYERS, THREE_PLAY, VOID
from row_counts import rows
from saved_files_support import NE, file_errors, load_form, refused_alone, upload
from table_pages_support import finished_night

from ledger.matches.export import IMPORT_MAX_BYTES
from ledger.matches.models import Match
from ledger.tables.models import Table

#: What may differ between a match and its loaded copy.
VOLATILE = ("id", "exported_at")


@pytest.fixture
def saved(client):
    """A match of three hands made through the API, and its id."""
    body = {"name": "Tihar 2026", "players": PLAYERS, "rules": "amarnepal", "length": None}
    match = client.post("/api/v1/matches", json=body).get_json()
    auth = {"Authorization": f"Bearer {match['edit_key']}"}
    for hand in (BY_COUNTS, THREE_PLAY, VOID):
        url = f"/api/v1/matches/{match['id']}/hands"
        assert client.post(url, json=hand, headers=auth).status_code == 201
    return match["id"]


def export(client, public_id: str) -> dict:
    document = client.get(f"/api/v1/matches/{public_id}/export.json").get_json()
    return {k: v for k, v in document.items() if k not in VOLATILE}


def test_the_new_match_page_offers_to_load_a_saved_match(client):
    form = load_form(client, "/matches/new", "/matches/import")
    assert "Load a saved match" in form


@pytest.mark.slow  # seconds: lays out PDFs or runs many requests
@pytest.mark.parametrize("kind", ["summary PDF", "Nepali summary PDF", "export.json"])
def test_a_saved_match_loads_as_a_new_match_this_browser_edits(app, client, saved, kind):
    if kind == "export.json":
        data = client.get(f"/api/v1/matches/{saved}/export.json").data
    else:
        headers = NE if kind.startswith("Nepali") else {}
        data = client.get(f"/matches/{saved}/summary.pdf", headers=headers).data
    response = upload(client, data, "saved.json" if kind == "export.json" else "saved.pdf")
    assert response.status_code == 303
    copy = re.fullmatch(r"/matches/([\w-]+)", response.headers["Location"]).group(1)
    assert copy != saved
    assert export(client, copy) == export(client, saved)  # hands, history, totals, rules
    page = client.get(f"/matches/{copy}").get_data(as_text=True)
    assert "The match “Tihar 2026” is loaded: a new copy that this browser can edit." in page
    assert 'class="read-only-tag"' not in page  # this browser holds the copy's edit key
    assert client.get(f"/matches/{copy}/hands/new").status_code == 200
    assert client.get(f"/matches/{saved}/hands/new").status_code == 403  # not the original's
    assert rows(app, Match) == 2


@pytest.mark.slow  # seconds: lays out PDFs or runs many requests
def test_problems_are_shown_on_the_file_field_and_nothing_is_stored(app, client, saved):
    slip = client.get(f"/matches/{saved}/hands/1/slip.pdf").data
    document = client.get(f"/api/v1/matches/{saved}/export.json").get_json()
    document["hands"][1]["winner"] = "Nobody"
    broken = str(document).encode()  # Python's repr: not JSON
    cases = [
        (None, "Choose the match's summary PDF or its export.json first."),
        (b"a letter to Asha", "This file is neither a match summary PDF nor"),
        (broken, "This file is neither a match summary PDF nor"),
        (slip, "This PDF carries no match: it has no attached export.json."),
        (b"%PDF-1.7 nothing more", "This PDF is damaged: the ledger cannot read it."),
    ]
    for data, sentence in cases:
        refused_alone(upload(client, data), sentence)
    wrong = upload(client, json.dumps(document).encode(), "saved.json")
    assert wrong.status_code == 422
    assert any(e.startswith("hands.1.winner: ") for e in file_errors(wrong.get_data(as_text=True)))
    assert rows(app, Match) == 1


def test_the_page_and_its_messages_in_nepali(client, saved):
    slip = client.get(f"/matches/{saved}/hands/1/slip.pdf").data
    page = upload(client, slip, headers=NE).get_data(as_text=True)
    assert "सेभ गरेको म्याच खोल्नुहोस्" in page
    assert file_errors(page) == [
        "यो PDF मा कुनै म्याच छैन: यसमा संलग्न export.json छैन। खाताले छापेको म्याचको सारांश, "
        "वा म्याचको export.json नै आयात गर्नुहोस्।"
    ]
    big = upload(client, b"%PDF-1.7\n" + b" " * IMPORT_MAX_BYTES, headers=NE)
    assert big.status_code == 413
    assert file_errors(big.get_data(as_text=True)) == ["यो फाइल ४ MiB भन्दा ठूलो छ।"]


def test_a_file_over_the_limit_is_refused_on_its_field(app, client):
    response = upload(client, b"%PDF-1.7\n" + b" " * IMPORT_MAX_BYTES)
    assert response.status_code == 413
    assert file_errors(response.get_data(as_text=True)) == ["This file is larger than 4 MiB."]
    assert rows(app, Match) == 0


@pytest.mark.slow  # seconds: lays out PDFs or runs many requests
def test_a_file_larger_than_the_usual_body_limit_loads(client):
    """The summary of a long match is larger than the 256 KiB most forms may send."""
    body = {"name": "Long night", "players": PLAYERS, "rules": "amarnepal", "length": None}
    match = client.post("/api/v1/matches", json=body).get_json()
    document = client.get(f"/api/v1/matches/{match['id']}/export.json").get_json()
    document["hands"] = [{"number": n, "dealer": "Asha", **BY_COUNTS} for n in range(1, 1201)]
    data = json.dumps(document, indent=2).encode()
    assert len(data) > 256 * 1024
    response = upload(client, data, "long.json")
    assert response.status_code == 303
    copy = response.headers["Location"].rsplit("/", 1)[1]
    assert len(client.get(f"/api/v1/matches/{copy}").get_json()["hands"]) == 1200


def test_the_upload_needs_a_csrf_token(csrf_app, csrf_client):
    body = {"name": "Tihar 2026", "players": PLAYERS, "rules": "amarnepal", "length": None}
    match = csrf_client.post("/api/v1/matches", json=body).get_json()
    data = csrf_client.get(f"/api/v1/matches/{match['id']}/export.json").data
    refused = upload(csrf_client, data, "saved.json")
    assert refused.status_code == 400
    assert "This form has expired" in refused.get_data(as_text=True)
    assert rows(csrf_app, Match) == 1

    page = csrf_client.get("/matches/new").get_data(as_text=True)
    token = re.search(r'name="csrf_token" value="([^"]+)"', page).group(1)
    accepted = upload(csrf_client, data, "saved.json", extra={"csrf_token": token})
    assert accepted.status_code == 303
    assert rows(csrf_app, Match) == 2


def test_a_tables_export_loaded_as_a_match_says_where_it_goes(app, client, saved):
    """An organiser who loaded a table's export.json on "Load a saved match" was told, in
    English on a Nepali page too, only that it was no match's export; and a match's
    export sent to the tables' import, only that it was no table's. Each now says what
    it is and where it is loaded: the page, by a link to the New table page's "Load a
    saved table" (it named the API's import, for a person at a browser); the API, by the
    other import."""
    table = client.post("/api/v1/tables", json={"name": "Friday", "players": PLAYERS}).get_json()
    document = client.get(f"/api/v1/tables/{table['id']}/export.json").data
    english = file_errors(upload(client, document, "table.json").get_data(as_text=True))
    assert english == [
        "This is a whole table's export, not one match's: load it on the New table page, "
        'under <a href="/tables/new#import">Load a saved table</a>.'
    ]
    nepali = file_errors(upload(client, document, "table.json", headers=NE).get_data(as_text=True))
    assert len(nepali) == 1 and "export" not in nepali[0] and "/api/" not in nepali[0], nepali
    assert '<a href="/tables/new#import">सेभ गरेको टेबल खोल्नुहोस्</a>' in nepali[0]
    api = client.post("/api/v1/matches/import", data=document, content_type="application/json")
    assert api.status_code == 422
    assert [e["field"] for e in api.get_json()["errors"]] == ["format"]
    assert "POST /api/v1/tables/import" in api.get_json()["errors"][0]["message"]
    match = client.get(f"/api/v1/matches/{saved}/export.json").data
    back = client.post("/api/v1/tables/import", data=match, content_type="application/json")
    assert back.status_code == 422
    assert "POST /api/v1/matches/import" in back.get_json()["errors"][0]["message"]
    assert (rows(app, Table), rows(app, Match)) == (1, 1)  # the refused stored nothing


@pytest.mark.slow  # seconds: lays out a PDF
def test_a_season_pdf_loaded_as_a_match_says_where_it_goes(client):
    """A table's season PDF (it carries the table's export) on "Load a saved match" is
    sent to the New table page's form as the table's export.json is."""
    url = finished_night(client)
    season = client.get(f"{url}/season.pdf").data
    said = file_errors(upload(client, season, "season.pdf").get_data(as_text=True))
    assert len(said) == 1 and '<a href="/tables/new#import">' in said[0], said
