"""The table's pages (ledger/web/tables.py): a new table from the home page, its page
for readers and editors, every write and every refusal (403 without the table's edit
rights, 422 with the message on the field and nothing stored), each player's page."""

from __future__ import annotations

import html
import re
from decimal import Decimal

import pytest
from api_hands import play, won_by
from match_pages_support import field_errors
from table_pages_support import (
    FOUR,
    ROSTER,
    THREE_PLAY,
    create_table,
    edit_key,
    new_table_form,
    start_match,
    sums,
)

from ledger.extensions import db
from ledger.tables.models import Table, TablePayment


def form_prefix(name: str) -> str:
    """The prefix of a roster entry's rename and merge fields (its name in hex)."""
    return "p" + name.encode("utf-8").hex()


def api(client, url: str) -> dict:
    return client.get("/api/v1" + url).get_json()


def count_tables(app) -> int:
    with app.app_context():
        return db.session.query(Table).count()


# --- a new table -----------------------------------------------------------------------


def test_the_home_page_offers_a_new_table_and_lists_this_browsers_tables(client):
    home = client.get("/").get_data(as_text=True)
    assert 'href="/tables/new"' in home
    url = create_table(client)
    home = client.get("/").get_data(as_text=True)
    assert f'href="{url}"' in home and "Friday table" in home


def test_a_new_table_keeps_its_roster_rules_and_stake_and_this_browser_edits_it(client):
    url = create_table(client)
    body = api(client, url)
    assert [p["name"] for p in body["players"]] == ROSTER
    assert body["rules"]["profile"] == "sparkai"
    assert body["stake"] == {"per_point": "1.50", "currency": "NPR"}
    page = client.get(url).get_data(as_text=True)
    assert "Tonight&#39;s match" in page or "Tonight's match" in page
    assert f"{url}/join/" in page and f'src="{url}/qr.svg"' in page
    assert client.get(f"{url}/qr.svg").mimetype == "image/svg+xml"


def test_a_new_table_with_problems_says_so_on_the_fields_and_stores_nothing(app, client):
    response = client.post(
        "/tables/new",
        data=new_table_form(name="", players="Asha\nasha", **{"stake-per_point": "1.234"}),
    )
    assert response.status_code == 422
    html = response.get_data(as_text=True)
    assert field_errors(html, "name") == ["Give the table a name."]
    assert "is listed twice" in " ".join(field_errors(html, "players"))  # not "on the roster"
    assert "2 decimal places" in " ".join(field_errors(html, "stake-per_point"))
    assert count_tables(app) == 0


def test_a_bad_rules_override_is_refused_on_its_field(app, client):
    response = client.post("/tables/new", data=new_table_form(**{"rules-marriage": "lots"}))
    assert response.status_code == 422
    assert field_errors(response.get_data(as_text=True), "rules-marriage")
    assert count_tables(app) == 0


def test_the_forms_need_a_csrf_token(csrf_client, csrf_app):
    assert csrf_client.post("/tables/new", data=new_table_form()).status_code == 400
    assert count_tables(csrf_app) == 0
    page = csrf_client.get("/tables/new").get_data(as_text=True)
    token = re.search(r'name="csrf_token" value="([^"]+)"', page).group(1)
    made = csrf_client.post("/tables/new", data={**new_table_form(), "csrf_token": token})
    assert made.status_code == 303
    url = made.headers["Location"]
    refused = csrf_client.post(f"{url}/seasons", data={"name": "Tihar"})
    assert refused.status_code == 400
    assert len(api(csrf_client, url)["seasons"]) == 1


# --- edit rights -------------------------------------------------------------------------


WRITES = [
    ("/matches", {"players": ROSTER}),
    ("/move", {"match": "x"}),
    ("/seasons", {"name": "Tihar"}),
    ("/players/rename", {"player": "Asha", "name": "Ashaa"}),
    ("/players/merge", {"player": "Asha", "merge_into": "Bikash"}),
    ("/payments", {"payer": "Asha", "payee": "Bikash", "amount": "1"}),
    ("/payments/1/delete", {}),
]


