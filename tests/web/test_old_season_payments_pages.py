"""The table page of a season before the current one: its "Mark paid" and "Record
another payment" settle that season's debts, in that season (a new season began before
everyone had paid), and the page goes back to that season, its transfers gone; the
current season's money is left as it was."""

from __future__ import annotations

import html
import re
from decimal import Decimal

from api_hands import play
from table_pages_support import FOUR, ROSTER, create_table, edit_key, start_match
from test_payment_once_pages import mark_paid_forms, payment_keys


def _old_season(client) -> tuple[str, str]:
    """A staked table whose first season has a night owed, then a second season begun
    through its page; the table's url and the first season's id."""
    url = create_table(client)
    play(client, start_match(client, url, ROSTER), edit_key(client, url), FOUR)
    begun = client.post(f"{url}/seasons", data={"name": "Dashain"})
    assert begun.status_code == 303, begun.get_data(as_text=True)
    first = client.get(f"/api/v1{url}").get_json()["seasons"][0]["id"]
    return url, first


def _settle_up(client, url: str, season: str | None = None) -> dict:
    query = {"season": season} if season else {}
    return client.get(f"/api/v1{url}/settle-up", query_string=query).get_json()


def test_mark_paid_on_the_season_before_settles_that_season(client):
    url, first = _old_season(client)
    page = client.get(url, query_string={"season": first}).get_data(as_text=True)
    forms = mark_paid_forms(page)
    assert forms and [t["from"] for t in _settle_up(client, url, first)["transfers"]]
    for form in forms:
        done = client.post(f"{url}/payments", data={**form, "season": first})
        assert done.status_code == 303, done.get_data(as_text=True)
        assert done.headers["Location"].endswith(f"{url}?season={first}#money")
    assert _settle_up(client, url, first)["transfers"] == []
    now = _settle_up(client, url)
    assert {Decimal(b["amount"]) for b in now["balances"]} == {Decimal("0")}
    assert mark_paid_forms(client.get(url).get_data(as_text=True)) == []


def test_every_payment_form_of_the_season_before_carries_that_season(client):
    url, first = _old_season(client)
    page = client.get(url, query_string={"season": first}).get_data(as_text=True)
    seasons = page.count(f'<input type="hidden" name="season" value="{first}">')
    takes_back = page.count('/delete">')
    assert seasons == len(payment_keys(page)) - takes_back > 1


def test_the_current_season_page_records_in_the_current_season(client):
    url, first = _old_season(client)
    # Nothing is owed in the new season: "Yes, record" (overpaying) records it.
    record = {"payer": "Asha", "payee": "Bikash", "amount": "१०.५०", "confirmed": "१०.५०"}
    done = client.post(f"{url}/payments", data=record)
    assert done.status_code == 303
    assert done.headers["Location"].endswith(f"{url}#money")
    paid = client.get(f"/api/v1{url}/payments").get_json()["payments"]
    current = client.get(f"/api/v1{url}").get_json()["seasons"][-1]["id"]
    assert [(p["amount"], p["season"]) for p in paid] == [("10.50", current)]


def test_a_refused_payment_shows_the_season_it_was_for(client):
    url, first = _old_season(client)
    record = {"payer": "Asha", "payee": "Bikash", "amount": "abc", "season": first}
    refused = client.post(f"{url}/payments", data=record)
    assert refused.status_code == 422
    page = refused.get_data(as_text=True)
    assert f'<input type="hidden" name="season" value="{first}">' in page
    assert client.get(f"/api/v1{url}/payments").get_json()["payments"] == []


#: The "I paid" form of an earlier season's transfer on a player's own page.
I_PAID_EARLIER = re.compile(
    r'<input type="hidden" name="payee" value="([^"]+)">\s*'
    r'<input type="hidden" name="payment_key" value="([^"]+)">\s*'
    r'<input type="hidden" name="amount" value="([^"]+)">\s*'
    r'<input type="hidden" name="season" value="([^"]+)">'
)


