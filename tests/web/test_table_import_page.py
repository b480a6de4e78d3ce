"""Loading a saved table in the browser (POST /tables/import from the new-table page): a
family moving its table to another ledger uploads the table's export.json or one of its
season PDFs and gets a new table, with its roster, nights, standings and payments, that
this browser may edit. Before, only the JSON API (POST /api/v1/tables/import) took it."""

from __future__ import annotations

import io
import json
import re

import pytest
from api_hands import play
from pypdf import PdfReader, PdfWriter
from row_counts import rows
from saved_files_support import NE, file_errors, load_form, refused_alone, upload
from table_pages_support import FOUR, ROSTER, create_table, edit_key, start_match

from ledger.matches.export import IMPORT_MAX_BYTES
from ledger.matches.models import Match
from ledger.tables.models import Table

#: What may differ between a table and its loaded copy.
VOLATILE = ("id", "exported_at")


@pytest.fixture
def moved(client):
    """A table made through its pages: a night of four hands and a payment; its id."""
    url = create_table(client)
    key = edit_key(client, url)
    play(client, start_match(client, url, ROSTER), key, FOUR)
    table_id = url.rsplit("/", 1)[1]
    paid = {"from": "Bikash", "to": "Asha", "amount": "5.00"}
    response = client.post(
        f"/api/v1/tables/{table_id}/payments",
        json=paid,
        headers={"Authorization": f"Bearer {key}"},
    )
    assert response.status_code == 201, response.get_json()
    return table_id


def load(client, data: bytes | None, filename: str = "export.json", **kw):
    return upload(client, data, filename, url="/tables/import", **kw)


def figures(client, table_id: str) -> dict:
    """What a family checks after the move: the roster, the standings, the payments."""
    table = client.get(f"/api/v1/tables/{table_id}").get_json()
    stats = client.get(f"/api/v1/tables/{table_id}/stats?season=all").get_json()
    payments = client.get(f"/api/v1/tables/{table_id}/payments").get_json()["payments"]
    return {
        "roster": [p["name"] for p in table["players"]],
        "standings": {r["name"]: (r["total"], r["hands_won"]) for r in stats["players"]},
        "payments": [
            (p["from"], p["to"], p["amount"], p["currency"], p["at"], p["state"]) for p in payments
        ],
    }


def test_the_new_table_page_offers_to_load_a_saved_table(client):
    form = load_form(client, "/tables/new", "/tables/import")
    assert "Load a saved table" in form and "Season PDF or export.json" in form
    nepali = client.get("/tables/new", headers=NE).get_data(as_text=True)
    assert "Load a saved table" not in nepali


def test_a_tables_export_loads_as_a_new_table_this_browser_edits(app, client, moved):
    before = figures(client, moved)
    assert before["payments"] and len(before["standings"]) == len(ROSTER)
    document = client.get(f"/api/v1/tables/{moved}/export.json").data
    with client.session_transaction() as session:
        session.clear()  # another browser: it holds no key of the original
    response = load(client, document)
    assert response.status_code == 303, response.get_data(as_text=True)[-2000:]
    copy = re.fullmatch(r"/tables/([\w-]+)", response.headers["Location"]).group(1)
    assert copy != moved
    assert figures(client, copy) == before
    page = client.get(f"/tables/{copy}").get_data(as_text=True)
    assert "The table “Friday table” is loaded: a new copy that this browser can edit." in page
    assert re.search(rf"/tables/{copy}/join/[\w-]+\"", page)  # the edit link, under Share
    again = client.get(f"/tables/{copy}").get_data(as_text=True)
    assert "is loaded" not in again  # said once
    assert client.get(f"/tables/{copy}/change").status_code == 200
    assert client.get(f"/tables/{moved}/change").status_code == 403  # not the original's
    assert rows(app, Table) == 2


@pytest.mark.slow  # seconds: lays out a season PDF
def test_a_season_pdf_loads_the_whole_table(client, moved):
    before = figures(client, moved)
    pdf = client.get(f"/tables/{moved}/season.pdf").data
    last = "".join(PdfReader(io.BytesIO(pdf)).pages[-1].extract_text().split())
    assert "“Loadasavedtable”" in last and "/tables/new#import" in last  # the way here
    response = load(client, pdf, "season.pdf")
    assert response.status_code == 303, response.get_data(as_text=True)[-2000:]
    copy = response.headers["Location"].rsplit("/", 1)[1]
    assert figures(client, copy) == before


