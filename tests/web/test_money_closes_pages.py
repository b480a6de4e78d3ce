"""Money that closes, played through by five friends on their phones over two nights
and a new season (docs/tables.md): what tripped them on the table's page and their own
pages, held here. A debt to a guest offered as one to someone else; a square player's
"I paid" paying an old debt into the new season; "Mark paid" beside a payment already
said (paid twice once both were confirmed); a payment said to someone with no link of
their own, which nobody could answer; "Take back" on a rejected payment, which can
only fail."""

from __future__ import annotations

import html
import io
import re
from decimal import Decimal

import pytest
from api_hands import won_by
from pypdf import PdfReader
from table_pages_support import edit_key

STAKE = {"per_point": "10.00", "currency": "NPR"}
ROSTER = ["Asha", "Bikash", "Chandra", "Dipa"]
NIGHT = [*ROSTER, "Ram"]


def _night(client, *winners: str) -> str:
    """A table of four at NPR 10 a point and a night with Ram, a guest, of a hand won by
    each of ``winners``; this client holds the table's key. The table's id."""
    made = client.post(
        "/api/v1/tables",
        json={"name": "Friday table", "players": ROSTER, "rules": "sparkai", "stake": STAKE},
    ).get_json()
    auth = {"Authorization": f"Bearer {made['edit_key']}"}
    match = client.post(
        f"/api/v1/tables/{made['id']}/matches",
        json={"name": "Night 1", "players": NIGHT, "guests": ["Ram"]},
        headers=auth,
    ).get_json()
    for winner in winners:
        answer = client.post(
            f"/api/v1/matches/{match['id']}/hands", json=won_by(winner, NIGHT), headers=auth
        )
        assert answer.status_code == 201, answer.get_json()
    client.get(f"/tables/{made['id']}/join/{made['edit_key']}")
    return made["id"]


def _own_link(client, table_id: str, name: str) -> None:
    """``name``'s own link, given with the table's key this client holds, opened here."""
    made = client.post(f"/tables/{table_id}/own-link", data={"player": name})
    link = re.search(r'id="own-link"[^>]*value="([^"]+)"', made.text)
    assert link is not None, made.text
    client.get(link.group(1).split("localhost", 1)[1])


def _dipa_said_she_paid_asha(client) -> tuple[str, dict]:
    """Asha won a night; Dipa says on her own page she paid her NPR 50, and Asha's own
    link is then opened on this client. The table's id and the payment."""
    table_id = _night(client, "Asha")
    _own_link(client, table_id, "Dipa")
    said = {"payee": "Asha", "amount": "50", "payment_key": "dipa-said"}
    assert client.post(f"/me/{table_id}/pay", data=said).status_code == 303
    [paid] = client.get(f"/api/v1/tables/{table_id}/payments").get_json()["payments"]
    _own_link(client, table_id, "Asha")
    return table_id, paid


def _offered(page: str) -> tuple[str | None, str | None]:
    """The payee and amount the "I paid" form is filled in with."""
    payee = re.search(r'<select id="payee".*?<option selected value="([^"]+)"', page, re.S)
    amount = re.search(r'id="amount"[^>]*value="([^"]*)"', page)
    return payee and payee.group(1), amount and amount.group(1)


def test_a_debt_to_a_guest_is_offered_as_a_debt_to_the_guest(client):
    """Ram, a guest, won: Dipa's "I paid" was filled in with what she owes him but not
    his name (guests were not among the choices), so the page showed Asha beside it."""
    table_id = _night(client, "Ram")
    _own_link(client, table_id, "Dipa")
    page = client.get(f"/me/{table_id}").text
    assert "Dipa pays Ram NPR\xa0" in page
    assert _offered(page)[0] == "Ram"
    sent = client.post(
        f"/me/{table_id}/pay", data={"payee": "Ram", "amount": "10.00", "payment_key": "to-ram"}
    )
    assert sent.status_code == 303


