"""The table page's "Mark paid" forms record a payment once: each form carries its own
key, made when the page is shown, so the same form sent twice, or four times at once,
records one payment; the form sent again with other values records nothing more; and
a database lost just after the commit still answers with the payment recorded."""

from __future__ import annotations

import html
import http.cookiejar
import re
import threading
import urllib.parse
import urllib.request
from contextlib import contextmanager

from api_hands import play
from at_once import at_once
from lost_database import lost_after_commit
from match_pages_support import same_browser
from table_pages_support import FOUR, ROSTER, create_table, edit_key, start_match

from ledger import matches

MARK_PAID = re.compile(
    r'<input type="hidden" name="payer" value="([^"]+)">\s*'
    r'<input type="hidden" name="payee" value="([^"]+)">\s*'
    r'<input type="hidden" name="payment_key" value="([^"]+)">\s*'
    r'<input type="hidden" name="amount" value="([^"]+)">'
)


def payment_keys(page: str) -> list[str]:
    """The key of every payment form on the page, in its order."""
    inputs = re.findall(r'<input[^>]*name="payment_key"[^>]*>', page)
    return [re.search(r'value="([^"]+)"', tag).group(1) for tag in inputs]


def payments(client, url: str) -> list[dict]:
    return client.get(f"/api/v1{url}/payments").get_json()["payments"]


def owing_table(client) -> str:
    """A staked table whose settle-up has transfers (so the page offers "Mark paid")."""
    url = create_table(client)
    play(client, start_match(client, url, ROSTER), edit_key(client, url), FOUR)
    return url


def mark_paid_forms(page: str) -> list[dict[str, str]]:
    return [
        {"payer": html.unescape(a), "payee": html.unescape(b), "payment_key": k, "amount": m}
        for a, b, k, m in MARK_PAID.findall(page)
    ]


def test_the_same_mark_paid_form_sent_twice_records_one_payment(client):
    url = owing_table(client)
    form = mark_paid_forms(client.get(url).get_data(as_text=True))[0]
    first = client.post(f"{url}/payments", data=form)
    assert first.status_code == 303
    again = client.post(f"{url}/payments", data=form)
    assert again.status_code == 303
    paid = payments(client, url)
    assert [(p["from"], p["to"], p["amount"]) for p in paid] == [
        (form["payer"], form["payee"], form["amount"])
    ]
    shown = client.get(url).get_data(as_text=True)
    assert "had already been recorded from this form" in shown


def test_every_form_on_the_page_carries_its_own_key(client):
    url = owing_table(client)
    page = client.get(url).get_data(as_text=True)
    keys = payment_keys(page)
    assert len(mark_paid_forms(page)) >= 2
    assert len(keys) == len(set(keys)) == len(mark_paid_forms(page)) + 1  # and "another"
    assert set(payment_keys(client.get(url).get_data(as_text=True))).isdisjoint(keys)


def test_a_form_sent_again_with_other_values_records_nothing_more(client):
    url = owing_table(client)
    key = payment_keys(client.get(url).get_data(as_text=True))[-1]  # "another payment"
    # Asha owes Dipa nothing: each amount is recorded with "Yes, record" (overpaying).
    form = {"payer": "Asha", "payee": "Dipa", "amount": "5", "payment_key": key, "confirmed": "5"}
    assert client.post(f"{url}/payments", data=form).status_code == 303
    changed = client.post(f"{url}/payments", data={**form, "amount": "7"})
    assert changed.status_code == 409
    body = changed.get_data(as_text=True)
    assert "already recorded as a payment, with other values" in body
    fresh = payment_keys(body)[-1]
    assert fresh != form["payment_key"]  # sent again, the form records this one
    assert [p["amount"] for p in payments(client, url)] == ["5.00"]  # money has 2 places
    again = {**form, "amount": "7", "payment_key": fresh, "confirmed": "7"}
    assert client.post(f"{url}/payments", data=again).status_code == 303
    assert [p["amount"] for p in payments(client, url)] == ["5.00", "7.00"]


