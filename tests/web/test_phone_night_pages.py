"""What tripped a scorekeeper playing a whole night of a table on a phone: the way back
from tonight's match to its table, a deleted hand found again, the money section after
"Mark paid", and how to pay someone shown to the player who owes them."""

from __future__ import annotations

import re
from types import SimpleNamespace

from api_hands import add, hand, new_match
from table_pages_support import ROSTER, create_table, edit_key, start_match

from ledger.web.score_table import DELETED_NAMED, deleted_hands


def _night(client) -> tuple[str, str, str]:
    """A table (made through its page) with tonight's match of two hands: the table's
    url, its id and the match's id."""
    url = create_table(client)
    match_id = start_match(client, url, ROSTER)
    auth = {"Authorization": f"Bearer {edit_key(client, url)}"}
    for winner in ("Asha", "Bikash"):
        add(client, match_id, auth, hand(winner))
    return url, url.rsplit("/", 1)[1], match_id


def _open_own_link(client, url: str, name: str) -> None:
    """``name``'s own link given with the table's key and opened: the client is them."""
    table_id = url.rsplit("/", 1)[1]
    auth = {"Authorization": f"Bearer {edit_key(client, url)}"}
    made = client.post(f"/api/v1/tables/{table_id}/players/{name}/link", headers=auth)
    client.get(made.get_json()["url"].split("localhost", 1)[1])


def _fouls_match(client, foul: str) -> str:
    """A match of the roster under Sparkai with ``foul`` set, opened as its editor."""
    made = client.post(
        "/api/v1/matches",
        json={"name": "Fouls", "players": ROSTER, "rules": {"profile": "sparkai", "foul": foul}},
    ).get_json()
    client.get(f"/matches/{made['id']}/join/{made['edit_key']}")
    return made["id"]


def _back_link(html: str) -> str | None:
    found = re.search(r'<p class="back[^"]*"><a href="([^"]+)">← ([^<]+)</a>', html)
    return found and f"{found.group(1)} {found.group(2)}"


def test_tonights_match_links_back_to_its_table(app, client):
    """The night ends on the match page, the money is settled on the table's: the match
    page of a table's night leads back to the table, for the scorekeeper and for a
    phone following the read-only link."""
    _, table_id, match_id = _night(client)
    assert _back_link(client.get(f"/matches/{match_id}").text) == (
        f"/tables/{table_id} Friday table"
    )
    follower = app.test_client()
    for _ in range(2):  # drawn, then from what is kept
        assert _back_link(follower.get(f"/matches/{match_id}").text) == (
            f"/tables/{table_id} Friday table"
        )


def test_a_lone_match_has_no_table_to_go_back_to(app, client):
    match_id, _ = new_match(client, 2)
    assert _back_link(client.get(f"/matches/{match_id}").text) is None
    assert _back_link(app.test_client().get(f"/matches/{match_id}").text) is None


def test_mark_paid_and_take_back_return_to_the_money(client):
    """The money section sits far down the table's page: after "Mark paid" (or "Take
    back") the page opens there, where the next payment is marked."""
    url, table_id, _ = _night(client)
    paid = client.post(
        f"{url}/payments", data={"payer": "Chandra", "payee": "Asha", "amount": "1.50"}
    )
    assert paid.status_code == 303
    assert paid.headers["Location"].endswith(f"/tables/{table_id}#money")
    page = client.get(paid.headers["Location"]).text  # its message where the page opens
    money = page[page.index('id="money"') :]
    assert "Chandra paid Asha NPR\xa01.50." in money
    assert "Chandra paid Asha" not in page[: page.index('id="money"')]
    [payment] = client.get(f"/api/v1/tables/{table_id}/payments").get_json()["payments"]
    taken = client.post(f"{url}/payments/{payment['id']}/delete")
    assert taken.status_code == 303
    assert taken.headers["Location"].endswith(f"/tables/{table_id}#money")
    page = client.get(taken.headers["Location"]).text
    assert page.index("The payment is taken back.") > page.index('id="money"')


