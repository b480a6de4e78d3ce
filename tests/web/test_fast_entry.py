"""A hand entered fast (issue 10), with the test client: the new-hand form's defaults
(every maal as a total, everyone seen, a finish by sequences), a
sit-out carried over and said on its row, the one-line result the preview sends out of
band, a match left unnamed, and where the edit link is."""

import re
from datetime import date
from html import unescape

import nepali_datetime
from match_pages_support import (
    PLAYERS,
    THREE_PLAY,
    WORKED,
    add_hand,
    create_match,
    engine_nets,
    hand_form,
    new_match_form,
    squash,
)
from sqlalchemy import select

from ledger.extensions import db
from ledger.matches.models import Match

NE = {"Accept-Language": "ne"}
MIXED = {  # each player's maal entered another way
    "tiplu": "8H",
    "finish": "sequences",
    "winner": "Asha",
    "players": [
        {"name": "Asha", "seen": "sequences", "maal_cards": ["8H", "8D"]},
        {"name": "Bikash", "seen": "sequences", "maal_counts": {"poplu": 1}},
        {"name": "Chandra", "seen": "unseen", "maal": 4},
        {"name": "Dipa", "seen": "sequences"},  # no maal: nothing was typed
    ],
}


def checked_mode(html: str, row: int) -> str:
    """The way of entering row ``row``'s maal that the form shows chosen."""
    radios = re.findall(rf'<input [^>]*name="players-{row}-maal_mode"[^>]*>', html)
    chosen = [re.search(r'value="(\w+)"', r).group(1) for r in radios if " checked " in r]
    assert len(chosen) == 1, radios
    return chosen[0]


def player_section(html: str, row: int) -> str:
    return html.split(f'id="player-{row}"')[1].split('<section class="player"')[0]


def more_is_open(html: str, row: int) -> bool:
    return '<details class="more" open>' in player_section(html, row)


def test_the_first_hand_starts_with_totals_seen_and_a_finish_by_sequences(client):
    url = create_match(client)
    html = client.get(f"{url}/hands/new").get_data(as_text=True)
    for row in range(4):
        assert checked_mode(html, row) == "number"
        assert not more_is_open(html, row)  # the total is on the row: nothing to open
        assert f'checked class="choice-input" id="players-{row}-seen-0"' in html
        assert (
            f'id="players-{row}-seen-0" name="players-{row}-seen" type="radio" value="sequences"'
            in html
        )
    assert 'checked class="choice-input" id="finish-0"' in html
    assert 'id="finish-0" name="finish" type="radio" value="sequences"' in html
    assert re.search(r"<option (selected )?value=\"\">Choose who finished</option>", html)
    assert '<option selected value="0">' not in html  # the finisher is never guessed


def test_every_row_opens_as_a_total_whatever_the_last_hand(client):
    """A row reopened by counts or cards hid its total box and took a screen more
    (issue 28): each new hand opens every row compact, "More" closed."""
    url = create_match(client)
    add_hand(client, url, MIXED)
    html = client.get(f"{url}/hands/new").get_data(as_text=True)
    assert [checked_mode(html, row) for row in range(4)] == ["number"] * 4
    assert [more_is_open(html, row) for row in range(4)] == [False] * 4


def test_defaults_save_as_they_show(app, client):
    """What the defaults show is what is saved: the form posted as served, with only
    the finisher chosen and the maal typed, stores the hand the engine settles."""
    url = create_match(client)
    html = client.get(f"{url}/hands/new").get_data(as_text=True)
    served = dict(re.findall(r'<input[^>]*checked[^>]*name="([^"]+)"[^>]*value="([^"]*)"', html))
    served.update(re.findall(r'<input type="hidden" name="([^"]+)" value="([^"]*)"', html))
    served.update({"players-0-maal": "10", "players-2-maal": "3", "winner": "0"})
    served["dealer"] = "Asha"
    response = client.post(f"{url}/hands/new", data=served)
    assert response.status_code == 303, response.get_data(as_text=True)
    expected = {
        "finish": "sequences",
        "winner": "Asha",
        "players": [
            {"name": "Asha", "seen": "sequences", "maal": 10},
            {"name": "Bikash", "seen": "sequences", "maal": 0},
            {"name": "Chandra", "seen": "sequences", "maal": 3},
            {"name": "Dipa", "seen": "sequences", "maal": 0},
        ],
    }
    hand_page = client.get(f"{url}/hands/1").get_data(as_text=True)
    shown = [int(n) for n in re.findall(r'data-net="(-?\d+)"', hand_page)]
    assert shown == list(engine_nets(expected).values())


