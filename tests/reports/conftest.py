"""Fixtures of the PDF tests: no network at all, no glyph drawn as a box, and a log of
what the renderer fetched."""

from __future__ import annotations

import logging
import socket

import pytest

from ledger.pdf import render as reports


@pytest.fixture(autouse=True)
def no_network(monkeypatch):
    """Any attempt to open a network connection fails the test that made it."""
    attempts: list[object] = []

    def refuse(self, address, *args, **kwargs):
        attempts.append(address)
        raise AssertionError(f"the PDF tests must not touch the network: {address!r}")

    monkeypatch.setattr(socket.socket, "connect", refuse)
    monkeypatch.setattr(socket.socket, "connect_ex", refuse)
    yield attempts
    assert not attempts


@pytest.fixture(autouse=True)
def no_missing_glyphs(caplog):
    """WeasyPrint says so when it draws a .notdef glyph (a box) for a character that no
    font covers: no PDF of these tests may have one."""
    caplog.set_level(logging.WARNING, logger="weasyprint")
    yield
    boxes = [r.getMessage() for r in caplog.records if ".notdef" in r.getMessage()]
    assert not boxes, boxes


@pytest.fixture
def fetch_log(app, monkeypatch):
    """Every URL the PDF renderer's fetcher is asked for (fonts and stylesheets included:
    the thread's cached stylesheets are dropped first, so they are fetched again). The
    app then lays its PDFs out in this process, where the log is (test_pdf_child.py
    checks the sandbox in the child)."""
    app.config["PDF_CHILD_PROCESS"] = False
    asked: list[str] = []
    fetch = reports.StaticFetcher.fetch

    def logged(self, url, headers=None):
        asked.append(url)
        return fetch(self, url, headers)

    monkeypatch.setattr(reports.StaticFetcher, "fetch", logged)
    reports.clear_cache()
    yield asked
    reports.clear_cache()
