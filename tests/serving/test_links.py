"""Share links and QR codes carry the ledger's public address (LEDGER_PUBLIC_URL, or the
LAN address ``serve`` found), never the 127.0.0.1 the scorekeeper's own browser used."""

import base64
import io
import json

import pytest
import segno
from pypdf import PdfReader
from served import HAND, PLAYERS

from ledger import matches

LAN = "http://192.168.1.20:5000"
LOCAL = "http://127.0.0.1:5000"
H = base64.urlsafe_b64encode(json.dumps({"rules": "sparkai", **HAND}).encode()).decode().rstrip("=")


@pytest.fixture
def match(app):
    with app.app_context():
        made, key = matches.create_match("Links", PLAYERS, "sparkai", None)
        return made.public_id, key


def share_links(client, match, base=LOCAL):
    """The read-only and edit links the match page offers its scorekeeper."""
    public_id, key = match
    assert client.get(f"/matches/{public_id}/join/{key}", base_url=base).status_code == 303
    html = client.get(f"/matches/{public_id}", base_url=base).get_data(as_text=True)
    read = html.split('id="read-link" type="url" readonly value="')[1].split('"')[0]
    edit = html.split('id="edit-link" type="url" readonly value="')[1].split('"')[0]
    return read, edit, html


def qr_payload(client, match, monkeypatch, base=LOCAL):
    """What the match's QR code encodes."""
    encoded = []
    real = segno.make

    def recording(content, **options):
        encoded.append(content)
        return real(content, **options)

    monkeypatch.setattr(segno, "make", recording)
    assert client.get(f"/matches/{match[0]}/qr.svg", base_url=base).status_code == 200
    return encoded[-1]


def test_with_a_public_url_the_links_carry_it(app, client, match, monkeypatch):
    app.config["PUBLIC_URL"] = LAN
    public_id, key = match
    read, edit, html = share_links(client, match)
    assert read == f"{LAN}/matches/{public_id}"
    assert edit == f"{LAN}/matches/{public_id}/join/{key}"
    assert "127.0.0.1" not in html
    assert qr_payload(client, match, monkeypatch) == read
    checker = client.get(f"/check?h={H}", base_url=LOCAL).get_data(as_text=True)
    shared = checker.split('id="share-link" type="url" readonly value="')[1].split('"')[0]
    assert shared.startswith(f"{LAN}/check?h=")
    assert "127.0.0.1" not in checker


def test_the_printed_slip_links_to_the_public_url(app, client):
    app.config["PUBLIC_URL"] = LAN
    pdf = client.get(f"/check/slip.pdf?h={H}", base_url=LOCAL)
    assert pdf.status_code == 200
    links = {  # one annotation per line the link's text takes
        annotation.get_object()["/A"]["/URI"]
        for page in PdfReader(io.BytesIO(pdf.data)).pages
        for annotation in page.get("/Annots", [])
        if "/A" in annotation.get_object()
    }
    assert links == {f"{LAN}/check?h={H}"}


def test_without_a_public_url_the_links_follow_the_request(client, match, monkeypatch):
    read, edit, _ = share_links(client, match, base="http://ledger.local:8080")
    assert read == f"http://ledger.local:8080/matches/{match[0]}"
    assert edit.startswith("http://ledger.local:8080/matches/")
    assert qr_payload(client, match, monkeypatch, base="http://ledger.local:8080") == read


def test_a_public_url_with_a_path_replaces_the_served_one(app, client, match, monkeypatch):
    app.config["PUBLIC_URL"] = "https://example.org/ledger"
    read, _, html = share_links(client, match, base="http://127.0.0.1:5000/ledger")
    assert read == f"https://example.org/ledger/matches/{match[0]}"
    assert f'src="/ledger/matches/{match[0]}/qr.svg"' in html  # links within stay relative
    assert qr_payload(client, match, monkeypatch, base="http://127.0.0.1:5000/ledger") == read