def test_the_one_who_owes_sees_how_to_pay_on_their_own_page(client):
    """Bikash publishes his eSewa on his own link; Dipa, who owes him, opens her own
    link to pay: the handle is beside "Dipa pays Bikash", as on the table's page."""
    url, table_id, _ = _night(client)

    _open_own_link(client, url, "Dipa")
    before = client.get(f"/me/{table_id}").text
    assert re.search(r'<li class="transfer">Dipa pays Bikash [^<]*</li>', before)
    _open_own_link(client, url, "Bikash")
    handles = {"rows-0-kind": "esewa", "rows-0-handle": "9841000000", "rows-0-label": "Home"}
    assert client.post(f"/me/{table_id}/handles", data=handles).status_code == 303
    _open_own_link(client, url, "Dipa")
    page = client.get(f"/me/{table_id}").text
    owed = re.search(r'<li class="transfer">Dipa pays Bikash .*?</li>', page, re.S)
    assert owed is not None, page
    assert "9841000000" in owed.group(0) and "How to pay Bikash" in owed.group(0)


def _gap_links(html: str) -> list[str]:
    note = re.search(r'<p class="hint hand-gaps">(.*?)</p>', html, re.S)
    return re.findall(r'<a href="([^"]+)">', note.group(1)) if note else []


def test_a_deleted_hand_is_found_from_the_grid(app, client):
    """Put back lives on the deleted hand's page: the note under the grid links each
    deleted number there, the last hands undone too (the next hand's number skips them)."""
    match_id, auth = new_match(client, 4)
    client.get(f"/matches/{match_id}/join/{auth['Authorization'].split()[1]}")  # its editor
    for number in (2, 4):
        gone = client.delete(f"/api/v1/matches/{match_id}/hands/{number}", headers=auth)
        assert gone.status_code == 200, gone.text
    page = client.get(f"/matches/{match_id}").text
    assert _gap_links(page) == [f"/matches/{match_id}/hands/2", f"/matches/{match_id}/hands/4"]
    assert "Hands 2, 4 were deleted" in re.sub(r"<[^>]+>", "", page)
    assert "Put hand 4 back" in client.get(f"/matches/{match_id}/hands/4").text


def test_only_the_newest_deleted_numbers_are_named_however_wide_the_gap():
    """A match loaded from a file may skip numbers by the hundred thousand: the note
    names the newest deleted numbers, read off the gaps, never each number of a gap."""
    view = SimpleNamespace(running=[(1, ()), (500_000, ())], next_hand_number=500_003)
    assert deleted_hands(view) == [*range(499_982, 500_000), 500_001, 500_002]
    assert len(deleted_hands(view)) == DELETED_NAMED
    undone = SimpleNamespace(running=[(1, ()), (2, ())], next_hand_number=4)
    assert deleted_hands(undone) == [3]
    assert deleted_hands(SimpleNamespace(running=[], next_hand_number=1)) == []


def test_a_players_page_names_the_season_it_shows(client):
    """The first season is called "1": a heading of "1" alone says nothing; the player's
    page heads its season's figures "Season: 1" (and "All time" on all time's page)."""
    url, _, _ = _night(client)
    page = client.get(f"{url}/players/Asha").text
    heads = re.findall(r'<h2 id="(?:lead|season-figures)-title">([^<]*)</h2>', page)
    assert heads == ["Season: 1", "Season: 1"]
    all_time = client.get(f"{url}/players/Asha", query_string={"season": "all"}).text
    assert re.findall(r'<h2 id="lead-title">([^<]*)</h2>', all_time) == ["All time"]


def test_i_paid_is_not_offered_again_for_what_was_just_paid(client):
    """Dipa says she paid Bikash: until he confirms, her balance still shows the debt.
    Her page says she paid, and "I paid" no longer offers the same payment again (one
    more tap paid it twice); half paid, it offers the other half. (Bikash holds his own
    link, so he is the one who says it reached him.)"""
    url, table_id, _ = _night(client)
    _open_own_link(client, url, "Bikash")
    _open_own_link(client, url, "Dipa")

    def offered(page: str) -> tuple[str | None, str | None]:
        payee = re.search(r'<option selected value="([^"]+)"', page)
        amount = re.search(r'id="amount"[^>]*value="([^"]*)"', page)
        return payee and payee.group(1), amount and amount.group(1)

    before = client.get(f"/me/{table_id}").text
    assert offered(before) == ("Bikash", "9.00")
    half = {"payee": "Bikash", "amount": "4.50", "payment_key": "dipa-half"}
    assert client.post(f"/me/{table_id}/pay", data=half).status_code == 303
    page = client.get(f"/me/{table_id}").text
    assert offered(page) == ("Bikash", "4.50")
    assert "You said you paid NPR\xa04.50: it counts once Bikash says it reached them." in page
    rest = {"payee": "Bikash", "amount": "4.50", "payment_key": "dipa-rest"}
    assert client.post(f"/me/{table_id}/pay", data=rest).status_code == 303
    page = client.get(f"/me/{table_id}").text
    assert offered(page)[1] in (None, "")
    assert "You said you paid NPR\xa09.00" in page


