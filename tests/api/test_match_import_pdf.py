"""POST /api/v1/matches/import with a summary PDF: the match it carries comes back whole;
a body that is no PDF is a 400, a PDF without a match export a 422; hostile PDFs neither
hang, nor blow the memory, nor answer a 500."""

from __future__ import annotations

import io
import json
import random
import tracemalloc
import zlib

import pytest
from api_support import hand
from pypdf import PdfReader, PdfWriter
from row_counts import rows
from test_match_export_api import comparable, played_match

from ledger.matches.export import IMPORT_MAX_BYTES
from ledger.matches.models import Match

NE = {"Accept-Language": "ne-NP,ne;q=0.9"}


def post_pdf(client, body: bytes):
    return client.post("/api/v1/matches/import", data=body, content_type="application/pdf")


def summary(client, m, headers=None) -> bytes:
    response = client.get(f"/matches/{m.id}/summary.pdf", headers=headers or {})
    assert response.status_code == 200
    return response.data


def message(response, field: str = "") -> str:
    """The one error's sentence (on ``field``: "" is the whole body)."""
    errors = response.get_json()["errors"]
    assert len(errors) == 1 and errors[0]["field"] == field
    return errors[0]["message"]


def with_attachment(pdf: bytes, name: str, content: bytes) -> bytes:
    """``pdf`` with one more attached file (pypdf writes it)."""
    writer = PdfWriter(clone_from=PdfReader(io.BytesIO(pdf)))
    writer.add_attachment(name, content)
    out = io.BytesIO()
    writer.write(out)
    return out.getvalue()


def handmade_pdf(embedded: str, streams: list[bytes]) -> bytes:
    """A one-page PDF whose ``/EmbeddedFiles`` entry is ``embedded`` (PDF syntax that may
    name objects 4, 5...: ``streams``, written as objects from 4 on, raw)."""
    objects = [
        b"<< /Type /Catalog /Pages 2 0 R /Names << /EmbeddedFiles " + embedded.encode() + b" >> >>",
        b"<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
        b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 200 200] >>",
        *streams,
    ]
    out = bytearray(b"%PDF-1.7\n")
    offsets = []
    for number, body in enumerate(objects, 1):
        offsets.append(len(out))
        out += b"%d 0 obj\n" % number + body + b"\nendobj\n"
    xref = len(out)
    out += b"xref\n0 %d\n0000000000 65535 f \n" % (len(objects) + 1)
    out += b"".join(b"%010d 00000 n \n" % offset for offset in offsets)
    out += b"trailer\n<< /Size %d /Root 1 0 R >>\nstartxref\n%d\n%%%%EOF\n" % (
        len(objects) + 1,
        xref,
    )
    return bytes(out)


def stream(data: bytes, extra: bytes = b"") -> bytes:
    return b"<< /Length %d %s >>\nstream\n" % (len(data), extra) + data + b"\nendstream"


def filespec(name: str, stream_object: int) -> bytes:
    return b"<< /Type /Filespec /F (%s) /EF << /F %d 0 R >> >>" % (name.encode(), stream_object)


# --- the round trip -----------------------------------------------------------------------


@pytest.mark.slow  # seconds: lays out PDFs or runs many requests
@pytest.mark.parametrize("headers", [{}, NE], ids=["en", "ne"])
def test_export_pdf_import_export_gives_the_same_match(client, create_match, headers):
    m = played_match(create_match, rules={"profile": "sparkai", "unseen_maal": "keep"})
    exported = client.get(f"{m.url}/export.json").get_json()

    imported = post_pdf(client, summary(client, m, headers))
    assert imported.status_code == 201, imported.get_json()
    copy = imported.get_json()
    assert copy["id"] != m.id and copy["edit_key"] != m.key
    assert imported.headers["Location"].endswith(f"/api/v1/matches/{copy['id']}")
    # The same hands, totals, rules and players as the original, as the JSON would give.
    assert comparable(copy) == comparable(m.get())
    from_json = client.post("/api/v1/matches/import", json=exported).get_json()
    assert comparable(copy) == comparable(from_json)
    again = client.get(f"/api/v1/matches/{copy['id']}/export.json").get_json()
    for key in ("hands", "history", "totals", "players", "rules", "length", "last_hand_number"):
        assert again[key] == exported[key], key
    # The copy is a match of its own: its key adds hands to it, not to the original.
    url = f"/api/v1/matches/{copy['id']}/hands"
    added = client.post(url, json=hand(), headers={"Authorization": f"Bearer {copy['edit_key']}"})
    assert added.status_code == 201
    assert len(m.get()["hands"]) == len(exported["hands"])