def _own_page(client, url: str, name: str) -> str:
    """Opens ``name``'s own link in this browser; their page's address."""
    given = client.post(f"/api/v1{url}/players/{name}/link", headers=_auth(client, url))
    client.get(given.get_json()["url"].split("localhost", 1)[1])
    return url.replace("/tables/", "/me/")


def _auth(client, url: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {edit_key(client, url)}"}


def test_a_player_sees_and_pays_what_they_still_owe_from_the_season_before(client):
    url, first = _old_season(client)
    [owing, *_] = _settle_up(client, url, first)["transfers"]
    payer, payee = owing["from"], owing["to"]
    before = {b["name"]: Decimal(b["amount"]) for b in _settle_up(client, url, first)["balances"]}
    mine = _own_page(client, url, payer)
    page = client.get(mine).get_data(as_text=True)
    assert "Still owed from earlier seasons" in page and "You are square." in page
    forms = I_PAID_EARLIER.findall(page)
    assert (payee, owing["amount"], first) in [(p, a, s) for p, _, a, s in forms]
    form = next(f for f in forms if f[0] == payee)
    sent = dict(zip(("payee", "payment_key", "amount", "season"), form, strict=True))
    assert client.post(f"{mine}/pay", data=sent).status_code == 303
    [paid] = client.get(f"/api/v1{url}/payments").get_json()["payments"]
    assert (paid["season"], paid["state"]) == (first, "pending")
    theirs = _own_page(client, url, payee)  # the same browser, now the payee's
    assert client.post(f"{theirs}/payments/{paid['id']}/confirm").status_code == 303
    left = _settle_up(client, url, first)
    assert owing not in left["transfers"]
    owed = {b["name"]: Decimal(b["amount"]) for b in left["balances"]}
    assert owed[payer] == before[payer] + Decimal(owing["amount"])
    _own_page(client, url, payer)
    again = [
        (p, a) for p, _, a, _ in I_PAID_EARLIER.findall(client.get(mine).get_data(as_text=True))
    ]
    assert (payee, owing["amount"]) not in again
    now = _settle_up(client, url)
    assert {Decimal(b["amount"]) for b in now["balances"]} == {Decimal("0")}


def test_the_earlier_seasons_debt_reads_in_nepali(client):
    url, first = _old_season(client)
    [owing, *_] = _settle_up(client, url, first)["transfers"]
    mine = _own_page(client, url, owing["from"])
    client.set_cookie("lang", "ne")
    page = client.get(mine).get_data(as_text=True)
    assert "अघिल्ला सिजनमा बाँकी" in page
    shown = re.search(r'<section class="person-earlier".*?</section>', page, re.S).group(0)
    text = re.sub(r"<[^>]+>", " ", shown)
    assert not re.search(r"[0-9]", text.replace(owing["from"], "").replace(owing["to"], ""))


def test_all_times_page_marks_no_payment_and_says_where_to(client):
    """All time's transfers mix the seasons' debts: a payment marked there would settle
    none of them (it landed in the current season, as a new debt)."""
    url, first = _old_season(client)
    page = client.get(url, query_string={"season": "all"}).get_data(as_text=True)
    assert mark_paid_forms(page) == []
    assert 'name="payer"' not in page
    assert "mark it on that season's page" in html.unescape(page)
    assert mark_paid_forms(client.get(url, query_string={"season": first}).get_data(as_text=True))


def test_my_tables_say_what_is_owed_from_earlier_seasons(client):
    url, first = _old_season(client)
    [owing, *_] = _settle_up(client, url, first)["transfers"]
    _own_page(client, url, owing["from"])
    owed = -{b["name"]: Decimal(b["amount"]) for b in _settle_up(client, url, first)["balances"]}[
        owing["from"]
    ]
    listed = html.unescape(client.get("/me").get_data(as_text=True))
    assert f"square; from earlier seasons, you owe NPR\u00a0{owed:.2f}" in listed


def test_i_paid_typed_towards_a_debt_of_the_season_before_settles_it(client):
    """Square this season, a player types part of what they still owe from the season
    before into "I paid" (in Nepali digits): it settles that season, asking nothing. It
    went into this season, "You owe Asha 0.00 now" asked first, and once confirmed the
    payee owed it back this season while the old debt stood whole."""
    url, first = _old_season(client)
    [owing, *_] = _settle_up(client, url, first)["transfers"]
    payer, payee = owing["from"], owing["to"]
    part = Decimal(owing["amount"]) / 2
    mine = _own_page(client, url, payer)
    typed = str(part).translate(str.maketrans("0123456789", "०१२३४५६७८९"))
    key = re.search(r'name="payment_key" type="hidden" value="([^"]+)"', client.get(mine).text)
    sent = {"payee": payee, "amount": typed, "payment_key": key.group(1), "season": ""}
    assert client.post(f"{mine}/pay", data=sent).status_code == 303
    [paid] = client.get(f"/api/v1{url}/payments").get_json()["payments"]
    assert (paid["season"], Decimal(paid["amount"])) == (first, part)
    theirs = _own_page(client, url, payee)
    assert client.post(f"{theirs}/payments/{paid['id']}/confirm").status_code == 303
    left = {
        (t["from"], t["to"]): Decimal(t["amount"])
        for t in _settle_up(client, url, first)["transfers"]
    }
    assert left[payer, payee] == Decimal(owing["amount"]) - part
    assert _settle_up(client, url)["transfers"] == []


def test_a_part_of_an_old_debt_said_paid_leaves_i_paid_for_the_rest(client):
    """After "I paid" on part of the season before's debt, waiting for the payee: the
    debt's line says so and its one-tap "I paid" is for the rest. It offered the whole
    debt again, and both counted once the payee confirmed them."""
    url, first = _old_season(client)
    [owing, *_] = _settle_up(client, url, first)["transfers"]
    payer, payee, whole = owing["from"], owing["to"], Decimal(owing["amount"])
    mine = _own_page(client, url, payer)
    sent = {"payee": payee, "amount": "10", "payment_key": "part", "season": first}
    assert client.post(f"{mine}/pay", data=sent).status_code == 303
    page = html.unescape(client.get(mine).text)
    earlier = re.search(r'<section class="person-earlier".*?</section>', page, re.S).group(0)
    said = f"You said you paid NPR\xa010.00: {payee} has no own link, so it counts once the"
    assert said in earlier
    offered = [(p, a) for p, _, a, s in I_PAID_EARLIER.findall(earlier) if s == first]
    assert (payee, str(whole - 10)) in offered and (payee, str(whole)) not in offered


def test_i_paid_square_this_season_offers_the_old_debt(client):
    """Square this season and owing from the season before: the folded "I paid" names
    that debt's payee and what is left of it, as it does a debt of this season. It named
    the roster's first other player, with no amount."""
    url, first = _old_season(client)
    [owing, *_] = _settle_up(client, url, first)["transfers"]
    payer, payee = owing["from"], owing["to"]
    mine = _own_page(client, url, payer)
    sent = {"payee": payee, "amount": "10", "payment_key": "part", "season": first}
    assert client.post(f"{mine}/pay", data=sent).status_code == 303
    page = client.get(mine).get_data(as_text=True)
    form = re.search(r'<form[^>]*action="[^"]*/pay".*?</form>', page, re.S).group(0)
    assert re.search(r'<option selected value="([^"]+)"', form).group(1) == payee
    amount = re.search(r'name="amount"[^>]*value="([^"]*)"|value="([^"]*)"[^>]*name="amount"', form)
    assert Decimal(amount.group(1) or amount.group(2)) == Decimal(owing["amount"]) - 10
