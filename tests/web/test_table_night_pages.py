"""A table's night through its pages (issue 38): tonight's match is open unless a number
of hands is typed; "End the night" on the match page ends it after its last hand, in
one tap, and its undo takes the end back."""

import re

from api_hands import play
from match_pages_support import BY_COUNTS, create_match, field_errors, hand_form, new_match_form
from table_pages_support import FOUR, ROSTER, create_table, edit_key, start_match


def _match(client, public_id: str) -> dict:
    return client.get(f"/api/v1/matches/{public_id}").get_json()


def test_tonights_match_is_open_and_the_night_ends_when_the_table_says(client):
    url = create_table(client, **{"rules-profile": "amarnepal"})  # usually 4 hands
    key = edit_key(client, url)
    match_id = start_match(client, url, ROSTER)
    assert _match(client, match_id)["length"] is None
    play(client, match_id, key, [*FOUR, FOUR[0]])  # five hands: past amarnepal's four
    page = client.get(f"/matches/{match_id}").get_data(as_text=True)
    assert "The match is over." not in page
    assert "5 hands played (open match)." in page
    assert f"/matches/{match_id}/end" in page and "End the night" in page

    response = client.post(f"/matches/{match_id}/end")
    assert response.status_code == 303
    body = _match(client, match_id)
    assert body["finished"] is True and body["hands_played"] == 5
    page = client.get(f"/matches/{match_id}").get_data(as_text=True)
    assert "The match is over." in page and f"/matches/{match_id}/reopen" in page
    # Over, it is no longer "open": its hands are counted as they were played.
    assert "5 hands played." in page and "(open match)" not in page
    # The hand form says the night was ended and points back to the match page.
    form = client.get(f"/matches/{match_id}/hands/new")
    assert form.status_code == 303 and form.headers["Location"].endswith(f"/matches/{match_id}")

    assert client.post(f"/matches/{match_id}/reopen").status_code == 303
    assert _match(client, match_id)["finished"] is False
    assert client.get(f"/matches/{match_id}/hands/new").status_code == 200


def test_the_table_page_points_to_the_match_still_going(app, client):
    url = create_table(client)
    key = edit_key(client, url)
    match_id = start_match(client, url, ROSTER, name="Tihar night")
    play(client, match_id, key, FOUR[:2])
    going = f'href="/matches/{match_id}">Open it</a>'
    for reader in (client, app.test_client()):  # the scorekeeper, and one who follows
        page = reader.get(url).get_data(as_text=True)
        assert "Still going: Tihar night." in page and going in page
    assert client.post(f"/matches/{match_id}/end").status_code == 303
    page = client.get(url).get_data(as_text=True)
    assert "Still going" not in page and going not in page


def test_a_night_still_going_leads_and_another_match_is_second(client):
    """While a match of the table is open, its "Open it" is the page's one main action:
    starting another match is behind a fold that says one is still going, and still
    works (two games at once)."""
    url = create_table(client)
    key = edit_key(client, url)
    page = client.get(url).get_data(as_text=True)
    assert 'class="button-primary">Start tonight\'s match</button>' in page
    assert "another-match" not in page
    first = start_match(client, url, ROSTER, name="Tihar night")
    play(client, first, key, FOUR[:1])
    page = " ".join(client.get(url).get_data(as_text=True).split())
    assert "Start tonight's match" not in page
    assert page.count("button-primary") == 1  # the open night's "Open it" alone
    assert page.index(f'href="/matches/{first}">Open it</a>') < page.index('id="new-match-title"')
    fold = re.search(r'<details class="another-match">(.*?)</details>', page)
    assert fold is not None, "starting another match is folded away, closed"
    assert "<summary>Start another match</summary>" in fold.group(1)
    assert "Tihar night is still going" in fold.group(1)
    assert f'action="{url}/matches"' in fold.group(1)
    assert '<button type="submit" class="button-secondary">Start another match</button>' in page
    second = start_match(client, url, ROSTER[:2], name="Second table")
    assert second != first and _match(client, second)["finished"] is False
    # A refused second match re-opens the fold at its problem.
    response = client.post(f"{url}/matches", data={"players": ROSTER, "hands": "many"})
    assert response.status_code == 422
    assert '<details class="another-match" open>' in response.get_data(as_text=True)