def test_square_now_owing_from_last_season_i_paid_waits_behind_a_tap(client):
    """Chandra owes from the season before and nothing in the new one: the new season's
    "I paid", open at the top, paid into the new season (Esha then owed him there and
    the old debt stayed); the old debt's own "I paid" is the one to use."""
    table_id = _night(client, "Asha")
    assert client.post(f"/tables/{table_id}/seasons", data={"name": "Tihar"}).status_code == 303
    _own_link(client, table_id, "Chandra")
    page = client.get(f"/me/{table_id}").text
    assert "You are square." in page and 'class="person-earlier"' in page
    assert re.search(r'<details class="person-pay-other">\s*<summary id="pay-title">I paid<', page)


def test_mark_paid_beside_a_payment_said_offers_only_the_rest(client):
    """Dipa said she paid Asha NPR 200 of 290: "Mark paid" still offered all 290, and
    once Asha confirmed both Dipa had paid 490."""
    table_id = _night(client, "Asha", "Bikash", "Asha")
    _own_link(client, table_id, "Dipa")
    said = {"payee": "Asha", "amount": "200", "payment_key": "dipa-part"}
    assert client.post(f"/me/{table_id}/pay", data=said).status_code == 303
    page = client.get(f"/tables/{table_id}").text
    line = re.search(r'<li class="transfer">Dipa pays Asha .*?</li>', page, re.S)
    assert line is not None
    # Asha holds no own link: the scorekeeper says whether it reached her.
    assert (
        "Dipa said they paid NPR\xa0200.00: Asha has no own link, so it counts once the "
        "scorekeeper says it reached them." in line.group(0)
    )
    assert '<input type="hidden" name="amount" value="90.00">' in line.group(0)
    assert "Mark the other NPR\xa090.00 paid" in line.group(0)

    rest = {"payee": "Asha", "amount": "90", "payment_key": "dipa-rest"}
    assert client.post(f"/me/{table_id}/pay", data=rest).status_code == 303
    page = client.get(f"/tables/{table_id}").text
    line = re.search(r'<li class="transfer">Dipa pays Asha .*?</li>', page, re.S)
    assert line is not None and "<form" not in line.group(0)


def test_the_table_answers_for_a_payee_with_no_link_of_their_own(client):
    """Dipa said she paid Ram, a guest, who has no own link: nobody could say whether it
    reached him, and it never counted, while her page said it counted once Ram said so.
    The table's page answers for him; a payee with a link answers on their own page."""
    table_id = _night(client, "Ram")
    _own_link(client, table_id, "Dipa")
    # More than she owes him (one hand's due): she records it with "Yes, record".
    said = {"payee": "Ram", "amount": "120", "payment_key": "dipa-ram", "confirmed": "120"}
    sent = client.post(f"/me/{table_id}/pay", data=said, follow_redirects=True).text
    # Ram will never say so himself: the words say who will.
    assert "Recorded. Ram has no own link: it counts once the scorekeeper says it" in sent
    assert (
        "You said you paid NPR\xa0120.00: Ram has no own link, so it counts once the "
        "scorekeeper says it reached them." in sent
    )
    [paid] = client.get(f"/api/v1/tables/{table_id}/payments").get_json()["payments"]
    page = client.get(f"/tables/{table_id}").text
    confirm = f"/tables/{table_id}/payments/{paid['id']}/confirm"
    assert f'action="{confirm}"' in page
    assert "Ram has no own link: say here whether it reached them." in page
    assert "Reached Ram" in page and "Did not reach Ram" in page
    answered = client.post(confirm)
    assert answered.status_code == 303 and answered.headers["Location"].endswith("#money")
    [paid] = client.get(f"/api/v1/tables/{table_id}/payments").get_json()["payments"]
    assert paid["state"] == "confirmed"
    balances = client.get(f"/api/v1/tables/{table_id}/settle-up").get_json()["balances"]
    assert {b["name"]: b["paid"] for b in balances}["Dipa"] == "120.00"

    _own_link(client, table_id, "Asha")
    said = {"payee": "Asha", "amount": "10", "payment_key": "asha-from-dipa", "confirmed": "10"}
    _own_link(client, table_id, "Dipa")
    assert client.post(f"/me/{table_id}/pay", data=said).status_code == 303
    page = client.get(f"/tables/{table_id}").text
    pending = client.get(f"/api/v1/tables/{table_id}/payments").get_json()["payments"][-1]
    assert f"/payments/{pending['id']}/confirm" not in page
    # Sent all the same (a page opened before Asha had her link): refused, and said so.
    refused = client.post(
        f"/tables/{table_id}/payments/{pending['id']}/confirm", follow_redirects=True
    )
    assert "Only Asha, who was paid, may say whether this money reached them." in refused.text
    pending = client.get(f"/api/v1/tables/{table_id}/payments").get_json()["payments"][-1]
    assert pending["state"] == "pending"


