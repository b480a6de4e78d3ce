"""The PDFs kept per match version (ledger/pdf/cache.py, ledger/pdf/printer.py) and the
render slots that bound how many are laid out at once (ledger/http/slots.py)."""

from __future__ import annotations

import errno
import os
import subprocess
import sys
import time
from datetime import UTC, datetime
from pathlib import Path

import pytest
from pdf_support import page_sizes, pdf_text
from test_pdf_reports import CHECKED, FOUR_HANDS, api_match

from ledger import matches
from ledger.http.slots import render_slot
from ledger.matches.share_link import encode_hand_link
from ledger.pdf import printer, routes
from ledger.pdf.cache import DRAFT, DRAFT_SECONDS, PdfCache, code_stamp

NE = {"Accept-Language": "ne-NP,ne;q=0.9"}


@pytest.fixture
def renders(monkeypatch) -> list:
    """Each job the routes lay out (they still render it)."""
    made: list = []
    make = printer.render_job

    def counted(job):
        made.append(job)
        return make(job)

    monkeypatch.setattr(printer, "render_job", counted)
    return made


def cache_folder(app) -> Path:
    return Path(app.instance_path) / "pdf-cache"


@pytest.mark.slow  # seconds: lays out PDFs or runs many requests
def test_the_same_version_is_read_back_without_rendering(app, client, renders, monkeypatch):
    match = api_match(client, hands=FOUR_HANDS)
    url = f"/matches/{match['id']}/summary.pdf"
    first = client.get(url)
    assert first.status_code == 200 and len(renders) == 1
    assert len(list(cache_folder(app).glob("*.pdf"))) == 1

    def no_view(*args):
        raise AssertionError("a kept PDF needs no view of the match")

    monkeypatch.setattr(matches, "match_view", no_view)
    again = client.get(url)
    assert again.status_code == 200 and len(renders) == 1
    assert again.data == first.data
    assert again.headers["Content-Disposition"] == first.headers["Content-Disposition"]


@pytest.mark.slow  # seconds: lays out PDFs or runs many requests
def test_a_new_hand_is_a_new_version_and_a_new_pdf(app, client, renders):
    match = api_match(client, hands=FOUR_HANDS[:3])
    url = f"/matches/{match['id']}/summary.pdf"
    before = client.get(url).data
    with app.app_context():
        matches.add_hand(matches.get_match(match["id"]), FOUR_HANDS[3])
    after = client.get(url).data
    assert len(renders) == 2 and after != before
    assert "Hand 4" in pdf_text(after) and "Hand 4" not in pdf_text(before)
    assert client.get(url).data == after and len(renders) == 2


@pytest.mark.slow  # seconds: lays out PDFs or runs many requests
def test_the_key_holds_everything_that_changes_the_bytes(app, client, renders, monkeypatch):
    match = api_match(client, hands=FOUR_HANDS)
    base = f"/matches/{match['id']}"
    asked = [
        (f"{base}/summary.pdf", {}),
        (f"{base}/summary.pdf?paper=letter", {}),
        (f"{base}/summary.pdf", NE),
        (f"{base}/summary.pdf?digits", NE),  # ?digits: with the cookie of western digits
        (f"{base}/summary.pdf?hands=full", {}),
        (f"{base}/hands/1/slip.pdf", {}),
        (f"{base}/hands/2/slip.pdf", {}),
        (f"{base}/settle-up.pdf", {}),
    ]

    def get(url, headers):
        if url.endswith("?digits"):
            client.set_cookie("digits", "latn")
        response = client.get(url.removesuffix("?digits"), headers=headers)
        client.delete_cookie("digits")
        return response

    pdfs = [get(url, headers) for url, headers in asked]
    assert [r.status_code for r in pdfs] == [200] * len(asked)
    assert len(renders) == len(asked)
    assert len({r.data for r in pdfs}) == len(asked)
    assert page_sizes(pdfs[1].data) == {(612, 792)}
    assert "म्यारिज खाता" in pdf_text(pdfs[2].data)  # "Marriage ledger", in Nepali
    for (url, headers), pdf in zip(asked, pdfs, strict=True):
        assert get(url, headers).data == pdf.data
    assert len(renders) == len(asked)
    assert len(list(cache_folder(app).glob("*.pdf"))) == len(asked)

    class Tomorrow(datetime):  # the PDF prints the day it is made
        @classmethod
        def now(cls, tz=None):
            return datetime(2031, 1, 2, 12, tzinfo=UTC)

    monkeypatch.setattr(routes, "datetime", Tomorrow)
    assert "2 Jan 2031" in pdf_text(client.get(asked[0][0]).data)
    assert len(renders) == len(asked) + 1


