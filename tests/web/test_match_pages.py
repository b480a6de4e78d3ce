"""The match pages with the test client: create a match, enter, edit and delete hands."""

import re

from match_pages_support import (
    BY_CARDS,
    BY_COUNTS,
    DUBLEE_FINISH,
    PLAYERS,
    THREE_PLAY,
    VOID,
    WORKED,
    add_hand,
    create_match,
    engine_nets,
    hand_form,
    hidden,
    new_match_form,
    page_totals,
    squash,
)
from row_counts import rows
from sqlalchemy import select

from ledger.engine.game import MAX_MATCH_NAME
from ledger.extensions import db
from ledger.matches.models import Hand, Match

# --- a new match -------------------------------------------------------------------------


def test_new_match_page_shows_the_profiles_values(client):
    html = client.get("/matches/new").get_data(as_text=True)
    assert 'name="players-0"' in html and 'name="players-3"' in html
    assert 'name="rules-profile"' in html
    assert "The profile&#39;s usual length (4 hands)" in html  # amarnepal, the first profile
    assert 'hx-post="/matches/new/rules"' in html


def test_the_rules_part_follows_the_profile(client):
    html = client.post(
        "/matches/new/rules", data={"rules-profile": "classic", "length_kind": "profile"}
    ).get_data(as_text=True)
    assert 'id="match-rules"' in html
    assert "usual length (1 rotation)" in html
    assert '<option selected value="classic">' in html


def test_create_a_match_through_the_page(app, client):
    url = create_match(client, first_dealer="2")
    html = client.get(url).get_data(as_text=True)
    assert "Tihar 2026" in html
    assert page_totals(html) == dict.fromkeys(PLAYERS, 0)
    assert "Hand 1 is dealt by <strong>Chandra</strong>" in squash(html)
    assert "Enter hand 1" in html  # the creator may edit
    assert "0 hands" not in html and "No hands yet." in html
    with app.app_context():
        match = db.session.scalars(select(Match)).one()
        assert match.player_names == PLAYERS
        assert match.length == {"hands": 8}
        assert match.first_dealer == "Chandra"


def test_overrides_and_the_deal_direction_are_stored(app, client):
    url = create_match(
        client, **{"rules-unseen_maal": "kidnap", "deal_passes": "right", "length_kind": "open"}
    )
    html = client.get(url).get_data(as_text=True)
    assert "unseen maal kidnap" in squash(html)
    with app.app_context():
        match = db.session.scalars(select(Match)).one()
        assert match.rules["overrides"] == {"unseen_maal": "kidnap", "deal_passes": "right"}
        assert match.length is None


def test_length_from_the_profile(app, client):
    create_match(client, **{"rules-profile": "amarnepal", "length_kind": "profile"})
    with app.app_context():
        assert db.session.scalars(select(Match)).one().length == {"hands": 4}


def test_errors_next_to_fields_and_nothing_stored(app, client):
    # (An empty name is no longer a problem: the match is named for its day.)
    data = new_match_form(
        ["Asha", "asha", "", ""], name="x" * (MAX_MATCH_NAME + 1), length_count="0"
    )
    response = client.post("/matches/new", data=data)
    assert response.status_code == 422
    html = response.get_data(as_text=True)
    assert re.search(
        rf'id="name-errors">\s*<li>A match name can have at most {MAX_MATCH_NAME} characters',
        html,
    )
    assert re.search(r'id="players-1-errors">\s*<li>.*listed twice', html)
    assert re.search(r'id="length_count-errors">\s*<li>Enter how many hands', html)
    assert 'value="Asha"' in html  # what was typed stays
    assert rows(app, Match) == 0


def test_too_few_players_and_a_bad_override(app, client):
    data = new_match_form(["Asha"], **{"rules-fee_seen": "lots"})
    response = client.post("/matches/new", data=data)
    assert response.status_code == 422
    html = response.get_data(as_text=True)
    assert re.search(r'id="players-errors">\s*<li>A match has 2 to 12 players', html)
    assert re.search(r'id="rules-fee_seen-errors">\s*<li>Enter a whole number', html)
    assert rows(app, Match) == 0


def test_the_first_dealer_needs_a_name(app, client):
    data = new_match_form(["Asha", "Bikash", "", ""], first_dealer="3")
    html = client.post("/matches/new", data=data).get_data(as_text=True)
    assert re.search(r'id="first_dealer-errors">\s*<li>Choose a player with a name', html)
    assert rows(app, Match) == 0