def test_who_answers_a_payment_said_is_the_same_on_every_page(client):
    """Dipa said she paid Asha, who holds an own link: both pages said Asha would say
    whether it reached her. Then the table revoked Asha's link: Dipa's page said the
    scorekeeper would answer for her, the table's page still that Asha would, though
    she no longer could (and the table's page offered the scorekeeper the answer)."""
    table_id = _night(client, "Asha", "Bikash", "Asha")
    _own_link(client, table_id, "Asha")
    _own_link(client, table_id, "Dipa")
    said = {"payee": "Asha", "amount": "200", "payment_key": "dipa-part"}
    assert client.post(f"/me/{table_id}/pay", data=said).status_code == 303

    def words() -> tuple[str, str]:
        """The table's words beside Dipa's line, and Dipa's beside hers."""
        table = re.search(
            r'<li class="transfer">Dipa pays Asha .*?</li>',
            client.get(f"/tables/{table_id}").text,
            re.S,
        )
        own = re.search(
            r'<li class="transfer">Dipa pays Asha .*?</li>',
            client.get(f"/me/{table_id}").text,
            re.S,
        )
        assert table is not None and own is not None
        hint = re.compile(r'<span class="hint said-paid">([^<]*)</span>')
        return hint.findall(table.group(0))[0], hint.findall(own.group(0))[0]

    assert words() == (
        "Dipa said they paid NPR\xa0200.00: it counts once Asha says it reached them.",
        "You said you paid NPR\xa0200.00: it counts once Asha says it reached them.",
    )
    assert (
        client.post(f"/tables/{table_id}/own-link/revoke", data={"player": "Asha"}).status_code
        == 303
    )
    assert words() == (
        "Dipa said they paid NPR\xa0200.00: Asha has no own link, so it counts once the "
        "scorekeeper says it reached them.",
        "You said you paid NPR\xa0200.00: Asha has no own link, so it counts once the "
        "scorekeeper says it reached them.",
    )


def test_a_rejected_payment_offers_no_take_back(client):
    """Asha said Dipa's payment never reached her: it is kept, marked, and taking it
    back is refused (409); the table's page offered "Take back" on it all the same."""
    table_id, paid = _dipa_said_she_paid_asha(client)
    assert client.post(f"/me/{table_id}/payments/{paid['id']}/reject").status_code == 303
    page = client.get(f"/tables/{table_id}").text
    assert "(not received)" in page
    assert f"/payments/{paid['id']}/delete" not in page