def test_tonights_match_takes_a_number_of_hands(client):
    url = create_table(client)
    match_id = start_match(client, url, ROSTER, hands="६")
    assert _match(client, match_id)["length"] == {"hands": 6}


def test_a_bad_number_of_hands_is_refused_on_its_field(client):
    url = create_table(client)
    response = client.post(f"{url}/matches", data={"players": ROSTER, "hands": "many"})
    assert response.status_code == 422
    page = response.get_data(as_text=True)
    assert "a whole number from 1 to 1000, or leave it empty" in page
    assert client.get(f"/api/v1/tables/{url.rsplit('/', 1)[1]}").get_json()["matches"] == []


def test_end_the_night_needs_edit_rights(app, client):
    url = create_table(client)
    key = edit_key(client, url)
    match_id = start_match(client, url, ROSTER)
    play(client, match_id, key, FOUR[:1])
    reader = app.test_client()
    assert reader.post(f"/matches/{match_id}/end").status_code == 403
    assert _match(client, match_id)["finished"] is False


def test_guests_typed_then_ticked_play_without_joining_the_roster(client):
    url = create_table(client)
    key = edit_key(client, url)
    table_id = url.rsplit("/", 1)[1]
    first = start_match(client, url, ROSTER[:3], guests="Ram, Sita")
    body = _match(client, first)
    assert {p["name"]: p["guest"] for p in body["players"]} == {
        "Asha": False,
        "Bikash": False,
        "Chandra": False,
        "Ram": True,
        "Sita": True,
    }
    roster = [p["name"] for p in client.get(f"/api/v1/tables/{table_id}").get_json()["players"]]
    assert roster == ROSTER
    hand = {
        "finish": "sequences",
        "winner": "Ram",
        "players": [
            {"name": n, "seen": "sequences", "maal": m}
            for n, m in (("Asha", 3), ("Ram", 9), ("Sita", 1))
        ],
    }
    play(client, first, key, [hand])
    page = client.get(url).get_data(as_text=True)
    assert page.count('class="guest-mark"') >= 2  # the standings and the money mark them
    # The last night's players are ticked, its guests among them.
    assert _ticked_guests(page) == {"Ram": True, "Sita": True}
    second = start_match(client, url, ROSTER[:3], known_guests=["Ram"])
    names = {p["name"]: p["guest"] for p in _match(client, second)["players"]}
    assert names == {"Asha": False, "Bikash": False, "Chandra": False, "Ram": True}
    four = [
        {"name": n, "seen": "sequences", "maal": 2} for n in ("Asha", "Bikash", "Chandra", "Ram")
    ]
    play(client, second, key, [{**hand, "players": four}])
    # Sita did not play the last night: offered, not ticked.
    assert _ticked_guests(client.get(url).get_data(as_text=True)) == {"Ram": True, "Sita": False}


def test_a_ticked_roster_player_typed_again_as_a_guest_is_refused_beside_the_guests(client):
    """Asha ticked among who plays and typed again among tonight's guests (any case):
    the page says so beside "Guests tonight", naming her, not "listed twice" beside the
    players; no match is made, and the form keeps what was typed."""
    url = create_table(client)
    for typed in ("Asha", "asha, Ram"):
        response = client.post(f"{url}/matches", data={"players": ROSTER[:3], "guests": typed})
        assert response.status_code == 422
        html = response.get_data(as_text=True)
        name = typed.split(",")[0]
        assert field_errors(html, "guests") == [
            f"{name} is on the table&#39;s roster, so plays as themselves, not as a guest."
        ]
        assert field_errors(html, "players") == []
        assert f'value="{typed}"' in html
    table_id = url.rsplit("/", 1)[1]
    assert client.get(f"/api/v1/tables/{table_id}").get_json()["matches"] == []