def test_taking_back_twice_from_one_form_takes_back_once(client):
    url = owing_table(client)
    form = mark_paid_forms(client.get(url).get_data(as_text=True))[0]
    client.post(f"{url}/payments", data=form)
    page = client.get(url).get_data(as_text=True)
    action, key = re.search(
        r'action="(/tables/[^"]+/payments/\d+/delete)">\s*'
        r'<input type="hidden" name="csrf_token" value="[^"]*">\s*'
        r'<input type="hidden" name="payment_key" value="([^"]+)">',
        page,
    ).groups()
    assert client.post(action, data={"payment_key": key}).status_code == 303
    assert client.post(action, data={"payment_key": key}).status_code == 303  # not a 404
    assert payments(client, url) == []


def test_a_payment_recorded_before_the_database_went_still_goes_back_to_the_page(app, client):
    url = owing_table(client)
    form = mark_paid_forms(client.get(url).get_data(as_text=True))[0]
    with lost_after_commit(app) as lost:
        answer = client.post(f"{url}/payments", data=form)
    assert lost["lost"]
    assert answer.status_code == 303, answer.get_data(as_text=True)
    assert len(payments(client, url)) == 1


def test_two_phones_marking_one_debt_paid_at_once_record_it_once(app, client, monkeypatch):
    """Two phones' "Mark paid" for the same debt, each form its own key: the second is
    checked against the debt as the first left it, and asked about (overpaying), not
    recorded beside it. Forced: the first is recorded after the second was read and
    before its write begins (the check ran before then, and both were recorded: the
    debt counted twice once the payee confirmed them)."""
    url = owing_table(client)
    other = same_browser(app, client)
    first, second = mark_paid_forms(client.get(url).get_data(as_text=True))[:1] * 2
    second = {**second, "payment_key": payment_keys(other.get(url).get_data(as_text=True))[0]}
    write = matches.transaction
    meanwhile = [lambda: other.post(f"{url}/payments", data=first)]

    @contextmanager
    def first_recorded_meanwhile(*args, **kwargs):
        if meanwhile and threading.current_thread() is threading.main_thread():
            recording = threading.Thread(target=meanwhile.pop())
            recording.start()
            recording.join()
        with write(*args, **kwargs):
            yield

    monkeypatch.setattr(matches, "transaction", first_recorded_meanwhile)
    asked = client.post(f"{url}/payments", data=second)
    monkeypatch.undo()
    assert not meanwhile  # the first was recorded in between
    assert asked.status_code == 200
    owed = f"{first['payer']} owes {first['payee']} NPR 0.00 now"
    assert owed in html.unescape(asked.get_data(as_text=True)).replace("\xa0", " ")
    assert [(p["from"], p["to"], p["amount"]) for p in payments(client, url)] == [
        (first["payer"], first["payee"], first["amount"])
    ]


def test_four_posts_of_one_form_at_once_record_one_payment(live_server):
    jar = http.cookiejar.CookieJar()
    browser = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(jar))

    def page(path: str, data: dict | None = None):
        body = urllib.parse.urlencode(data, doseq=True).encode() if data is not None else None
        with browser.open(live_server + path, data=body, timeout=30) as answer:
            return answer.status, answer.read().decode()

    _, new = page("/tables/new")
    token = re.search(r'name="csrf_token" value="([^"]+)"', new).group(1)
    made = browser.open(
        live_server + "/tables/new",
        data=urllib.parse.urlencode(
            {
                "csrf_token": token,
                "name": "Friday",
                "players": "Asha\nDipa",
                "rules-profile": "sparkai",
                "stake-per_point": "1.00",
                "stake-currency": "NPR",
            }
        ).encode(),
    )
    url = urllib.parse.urlsplit(made.geturl()).path
    _, shown = page(url)
    token = re.search(r'name="csrf_token" value="([^"]+)"', shown).group(1)
    form = {
        "csrf_token": token,
        "payment_key": payment_keys(shown)[-1],
        "payer": "Dipa",
        "payee": "Asha",
        "amount": "150",
        "confirmed": "150",  # a table with no night yet: nobody owes, "Yes, record"
    }
    answers = at_once(*[lambda: page(f"{url}/payments", form)] * 4)
    assert [status for status, _ in answers] == [200] * 4  # the redirect followed
    _, listed = page(f"/api/v1{url}/payments")
    assert listed.count('"id"') == 1