@pytest.mark.parametrize(("path", "data"), WRITES)
def test_a_reader_sees_no_forms_and_every_write_is_refused(app, client, path, data):
    url = create_table(client)
    reader = app.test_client()
    page = reader.get(url).get_data(as_text=True)
    assert "Friday table" in page and "/join/" not in page and 'method="post"' not in page
    before = api(reader, url)
    response = reader.post(url + path, data=data)
    assert response.status_code == 403
    assert "may only read this table" in response.get_data(as_text=True)
    assert api(reader, url) == before


def test_the_edit_link_gives_edit_rights_and_a_wrong_key_does_not(app, client):
    url = create_table(client)
    key = edit_key(client, url)
    other = app.test_client()
    assert other.get(f"{url}/join/not-the-key").status_code == 403
    joined = other.get(f"{url}/join/{key}")
    assert joined.status_code == 303 and joined.headers["Location"] == url
    assert "/join/" in other.get(url).get_data(as_text=True)


def test_the_table_key_gives_edit_rights_on_its_matches_pages(app, client):
    url = create_table(client)
    match_id = start_match(client, url, ROSTER)
    other = app.test_client()
    other.get(f"{url}/join/{edit_key(client, url)}")
    page = other.get(f"/matches/{match_id}").get_data(as_text=True)
    assert f"/matches/{match_id}/hands/new" in page
    stranger = app.test_client()
    assert f"/matches/{match_id}/hands/new" not in stranger.get(f"/matches/{match_id}").get_data(
        as_text=True
    )


def test_a_match_page_never_passes_the_table_key_on_as_the_match_edit_link(app, client):
    url = create_table(client)
    table_key = edit_key(client, url)
    match_id = start_match(client, url, ROSTER)
    own = client.get(f"/matches/{match_id}").get_data(as_text=True)  # made it: its own key
    match_key = re.search(rf"/matches/{match_id}/join/([A-Za-z0-9_-]+)\"", own).group(1)
    assert match_key != table_key and table_key not in own
    other = app.test_client()
    other.get(f"{url}/join/{table_key}")
    page = other.get(f"/matches/{match_id}").get_data(as_text=True)
    assert f"/matches/{match_id}/hands/new" in page  # it edits, through the table's key
    assert table_key not in page and "/join/" not in page and 'id="edit-link"' not in page
    assert f'<a href="{url}">the table' in page


# --- tonight's match from the roster -------------------------------------------------------


def test_tonights_match_takes_the_table_rules_stake_roster_order_and_the_next_dealer(client):
    url = create_table(client)
    key = edit_key(client, url)
    first = start_match(client, url, ["Dipa", "Asha", "Bikash"])  # posted out of order
    body = api(client, f"/matches/{first}")
    assert [p["name"] for p in body["players"]] == ["Asha", "Bikash", "Dipa"]
    assert body["rules"]["profile"] == "sparkai"
    assert body["stake"] == {"per_point": "1.50", "currency": "NPR"}
    assert body["table"] == url.rsplit("/", 1)[1]
    play(
        client,
        first,
        key,
        [
            {
                **THREE_PLAY,
                "players": [
                    {**THREE_PLAY["players"][0]},
                    {**THREE_PLAY["players"][1]},
                    {**THREE_PLAY["players"][2], "name": "Dipa"},
                ],
            }
        ],
    )
    page = client.get(url).get_data(as_text=True)
    ticked = re.findall(
        r'<input[^>]*checked[^>]*value="([^"]+)"|<input[^>]*value="([^"]+)"[^>]*checked', page
    )
    names = [a or b for a, b in ticked if not (a or b).isdigit()]  # not the packs' choice
    assert sorted(names) == ["Asha", "Bikash", "Dipa"]  # last night's
    last_dealer = api(client, f"/matches/{first}")["hands"][-1]["dealer"]
    expected = api(client, f"{url}/next-dealer?players=Asha,Bikash,Dipa")["next_dealer"]
    assert expected not in (None, last_dealer)
    assert f"{expected} deals first, where the table left off" in page
    second = start_match(client, url, ["Asha", "Bikash", "Dipa"])
    assert api(client, f"/matches/{second}")["first_dealer"] == expected