def test_a_rejected_payment_says_to_both_what_to_do_next(client):
    """Asha says Dipa's payment never reached her: each own page says it does not count
    and how it is put right (a new "I paid"), in English and Nepali; it said "(not
    received)" alone, and neither could undo it."""
    table_id, paid = _dipa_said_she_paid_asha(client)
    assert client.post(f"/me/{table_id}/payments/{paid['id']}/reject").status_code == 303
    next_step = re.compile(r'<span class="hint payment-next">([^<]*)</span>')
    asha = next_step.findall(html.unescape(client.get(f"/me/{table_id}").text))
    assert asha == [
        "It does not count. If it reached you after all, ask Dipa to say “I paid” again."
    ]
    _own_link(client, table_id, "Dipa")
    dipa = next_step.findall(html.unescape(client.get(f"/me/{table_id}").text))
    assert dipa == [
        "It does not count. If you did pay, settle it with Asha, then say “I paid” again."
    ]
    client.set_cookie("lang", "ne")
    [nepali] = next_step.findall(html.unescape(client.get(f"/me/{table_id}").text))
    assert (
        "Asha" in nepali
        and "मैले तिरेँ" in nepali
        and not re.search("[a-z]", nepali.replace("Asha", ""))
    )


def test_take_back_and_an_answer_on_an_earlier_seasons_page_stay_on_it(client):
    """After a new season, the scorekeeper takes back a payment marked by mistake on the
    season before's page (and says one reached Ram there): both landed on the new
    season's page, where those payments are not listed."""
    table_id = _night(client, "Ram")
    first = client.get(f"/api/v1/tables/{table_id}").get_json()["seasons"][0]["id"]
    assert client.post(f"/tables/{table_id}/seasons", data={"name": "Tihar"}).status_code == 303
    page = client.get(f"/tables/{table_id}?season={first}").text
    assert f'<input type="hidden" name="season" value="{first}">' in page
    marked = {"payer": "Dipa", "payee": "Ram", "amount": "10", "season": first}
    assert client.post(f"/tables/{table_id}/payments", data=marked).status_code == 303
    _own_link(client, table_id, "Chandra")
    said = {"payee": "Ram", "amount": "10", "season": first, "payment_key": "chandra-old"}
    assert client.post(f"/me/{table_id}/pay", data=said).status_code == 303
    mistake, old_debt = client.get(f"/api/v1/tables/{table_id}/payments").get_json()["payments"]
    back = f"/tables/{table_id}?season={first}#money"
    taken = client.post(
        f"/tables/{table_id}/payments/{mistake['id']}/delete", data={"season": first}
    )
    assert taken.status_code == 303 and taken.headers["Location"] == back
    reached = client.post(
        f"/tables/{table_id}/payments/{old_debt['id']}/confirm", data={"season": first}
    )
    assert reached.status_code == 303 and reached.headers["Location"] == back


def test_the_new_seasons_page_says_what_the_season_before_still_owes(client):
    """A new season began before Chandra paid: his own page had the old debt, but the
    scorekeeper, on the table's page of the new season, saw no word of it (only the
    season picker led there)."""
    table_id = _night(client, "Asha")
    first = client.get(f"/api/v1/tables/{table_id}").get_json()["seasons"][0]["id"]
    assert client.post(f"/tables/{table_id}/seasons", data={"name": "Tihar"}).status_code == 303
    old = client.get(f"/api/v1/tables/{table_id}/settle-up?season={first}").get_json()
    page = client.get(f"/tables/{table_id}").text
    earlier = re.search(r"<h3>Still owed from earlier seasons</h3>(.*?)</section>", page, re.S)
    assert earlier is not None
    assert f'<a href="/tables/{table_id}?season={first}#money">Season: 1</a>' in earlier.group(1)
    lines = re.findall(r'<li class="transfer-earlier">([^<]+)</li>', earlier.group(1))
    assert lines == [f"{t['from']} pays {t['to']} NPR\xa0{t['amount']}" for t in old["transfers"]]
    assert (
        "Still owed from earlier seasons"
        not in client.get(f"/tables/{table_id}?season={first}").text
    )