def test_add_player_rows_up_to_twelve(client):
    data = new_match_form(action="add_player")
    html = client.post("/matches/new", data=data).get_data(as_text=True)
    assert 'name="players-4"' in html and 'name="players-5"' not in html
    twelve = new_match_form([f"P{i}" for i in range(12)], action="add_player")
    html = client.post("/matches/new", data=twelve).get_data(as_text=True)
    assert 'name="players-11"' in html and 'name="players-12"' not in html
    assert "Add a player" not in html


# --- hands -------------------------------------------------------------------------------


def test_the_hand_form_preselects_the_dealer_and_players(client):
    url = create_match(client, first_dealer="1")
    html = client.get(f"{url}/hands/new").get_data(as_text=True)
    assert '<option selected value="Bikash">Bikash</option>' in html
    for row in range(4):
        assert (
            f'id="players-{row}-plays" name="players-{row}-plays" type="checkbox" value="y"' in html
        )
    assert f'hx-post="{url}/hands/preview"' in html


def test_preview_settles_without_storing(app, client):
    url = create_match(client)
    response = client.post(f"{url}/hands/preview", data=hand_form(WORKED, dealer="Asha"))
    nets = re.findall(r'data-net="(-?\d+)"', response.get_data(as_text=True))
    assert [int(n) for n in nets] == list(engine_nets(WORKED).values())
    assert rows(app, Hand) == 0


def test_four_kinds_of_hand_and_the_totals_are_the_engines(app, client):
    url = create_match(client)
    hands = [BY_CARDS, BY_COUNTS, DUBLEE_FINISH, VOID]
    for hand in hands:
        add_hand(client, url, hand)
    html = client.get(url).get_data(as_text=True)
    nets = [engine_nets(h) for h in hands]
    expected = {p: sum(n[p] for n in nets) for p in PLAYERS}
    assert page_totals(html) == expected
    assert "4 hands played of 8." in html
    for number in range(1, 5):
        assert f'aria-label="Hand {number}"' in html
    # Each hand's page shows the engine's nets for it.
    for number, hand in enumerate(hands, start=1):
        page = client.get(f"{url}/hands/{number}").get_data(as_text=True)
        shown = [int(n) for n in re.findall(r'data-net="(-?\d+)"', page)]
        assert shown == list(engine_nets(hand).values())


def test_saving_redirects_with_a_flash(client):
    url = create_match(client)
    response = client.post(f"{url}/hands/new", data=hand_form(WORKED), follow_redirects=True)
    html = response.get_data(as_text=True)
    assert "Hand 1 saved." in html
    assert "Leading: <strong>Asha</strong>" in html


def test_an_invalid_hand_shows_errors_and_stores_nothing(app, client):
    url = create_match(client)
    bad = hand_form(BY_CARDS, tiplu="", **{"players-3-seen": ""})
    response = client.post(f"{url}/hands/new", data=bad)
    assert response.status_code == 422
    html = response.get_data(as_text=True)
    assert re.search(r'id="players-3-seen-errors">\s*<li>Choose how this player saw', html)
    assert 'value="7H 8H 9H 5C"' in html  # what was entered stays
    assert rows(app, Hand) == 0


def test_a_finish_not_among_the_choices_is_refused_not_taken_as_sequences(app, client):
    """A crafted post (the radio buttons offer only the three): the engine's sentence on
    the finish, nothing stored. Left out, the finish is the winner's route, as in the API."""
    url = create_match(client)
    response = client.post(f"{url}/hands/new", data=hand_form(WORKED, finish="x"))
    assert response.status_code == 422
    html = response.get_data(as_text=True)
    assert re.search(r'id="finish-errors">\s*<li>Choose how the hand ended: by sequences', html)
    assert rows(app, Hand) == 0
    left_out = hand_form(DUBLEE_FINISH)
    del left_out["finish"]
    assert client.post(f"{url}/hands/new", data=left_out).status_code == 303
    stored = client.get(f"/api/v1{url}").get_json()["hands"]
    assert [(h["winner"], h["finish"]) for h in stored] == [("Dipa", "dublees")]