def test_someone_new_joins_the_roster_with_tonights_match(client):
    url = create_table(client)
    match_id = start_match(client, url, ["Asha", "Bikash"], newcomer="Esha")
    assert [p["name"] for p in api(client, f"/matches/{match_id}")["players"]] == [
        "Asha",
        "Bikash",
        "Esha",
    ]
    assert [p["name"] for p in api(client, url)["players"]] == [*ROSTER, "Esha"]


def test_a_match_of_one_player_is_refused_on_the_players_field(client):
    url = create_table(client)
    response = client.post(f"{url}/matches", data={"players": ["Asha"]})
    assert response.status_code == 422
    assert field_errors(response.get_data(as_text=True), "players")
    assert api(client, url)["matches"] == []


# --- moving a match in --------------------------------------------------------------------


def test_a_match_this_browser_edits_moves_in(app, client):
    url = create_table(client)
    made = client.post(
        "/matches/new",
        data={
            "name": "Before",
            "players-0": "asha",
            "players-1": "Esha",
            "first_dealer": "0",
            "rules-profile": "sparkai",
            "length_kind": "open",
        },
    )
    match_id = made.headers["Location"].rsplit("/", 1)[1]
    assert match_id in client.get(url).get_data(as_text=True)  # offered
    moved = client.post(f"{url}/move", data={"match": match_id})
    assert moved.status_code == 303
    assert api(client, f"/matches/{match_id}")["table"] == url.rsplit("/", 1)[1]
    assert [p["name"] for p in api(client, f"/matches/{match_id}")["players"]] == ["Asha", "Esha"]
    assert [p["name"] for p in api(client, url)["players"]] == [*ROSTER, "Esha"]


def test_moving_a_match_without_its_edit_rights_is_refused_on_the_field(app, client):
    url = create_table(client)
    owner = app.test_client()
    made = owner.post(
        "/matches/new",
        data={
            "name": "Theirs",
            "players-0": "Asha",
            "players-1": "Bikash",
            "first_dealer": "0",
            "rules-profile": "sparkai",
            "length_kind": "open",
        },
    )
    match_id = made.headers["Location"].rsplit("/", 1)[1]
    response = client.post(f"{url}/move", data={"match": match_id})
    assert response.status_code == 422
    assert field_errors(response.get_data(as_text=True), "match") == [
        "Choose one of the matches this browser keeps score for."
    ]
    assert api(client, f"/matches/{match_id}").get("table") is None


# --- seasons --------------------------------------------------------------------------------


def test_a_new_season_in_one_tap_and_looking_back(client):
    url = create_table(client)
    key = edit_key(client, url)
    first = start_match(client, url, ROSTER)
    play(client, first, key, FOUR)
    assert client.post(f"{url}/seasons", data={"name": "Tihar 2083"}).status_code == 303
    seasons = api(client, url)["seasons"]
    assert [s["name"] for s in seasons] == ["1", "Tihar 2083"] and seasons[1]["current"]
    page = client.get(url).get_data(as_text=True)
    assert "Standings · Season: Tihar 2083" in page
    assert "No hands played yet in this season." in page
    old = client.get(url, query_string={"season": seasons[0]["id"]}).get_data(as_text=True)
    assert "Standings · Season: 1" in old and 'data-total="' in old
    ever = client.get(url, query_string={"season": "all"}).get_data(as_text=True)
    assert "Standings · All time" in ever
    assert client.get(url, query_string={"season": "nope"}).status_code == 404