def test_an_unknown_match_or_hand_is_still_a_404(client, renders):
    match = api_match(client, hands=FOUR_HANDS)
    assert client.get("/matches/no-such-match/summary.pdf").status_code == 404
    assert client.get(f"/matches/{match['id']}/hands/9/slip.pdf").status_code == 404
    assert client.get(f"/matches/{match['id']}/hands/9/slip.pdf").status_code == 404
    assert renders == []


def test_the_cache_keeps_the_most_recently_used_within_its_bounds(tmp_path):
    cache = PdfCache(tmp_path, max_files=3, max_bytes=10_000)
    for n in range(3):
        cache.put(["pdf", n], b"%PDF-" + bytes([n]) * 100)
        os.utime(cache.path(["pdf", n]), (1000 + n, 1000 + n))  # 0 is the oldest
    assert cache.get(["pdf", 0]) is not None  # a hit makes it the newest
    cache.put(["pdf", 3], b"%PDF-3")
    assert [cache.get(["pdf", n]) is not None for n in range(4)] == [True, False, True, True]
    assert len(list(tmp_path.iterdir())) == 3

    cache.put(["big"], b"x" * 9_990)  # with it, the others pass the bytes bound
    assert cache.get(["big"]) is not None
    assert sorted(p.stat().st_size for p in tmp_path.iterdir()) == [9_990]


def test_a_pdf_is_written_aside_and_a_stale_draft_goes(tmp_path, monkeypatch):
    cache = PdfCache(tmp_path, max_files=10, max_bytes=10_000)
    stale, fresh = tmp_path / f"old{DRAFT}", tmp_path / f"new{DRAFT}"
    for draft in (stale, fresh):
        draft.write_bytes(b"half a PDF")
    old = time.time() - DRAFT_SECONDS - 60
    os.utime(stale, (old, old))
    replaced = []
    monkeypatch.setattr(os, "replace", lambda a, b: replaced.append(Path(a)) or os.rename(a, b))
    cache.put(["pdf"], b"%PDF-1")
    assert replaced and replaced[0].suffix == DRAFT and replaced[0].parent == tmp_path
    assert not stale.exists() and fresh.exists()
    assert cache.get(["pdf"]) == b"%PDF-1"


@pytest.mark.slow  # seconds: lays out PDFs or runs many requests
def test_no_free_slot_is_a_503_with_retry_after(make_app):
    app = make_app(PDF_SLOTS=1, PDF_SLOT_WAIT=0.2)
    client = app.test_client()
    match = api_match(client, hands=FOUR_HANDS)
    url = f"/matches/{match['id']}/summary.pdf"
    assert client.get(url).status_code == 200
    with render_slot(cache_folder(app), 1, 0):
        assert client.get(url).status_code == 200  # kept: no slot needed
        for busy_url in (f"{url}?paper=letter", "/check/slip.pdf?h=" + encode_hand_link(CHECKED)):
            busy = client.get(busy_url)
            assert busy.status_code == 503, busy_url
            assert busy.headers["Retry-After"] == str(printer.RETRY_AFTER)
            assert "busy making other PDFs" in busy.get_data(as_text=True)
        nepali = client.get(f"{url}?paper=letter", headers=NE)
        assert nepali.status_code == 503 and "अरू PDF" in nepali.get_data(as_text=True)
    assert client.get(f"{url}?paper=letter").status_code == 200