def test_sit_outs(client):
    url = create_match(client)
    add_hand(client, url, THREE_PLAY)
    html = client.get(url).get_data(as_text=True)
    assert page_totals(html) == {**engine_nets(THREE_PLAY), "Dipa": 0}
    assert '<span class="out">out</span>' in html
    assert "Sat out hand 1: Dipa." in squash(html)
    # The next hand starts with the same players: Dipa's switch is off.
    form = client.get(f"{url}/hands/new").get_data(as_text=True)
    assert 'id="players-3-plays" name="players-3-plays" type="checkbox" value="y">' in form
    assert 'checked id="players-0-plays"' in form


def test_more_than_five_players_preselect_five(client):
    six = ["Asha", "Bikash", "Chandra", "Dipa", "Esha", "Gopal"]
    url = create_match(client, players=six, first_dealer="4")
    form = client.get(f"{url}/hands/new").get_data(as_text=True)
    playing = re.findall(r'checked id="players-(\d)-plays"', form)
    assert playing == ["0", "1", "2", "3", "5"]  # the dealer (Esha) sits out in turn


def test_foul_penalty_carried_to_the_next_hand_is_shown(app, client):
    url = create_match(
        client, **{"rules-foul": "next_hand", "rules-foul_penalty": "15", "length_kind": "open"}
    )
    fouled = {
        **WORKED,
        "players": [
            *WORKED["players"][:2],
            {"name": "Chandra", "seen": "sequences", "foul": True},
            WORKED["players"][3],
        ],
    }
    add_hand(client, url, fouled)
    add_hand(client, url, BY_COUNTS)
    html = client.get(url).get_data(as_text=True)
    assert '<span class="carried">+15 foul</span>' in html
    assert '<span class="carried">\u221215 foul</span>' in html
    hand_page = client.get(f"{url}/hands/2").get_data(as_text=True)
    assert "Foul penalties from an earlier hand settled in this one" in hand_page


# --- editing -----------------------------------------------------------------------------


def test_the_edit_form_writes_its_numbers_in_the_pages_digits(client):
    """A page in Devanagari digits showed a stored hand's maal and counts in Western
    digits in its boxes, beside १, २ everywhere else: they are the page's digits now
    (typed digits of either kind are read, docs/rule-choices.md). A box holding what is
    no number keeps it as typed, beside its error."""
    url = create_match(client)
    add_hand(client, url, WORKED)
    add_hand(client, url, BY_COUNTS)
    client.get("/digits/deva")
    total = client.get(f"{url}/hands/1/edit").text
    assert re.search(r'id="players-0-maal" inputmode="numeric"[^>]*value="१०"', total)
    counts = client.get(f"{url}/hands/2/edit").text
    assert re.search(r'id="players-1-count_tiplu"[^>]*value="२"', counts)
    assert not re.search(r'inputmode="numeric"[^>]*value="[0-9]', counts)
    posted = hand_form({**WORKED, "players": [{**WORKED["players"][0], "maal": "2.5"}]})
    refused = client.post(f"{url}/hands/1/edit", data={**posted, "version": "1"}).text
    assert re.search(r'id="players-0-maal"[^>]*value="2.5"', refused)
    client.get("/digits/latn")
    assert re.search(
        r'id="players-1-count_tiplu"[^>]*value="2"', client.get(f"{url}/hands/2/edit").text
    )


def test_edit_a_hand_keeps_the_old_version_in_its_history(client):
    url = create_match(client)
    add_hand(client, url, WORKED)
    form = client.get(f"{url}/hands/1/edit").get_data(as_text=True)
    assert 'name="version" type="hidden" value="1"' in form
    assert 'id="players-0-maal" inputmode="numeric"' in form and 'value="10"' in form
    changed = {**WORKED, "players": [{**WORKED["players"][0], "maal": 12}, *WORKED["players"][1:]]}
    response = client.post(f"{url}/hands/1/edit", data=hand_form(changed, version="1"))
    assert response.status_code == 303
    assert page_totals(client.get(url).get_data(as_text=True)) == engine_nets(changed)
    page = client.get(f"{url}/hands/1").get_data(as_text=True)
    assert "Changed 1 time." in page
    history = page.split('id="history-title"')[1]
    assert "Version 1</strong>, replaced by a change" in history
    assert "+41" in history  # Asha's net in the old version