def test_a_season_without_a_name_is_refused_on_its_field(client):
    url = create_table(client)
    response = client.post(f"{url}/seasons", data={"name": " "})
    assert response.status_code == 422
    assert field_errors(response.get_data(as_text=True), "season-name")
    assert len(api(client, url)["seasons"]) == 1


# --- the standings, charts and money ---------------------------------------------------------


def test_the_standings_and_money_are_the_sums_of_the_matches(client):
    url = create_table(client)
    key = edit_key(client, url)
    nights = [start_match(client, url, ROSTER) for _ in range(2)]
    play(client, nights[0], key, FOUR)
    play(client, nights[1], key, [BY_COUNTS_REVERSED, *FOUR[:2]])
    want = sums(client, nights)
    page = client.get(url).get_data(as_text=True)
    # the name, its total and money won, then its matches and hands
    rows = re.findall(
        r'<th scope="row" class="name"><a[^>]*>([^<]+)</a></th>\s*'
        r'<td class="num total" data-total="(-?\d+)">.*?</td>\s*<td class="num">[^<]*</td>\s*'
        r'<td class="num">([^<]*)</td>\s*<td class="num">([^<]*)</td>',
        page,
        re.S,
    )
    got = {name: (matches, hands, int(total)) for name, total, matches, hands in rows}
    assert set(got) == set(want["players"])
    for name, figures in want["players"].items():
        assert int(got[name][2]) == figures["total"]
        assert got[name][0].startswith(str(figures["matches"]))
        assert got[name][1].startswith(str(figures["hands"]))
    totals = [int(t) for _, t, *_ in rows]
    assert totals == sorted(totals, reverse=True)
    owed = dict(
        re.findall(
            r'<th scope="row">([^<]+)</th><td class="num">[^<]*</td>'
            r'<td class="num" data-amount="(-?[\d.]+)"',
            page,
        )
    )
    assert {n: Decimal(a) for n, a in owed.items() if Decimal(a)} == {
        n: m for n, m in want["money"].items() if m
    }
    assert 'id="season-chart-heading"' in page and "night" in page


BY_COUNTS_REVERSED = {**FOUR[1], "winner": "Asha"}


def test_mark_paid_counts_against_the_balance_and_taking_it_back_undoes_it(app, client):
    url = create_table(client)
    key = edit_key(client, url)
    match_id = start_match(client, url, ROSTER)
    play(client, match_id, key, FOUR)
    settle = api(client, f"{url}/settle-up")
    transfer = settle["transfers"][0]
    page = client.get(url).get_data(as_text=True)
    assert 'value="' + transfer["amount"] + '"' in page and "Mark paid" in page
    paid = client.post(
        f"{url}/payments",
        data={"payer": transfer["from"], "payee": transfer["to"], "amount": transfer["amount"]},
    )
    assert paid.status_code == 303
    after = api(client, f"{url}/settle-up")
    assert transfer not in after["transfers"]
    assert len(after["transfers"]) == len(settle["transfers"]) - 1
    payments = api(client, f"{url}/payments")["payments"]
    assert [(p["from"], p["to"], p["amount"]) for p in payments] == [
        (transfer["from"], transfer["to"], transfer["amount"])
    ]
    assert payments[0]["at"]
    page = client.get(url).get_data(as_text=True)
    assert f"{url}/payments/{payments[0]['id']}/delete" in page
    assert client.post(f"{url}/payments/{payments[0]['id']}/delete").status_code == 303
    assert api(client, f"{url}/payments")["payments"] == []
    assert api(client, f"{url}/settle-up") == settle
    again = client.post(f"{url}/payments/{payments[0]['id']}/delete", follow_redirects=True)
    assert "This payment was taken back meanwhile" in again.get_data(as_text=True)
    assert api(client, f"{url}/settle-up") == settle