@pytest.mark.slow  # seconds: lays out a PDF
def test_problems_are_shown_on_the_file_field_and_nothing_is_stored(app, client, moved):
    summary = client.get(f"/matches/{_match_of(client, moved)}/hands/1/slip.pdf").data
    document = client.get(f"/api/v1/tables/{moved}/export.json").get_json()
    document["payments"][0]["from"] = "Nobody"
    cases = [
        (None, "Choose the table's season PDF or its export.json first."),
        (b"a letter to Asha", "This file is neither a table's season PDF nor"),
        (summary, "This PDF carries no table: it has no attached export.json."),
        (b"%PDF-1.7 nothing more", "This season PDF is damaged: the ledger cannot read it."),
    ]
    for data, sentence in cases:
        refused_alone(load(client, data), sentence)
    wrong = load(client, json.dumps(document).encode())
    assert wrong.status_code == 422
    assert any(e.startswith("payments.0.from: ") for e in file_errors(wrong.get_data(as_text=True)))
    assert (rows(app, Table), rows(app, Match)) == (1, 1)


def _match_of(client, table_id: str) -> str:
    return client.get(f"/api/v1/tables/{table_id}").get_json()["matches"][0]["id"]


def test_a_matchs_export_says_it_is_loaded_on_the_new_match_page(app, client, moved):
    match = client.get(f"/api/v1/matches/{_match_of(client, moved)}/export.json").data
    english = file_errors(load(client, match).get_data(as_text=True))
    assert english == [
        "This is one match's export, not a whole table's: load it on the New match page, "
        'under <a href="/matches/new#import">Load a saved match</a>.'
    ]
    nepali = file_errors(load(client, match, headers=NE).get_data(as_text=True))
    assert len(nepali) == 1 and "export" not in nepali[0] and "/api/" not in nepali[0], nepali
    assert '<a href="/matches/new#import">सेभ गरेको म्याच खोल्नुहोस्</a>' in nepali[0]
    assert (rows(app, Table), rows(app, Match)) == (1, 1)


def test_the_messages_in_nepali_and_a_file_over_the_limit(app, client):
    missing = load(client, None, headers=NE).get_data(as_text=True)
    assert file_errors(missing) == ["पहिले टेबलको सिजन PDF वा त्यसको export.json छान्नुहोस्।"]
    big = load(client, b"%PDF-1.7\n" + b" " * IMPORT_MAX_BYTES, headers=NE)
    assert big.status_code == 413
    assert file_errors(big.get_data(as_text=True)) == ["यो फाइल ४ MiB भन्दा ठूलो छ।"]
    assert rows(app, Table) == 0


def blank_pdf() -> bytes:
    """A PDF that is no season PDF, nor any PDF the ledger printed: one blank page."""
    writer = PdfWriter()
    writer.add_blank_page(200, 200)
    out = io.BytesIO()
    writer.write(out)
    return out.getvalue()


def test_a_damaged_pdf_or_one_with_no_table_is_said_to_be_a_season_pdf(app, client):
    """A season PDF that cannot be read is said to be one, and what to do: print it again
    from the table's page, or load the table's export.json (before, "Print the summary
    again": a match's word); in Nepali too. Through the API likewise, and a PDF with no
    table in it names the season PDF there too (before: "This PDF carries no match ...
    Import a match summary")."""
    damaged = b"%PDF-1.7 nothing more"
    english = file_errors(load(client, damaged, "season.pdf").get_data(as_text=True))
    assert english == [
        "This season PDF is damaged: the ledger cannot read it. Print the season PDF again "
        "from the table's page, or load the table's export.json instead."
    ]
    nepali = file_errors(load(client, damaged, "season.pdf", headers=NE).get_data(as_text=True))
    assert len(nepali) == 1 and "सिजन PDF" in nepali[0] and "सारांश" not in nepali[0], nepali
    pdf = {"Content-Type": "application/pdf"}
    answer = client.post("/api/v1/tables/import", data=damaged, headers=pdf)
    assert answer.status_code == 400
    assert "season PDF" in json.dumps(answer.get_json()) and "summary" not in answer.text
    answer = client.post("/api/v1/tables/import", data=blank_pdf(), headers=pdf)
    assert answer.status_code == 422
    assert "This PDF carries no table" in answer.text and "match" not in answer.text
    assert rows(app, Table) == 0


def test_the_upload_needs_a_csrf_token(csrf_app, csrf_client):
    table = csrf_client.post("/api/v1/tables", json={"name": "Friday", "players": ROSTER})
    data = csrf_client.get(f"/api/v1/tables/{table.get_json()['id']}/export.json").data
    refused = load(csrf_client, data)
    assert refused.status_code == 400
    assert rows(csrf_app, Table) == 1
    page = csrf_client.get("/tables/new").get_data(as_text=True)
    token = re.search(r'name="csrf_token" value="([^"]+)"', page).group(1)
    accepted = load(csrf_client, data, extra={"csrf_token": token})
    assert accepted.status_code == 303
    assert rows(csrf_app, Table) == 2