def test_the_new_seasons_pdf_says_what_the_season_before_still_owes(client):
    """The new season's PDF, printed while Chandra still owed from the season before,
    said "Nothing to settle yet." of its money and nothing of the old debt: the family
    keeping it as the season's record lost it."""
    table_id = _night(client, "Asha")
    first = client.get(f"/api/v1/tables/{table_id}").get_json()["seasons"][0]["id"]
    assert client.post(f"/tables/{table_id}/seasons", data={"name": "Tihar"}).status_code == 303
    old = client.get(f"/api/v1/tables/{table_id}/settle-up?season={first}").get_json()
    printed = PdfReader(io.BytesIO(client.get(f"/tables/{table_id}/season.pdf").data))
    text = re.sub(r"\s+", " ", " ".join(page.extract_text() for page in printed.pages))
    earlier = text.split("Still owed from earlier seasons", 1)
    assert len(earlier) == 2 and earlier[1].lstrip().startswith("Season: 1")
    for t in old["transfers"]:
        assert f"{t['from']} pays {t['to']} NPR {t['amount']}" in earlier[1]
    assert "mark it paid on its season's page" in earlier[1]


def _owed(client, table_id: str, payer: str, payee: str) -> str:
    """What the settle-up says ``payer`` pays ``payee`` (the API's figure, as text)."""
    settle = client.get(f"/api/v1/tables/{table_id}/settle-up").get_json()
    [amount] = [t["amount"] for t in settle["transfers"] if (t["from"], t["to"]) == (payer, payee)]
    return amount


def _paid(client, table_id: str) -> list[tuple[str, str, str]]:
    paid = client.get(f"/api/v1/tables/{table_id}/payments").get_json()["payments"]
    return [(p["from"], p["to"], p["amount"]) for p in paid]


def test_i_paid_ten_times_the_debt_is_asked_about_before_it_is_recorded(client):
    """Dipa owes Asha a sum and typed one zero too many in "I paid": it was recorded
    without a word, and once Asha confirmed without looking the table's money was off.
    The form comes back once, naming both amounts; "Yes, record" records it as typed."""
    table_id = _night(client, "Asha")
    _own_link(client, table_id, "Dipa")
    owed = _owed(client, table_id, "Dipa", "Asha")
    typed = f"{Decimal(owed) * 10:.2f}"
    sent = {"payee": "Asha", "amount": typed, "payment_key": "dipa-slip"}
    asked = client.post(f"/me/{table_id}/pay", data=sent)
    assert asked.status_code == 200 and _paid(client, table_id) == []
    shown = lambda amount: f"NPR\xa0{Decimal(amount):,.2f}"  # noqa: E731
    # Her own page speaks to her: "You owe Asha", not "Dipa owes Asha".
    assert (
        f"You owe Asha {shown(owed)} now, and the amount you typed is {shown(typed)}. "
        "Check the amount; if it is right, record it as it is." in asked.text
    )
    assert (
        f'<button type="submit" class="button button-quiet" name="confirmed" value="{typed}">'
        f"Yes, record {shown(typed)}</button>" in asked.text
    )
    assert 'name="payment_key" type="hidden" value="dipa-slip"' in asked.text

    # Confirmed for another amount (changed after the question): asked again.
    other = {**sent, "amount": str(Decimal(typed) + 1), "confirmed": typed}
    assert client.post(f"/me/{table_id}/pay", data=other).status_code == 200
    assert _paid(client, table_id) == []
    yes = client.post(f"/me/{table_id}/pay", data={**sent, "confirmed": typed})
    assert yes.status_code == 303
    assert _paid(client, table_id) == [("Dipa", "Asha", f"{Decimal(typed):.2f}")]