@pytest.mark.parametrize(
    ("data", "field", "words"),
    [
        ({"payer": "Asha", "payee": "Bikash", "amount": "-5"}, "amount", "amount"),
        ({"payer": "Asha", "payee": "Bikash", "amount": "1.5e2"}, "amount", "amount"),
        ({"payer": "Asha", "payee": "Asha", "amount": "5"}, "payee", "one player to another"),
        ({"payer": "Zed", "payee": "Asha", "amount": "5"}, "payer", "roster"),
    ],
)
def test_a_bad_payment_is_refused_on_its_field_and_nothing_is_stored(
    app, client, data, field, words
):
    url = create_table(client)
    response = client.post(f"{url}/payments", data=data)
    assert response.status_code == 422
    html = response.get_data(as_text=True)
    assert words in " ".join(field_errors(html, field)).lower() or words in html
    with app.app_context():
        assert db.session.query(TablePayment).count() == 0


def test_a_payment_in_a_table_without_a_stake_is_refused_with_a_sentence(app, client):
    url = create_table(client, **{"stake-per_point": ""})
    response = client.post(
        f"{url}/payments", data={"payer": "Asha", "payee": "Bikash", "amount": "5"}
    )
    assert response.status_code == 422
    assert "stake" in response.get_data(as_text=True)
    with app.app_context():
        assert db.session.query(TablePayment).count() == 0


# --- the roster -----------------------------------------------------------------------------


def test_rename_and_merge_carry_through_the_matches(client):
    url = create_table(client)
    key = edit_key(client, url)
    match_id = start_match(client, url, ROSTER)
    play(client, match_id, key, FOUR[:1])
    totals = {p["name"]: p["total"] for p in api(client, f"/matches/{match_id}")["players"]}
    assert (
        client.post(
            f"{url}/players/rename",
            data={"player": "Bikash", form_prefix("Bikash") + "-name": "Bikas"},
        ).status_code
        == 303
    )
    after = {p["name"]: p["total"] for p in api(client, f"/matches/{match_id}")["players"]}
    assert after == {("Bikas" if n == "Bikash" else n): t for n, t in totals.items()}
    client.post(f"{url}/seasons", data={"name": "Two"})
    other = start_match(client, url, ["Asha", "Chandra"], newcomer="Bikassh")
    assert (
        client.post(
            f"{url}/players/merge",
            data={"player": "Bikassh", form_prefix("Bikassh") + "-merge_into": "Bikas"},
        ).status_code
        == 303
    )
    assert [p["name"] for p in api(client, f"/matches/{other}")["players"]] == [
        "Asha",
        "Chandra",
        "Bikas",
    ]
    assert "Bikassh" not in [p["name"] for p in api(client, url)["players"]]


def test_a_merge_of_an_entry_with_an_own_link_says_the_link_is_gone(client):
    """The misspelt entry had been given an own link: the merge revokes it, and the
    scorekeeper was told only "Bikash is merged into Asha."; its holder's phone then said
    "Not allowed" with no word why."""
    url = create_table(client)
    given = client.post(f"{url}/own-link", data={"player": "Bikash"})
    assert given.status_code == 200
    data = {"player": "Bikash", form_prefix("Bikash") + "-merge_into": "Chandra"}
    merged = client.post(f"{url}/players/merge", data=data, follow_redirects=True)
    said = html.unescape(merged.get_data(as_text=True))
    assert (
        "Bikash is merged into Chandra. Bikash's own link no longer works, and how to pay "
        "them that was set there is gone: give Chandra their own link from Share if they "
        "need one."
    ) in said
    plain = {"player": "Dipa", form_prefix("Dipa") + "-merge_into": "Asha"}
    said = html.unescape(
        client.post(f"{url}/players/merge", data=plain, follow_redirects=True).text
    )
    assert "Dipa is merged into Asha." in said and "Dipa's own link" not in said