def test_a_sit_out_carried_over_is_said_on_its_row(client):
    url = create_match(client)
    add_hand(client, url, THREE_PLAY)  # Dipa sits out
    html = client.get(f"{url}/hands/new").get_data(as_text=True)
    dipa = player_section(html, 3)
    assert 'class="carried-note" id="player-3-carried"' in dipa
    assert "Sat out the last hand, so sits out this one too." in squash(dipa)
    # The switch that undoes it is tied to the note, and is off.
    assert re.search(
        r'<input aria-describedby="player-3-carried" aria-label="Dipa plays this hand"'
        r' id="players-3-plays" name="players-3-plays" type="checkbox" value="y">',
        dipa,
    )
    for row in range(3):
        assert "carried-note" not in player_section(html, row)
    # Once Dipa plays again, nothing is carried.
    add_hand(client, url, WORKED)
    html = client.get(f"{url}/hands/new").get_data(as_text=True)
    assert "carried-note" not in html
    assert 'checked id="players-3-plays"' in html


def test_the_preview_sends_a_one_line_result(client):
    url = create_match(client)
    page = client.get(f"{url}/hands/new").get_data(as_text=True)
    # Only the one line is a live region; the tables are not read out on every change.
    assert '<p class="hand-status" id="hand-status" role="status">' in page
    assert "aria-live" not in page
    assert '<section class="preview" id="hand-preview" aria-label="Settlement preview">' in page

    settled = client.post(f"{url}/hands/preview", data=hand_form(WORKED, dealer="Asha"))
    html = settled.get_data(as_text=True)
    line = html.split('<div id="hand-status" hx-swap-oob="innerHTML">')[1].split("</div>")[0]
    nets = engine_nets(WORKED)
    words = re.sub(r"<[^>]+>", "", line).replace("&nbsp;", " ").replace("\u2212", "-")
    assert " ".join(words.split()) == "Result: " + ", ".join(
        f"{name} {net:+d}" for name, net in nets.items()
    )

    broken = hand_form(WORKED, dealer="Asha", winner="")
    html = client.post(f"{url}/hands/preview", data=broken).get_data(as_text=True)
    line = html.split('<div id="hand-status" hx-swap-oob="innerHTML">')[1].split("</div>")[0]
    assert "Not settled yet:" in line and 'href="#winner"' in line


def test_a_match_left_unnamed_is_named_for_its_day(app, client):
    response = client.post("/matches/new", data=new_match_form(name=""))
    assert response.status_code == 303
    today = date.today()
    with app.app_context():
        match = db.session.scalars(select(Match)).one()
        assert match.name == f"Match of {today.day} {today.strftime('%b')} {today.year}"
        assert match.player_names == PLAYERS

    client.post("/matches/new", data=new_match_form(name="  "), headers=NE)
    with app.app_context():
        named = db.session.scalars(select(Match).order_by(Match.id.desc())).first().name
    # In Nepali: the day by Bikram Sambat, and the day's second match numbered (issue 26).
    bs = nepali_datetime.date.from_datetime_date(today)
    deva = str.maketrans("0123456789", "०१२३४५६७८९")
    day = f"{str(bs.day).translate(deva)} {bs.strftime('%N')} {str(bs.year).translate(deva)}"
    assert named == f"{day} को म्याच (२)"

    # A stranger's first match of the day (another browser, on a ledger that hosts many)
    # is their first, whatever others started; and it does not number this browser's.
    app.test_client().post("/matches/new", data=new_match_form(name=""))
    with app.app_context():
        strangers = db.session.scalars(select(Match).order_by(Match.id.desc())).first().name
    assert strangers == f"Match of {today.day} {today.strftime('%b')} {today.year}"

    client.post("/matches/new", data=new_match_form(name=""))
    with app.app_context():
        third = db.session.scalars(select(Match).order_by(Match.id.desc())).first().name
    assert third == f"Match of {today.day} {today.strftime('%b')} {today.year} (3)"


def test_enter_in_the_new_match_form_starts_the_match(client):
    """The first submit button of a form is the one Enter presses: it is "Start the
    match" (out of sight), before "Add a player"."""
    html = client.get("/matches/new").get_data(as_text=True)
    buttons = re.findall(r'<button type="submit"[^>]*>([^<]*)</button>', html)
    assert buttons[0] == "Start the match" and buttons[1] == "Add a player"
    assert '<button type="submit" class="default-submit" tabindex="-1" aria-hidden="true">' in html


def test_the_match_page_says_where_the_edit_link_is_and_why(client):
    response = client.post("/matches/new", data=new_match_form(), follow_redirects=True)
    html = squash(response.get_data(as_text=True))
    assert "Its edit link is under “Share” at the foot of the match page" in html
    assert "keep a copy of it" in html and 'id="edit-link"' in html
    # The page itself keeps saying it, after the message is gone.
    page = client.get(response.request.path).get_data(as_text=True)
    assert "edit link is under" not in page
    assert "it is the only way back in if this browser's data is cleared" in unescape(squash(page))