def test_mark_paid_beyond_the_debt_is_asked_about_in_nepali_too(client):
    """The scorekeeper's "Mark paid" form asks the same; the debt itself, or less, is
    recorded at once; the JSON API records what it is sent, as before."""
    table_id = _night(client, "Asha")
    owed = _owed(client, table_id, "Dipa", "Asha")
    marked = {"payer": "Dipa", "payee": "Asha", "amount": str(Decimal(owed) + 1)}
    client.set_cookie("lang", "ne")
    asked = client.post(f"/tables/{table_id}/payments", data=marked)
    assert asked.status_code == 200 and _paid(client, table_id) == []
    assert "अहिले" in asked.text and 'name="confirmed"' in asked.text
    assert "हो, " in asked.text
    client.set_cookie("lang", "en")
    exact = client.post(f"/tables/{table_id}/payments", data={**marked, "amount": owed})
    assert exact.status_code == 303
    assert _paid(client, table_id) == [("Dipa", "Asha", owed)]
    # Now Dipa owes Asha nothing: any more is asked about.
    again = {**marked, "amount": "1"}
    assert client.post(f"/tables/{table_id}/payments", data=again).status_code == 200
    auth = {"Authorization": f"Bearer {edit_key(client, f'/tables/{table_id}')}"}
    api = client.post(
        f"/api/v1/tables/{table_id}/payments",
        json={"from": "Dipa", "to": "Asha", "amount": "4400"},
        headers=auth,
    )
    assert api.status_code == 201


def test_take_back_refused_on_an_earlier_seasons_page_shows_that_season(client):
    """A "Take back" refused (422: its key is no key) on the season before's page came
    back as the new season's page, where the payment is not listed."""
    table_id = _night(client, "Asha")
    first = client.get(f"/api/v1/tables/{table_id}").get_json()["seasons"][0]["id"]
    marked = {"payer": "Dipa", "payee": "Asha", "amount": "10", "season": first}
    assert client.post(f"/tables/{table_id}/payments", data=marked).status_code == 303
    assert client.post(f"/tables/{table_id}/seasons", data={"name": "Tihar"}).status_code == 303
    [paid] = client.get(f"/api/v1/tables/{table_id}/payments").get_json()["payments"]
    refused = client.post(
        f"/tables/{table_id}/payments/{paid['id']}/delete",
        data={"season": first, "payment_key": "not a key " * 40},
    )
    assert refused.status_code == 422, refused.status_code
    assert "Standings · Season: 1" in refused.text
    assert "Standings · Tihar" not in refused.text


def test_a_confirmed_payment_taken_back_stays_on_both_own_pages_marked(client):
    """Asha said Dipa's NPR 50 reached her; the scorekeeper then took it back (marked by
    mistake). The table's page lists it, "taken back on …: it no longer counts"; Dipa's
    and Asha's own pages said "No payments yet.", as if it had never been said."""
    table_id, paid = _dipa_said_she_paid_asha(client)
    assert client.post(f"/me/{table_id}/payments/{paid['id']}/confirm").status_code == 303
    taken = client.post(
        f"/tables/{table_id}/payments/{paid['id']}/delete", data={"payment_key": "taken"}
    )
    assert taken.status_code == 303
    marked = re.compile(
        r'<li class="payment state-confirmed taken-back">\s*Dipa paid Asha NPR\xa050\.00 on '
        r"[^<]*<span class=\"payment-state\">\(taken back on [^<]*: it no longer counts\)"
    )
    assert marked.search(client.get(f"/tables/{table_id}").text)
    for name in ("Asha", "Dipa"):
        _own_link(client, table_id, name)
        page = client.get(f"/me/{table_id}").text
        assert marked.search(page), name
        assert "No payments yet." not in page
        # Nothing on it to answer or take back; the API's list stays the live payments.
        assert f"/payments/{paid['id']}/" not in page
        assert client.get(f"/api/v1/tables/{table_id}/payments").get_json()["payments"] == []


