"""The season's summary PDF (``GET /tables/<id>/season.pdf``, ledger/pdf/table_pdf.py):
an archive copy (PDF/A-3) of the standings, nights, records and money, carrying the
table's export, which ``POST /api/v1/tables/import`` reads back into a new table."""

from __future__ import annotations

import json
import re
import shutil
import sys
from pathlib import Path

import pytest
from pdf_support import attached_files, pdf_reader, pdf_text, squeezed, xmp_facts

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "web"))
from api_hands import hand, play  # noqa: E402
from table_pages_support import (  # noqa: E402
    FOUR,
    ROSTER,
    create_table,
    edit_key,
    finished_night,
    night_over,
    race_night,
    start_match,
)

EXPORTED_AT = re.compile(rb'"exported_at":\s*"[^"]*"')
NE = {"Accept-Language": "ne"}


@pytest.fixture
def table(client):
    """A table of four: two nights played, one payment marked."""
    url = create_table(client)
    key = edit_key(client, url)
    for _ in range(2):
        play(client, start_match(client, url, ROSTER), key, FOUR)
    transfer = client.get(f"/api/v1{url}/settle-up").get_json()["transfers"][0]
    paid = client.post(
        f"{url}/payments",
        data={"payer": transfer["from"], "payee": transfer["to"], "amount": transfer["amount"]},
    )
    assert paid.status_code == 303
    return url


@pytest.mark.slow  # seconds: lays out PDFs or runs many requests
def test_the_season_pdf_prints_the_standings_nights_records_and_money(client, table):
    response = client.get(f"{table}/season.pdf")
    assert response.status_code == 200 and response.mimetype == "application/pdf"
    data = response.data
    assert xmp_facts(data)["part"] == "3"
    assert pdf_reader(data).metadata.title == "Friday table: season summary"
    text = squeezed(pdf_text(data))
    standings = client.get(f"/api/v1{table}/standings").get_json()
    for line in standings["players"]:
        assert line["name"] in text
    for name in ("Standings", "Nights", "Each player's record", "Money across nights", "Paid"):
        assert squeezed(name) in text, name
    for transfer in client.get(f"/api/v1{table}/settle-up").get_json()["transfers"]:
        assert squeezed(f"{transfer['from']} pays {transfer['to']}") in text


@pytest.mark.slow  # seconds: lays out PDFs or runs many requests
def test_the_pdf_carries_the_tables_export_and_imports_back(client, table):
    data = client.get(f"{table}/season.pdf").data
    files = attached_files(data)
    assert list(files) == ["export.json"]
    carried = files["export.json"][0]
    exported = client.get(f"/api/v1{table}/export.json").data
    assert EXPORTED_AT.sub(b"", carried) == EXPORTED_AT.sub(b"", exported)
    imported = client.post(
        "/api/v1/tables/import", data=data, headers={"Content-Type": "application/pdf"}
    )
    assert imported.status_code == 201, imported.get_json()
    body = imported.get_json()
    assert body["id"] != table.rsplit("/", 1)[1] and body["edit_key"]
    old = client.get(f"/api/v1{table}/standings", query_string={"season": "all"}).get_json()
    new = client.get(
        f"/api/v1/tables/{body['id']}/standings", query_string={"season": "all"}
    ).get_json()
    assert [(p["name"], p["total"]) for p in new["players"]] == [
        (p["name"], p["total"]) for p in old["players"]
    ]
    assert len(json.loads(carried)["matches"]) == 2


@pytest.mark.slow  # seconds: lays out PDFs or runs many requests
def test_a_new_hand_prints_a_new_copy(client, table):
    before = client.get(f"{table}/season.pdf").data
    key = edit_key(client, table)
    play(client, start_match(client, table, ROSTER), key, FOUR[:1])
    after = client.get(f"{table}/season.pdf").data
    carried = [json.loads(attached_files(d)["export.json"][0]) for d in (before, after)]
    assert len(carried[1]["matches"]) == len(carried[0]["matches"]) + 1


@pytest.mark.slow  # seconds: lays out PDFs or runs many requests
def test_the_season_pdf_in_nepali(client, table):
    client.get("/lang/ne")
    client.get("/digits/deva")
    data = client.get(f"{table}/season.pdf").data
    assert pdf_reader(data).metadata.title == "Friday table: सिजनको सारांश"
    text = pdf_text(data)
    assert "Standings" not in text and "Money across nights" not in text
    # ि is drawn before its letter, and the text is read off by the glyphs' places: a
    # header's ि can land beside the column before (the words are compared without it)
    assert squeezed("म्याच (जितेको)").replace("ि", "") in squeezed(text).replace("ि", "")
    assert any(d in text for d in "१२३४५६७८९")
    # issue 36: the first season's number, and both calendars on the printed line as on
    # every PDF
    assert squeezed("सिजन: १") in squeezed(text) and "सिजन: 1" not in text
    assert re.search(r"[०-९]{4} \([०-९]+ \S+ [०-९]{4}\)", " ".join(text.split()))