@pytest.mark.slow  # seconds: lays out PDFs or runs many requests
def test_a_large_match_comes_back_from_its_pdf(app, client, create_match):
    m = create_match()
    players = {p: ("sequences", n) for n, p in enumerate(["Asha", "Bikash", "Chandra", "Dipa"])}
    for number in range(40):
        assert (
            m.post_hand(hand(["Asha", "Bikash", "Chandra"][number % 3], players)).status_code == 201
        )
    copy = post_pdf(client, summary(client, m))
    assert copy.status_code == 201
    assert comparable(copy.get_json()) == comparable(m.get())


# --- what is refused -------------------------------------------------------------------------


@pytest.mark.parametrize(
    "body",
    [b"", b"hello", b'{"format": "marriage-ledger/match"}', b"%PD", b"\x00" * 2000 + b"%PDF-1.7"],
    ids=["empty", "text", "json", "short", "header-too-late"],
)
def test_a_body_that_is_not_a_pdf_is_a_400(app, client, body):
    response = post_pdf(client, body)
    assert response.status_code == 400
    assert message(response) == "This is not a PDF: a PDF file starts with %PDF-."
    assert rows(app, Match) == 0


@pytest.mark.slow  # seconds: lays out PDFs or runs many requests
def test_a_pdf_that_carries_no_match_is_a_422(app, client, create_match):
    m = played_match(create_match)
    slip = client.get(f"/matches/{m.id}/hands/1/slip.pdf").data  # a PDF of ours, no export
    other_file = with_attachment(slip, "notes.txt", b"Asha owes Bikash a tea")
    for body in (slip, other_file):
        response = post_pdf(client, body)
        assert response.status_code == 422
        assert message(response).startswith("This PDF carries no match: it has no attached")
    assert rows(app, Match) == 1


@pytest.mark.parametrize(
    ("content", "expected"),
    [
        (
            b"not json {",
            "The export.json attached to this PDF is not JSON: the ledger can load nothing "
            "from it.",
        ),
        (b"[1, 2]", "An import must be a match exported as JSON."),
        (b'{"format": "a-spreadsheet"}', "This is not a match exported by the ledger"),
        (
            b"[" * 100_000,
            "The export.json attached to this PDF is not JSON: the ledger can load nothing "
            "from it.",
        ),
    ],
    ids=["not-json", "a-list", "another-format", "deeply-nested"],
)
@pytest.mark.slow  # seconds: lays out PDFs or runs many requests
def test_a_pdf_whose_export_is_not_a_match_is_a_422(app, client, create_match, content, expected):
    m = played_match(create_match)
    slip = client.get(f"/matches/{m.id}/hands/1/slip.pdf").data
    response = post_pdf(client, with_attachment(slip, "export.json", content))
    assert response.status_code == 422
    assert message(response, "format" if b"format" in content else "").startswith(expected)
    assert rows(app, Match) == 1


@pytest.mark.slow  # seconds: lays out PDFs or runs many requests
def test_an_export_with_a_wrong_hand_is_a_422_on_its_field(app, client, create_match):
    m = played_match(create_match)
    document = client.get(f"{m.url}/export.json").get_json()
    document["hands"][1]["winner"] = "Nobody"
    slip = client.get(f"/matches/{m.id}/hands/1/slip.pdf").data
    response = post_pdf(client, with_attachment(slip, "export.json", json.dumps(document).encode()))
    assert response.status_code == 422
    assert "hands.1.winner" in [e["field"] for e in response.get_json()["errors"]]
    assert rows(app, Match) == 1


def test_a_compressed_bomb_is_refused_without_inflating_it(app, client):
    """64 MiB of spaces compress to 64 KiB: the reader stops at the import limit."""
    squeeze = zlib.compressobj(9)
    data = b"".join(squeeze.compress(b" " * (1 << 20)) for _ in range(64)) + squeeze.flush()
    assert len(data) < 100_000
    body = handmade_pdf(
        "<< /Names [(export.json) 5 0 R] >>",
        [stream(data, b"/Type /EmbeddedFile /Filter /FlateDecode"), filespec("export.json", 4)],
    )
    tracemalloc.start()
    try:
        response = post_pdf(client, body)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert response.status_code == 422
    assert message(response) == "The export.json attached to this PDF is larger than 4 MiB."
    assert peak < 3 * IMPORT_MAX_BYTES, peak
    assert rows(app, Match) == 0