def test_received_on_a_page_opened_before_a_take_back_answers_no_other_payment(client):
    """Dipa took back her NPR 50 to Asha, then said she paid NPR 40: on SQLite the new
    payment took the id of the one taken back, so "Received" on Asha's page, opened
    before, confirmed the NPR 40 she had never seen. It is no such payment now: her
    page says it was taken back meanwhile."""
    table_id = _night(client, "Asha")
    _own_link(client, table_id, "Dipa")
    said = {"payee": "Asha", "amount": "50", "payment_key": "dipa-first"}
    assert client.post(f"/me/{table_id}/pay", data=said).status_code == 303
    [first] = client.get(f"/api/v1/tables/{table_id}/payments").get_json()["payments"]
    assert client.post(f"/me/{table_id}/payments/{first['id']}/delete").status_code == 303
    said = {"payee": "Asha", "amount": "40", "payment_key": "dipa-again"}
    assert client.post(f"/me/{table_id}/pay", data=said).status_code == 303
    [again] = client.get(f"/api/v1/tables/{table_id}/payments").get_json()["payments"]
    assert again["id"] != first["id"]
    _own_link(client, table_id, "Asha")
    # Asha's page again, saying so, where she was left on an error page.
    stale = client.post(f"/me/{table_id}/payments/{first['id']}/confirm", follow_redirects=True)
    assert stale.request.path == f"/me/{table_id}"
    assert "This payment was taken back meanwhile: the page shows your payments as they" in (
        stale.text
    )
    [again] = client.get(f"/api/v1/tables/{table_id}/payments").get_json()["payments"]
    assert (again["amount"], again["state"]) == ("40.00", "pending")
    # Received on one phone, then "Not received" from the page opened before it.
    assert client.post(f"/me/{table_id}/payments/{again['id']}/confirm").status_code == 303
    stale = client.post(f"/me/{table_id}/payments/{again['id']}/reject", follow_redirects=True)
    assert stale.request.path == f"/me/{table_id}"
    assert "This payment is already confirmed: it cannot be rejected now." in stale.text
    # Dipa's "Take back", on her page opened before Asha confirmed it.
    _own_link(client, table_id, "Dipa")
    stale = client.post(f"/me/{table_id}/payments/{again['id']}/delete", follow_redirects=True)
    assert stale.request.path == f"/me/{table_id}"
    assert (
        "This payment was confirmed meanwhile: only the scorekeeper can take it back now."
        in stale.text
    )
    [again] = client.get(f"/api/v1/tables/{table_id}/payments").get_json()["payments"]
    assert again["state"] == "confirmed"


def test_an_answer_on_the_tables_page_opened_before_leads_back_to_it(client):
    """The scorekeeper's "Reached Asha", "Did not reach Asha" or "Take back", tapped on
    the table's page opened before the payment moved on (taken back by its payer,
    answered on another phone, its payee given an own link), or held with no connection
    and sent once back: the page's money as it is now, saying so, where it left the
    scorekeeper on an error page whose only way on was "Back to the start"."""
    table_id = _night(client, "Asha")
    _own_link(client, table_id, "Dipa")

    def said(amount: str) -> dict:
        data = {"payee": "Asha", "amount": amount, "payment_key": f"dipa-{amount}"}
        assert client.post(f"/me/{table_id}/pay", data=data).status_code == 303
        return client.get(f"/api/v1/tables/{table_id}/payments").get_json()["payments"][-1]

    def tapped(payment: dict, what: str) -> str:
        answer = client.post(
            f"/tables/{table_id}/payments/{payment['id']}/{what}",
            data={"payment_key": f"table-{what}-{payment['id']}"},
            follow_redirects=True,
        )
        assert answer.status_code == 200
        assert answer.request.path == f"/tables/{table_id}"
        return html.unescape(answer.text)

    first = said("50")
    assert f"/payments/{first['id']}/confirm" in client.get(f"/tables/{table_id}").text
    assert client.post(f"/me/{table_id}/payments/{first['id']}/delete").status_code == 303
    gone = "This payment was taken back meanwhile: the page shows the table's payments as"
    assert gone in tapped(first, "confirm")
    assert gone in tapped(first, "delete")

    second = said("40")
    assert client.post(f"/tables/{table_id}/payments/{second['id']}/confirm").status_code == 303
    page = tapped(second, "reject")
    assert "This payment is already confirmed: it cannot be rejected now." in page

    third = said("30")
    assert client.post(f"/tables/{table_id}/payments/{third['id']}/reject").status_code == 303
    assert "A rejected payment is kept as it is, marked rejected." in tapped(third, "delete")

    fourth = said("20")
    _own_link(client, table_id, "Asha")
    page = tapped(fourth, "confirm")
    assert "Only Asha, who was paid, may say whether this money reached them." in page
    states = {
        p["id"]: p["state"]
        for p in client.get(f"/api/v1/tables/{table_id}/payments").get_json()["payments"]
    }
    assert states == {second["id"]: "confirmed", third["id"]: "rejected", fourth["id"]: "pending"}