def test_a_rename_to_a_name_on_the_roster_is_refused_on_its_field(client):
    url = create_table(client)
    response = client.post(
        f"{url}/players/rename",
        data={"player": "Bikash", form_prefix("Bikash") + "-name": "asha"},
    )
    assert response.status_code == 422
    html = response.get_data(as_text=True)
    assert "already on the table" in " ".join(field_errors(html, form_prefix("Bikash") + "-name"))
    assert [p["name"] for p in api(client, url)["players"]] == ROSTER


@pytest.mark.parametrize(
    ("lang", "sentence"),
    [
        (
            "en",
            "Asha is already on the table's roster; if they are the same person, choose "
            "Asha under “Is the same person as” instead.",
        ),
        (
            "ne",
            "Asha पहिल्यै टेबलको नामावलीमा छ; दुवै एउटै मान्छे हुन् भने "
            "“यीमध्ये कोसँग एउटै मान्छे हो?” मा Asha छान्नुहोस्।",
        ),
    ],
)
def test_a_rename_to_a_roster_name_points_to_the_merge_in_the_pages_words(client, lang, sentence):
    """Not the API's "send merge_into": the page's own control for it."""
    url = create_table(client)
    client.set_cookie("lang", lang)
    response = client.post(
        f"{url}/players/rename",
        data={"player": "Bikash", form_prefix("Bikash") + "-name": "asha"},
    )
    said = field_errors(response.get_data(as_text=True), form_prefix("Bikash") + "-name")
    assert [html.unescape(text) for text in said] == [sentence]


def test_a_rename_to_a_guests_name_says_they_were_a_guest(client):
    """A guest is on no roster and cannot be merged: it was said to be "already on the
    table's roster; … merge"."""
    url = create_table(client)
    start_match(client, url, ROSTER, guests="Kiran")
    response = client.post(
        f"{url}/players/rename",
        data={"player": "Bikash", form_prefix("Bikash") + "-name": "kiran"},
    )
    assert response.status_code == 422
    said = field_errors(response.get_data(as_text=True), form_prefix("Bikash") + "-name")
    assert [html.unescape(text) for text in said] == [
        "Kiran played at this table as a guest: their nights would become this player's. "
        "Choose another name."
    ]
    assert [p["name"] for p in api(client, url)["players"]] == ROSTER


@pytest.mark.parametrize("into", ["", "Bikash", "Zed"])
def test_a_merge_into_nobody_on_the_roster_is_refused_in_words_on_its_field(client, into):
    url = create_table(client)
    prefix = form_prefix("Bikash")
    data = {"player": "Bikash", f"{prefix}-merge_into": into}
    response = client.post(f"{url}/players/merge", data=data)
    assert response.status_code == 422
    assert field_errors(response.get_data(as_text=True), f"{prefix}-merge_into") == [
        "The player to merge into must be another player on the roster."
    ]
    assert [p["name"] for p in api(client, url)["players"]] == ROSTER


def test_a_merge_of_two_who_played_together_is_refused_on_its_field(client):
    url = create_table(client)
    key = edit_key(client, url)
    match_id = start_match(client, url, ROSTER)
    play(client, match_id, key, FOUR[:1])
    prefix = form_prefix("Bikash") + ""
    response = client.post(
        f"{url}/players/merge", data={"player": "Bikash", f"{prefix}-merge_into": "Asha"}
    )
    assert response.status_code == 422
    assert "cannot be merged" in " ".join(
        field_errors(response.get_data(as_text=True), f"{prefix}-merge_into")
    )
    assert [p["name"] for p in api(client, url)["players"]] == ROSTER


def test_a_rename_of_someone_not_on_the_roster_is_404(client):
    url = create_table(client)
    assert client.post(f"{url}/players/rename", data={"player": "Zed"}).status_code == 404