@pytest.mark.slow  # seconds: lays out PDFs or runs many requests
def test_one_night_is_each_players_best_night_and_nobodys_worst(client):
    """A season of one night names it each player's best night, never their worst too."""
    url = finished_night(client)
    text = " ".join(pdf_text(client.get(f"{url}/season.pdf").data).split())
    assert text.count("Best night: Match of") == len(ROSTER), text  # the awards' aside
    assert "Worst night" not in text


@pytest.mark.slow  # seconds: lays out PDFs or runs many requests
def test_a_nights_total_ends_with_the_pages_full_stop(client):
    """The best and worst nights (finished matches) end "… +५९।", not "+५९." (issue 36):
    a best night each, and a worst night each whose two nights differ (a night is never
    named both)."""
    url = finished_night(client)
    night_over(client, url, FOUR[:1])  # a second night
    differ = 0
    for name in ROSTER:
        record = client.get(f"/api/v1{url}/players/{name}").get_json()
        differ += record["best_night"]["match"] != record["worst_night"]["match"]
    assert differ
    client.get("/lang/ne")
    text = " ".join(pdf_text(client.get(f"{url}/season.pdf").data).split())
    nights = re.findall(r"\([०-९]+ \S+ [०-९]{4}\) [+−-]?[०-९]+(.)", text)
    assert len(nights) == len(ROSTER) + differ, text
    assert set(nights) == {"।"}


@pytest.mark.slow  # seconds: lays out PDFs or runs many requests
def test_a_points_race_is_marked_among_the_nights(client):
    """A points race beside a zero-sum night: the PDF lists it marked, and says under
    the standings that the totals count the zero-sum nights only."""
    url = finished_night(client)
    race_night(client, url)
    text = " ".join(pdf_text(client.get(f"{url}/season.pdf").data).split())
    assert "Race night (points race)" in text
    assert "Totals count the zero-sum nights only" in text


@pytest.mark.slow  # seconds: lays out PDFs or runs many requests
def test_a_nights_shared_place_is_written_as_the_pages_write_it(client):
    """Each night's line writes a shared place "१=" (templates/partials/place.html), as
    the pages and the match PDFs do; it wrote "१." for both players of a tie, and the
    other nights keep "१." for a place of one."""
    url = finished_night(client)  # four totals apart
    tie = start_match(client, url, ["Asha", "Bikash"])
    void = {
        "finish": "void",
        "winner": None,
        "players": [{"name": "Asha", "seen": "sequences"}, {"name": "Bikash", "seen": "unseen"}],
    }
    play(client, tie, edit_key(client, url), [void])
    client.get("/lang/ne")
    text = " ".join(pdf_text(client.get(f"{url}/season.pdf").data).split())
    assert re.search(r"१= Asha ०; १= Bikash ०", text), text
    assert re.search(r"१\. \S+ \+[०-९]+; २\. ", text), text


def test_a_pdf_without_a_table_is_refused_and_an_unknown_season_is_404(client, table):
    assert client.get(f"{table}/season.pdf", query_string={"season": "nope"}).status_code == 404
    refused = client.post(
        "/api/v1/tables/import", data=b"not a pdf", headers={"Content-Type": "application/pdf"}
    )
    assert refused.status_code == 400


@pytest.mark.slow  # seconds: lays out PDFs or runs many requests
def test_the_season_pdf_shows_how_to_pay_each_payee_and_marks_unconfirmed_payments(client, table):
    payee = client.get(f"/api/v1{table}/settle-up").get_json()["transfers"][0]["to"]
    auth = {"Authorization": f"Bearer {edit_key(client, table)}"}
    link = client.post(f"/api/v1{table}/players/{payee}/link", headers=auth).get_json()
    mine = {"Authorization": f"Bearer {link['person_key']}"}
    handles = {"handles": [{"kind": "esewa", "handle": "9841555555", "label": ""}]}
    assert client.put("/api/v1/me/handles", json=handles, headers=mine).status_code == 200
    text = squeezed(pdf_text(client.get(f"{table}/season.pdf").data))
    assert squeezed(f"How to pay {payee}, as set by {payee}") in text
    assert "9841555555" in text
    assert squeezed("(not yet confirmed)") in text  # the payment the table page marked


@pytest.mark.slow  # seconds: lays out PDFs or runs many requests
def test_the_season_pdf_names_its_season_as_a_season(client, table):
    """The running title and the awards say "Season: 1", not a bare "1"; all time's
    summary says "All time", not "Season: All time"."""
    text = squeezed(pdf_text(client.get(f"{table}/season.pdf").data))
    assert squeezed("Friday table · Season: 1") in text
    assert squeezed("Awards · Season: 1") in text
    ever = squeezed(pdf_text(client.get(f"{table}/season.pdf?season=all").data))
    assert squeezed("Friday table · All time") in ever and "Season:All" not in ever
    assert squeezed("Awards · All time") in ever