@pytest.mark.parametrize("asha_linked", [False, True])
def test_a_reader_of_the_table_is_told_nothing_about_own_links(app, client, asha_linked):
    """Dipa said she paid Asha. Whoever merely reads the table (its read-only link, on
    another phone) was told "Asha has no own link" (or, once she had one, that she would
    answer herself): who holds a link is the scorekeeper's business. The reader is told
    only that it counts once it is confirmed."""
    table_id = _night(client, "Asha", "Bikash", "Asha")
    if asha_linked:
        _own_link(client, table_id, "Asha")
    _own_link(client, table_id, "Dipa")
    said = {"payee": "Asha", "amount": "200", "payment_key": "dipa-part"}
    assert client.post(f"/me/{table_id}/pay", data=said).status_code == 303
    reader = app.test_client()
    page = html.unescape(reader.get(f"/tables/{table_id}").text)
    line = re.search(r'<li class="transfer">Dipa pays Asha .*?</li>', page, re.S)
    assert line is not None
    assert "own link" not in page and "scorekeeper says" not in page
    assert (
        "Dipa said they paid NPR\xa0200.00: it counts once it is confirmed that it reached Asha."
        in line.group(0)
    )
    reader.set_cookie("lang", "ne")
    nepali = html.unescape(reader.get(f"/tables/{table_id}").text)
    assert "तिरेँ भन्नुभयो" in nepali
    assert "लिङ्क छैन" not in nepali


def test_take_back_with_a_link_replaced_meanwhile_says_the_link_is_gone(app, client, monkeypatch):
    """Dipa taps "Take back" as her link is replaced on her other phone: nothing is taken
    back, and the page says her link was replaced (403), where she was told the payment
    had been confirmed meanwhile (it had not) and sent to a page that then answered 403."""
    import threading

    from ledger.tables import service

    table_id, paid = _dipa_said_she_paid_asha(client)
    _own_link(client, table_id, "Dipa")
    other = app.test_client()
    other.set_cookie("own_links", client.get_cookie("own_links").value)
    hold = service._touch
    done: list[int] = []

    def renewed_meanwhile(held):
        if threading.current_thread() is threading.main_thread() and not done:
            renewing = threading.Thread(
                target=lambda: done.append(other.post(f"/me/{table_id}/link").status_code)
            )
            renewing.start()
            renewing.join()
        return hold(held)

    monkeypatch.setattr(service, "_touch", renewed_meanwhile)
    taken = client.post(f"/me/{table_id}/payments/{paid['id']}/delete")
    monkeypatch.undo()
    assert done == [200]
    assert taken.status_code == 403
    assert "replaced or revoked a moment ago" in html.unescape(taken.text)
    assert "confirmed meanwhile" not in html.unescape(client.get("/me").text)
    [still] = client.get(f"/api/v1/tables/{table_id}/payments").get_json()["payments"]
    assert still["state"] == "pending"