def test_last_weeks_guest_typed_again_while_ticked_plays_once(client):
    """Ram, last night's guest, is ticked on the page; the scorekeeper types him among
    tonight's guests again (as the week before, in any case): he was refused as "listed
    twice" beside who plays, naming neither where nor what to do. The same guest ticked
    and typed is one guest, spelt as on his first night."""
    url, _ = _a_night_with_a_guest(client)
    assert _ticked_guests(client.get(url).get_data(as_text=True)) == {"Ram": True}
    for typed in ("Ram", "ram, Sita"):
        second = start_match(client, url, ROSTER[:3], known_guests=["Ram"], guests=typed)
        names = {p["name"]: p["guest"] for p in _match(client, second)["players"]}
        guests = {"Ram": True, **({"Sita": True} if "Sita" in typed else {})}
        assert names == {"Asha": False, "Bikash": False, "Chandra": False, **guests}


def _ticked_guests(page: str) -> dict[str, bool]:
    """Each guest of earlier nights offered on the table's page: whether it is ticked."""
    boxes = re.findall(r'<input [^>]*name="known_guests"[^>]*>', page)
    return {re.sub(r'.*value="([^"]*)".*', r"\1", box): " checked" in box for box in boxes}


def _marked(page: str, css: str) -> dict[str, bool]:
    """Each player row of the table of class ``css``: whether its name is marked a guest."""
    table = re.search(rf'<table class="[^"]*\b{css}\b.*?</table>', page, re.S)
    assert table, css
    rows = re.findall(r'<th scope="row"[^>]*>(.*?)</th>', table.group(0), re.S)
    return {re.sub(r"<.*", "", row, flags=re.S).strip(): "guest-mark" in row for row in rows}


def _a_night_with_a_guest(client) -> tuple[str, str]:
    """Tonight's match of three of the roster and Ram, a guest, who won its one hand:
    the table's url and the match's id."""
    url = create_table(client)
    key = edit_key(client, url)
    match_id = start_match(client, url, ROSTER[:3], guests="Ram")
    hand = {
        "finish": "sequences",
        "winner": "Ram",
        "players": [
            {"name": n, "seen": "sequences", "maal": m}
            for n, m in (("Asha", 3), ("Bikash", 0), ("Chandra", 5), ("Ram", 9))
        ],
    }
    play(client, match_id, key, [hand])
    return url, match_id


def test_the_match_page_and_its_summary_mark_the_guests_as_the_table_does(app, client):
    """A night with a guest: the match page's standings, its summary (what it prints and
    the summary PDF are the same report) and each player's balance say who is the
    table's guest, to the scorekeeper and to a follower on the read-only link; in
    Nepali too."""
    url, match_id = _a_night_with_a_guest(client)
    expected = {"Asha": False, "Bikash": False, "Chandra": False, "Ram": True}
    follower = app.test_client()
    for reader in (client, follower):
        page = reader.get(f"/matches/{match_id}").get_data(as_text=True)
        assert _marked(page, "live-standings-table") == expected  # the page's standings
        assert _marked(page, "standings-table") == expected  # the summary's
        assert _marked(page, "balances-table") == expected  # who pays whom
        players = re.search(r'<ol class="player-list">(.*?)</ol>', page, re.S).group(1)
        assert re.findall(r"<li>(\w+)(?=[^<]*<span class=\"guest-mark\">)", players) == ["Ram"]
    follower.set_cookie("lang", "ne")
    nepali = follower.get(f"/matches/{match_id}").get_data(as_text=True)
    assert _marked(nepali, "live-standings-table") == expected
    assert '<span class="guest-mark">पाहुना</span>' in nepali


def test_the_grid_a_hands_page_and_the_big_screens_mark_the_guests(client):
    """Beyond the standings: the hand-by-hand grid of the match page, a hand's own page
    (its result and each player's part) and the big screen's standings, the match's and
    the table's (tonight's and the season's), mark the table's guest, and nobody else."""
    url, match_id = _a_night_with_a_guest(client)
    expected = {"Asha": False, "Bikash": False, "Chandra": False, "Ram": True}
    page = client.get(f"/matches/{match_id}").get_data(as_text=True)
    assert _marked(page, "scores-table") == expected
    hand_page = client.get(f"/matches/{match_id}/hands/1").get_data(as_text=True)
    assert _marked(hand_page, "nets") == expected
    parts = re.findall(r"<h4>(\w+)(.*?)</h4>", hand_page, re.S)
    assert {name: "guest-mark" in rest for name, rest in parts} == expected
    for screen in (f"/matches/{match_id}/screen", f"{url}/screen"):
        board = client.get(screen).get_data(as_text=True)
        # On the table's, tonight's standings and the season's (one night: the same).
        for standings in re.findall(r'<table class="screen-standings.*?</table>', board, re.S):
            rows = re.findall(r'<span class="name">(\w+)</span>(.*?)</th>', standings, re.S)
            assert {name: "guest-mark" in rest for name, rest in rows} == expected, screen