def test_a_payment_the_table_marked_is_no_payment_the_player_said(client):
    """ "Mark paid" with the table's key counts at once: the debt left is what the form
    offers, and the player's page does not say they said they paid it."""
    url, table_id, _ = _night(client)
    auth = {"Authorization": f"Bearer {edit_key(client, url)}"}
    _open_own_link(client, url, "Dipa")
    marked = client.post(
        f"/api/v1/tables/{table_id}/payments",
        json={"from": "Dipa", "to": "Bikash", "amount": "4.50"},
        headers={**auth, "Idempotency-Key": "marked-half"},
    )
    assert marked.status_code == 201 and marked.get_json()["state"] == "unconfirmed"
    page = client.get(f"/me/{table_id}").text
    amount = re.search(r'id="amount"[^>]*value="([^"]*)"', page)
    assert amount is not None and amount.group(1) == "4.50"  # the 9.00 owed, less 4.50
    assert "You said you paid" not in page


def test_a_players_nights_read_as_the_tables_list_of_matches(client):
    """On a phone the night's name is a whole-width link: the figures after it made a
    line of their own that began with a colon. They sit under the name, as on the
    table's list of matches."""
    url, table_id, match_id = _night(client)
    _open_own_link(client, url, "Asha")
    page = client.get(f"/me/{table_id}").text
    night = re.search(rf'<a href="/matches/{match_id}">[^<]+</a>\s*(.*?)</li>', page, re.S)
    assert night is not None
    assert re.fullmatch(r'<p class="match-meta">\+\d+, place 1</p>', night.group(1).strip())


def test_i_paid_is_a_tap_away_for_someone_who_is_owed(client):
    """Bikash is owed: a big "I paid" beside "You are owed" reads as "I was paid", and
    he would record a payment of his own. It waits behind a tap; Dipa, who owes, has
    the form open."""
    url, table_id, _ = _night(client)

    def page_of(name: str) -> str:
        _open_own_link(client, url, name)
        return client.get(f"/me/{table_id}").text

    tucked = re.compile(r'<details class="person-pay-other">\s*<summary id="pay-title">I paid<')
    bikash = page_of("Bikash")
    assert "You are owed" in bikash and tucked.search(bikash)
    dipa = page_of("Dipa")
    assert "You owe" in dipa and not tucked.search(dipa)
    assert '<h3 id="pay-title">I paid</h3>' in dipa


def test_the_tables_what_if_names_the_season_it_compares(client):
    url, _, _ = _night(client)
    page = client.get(f"{url}/what-if", query_string={"rules-profile": "everestbuzz"}).text
    heading = re.search(r'<h2 id="what-if-title">([^<]*)</h2>', page)
    assert heading is not None and heading.group(1).startswith("Season: 1 · ")


def test_where_a_foul_is_looked_for_the_form_says_why_it_is_not(client):
    """Under rules that do not penalise a foul, a scorekeeper opening a player's "More"
    for the foul found nothing: it says the Foul setting is off. Under rules that
    penalise one, the foul's box is there instead."""
    _, _, match_id = _night(client)
    off = client.get(f"/matches/{match_id}/hands/new").text
    assert off.count('<p class="hint no-foul">') == len(ROSTER)
    assert "their Foul setting is off" in off and 'name="players-0-foul"' not in off
    fouls = _fouls_match(client, "same_hand")
    on = client.get(f"/matches/{fouls}/hands/new").text
    assert 'name="players-0-foul"' in on and "no-foul" not in on


def test_where_a_foul_penalty_goes_is_said_in_words(client):
    """The foul setting's choices said "same hand" and "next hand": to whom? The
    finisher of this hand or of the next, wherever the setting is shown."""
    fouls = _fouls_match(client, "next_hand")
    page = re.sub(r"\s+", " ", client.get(f"/matches/{fouls}").text)
    assert "(changed: foul to the next hand&#39;s finisher)" in page
    rules = client.get(f"/matches/{fouls}/rules").text
    choices = re.search(r'<select[^>]*id="rules-foul".*?</select>', rules, re.S).group(0)
    assert "to this hand&#39;s finisher" in choices and "same hand" not in choices