@pytest.mark.parametrize(
    ("first", "field", "value"), [("rename", "name", "Bikas"), ("merge", "merge_into", "Dipa")]
)
def test_a_rename_or_merge_sent_again_says_who_they_are_now(client, first, field, value):
    """A double tap, the back button, or a tab left open after another renamed or merged
    them: before, "Page not found"."""
    url = create_table(client)
    form = {"player": "Bikash", f"{form_prefix('Bikash')}-{field}": value}
    assert client.post(f"{url}/players/{first}", data=form).status_code == 303
    roster = [p["name"] for p in api(client, url)["players"]]
    for path, data in ((first, form), ("rename", {**form, f"{form_prefix('Bikash')}-name": "B"})):
        again = client.post(f"{url}/players/{path}", data=data, follow_redirects=True)
        assert again.status_code == 200
        assert (
            f"Bikash is no longer on the roster: renamed or merged, they are {value} now, "
            "so nothing more changed." in again.get_data(as_text=True)
        )
    assert [p["name"] for p in api(client, url)["players"]] == roster


# --- a player's page ---------------------------------------------------------------------------


def test_a_players_page_shows_their_nights_head_to_head_and_rivals_after_three(client):
    url = create_table(client)
    key = edit_key(client, url)
    nights = []
    for _ in range(3):
        nights.append(start_match(client, url, ROSTER))
        play(client, nights[-1], key, FOUR)
    record = api(client, f"{url}/players/Asha")
    page = client.get(f"{url}/players/Asha")
    assert page.status_code == 200
    html = page.get_data(as_text=True)
    assert html.count('<th scope="row"><a href="/matches/') == 3
    for row in record["head_to_head"]:
        assert f">{row['other']}</a></th>" in html
    assert "at least 3 nights together that are over" in html
    assert (record["rival"] is not None) == ("Rival:" in html)
    one = start_match(client, url, ["Asha", "Bikash"])
    play(client, one, key, [])
    assert client.get(f"{url}/players/Esha").status_code == 404
    assert client.get(f"{url}/players/Asha", query_string={"season": "nope"}).status_code == 404


def test_with_fewer_than_three_matches_no_rival_is_named(client):
    url = create_table(client)
    key = edit_key(client, url)
    play(client, start_match(client, url, ROSTER), key, FOUR)
    html = client.get(f"{url}/players/Asha").get_data(as_text=True)
    assert "Rival:" not in html and "Nemesis:" not in html
    assert "at least 3 nights together that are over" in html


def test_a_night_still_going_does_not_count_towards_a_rival(client):
    """Two nights over and a third still going: a night still going puts nobody above
    anyone (head-to-head's above and below), so it does not make 3 nights together for
    a rival or nemesis either; once it is over, it does."""
    url = create_table(client)
    key = edit_key(client, url)
    for winner in ("Asha", "Bikash"):
        night = start_match(client, url, ["Asha", "Bikash"], hands="1")
        play(client, night, key, [won_by(winner, ["Asha", "Bikash"])])
    going = start_match(client, url, ["Asha", "Bikash"])  # an open night: goes on
    play(client, going, key, [won_by("Asha", ["Asha", "Bikash"])])
    record = api(client, f"{url}/players/Asha")
    assert [(r["matches"], r["above"], r["below"]) for r in record["head_to_head"]] == [(3, 1, 1)]
    assert (record["rival"], record["nemesis"]) == (None, None)
    assert "Rival:" not in client.get(f"{url}/players/Asha").get_data(as_text=True)
    assert client.post(f"/matches/{going}/end").status_code == 303
    record = api(client, f"{url}/players/Asha")
    assert (record["rival"], record["nemesis"]) == ("Bikash", None)
    assert "Rival: Bikash" in client.get(f"{url}/players/Asha").get_data(as_text=True)