def test_a_guest_already_on_the_roster_is_refused_on_the_guests_field(client):
    url = create_table(client)
    response = client.post(f"{url}/matches", data={"players": ROSTER[:3], "guests": "dipa"})
    assert response.status_code == 422
    assert "on the table&#39;s roster" in response.get_data(as_text=True)


SIX = ["Asha", "Bikash", "Chandra", "Dipa", "Esha", "Gopal"]


def test_the_hand_form_opens_with_the_dealer_sitting_out_in_turn(client):
    url = create_table(client, players="\n".join(SIX))
    key = edit_key(client, url)
    match_id = start_match(client, url, SIX)
    dealer = _match(client, match_id)["next_dealer"]
    for _ in range(3):
        body = _match(client, match_id)
        page = client.get(f"/matches/{match_id}/hands/new").get_data(as_text=True)
        seat = SIX.index(body["next_dealer"])
        assert body["next_sitting_out"] == [SIX[seat]]
        for i in range(6):
            assert (f'checked id="players-{i}-plays"' in page) is (i != seat), (i, seat)
        assert "Sits out this hand in turn" in page
        playing = [n for n in SIX if n != SIX[seat]]
        hand = {
            "finish": "sequences",
            "winner": playing[0],
            "players": [{"name": n, "seen": "sequences", "maal": 1} for n in playing],
        }
        play(client, match_id, key, [hand])
    assert _match(client, match_id)["next_dealer"] == SIX[(SIX.index(dealer) + 3) % 6]


def test_more_ticked_than_three_packs_take_the_form_says_so_and_four_packs_in_a_tap(client):
    url = create_table(client, players="\n".join(SIX))
    page = client.get(url).get_data(as_text=True)
    assert "6 people ticked and 3 packs deal to 5: each hand the dealer sits out in turn." in page
    assert 'name="packs" type="radio" value="4"' in page
    rotation = start_match(client, url, SIX)
    assert _match(client, rotation)["next_sitting_out"] != []
    four = start_match(client, url, SIX, packs="4")
    body = _match(client, four)
    assert body["rules"]["packs"] == 4 and body["next_sitting_out"] == []


def test_the_seating_note_is_in_nepali_on_a_nepali_page(client):
    url = create_table(client, players="\n".join([*SIX, "Hari"]))
    client.get("/lang/ne")
    page = client.get(url).get_data(as_text=True)
    assert "७ जना" in page
    # Packs counted are गड्डी (docs/translating.md): "३ तास" reads "three cards".
    assert "३ गड्डी तासले ५ जनालाई मात्र बाँड्छ" in page and "३ तासले" not in page
    new = client.get("/matches/new").get_data(as_text=True)
    assert "३ गड्डी (नियम-सेट)" in new and "३ तास (" not in new


def test_four_packs_in_one_choice_on_the_new_match_form(app, client):
    page = client.get("/matches/new").get_data(as_text=True)
    assert 'name="packs"' in page and "Four packs: up to 8 a hand" in page
    response = client.post("/matches/new", data=new_match_form(SIX, packs="4"))
    assert response.status_code == 303, response.get_data(as_text=True)
    body = _match(client, response.headers["Location"].rsplit("/", 1)[1])
    assert body["rules"]["packs"] == 4 and body["next_sitting_out"] == []


def _packs_override(page: str) -> list[tuple[str, str]]:
    """The "Packs" override of the rules chooser: a choice, (value, label) of each option."""
    select = re.search(r'<select[^>]*name="rules-packs"[^>]*>(.*?)</select>', page, re.S)
    assert select, "the Packs override is no choice"
    options = re.findall(r'<option[^>]*value="([^"]*)"[^>]*>([^<]*)</option>', select.group(1))
    return [(value, label.strip()) for value, label in options]