def test_the_match_page_says_who_sits_out_the_next_hand(app, client):
    """Six at a deal of five: the dealer sits out. The page said who deals the next hand
    and who sat out the last, not who gets up for the next one, which the table (and the
    phones following) need before the deal."""
    url = create_table(client)
    six = [*ROSTER, "Gopal", "Hari"][:6]
    match_id = start_match(client, url, ROSTER, guests="Gopal, Hari")
    auth = {"Authorization": f"Bearer {edit_key(client, url)}"}
    body = client.get(f"/api/v1/matches/{match_id}").get_json()
    assert [p["name"] for p in body["players"]] == six
    words = re.sub(r"<[^>]+>", "", client.get(f"/matches/{match_id}").text)
    assert "Sits out hand 1 in turn: Asha." in words
    add(client, match_id, auth, hand("Bikash", players=six[1:]))
    for follower in (client, app.test_client()):
        words = re.sub(r"<[^>]+>", "", follower.get(f"/matches/{match_id}").text)
        assert "Hand 2 is dealt by Bikash." in words
        assert "Sits out hand 2 in turn: Bikash." in words
    four, _ = new_match(client, 1)  # four at a deal of five: nobody sits out
    assert "Sits out hand" not in client.get(f"/matches/{four}").text


def test_once_the_night_is_over_nobody_is_said_to_sit_out(app, client):
    """A finished match has no next hand: "Sat out hand 1: Asha." stayed on its page
    (the scorekeeper's and the phones following), read as who gets up next."""
    url = create_table(client)
    six = [*ROSTER, "Gopal", "Hari"][:6]
    match_id = start_match(client, url, ROSTER, guests="Gopal, Hari")
    auth = {"Authorization": f"Bearer {edit_key(client, url)}"}
    add(client, match_id, auth, hand("Bikash", players=six[1:]))
    words = re.sub(r"<[^>]+>", "", client.get(f"/matches/{match_id}").text)
    assert "Sat out hand 1: Asha." in words  # while the night goes on
    ended = client.patch(f"/api/v1/matches/{match_id}", json={"finished": True}, headers=auth)
    assert ended.status_code == 200, ended.text
    for follower in (client, app.test_client()):
        for page in ("", "/screen"):
            words = re.sub(r"<[^>]+>", "", follower.get(f"/matches/{match_id}{page}").text)
            assert "Sat out" not in words and "Sits out" not in words, page


def test_a_debt_from_the_season_before_shows_how_to_pay_too(client):
    """A new season began before everyone paid: the debt of the season before is on the
    payer's own page with its own "I paid", and how to pay the payee beside it."""
    url, table_id, _ = _night(client)
    assert client.post(f"{url}/seasons", data={"name": "Dashain"}).status_code == 303

    _open_own_link(client, url, "Bikash")
    handles = {"rows-0-kind": "khalti", "rows-0-handle": "9812345678"}
    assert client.post(f"/me/{table_id}/handles", data=handles).status_code == 303
    _open_own_link(client, url, "Dipa")
    page = client.get(f"/me/{table_id}").text
    earlier = re.search(r'<section class="person-earlier".*?</section>', page, re.S)
    assert earlier is not None
    owed = re.search(r'<li class="transfer">Dipa pays Bikash .*?</li>', earlier.group(0), re.S)
    assert owed is not None and "9812345678" in owed.group(0)


def test_the_tables_page_heads_its_season_as_a_season(client):
    """ "Standings: 1" said nothing of a season: the table's page heads its standings and
    awards "Standings · Season: 1" and "Awards · Season: 1" ("· All time" for all time),
    in Nepali with the page's digits."""
    url, _, _ = _night(client)
    heads = r'<h2 id="(?:standings|season-awards)-title">([^<]*)</h2>'
    assert re.findall(heads, client.get(url).text) == [
        "Standings · Season: 1",
        "Awards · Season: 1",
    ]
    all_time = client.get(url, query_string={"season": "all"}).text
    assert re.findall(heads, all_time) == ["Standings · All time", "Awards · All time"]
    nepali = client.get(url, headers={"Accept-Language": "ne"}).text
    assert re.findall(heads, nepali) == ["अङ्कतालिका · सिजन: १", "पुरस्कार · सिजन: १"]