def test_the_pages_in_nepali_with_devanagari_digits(client):
    url = create_table(client)
    key = edit_key(client, url)
    play(client, start_match(client, url, ROSTER), key, FOUR)
    client.get("/lang/ne")
    client.get("/digits/deva")
    html = client.get(url).get_data(as_text=True)
    assert 'lang="ne"' in html
    assert "Standings" not in html and "Money across nights" not in html
    assert "सिजनको अङ्कतालिका" in html and "सबै रातको हिसाब" in html
    total = re.search(r'data-total="(-?\d+)">([^<]+)<', html)
    assert total.group(2).strip("+−") == "".join(
        "०१२३४५६७८९"[int(d)] for d in total.group(1).lstrip("-")
    )
    player = client.get(f"{url}/players/Asha").get_data(as_text=True)
    assert "Head to head" not in player and "आमनेसामने" in player


HOSTILE = ["Tih\x00ar", "\x1b[2JTihar", "\u202eTihar", "Ti\u200bhar", "x" * 5000]


@pytest.mark.parametrize("text", HOSTILE, ids=["NUL", "escape", "rtl", "zero-width", "long"])
def test_hostile_text_is_refused_on_its_field_and_stores_nothing(app, client, text):
    made = client.post("/tables/new", data=new_table_form(name=text))
    assert made.status_code == 422 and field_errors(made.get_data(as_text=True), "name")
    assert count_tables(app) == 0
    url = create_table(client)
    before = api(client, url)
    prefix = form_prefix("Asha")
    posts = [
        ("/seasons", {"name": text}, "season-name"),
        ("/players/rename", {"player": "Asha", prefix + "-name": text}, prefix + "-name"),
        ("/matches", {"players": ["Asha"], "newcomer": text}, None),
        ("/payments", {"payer": "Asha", "payee": "Bikash", "amount": text}, "amount"),
    ]
    for path, data, field in posts:
        response = client.post(url + path, data=data)
        assert response.status_code == 422, path
        if field:
            assert field_errors(response.get_data(as_text=True), field), path
    assert api(client, url) == before
    assert client.get(f"{url}/players/{text[:200]}").status_code == 404


def test_seen_is_one_share_rounded_half_up_wherever_it_is_shown(client):
    """Asha plays 8 hands, 5 of them seen: 62.5 %, which every figure of it rounds half
    up to 63 (engine.player_figures.percent): the table's standings (the season PDF's
    too: the same template), the player's line and their "Seen in 5 of 8 hands"; a 62
    beside a 63 would be two answers to one question."""
    url = create_table(client)
    key = edit_key(client, url)
    match_id = start_match(client, url, ["Asha", "Bikash"])
    hands = [
        {
            "finish": "sequences",
            "winner": "Bikash",
            "players": [
                {"name": "Asha", "seen": "sequences" if i < 5 else "unseen", "maal": 0},
                {"name": "Bikash", "seen": "sequences", "maal": 0},
            ],
        }
        for i in range(8)
    ]
    play(client, match_id, key, hands)
    table_page = client.get(url).get_data(as_text=True)
    player_page = client.get(f"{url}/players/Asha").get_data(as_text=True)
    for page in (table_page, player_page):
        assert "63%" in page and "62%" not in page
    assert "Seen in 5 of 8 hands" in player_page


def test_the_nemesis_is_named_for_the_worst_record_not_the_most_wins(client):
    """Bikash ends above Asha in 5 of their 9 nights (below in 4), Chandra in all 3 of
    theirs: Chandra, the worst record against, is her nemesis, though Bikash ended above
    her more often; the page says which it is, not "ends above most often"."""
    url = create_table(client)
    key = edit_key(client, url)
    for other, wins, losses in (("Bikash", 5, 4), ("Chandra", 3, 0)):
        for winner in [other] * wins + ["Asha"] * losses:
            night = start_match(client, url, ["Asha", other], hands="1")
            play(client, night, key, [won_by(winner, ["Asha", other])])
    record = api(client, f"{url}/players/Asha")
    assert (record["nemesis"], record["rival"]) == ("Chandra", "Bikash")
    html = client.get(f"{url}/players/Asha").get_data(as_text=True)
    assert "Nemesis: Chandra (the worst record against)." in html