def test_the_packs_override_is_a_choice_of_three_or_four(client):
    """The packs take 3 or 4 only: the override is chosen, not typed, in the page's
    digits; what is chosen is the match's, and a value sent by hand that no choice
    offers is still refused on the field with what it takes."""
    page = client.get("/matches/new").get_data(as_text=True)
    assert _packs_override(page) == [("", "3 (profile)"), ("3", "3"), ("4", "4")]
    client.set_cookie("lang", "ne")
    nepali = client.get("/matches/new").get_data(as_text=True)
    assert [label for _, label in _packs_override(nepali)][1:] == ["३", "४"]
    assert _packs_override(nepali)[0][1].startswith("३ ")
    client.set_cookie("lang", "en")
    response = client.post("/matches/new", data=new_match_form(SIX, **{"rules-packs": "4"}))
    assert response.status_code == 303, response.get_data(as_text=True)
    body = _match(client, response.headers["Location"].rsplit("/", 1)[1])
    assert body["rules"]["packs"] == 4 and body["next_sitting_out"] == []
    refused = client.post("/matches/new", data=new_match_form(SIX, **{"rules-packs": "5"}))
    assert refused.status_code == 422
    again = refused.get_data(as_text=True)
    errors = re.search(r'id="rules-packs-errors">(.*?)</ul>', again, re.S)
    assert errors and "“Packs”" in errors.group(1) and "3 or 4" in errors.group(1)
    assert len(_packs_override(again)) == 3  # still the choice, beside its message


def test_the_grid_says_why_deleted_hands_leave_a_gap(client):
    url = create_table(client)
    key = edit_key(client, url)
    match_id = start_match(client, url, ROSTER)
    play(client, match_id, key, [*FOUR, FOUR[0]])
    for number in (2, 3):
        deleted = client.delete(
            f"/api/v1/matches/{match_id}/hands/{number}",
            headers={"Authorization": f"Bearer {key}"},
        )
        assert deleted.status_code == 200
    page = client.get(f"/matches/{match_id}").get_data(as_text=True)
    words = re.sub(r"<[^>]+>", "", page)  # each number links to the deleted hand's page
    assert "Hands 2, 3 were deleted; hand numbers are not used again." in words


def test_the_what_if_names_the_settings_it_carries(client):
    url = create_table(client, **{"rules-foul_penalty": "20"})
    key = edit_key(client, url)
    match_id = start_match(client, url, ROSTER)
    play(client, match_id, key, FOUR[:1])
    season = client.get(f"{url}/what-if").get_data(as_text=True)
    assert "Settings changed from the profile:" in season and "foul penalty" in season.lower()
    match = client.get(f"/matches/{match_id}/what-if")
    said = match.get_data(as_text=True)
    assert "Settings changed from the profile:" in said and "foul penalty" in said.lower()
    plain = client.get(f"/matches/{match_id}/what-if?rules-profile=everestbuzz")
    assert "The profile's own settings: none changed." in plain.get_data(as_text=True)


def test_the_result_bar_names_the_finisher_first(client):
    url = create_match(client)  # Bikash, the second seat, finishes
    html = client.post(f"{url}/hands/preview", data=hand_form(BY_COUNTS, dealer="Asha"))
    line = html.get_data(as_text=True).split('<div id="hand-status" hx-swap-oob="innerHTML">')
    words = re.sub(r"<[^>]+>", "", line[1].split("</div>")[0]).replace("&nbsp;", " ").split()
    assert words[:2] == ["Result:", "Bikash"]


def test_a_players_page_leads_with_place_total_money_and_form(client):
    url = create_table(client)
    key = edit_key(client, url)
    for _ in range(2):
        match_id = start_match(client, url, ROSTER)
        play(client, match_id, key, FOUR[:2])
        assert client.post(f"/matches/{match_id}/end").status_code == 303
    page = client.get(f"{url}/players/Asha").get_data(as_text=True)
    head = page.split('<section class="player-lead"')[1].split("</section>")[0]
    standings = client.get(f"/api/v1/tables/{url.rsplit('/', 1)[1]}/standings").get_json()
    totals = {line["name"]: line["total"] for line in standings["players"]}
    place = 1 + sum(t > totals["Asha"] for t in totals.values())
    assert f"{place} of {len(totals)}" in head
    assert "Money won" in head and "Still owed" in head and "Form" in head
    assert page.index("player-lead") < page.index("nights-title") < page.index("h2h-title")
    assert page.index("h2h-title") < page.index("season-figures-title")


