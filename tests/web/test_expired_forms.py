"""A form left open past its CSRF token's hour (a table's page opened at the start of the
night, "Mark paid" tapped at its end): refused with nothing stored, and what was typed
kept on the refusal's page to send again with one tap; a token that is not this
browser's own is refused with nothing to send again (ledger.http.expired_forms)."""

from __future__ import annotations

import html
import re
import time

import pytest
from itsdangerous import TimestampSigner
from table_pages_support import create_table
from werkzeug.datastructures import MultiDict

HOUR = 3600


@pytest.fixture
def later(monkeypatch):
    """``later()``: from now on, tokens are signed and read two hours on."""

    def move() -> None:
        monkeypatch.setattr(
            TimestampSigner, "get_timestamp", lambda self: int(time.time()) + 2 * HOUR
        )

    return move


def token(page: str) -> str:
    return re.search(r'name="csrf_token" value="([^"]+)"', page).group(1)


def kept_form(page: str) -> tuple[str, list[tuple[str, str]]]:
    """The refusal page's form: where it sends, and its hidden fields."""
    form = re.search(
        r'<form method="post" action="([^"]+)" data-send-once>(.*?)</form>', page, re.S
    )
    assert form, page
    fields = re.findall(r'<input type="hidden" name="([^"]+)" value="([^"]*)">', form.group(2))
    return html.unescape(form.group(1)), [(name, html.unescape(value)) for name, value in fields]


def payments(client, url: str) -> list[dict]:
    return client.get(f"/api/v1{url}/payments").get_json()["payments"]


def _mark_paid(csrf_client) -> tuple[str, dict[str, str]]:
    """A table made with this browser, and its "Mark paid" form filled in (Nepali digits)."""
    page = csrf_client.get("/tables/new").get_data(as_text=True)
    url = create_table(csrf_client, csrf_token=token(page))
    page = csrf_client.get(url).get_data(as_text=True)
    key = re.search(r'name="payment_key" type="hidden" value="([^"]+)"', page).group(1)
    typed = {"payer": "Asha", "payee": "Bikash", "amount": "१५०", "payment_key": key}
    typed["confirmed"] = "150.00"  # "Yes, record NPR 150.00": nothing is owed yet
    return url, {**typed, "csrf_token": token(page)}


def test_a_form_open_too_long_stores_nothing_and_keeps_what_was_typed(csrf_client, later):
    url, form = _mark_paid(csrf_client)
    later()
    refused = csrf_client.post(f"{url}/payments", data=form)
    page = refused.get_data(as_text=True)
    assert refused.status_code == 400
    assert "open for too long, so nothing was saved. What you typed is kept" in page
    assert payments(csrf_client, url) == []
    action, fields = kept_form(page)
    assert action == f"{url}/payments"
    sent = dict(fields)
    assert sent["csrf_token"] != form["csrf_token"]
    assert {name: sent[name] for name in form if name != "csrf_token"} == {
        name: value for name, value in form.items() if name != "csrf_token"
    }
    again = csrf_client.post(action, data=MultiDict(fields))
    assert again.status_code == 303
    twice = csrf_client.post(action, data=MultiDict(fields))  # a double tap: one payment
    assert twice.status_code == 303
    assert [(p["from"], p["to"], p["amount"]) for p in payments(csrf_client, url)] == [
        ("Asha", "Bikash", "150.00")
    ]


def test_a_missing_or_wrong_token_keeps_nothing_to_send_again(csrf_client, csrf_app, later):
    url, form = _mark_paid(csrf_client)
    stranger = csrf_app.test_client()
    theirs = token(stranger.get("/tables/new").get_data(as_text=True))
    later()
    for wrong in (theirs, "x", ""):
        sent = {**form, "csrf_token": wrong}
        refused = csrf_client.post(f"{url}/payments", data=sent)
        page = refused.get_data(as_text=True)
        assert refused.status_code == 400
        assert "This form has expired. Reload the page and fill it in again." in page
        assert "data-send-once" not in page and "Send it again" not in page
    assert payments(csrf_client, url) == []


def test_in_nepali(csrf_client, later):
    url, form = _mark_paid(csrf_client)
    csrf_client.set_cookie("lang", "ne")
    later()
    page = csrf_client.post(f"{url}/payments", data=form).get_data(as_text=True)
    assert "धेरै बेर खुला" in page and "फेरि पठाउनुहोस्" in page