def test_a_stale_edit_is_refused_and_nothing_is_lost(client):
    url = create_match(client)
    add_hand(client, url, WORKED)
    theirs = {**WORKED, "winner": "Bikash"}
    assert (
        client.post(f"{url}/hands/1/edit", data=hand_form(theirs, version="1")).status_code == 303
    )
    mine = {**WORKED, "players": [{**WORKED["players"][0], "maal": 17}, *WORKED["players"][1:]]}
    response = client.post(f"{url}/hands/1/edit", data=hand_form(mine, version="1"))
    assert response.status_code == 409
    html = response.get_data(as_text=True)
    assert "Not saved." in html and "changed by someone else" in html
    assert 'value="17"' in html  # what I entered is still in the form
    assert "Their version of hand 1" in html
    assert hidden(html, "version") == "2"  # saving again replaces theirs, knowingly
    # Nothing changed: the totals are still theirs.
    assert page_totals(client.get(url).get_data(as_text=True)) == engine_nets(theirs)
    again = client.post(f"{url}/hands/1/edit", data=hand_form(mine, version="2"))
    assert again.status_code == 303
    assert page_totals(client.get(url).get_data(as_text=True)) == engine_nets(mine)


def test_editing_a_hand_deleted_meanwhile_offers_a_new_hand(client):
    url = create_match(client)
    add_hand(client, url, WORKED)
    client.post(f"{url}/hands/1/delete", data={"version": "1"})
    # The hand is gone: the edit page is 404; a stale post keeps the data and offers to
    # save it as a new hand.
    assert client.get(f"{url}/hands/1/edit").status_code == 404
    mine = {**WORKED, "players": [{**WORKED["players"][0], "maal": 17}, *WORKED["players"][1:]]}
    response = client.post(f"{url}/hands/1/edit", data=hand_form(mine, version="1"))
    assert response.status_code == 409
    html = response.get_data(as_text=True)
    assert "deleted by someone else" in html and 'value="17"' in html
    assert f'action="{url}/hands/new"' in html and "Save as a new hand" in html
    saved = client.post(f"{url}/hands/new", data=hand_form(mine))
    assert saved.status_code == 303
    assert page_totals(client.get(url).get_data(as_text=True)) == engine_nets(mine)
    assert client.post(f"{url}/hands/9/edit", data=hand_form(mine)).status_code == 404


def test_edit_without_a_version_is_a_conflict(client):
    url = create_match(client)
    add_hand(client, url, WORKED)
    response = client.post(f"{url}/hands/1/edit", data=hand_form(VOID))
    assert response.status_code == 409
    assert page_totals(client.get(url).get_data(as_text=True)) == engine_nets(WORKED)


# --- deleting ----------------------------------------------------------------------------


def test_delete_asks_first_then_deletes(app, client):
    url = create_match(client)
    add_hand(client, url, WORKED)
    add_hand(client, url, BY_COUNTS)
    confirm = client.get(f"{url}/hands/1/delete")
    html = confirm.get_data(as_text=True)
    assert "Delete hand 1?" in html and "totals will change" in html
    assert rows(app, Hand) == 2  # asking deletes nothing
    response = client.post(f"{url}/hands/1/delete", data={"version": hidden(html, "version")})
    assert response.status_code == 303
    page = client.get(url).get_data(as_text=True)
    assert page_totals(page) == engine_nets(BY_COUNTS)
    assert 'aria-label="Hand 1"' not in page and 'aria-label="Hand 2"' in page
    assert "Hand 3 is dealt by" in page  # numbers are not reused
    gone = client.get(f"{url}/hands/1").get_data(as_text=True)
    assert "This hand was deleted" in gone and "Version 1</strong>, deleted" in gone
    assert client.get(f"{url}/hands/7").status_code == 404
    # Deleting it again (a second scorekeeper's stale page) just says so.
    again = client.post(f"{url}/hands/1/delete", data={"version": "1"}, follow_redirects=True)
    assert "had already been deleted" in again.get_data(as_text=True)
    assert client.get(f"{url}/hands/1/delete").status_code == 404
    assert client.post(f"{url}/hands/7/delete", data={"version": "1"}).status_code == 404


def test_a_stale_delete_is_refused(client):
    url = create_match(client)
    add_hand(client, url, WORKED)
    client.post(f"{url}/hands/1/edit", data=hand_form(BY_COUNTS, version="1"))
    response = client.post(f"{url}/hands/1/delete", data={"version": "1"})
    assert response.status_code == 409
    assert "Not deleted." in response.get_data(as_text=True)
    assert page_totals(client.get(url).get_data(as_text=True)) == engine_nets(BY_COUNTS)