def test_an_unnamed_night_is_numbered_among_its_own_tables_matches(app, client):
    """A night left unnamed is named for its day, numbered only after the table's own
    matches of that day: other tables' and other people's matches are no concern of its."""
    elsewhere = app.test_client()
    assert elsewhere.post("/matches/new", data=new_match_form(name="")).status_code == 303
    start_match(elsewhere, create_table(elsewhere), ROSTER)
    url = create_table(client)
    first = _match(client, start_match(client, url, ROSTER))["name"]
    second = _match(client, start_match(client, url, ROSTER))["name"]
    assert first.startswith("Match of ") and "(" not in first
    assert second == f"{first} (2)"


def test_the_season_standings_put_the_total_and_the_money_right_after_the_name(client):
    """On a phone the columns after the first few scroll: what a player looks for (their
    total, and the money when the table plays for a stake) comes first."""
    url = create_table(client)
    key = edit_key(client, url)
    play(client, start_match(client, url, ROSTER), key, FOUR[:1])
    page = client.get(url).get_data(as_text=True)
    head = page.split('class="report-table table-standings"')[1].split("</thead>")[0]
    columns = [
        re.sub(r"<[^>]+>", "", cell).strip() for cell in re.findall(r"<th[^>]*>(.*?)</th>", head)
    ]
    assert columns[:3] == ["Player", "Total", "Money won"], columns
    row = page.split('class="report-table table-standings"')[1].split("<tbody>")[1]
    first = row.split("</tr>")[0]
    assert re.findall(r"<td[^>]*>", first)[0].startswith('<td class="num total"'), first


def test_the_night_over_its_match_page_leads_the_tables_keeper_to_the_next_night(app, client):
    """Once "End the night" is tapped, the page of the match over offers "Next night at <table>",
    the table's form for a new match (last night's players ticked there), to the one who
    holds the table's key, and to them alone: a reader, and a co-scorekeeper given only
    this match's edit link, see none (they cannot start a night there). While the night
    goes on, nobody is offered it; the poll's live part offers it as the page does."""
    url = create_table(client, name="Sharma's")
    key = edit_key(client, url)
    made = client.post(
        f"/api/v1/tables/{url.rsplit('/', 1)[1]}/matches",
        json={"name": "Friday", "players": ROSTER, "length": None, "rules": "sparkai"},
        headers={"Authorization": f"Bearer {key}"},
    ).get_json()
    match_id = made["id"]
    play(client, match_id, key, FOUR[:2])
    link = f'href="{url}#new-match-title">Next night at Sharma&#39;s</a>'
    assert "Next night" not in client.get(f"/matches/{match_id}").get_data(as_text=True)

    assert client.post(f"/matches/{match_id}/end").status_code == 303
    assert link in client.get(f"/matches/{match_id}").get_data(as_text=True)
    assert link in client.get(f"/matches/{match_id}/live").get_data(as_text=True)
    reader = app.test_client()
    co_scorekeeper = app.test_client()
    co_scorekeeper.get(f"/matches/{match_id}/join/{made['edit_key']}")
    shared = co_scorekeeper.get(f"/matches/{match_id}").get_data(as_text=True)
    assert "The edit link, to keep score from another phone" in shared  # it may write
    for other in (reader, co_scorekeeper):
        for path in (f"/matches/{match_id}", f"/matches/{match_id}/live"):
            assert "Next night" not in other.get(path).get_data(as_text=True)

    assert 'id="new-match-title"' in client.get(url).get_data(as_text=True)  # where it leads

    client.get("/lang/ne")
    page = client.get(f"/matches/{match_id}").get_data(as_text=True)
    assert f'href="{url}#new-match-title">Sharma&#39;s मा अर्को रात</a>' in page
