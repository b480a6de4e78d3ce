"""PDFs laid out in a child process (ledger/pdf/child.py): the serving process gets the
bytes and what WeasyPrint logged; a failing or dead renderer costs one PDF, not the next."""

from __future__ import annotations

import logging
from datetime import UTC, datetime

import pytest
from pdf_support import pdf_reader, pdf_text
from test_pdf_reports import FOUR_HANDS, api_match

from ledger.pdf import child, render
from ledger.pdf.jobs import Attached, RenderJob, StaticFiles

pytestmark = pytest.mark.slow  # a renderer process per test

HELLO = '<html lang="en"><head><title>Hello</title></head><body><p>Hello नमस्ते ♥</p></body></html>'


@pytest.fixture
def static(app) -> StaticFiles:
    with app.app_context():
        return StaticFiles.of_app()


def test_the_child_makes_an_archive_pdf(static):
    attached = Attached("note.txt", b"kept", "a note", datetime(2026, 11, 30, tzinfo=UTC))
    job = RenderJob(HELLO, "letter", ("p { color: #333 }",), (attached,), static)
    pdf = child.render_in_child(job)
    assert pdf.startswith(b"%PDF-1.7")
    reader = pdf_reader(pdf)
    assert "Hello नमस्ते ♥" in pdf_text(pdf)
    assert reader.attachments["note.txt"] == [b"kept"]
    assert round(float(reader.pages[0].mediabox.width)) == 612


def test_the_routes_lay_out_in_the_child(client, monkeypatch):
    def not_here(*args, **kwargs):
        raise AssertionError("the serving process laid a PDF out")

    monkeypatch.setattr(render, "render_document", not_here)
    match = api_match(client, hands=FOUR_HANDS)
    response = client.get(f"/matches/{match['id']}/summary.pdf")
    assert response.status_code == 200
    assert "Tihar 2026" in pdf_text(response.data)


def test_the_sandbox_holds_in_the_child_and_its_log_comes_back(static, caplog):
    asks = ["http://example.com/x.css", "http://example.com/x.png", "file:///etc/hostname"]
    html = (
        f'<html lang="en"><head><link rel="stylesheet" href="{asks[0]}"></head><body>'
        f'<img src="{asks[1]}"><img src="{asks[2]}"><p>Hello</p></body></html>'
    )
    caplog.set_level(logging.WARNING, logger="weasyprint")
    pdf = child.render_in_child(RenderJob(html, static=static))
    assert "Hello" in pdf_text(pdf)
    refused = [r.getMessage() for r in caplog.records if r.name == "weasyprint"]
    for url in asks:
        assert any(url in m and "FetchRefused" in m for m in refused), (url, refused)


def test_a_failing_pdf_is_an_error_and_the_renderer_serves_the_next(static):
    broken = Attached("x", None, "no data", datetime(2026, 11, 30, tzinfo=UTC))
    with pytest.raises(child.RenderFailed, match="Traceback"):
        child.render_in_child(RenderJob(HELLO, attachments=(broken,), static=static))
    assert child.render_in_child(RenderJob(HELLO, static=static)).startswith(b"%PDF-")


def test_a_dead_renderer_is_replaced(static):
    child.render_in_child(RenderJob(HELLO, static=static))
    assert child._idle
    for renderer in child._idle:
        renderer.process.kill()
        renderer.process.wait()
    assert child.render_in_child(RenderJob(HELLO, static=static)).startswith(b"%PDF-")
    assert all(r.process.poll() is None for r in child._idle)


def test_a_lost_renderer_fails_one_pdf(static, monkeypatch):
    monkeypatch.setattr(child, "REPLY_SECONDS", 0)
    with pytest.raises(child.RendererLost):
        child.render_in_child(RenderJob(HELLO, static=static))
    monkeypatch.undo()
    assert child.render_in_child(RenderJob(HELLO, static=static)).startswith(b"%PDF-")