def words_of_rows(data: bytes, first_words: set[str]) -> list[list[tuple[float, float, str]]]:
    """Each line of the PDF that starts with one of ``first_words``: its words (left edge,
    right edge, text) as poppler places them."""
    import subprocess

    box = subprocess.run(
        ["pdftotext", "-bbox", "-", "-"], input=data, capture_output=True, check=True
    ).stdout.decode()
    lines: dict[tuple[int, float], list[tuple[float, float, str]]] = {}
    page = 0
    for line in box.splitlines():
        if "<page " in line:
            page += 1
        found = re.search(r'xMin="([\d.]+)" yMin="([\d.]+)" xMax="([\d.]+)"[^>]*>([^<]*)<', line)
        if found:
            x0, y, x1, word = found.groups()
            lines.setdefault((page, float(y)), []).append((float(x0), float(x1), word))
    return [words for words in lines.values() if words[0][2] in first_words]


@pytest.mark.slow  # seconds: lays out PDFs or runs many requests
@pytest.mark.skipif(not shutil.which("pdftotext"), reason="no pdftotext: run `make system-deps`")
def test_the_players_figures_keep_their_columns_apart(client, table):
    """The figures table packs twelve columns at 8pt: its numbers stood a space apart
    ("2 67 %", "1 1 4"), read as one figure. Cells keep at least three spaces between."""
    data = client.get(f"{table}/season.pdf").data
    # The figures' rows: a name, then hands played and won (the standings' say "4 (1)").
    rows = [w for w in words_of_rows(data, set(ROSTER)) if len(w) > 8 and w[2][2].isdigit()]
    assert rows
    for words in rows:
        name, played, won, seen = words[:4]
        assert seen[2].rstrip("%").isdigit(), words
        # a space at 8pt is about 2pt
        assert seen[0] - won[1] >= 6 and won[0] - played[1] >= 6, words


EIGHT = ["Asha", "Bikash", "Chandra", "Dipa", "Esha", "Fulmaya", "Gita", "Hari"]


@pytest.mark.slow  # seconds: lays out PDFs or runs many requests
def test_a_players_record_is_not_broken_across_pages(client):
    """Eight players' records (a heading, a line, a table of the seven others) fill pages:
    a page break falls between two records, never inside one, which left a record's last
    rows alone on a page under a repeated header."""
    made = client.post(
        "/api/v1/tables",
        json={"name": "Big table", "players": EIGHT, "rules": {"profile": "amarnepal", "packs": 4}},
    ).get_json()
    match = client.post(
        f"/api/v1/tables/{made['id']}/matches",
        json={"name": "Big night", "players": EIGHT, "length": {"hands": 3}},
        headers={"Authorization": f"Bearer {made['edit_key']}"},
    ).get_json()
    play(client, match["id"], made["edit_key"], [hand(w, players=EIGHT) for w in EIGHT[:3]])
    for paper in ("a4", "letter"):
        pages = pdf_reader(client.get(f"/tables/{made['id']}/season.pdf?paper={paper}").data).pages
        for page in (p.extract_text() for p in pages):
            against = page.find("Against")
            record = re.search(r"\d+ match(es)? \(", page)
            if against >= 0:
                assert record and record.start() < against, page


@pytest.mark.slow  # seconds: lays out PDFs or runs many requests
def test_no_page_holds_only_the_line_on_rivals(client):
    """Eighteen nights of four, in Nepali on Letter: the last record filled its page, and
    the line "A rival or nemesis is named only after …" that followed it stood alone on a
    page of its own before the figures' page. It now stands under the records' heading."""
    url = create_table(client)
    key = edit_key(client, url)
    for _ in range(18):
        play(client, start_match(client, url, ROSTER), key, FOUR)
    data = client.get(f"{url}/season.pdf?paper=letter", headers=NE).data
    pages = [squeezed(page.extract_text()) for page in pdf_reader(data).pages]
    for number, page in enumerate(pages, start=1):
        # Beyond the running title and the page number, a page holds more than one line.
        assert len(page) > 150, (number, page)


@pytest.mark.slow  # seconds: lays out PDFs
def test_a_guest_is_marked_in_the_records_and_figures_as_in_the_standings(client):
    """The standings marked a guest, but their record, the others' head-to-head rows
    against them and the players' figures named them as if they were on the roster (the
    player's page marks them in all three)."""
    url = create_table(client)
    five = [*ROSTER, "Ram"]
    public_id = start_match(client, url, five, guests="Ram")
    play(client, public_id, edit_key(client, url), [hand("Ram", 3, five), hand("Asha", 5, five)])
    text = squeezed(pdf_text(client.get(f"{url}/season.pdf").data))
    records = text[text.index("Eachplayer'srecord") : text.index("Theplayers'figures")]
    figures = text[text.index("Theplayers'figures") :]
    assert "Ramguest1match" in records  # his record's heading
    assert records.count("Ramguest1") == 1 + len(ROSTER)  # and each head-to-head row
    assert "Ramguest" in figures