@pytest.mark.slow
def test_the_slots_hold_across_processes(make_app):
    """Another process that holds the only slot makes this one wait, then answer 503;
    its end (even without unlocking) frees the slot."""
    app = make_app(PDF_SLOTS=1, PDF_SLOT_WAIT=0.2)
    client = app.test_client()
    match = api_match(client, hands=FOUR_HANDS)
    holder = subprocess.Popen(
        [
            sys.executable,
            "-c",
            "import fcntl, os, sys; fd = os.open(sys.argv[1], os.O_RDWR | os.O_CREAT); "
            "fcntl.flock(fd, fcntl.LOCK_EX); print('held', flush=True); sys.stdin.read()",
            str(cache_folder(app) / "slot-0.lock"),
        ],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
    )
    try:
        assert holder.stdout.readline() == "held\n"
        assert client.get(f"/matches/{match['id']}/summary.pdf").status_code == 503
    finally:
        holder.stdin.close()
        holder.stdout.close()
        holder.wait(timeout=10)
    assert client.get(f"/matches/{match['id']}/summary.pdf").status_code == 200


@pytest.mark.parametrize(
    "setting, value",
    [("PDF_SLOTS", 0), ("PDF_SLOTS", 1.5), ("PDF_SLOT_WAIT", -1), ("PDF_CACHE_MB", "lots")],
)
def test_wrong_settings_stop_the_app(make_app, setting, value):
    with pytest.raises(ValueError, match=f"LEDGER_{setting}"):
        make_app(**{setting: value})


def test_a_pdf_whose_cache_file_cannot_be_written_is_still_served(
    app, client, renders, monkeypatch
):
    """A full disk (ENOSPC) while keeping the PDF: the PDF made is served all the same."""
    match = api_match(client, hands=FOUR_HANDS)

    def full(self, key, pdf):
        raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr(PdfCache, "put", full)
    response = client.get(f"/matches/{match['id']}/summary.pdf")
    assert response.status_code == 200
    assert response.data.startswith(b"%PDF-") and len(renders) == 1
    assert list(cache_folder(app).glob("*.pdf")) == []


def test_the_cache_is_keyed_by_the_public_address_not_the_host_header(make_app, renders):
    """With a public address configured, the PDF prints it whatever Host the request
    gave: another Host is the same file, not a new render."""
    app = make_app(PUBLIC_URL="http://192.168.1.20:5000")
    client = app.test_client()
    match = api_match(client, hands=FOUR_HANDS)
    url = f"/matches/{match['id']}/summary.pdf"
    for host in ("localhost", "evil.example", "other.example:81"):
        assert client.get(url, headers={"Host": host}).status_code == 200
    assert len(renders) == 1
    assert len(list(cache_folder(app).glob("*.pdf"))) == 1


def test_the_code_stamp_follows_the_code_and_not_its_bytecode(app, tmp_path):
    """A fix to the code that prints a figure must not leave its PDFs as they were: every
    build is version 0.1.0, so the stamp reads when the package's modules changed."""
    engine_module = Path(sys.modules["ledger.engine.settle"].__file__ or "")
    with app.app_context():
        sources = printer.printer().sources
    assert any(engine_module.is_relative_to(folder) for folder in sources)

    stamp = code_stamp.__wrapped__  # the kept one is read once per process
    code = tmp_path / "code"  # the app's instance folder is tmp_path itself
    code.mkdir()
    module = code / "module.py"
    module.write_text("X = 1\n")
    os.utime(module, ns=(1_000_000_000, 1_000_000_000))
    first = stamp(str(code))
    (code / "__pycache__").mkdir()
    (code / "__pycache__" / "module.cpython-311.pyc").write_bytes(b"compiled later")
    assert stamp(str(code)) == first
    os.utime(module, ns=(2_000_000_000, 2_000_000_000))
    assert stamp(str(code)) != first