@pytest.mark.parametrize(
    ("embedded", "streams"),
    [
        ("4 0 R", [b"<< /Kids [4 0 R] >>"]),  # a name tree that is its own kid
        ("<< /Kids [4 0 R] >>", [b"<< /Kids [4 0 R] /Names [(export.json) 4 0 R] >>"]),
        ("<< /Names [(export.json) 4 0 R] >>", [b"<< /Type /Filespec /EF << /F 4 0 R >> >>"]),
        (
            "<< /Names [(export.json) 5 0 R] >>",
            [stream(b"x" * 10, b"/Filter /NoSuchFilter"), filespec("export.json", 4)],
        ),
        (
            "<< /Names [(export.json) 5 0 R] >>",
            [stream(b"\x78\x9c broken zlib", b"/Filter /FlateDecode"), filespec("export.json", 4)],
        ),
        ("<< /Names (export.json) >>", []),
    ],
    ids=[
        "own-kid",
        "looping-kids",
        "spec-is-its-own-file",
        "unknown-filter",
        "broken-zlib",
        "names-not-an-array",
    ],
)
def test_a_hostile_name_tree_is_a_422(app, client, embedded, streams):
    response = post_pdf(client, handmade_pdf(embedded, streams))
    assert response.status_code == 422, response.get_json()
    assert message(response).startswith(("This PDF carries no match", "The export.json attached"))
    assert rows(app, Match) == 0


@pytest.mark.slow  # seconds: lays out PDFs or runs many requests
def test_damaged_copies_of_a_summary_never_answer_a_500(app, client, create_match):
    """Cut short, or with bytes changed here and there: 201 when the match survived,
    else 400 or 422 with a sentence for each problem (a changed byte of the export may
    leave it readable JSON with several wrong fields)."""
    m = played_match(create_match)
    pdf = summary(client, m)
    rng = random.Random(16)
    damaged = [pdf[: rng.randrange(len(pdf))] for _ in range(8)]
    for _ in range(24):
        copy = bytearray(pdf)
        for _ in range(rng.choice([1, 5, 50])):
            copy[rng.randrange(len(copy))] = rng.randrange(256)
        damaged.append(bytes(copy))
    answers = set()
    for body in damaged:
        response = post_pdf(client, body)
        answers.add(response.status_code)
        assert response.status_code in (201, 400, 422), (response.status_code, response.data[:500])
        if response.status_code != 201:
            errors = response.get_json()["errors"]
            assert errors and all(e["message"] and "field" in e for e in errors), errors
    assert 400 in answers or 422 in answers


@pytest.mark.slow  # seconds: lays out PDFs or runs many requests
def test_a_locked_pdf_is_refused(app, client, create_match):
    m = played_match(create_match)
    writer = PdfWriter(clone_from=PdfReader(io.BytesIO(summary(client, m))))
    writer.encrypt("secret", algorithm="RC4-128")
    out = io.BytesIO()
    writer.write(out)
    response = post_pdf(client, out.getvalue())
    assert response.status_code in (400, 422)
    assert message(response).startswith(("This PDF is damaged", "The export.json attached"))
    assert rows(app, Match) == 1


def test_a_pdf_over_the_import_limit_is_a_413(app, client):
    body = b"%PDF-1.7\n" + b" " * IMPORT_MAX_BYTES
    assert post_pdf(client, body).status_code == 413
    assert rows(app, Match) == 0


@pytest.mark.parametrize(
    "content_type",
    ["application/x-www-form-urlencoded", "application/octet-stream", "application/json", None],
)
def test_a_pdf_sent_with_another_content_type_is_read_as_a_pdf(
    app, client, create_match, content_type
):
    """``curl --data-binary @summary.pdf`` sends the PDF as a form, ``requests.post(data=)``
    with no type at all: a body that begins as a PDF is read as one whatever its type, as
    a JSON body is (it was a 400, "The request body is not valid JSON."); a table's
    import reads it the same way."""
    m = played_match(create_match)
    exported = client.get(f"{m.url}/export.json").data
    body = handmade_pdf(
        "<< /Names [(export.json) 5 0 R] >>",
        [stream(exported, b"/Type /EmbeddedFile"), filespec("export.json", 4)],
    )
    sent = {"content_type": content_type} if content_type else {}
    response = client.post("/api/v1/matches/import", data=body, **sent)
    assert response.status_code == 201, response.get_json()
    assert comparable(response.get_json()) == comparable(m.get())
    as_table = client.post("/api/v1/tables/import", data=body, **sent)
    assert as_table.status_code == 422
    assert message(as_table, "format").startswith("This is one match's export, not a whole")
    assert rows(app, Match) == 2
