"""The dispute checker (/check): the hand form, its preview, errors, share links, CSRF."""

from __future__ import annotations

import base64
import html
import json
import re
from urllib.parse import parse_qs, urlsplit

import pytest

from ledger.matches.share_link import decode_hand_link, encode_hand_link

WORKED = [  # docs/rules.md §3: murder, four players
    ("Asha", "sequences", 10),
    ("Bikash", "sequences", 5),
    ("Chandra", "sequences", 0),
    ("Dipa", "unseen", 8),
]


def hand_form(players, *, profile="sparkai", finish="sequences", winner="0", **extra):
    """Form data as the page posts it; each player is (name, seen, maal) or a dict of
    the row's fields."""
    data = {"rules-profile": profile, "finish": finish, "winner": winner}
    for i, player in enumerate(players):
        if isinstance(player, tuple):
            name, seen, maal = player
            player = {"name": name, "seen": seen, "maal_mode": "number", "maal": str(maal)}
        for key, value in player.items():
            data[f"players-{i}-{key}"] = value
    data.update(extra)
    return data


def text_of(body: str) -> str:
    """The page's visible text, roughly: tags out, entities decoded, spaces squeezed."""
    body = re.sub(r"<(script|style)[^>]*>.*?</\1>", " ", body, flags=re.S)
    return re.sub(r"\s+", " ", html.unescape(re.sub(r"<[^>]+>", " ", body)))


def nets(body: str) -> dict[str, str]:
    """The Result table's nets: {name: "+41"}."""
    table = re.search(r'<table class="nets">(.*?)</table>', body, re.S).group(1)
    rows = re.findall(r'<th scope="row">(.*?)</th>\s*<td[^>]*>(.*?)</td>', table, re.S)
    return {
        text_of(name).replace(" finished", "").strip(): text_of(net).strip() for name, net in rows
    }


def errors_of(body: str, field_id: str) -> str:
    found = re.search(
        rf'<ul class="field-errors" id="{re.escape(field_id)}-errors">(.*?)</ul>', body, re.S
    )
    return text_of(found.group(1)) if found else ""


def share_link(body: str) -> str:
    return html.unescape(re.search(r'id="share-link"[^>]*value="([^"]+)"', body).group(1))


MINUS = "\u2212"


def test_checker_renders_empty_form(client):
    response = client.get("/check")
    assert response.status_code == 200
    body = response.get_data(as_text=True)
    for i in range(4):
        assert f'name="players-{i}-name"' in body
    assert 'name="players-4-name"' not in body
    assert 'name="rules-profile"' in body
    assert 'name="rules-unseen_maal"' in body  # the overrides
    assert 'hx-post="/check/preview"' in body
    assert 'hx-trigger="input changed delay:400ms, change"' in body
    assert re.search(r'src="/static/js/hand-form\.[0-9a-f]{12}\.js"', body)  # fingerprinted
    # CSP: no inline code or styles anywhere on the page.
    assert "<style" not in body and " style=" not in body
    assert "<script>" not in body and " onclick=" not in body and " onchange=" not in body
    # The profile's key values are shown (Amar Nepal: tiplu 3 / 8, printed jokers).
    text = text_of(body)
    assert "Tiplu 3 / 8" in text
    assert "Printed joker" in text


def test_worked_example_through_the_form(client):
    response = client.post("/check", data=hand_form(WORKED))
    assert response.status_code == 200
    body = response.get_data(as_text=True)
    assert nets(body) == {
        "Asha": "+41",
        "Bikash": "+2",
        "Chandra": MINUS + "18",
        "Dipa": MINUS + "25",
    }
    text = text_of(body)
    assert "Asha pays Bikash 2" in text
    assert "Chandra pays Asha 18" in text
    assert "Dipa pays Asha 25" in text
    # The steps a table checks: T, n × E − T, fees, murder.
    assert "10 + 5 + 0 + 0 = 15" in text
    assert f"4 × 10 {MINUS} 15" in text
    assert "unseen: murdered" in text
    assert "received: Bikash 3, Chandra 3, Dipa 10" in text


def test_three_player_example_by_counts(client):
    """docs/rules.md §3, three players; B's 2 entered as a stepper count (one poplu = 2)."""
    players = [
        ("A", "sequences", 10),
        {"name": "B", "seen": "sequences", "maal_mode": "counts", "count_poplu": "1"},
        {"name": "C", "seen": "unseen", "maal_mode": "counts"},
    ]
    body = client.post("/check", data=hand_form(players)).get_data(as_text=True)
    assert nets(body) == {"A": "+31", "B": MINUS + "9", "C": MINUS + "22"}
    assert "Poplu" in text_of(body)


def test_cards_with_a_tiplu(client):
    players = [
        {"name": "Asha", "seen": "sequences", "maal_mode": "cards", "maal_cards": "7h, 8H 9H 8d"},
        {"name": "Bikash", "seen": "sequences", "maal_mode": "counts"},
    ]
    body = client.post("/check", data=hand_form(players, profile="amarnepal", tiplu="8H"))
    body = body.get_data(as_text=True)
    text = text_of(body)
    # A marriage (10) and an alter (5): 15; n = 2, T = 15: Asha +15 +3 fee.
    assert "Marriage 7♥ 8♥ 9♥" in text
    assert "Alter 8♦" in text
    assert "Own maal 15" in text
    assert nets(body) == {"Asha": "+18", "Bikash": MINUS + "18"}
    assert "Tiplu 8♥" in text  # and its family
    assert "poplu 9♥" in text


@pytest.mark.parametrize(
    ("lang", "line", "doubled"),
    [("en", "Printed joker × 2 table", "Joker"), ("ne", "छापिएको जोकर × २ तालिका", "जोकर जोकर")],
)
def test_a_printed_joker_is_named_once(client, lang, line, doubled):
    """A printed joker's card is "Joker": its line read "Printed joker Joker", the word
    twice (in Nepali too). The name says the cards; the count says how many."""
    client.get(f"/lang/{lang}")
    players = [
        {"name": "Asha", "seen": "sequences", "maal_mode": "cards", "maal_cards": "JK JK 8d"},
        {"name": "Bikash", "seen": "sequences", "maal_mode": "counts"},
    ]
    body = client.post("/check", data=hand_form(players, profile="amarnepal", tiplu="8H"))
    text = text_of(body.get_data(as_text=True))
    assert line in text
    assert "Joker Joker" not in text and doubled not in text.replace(line, "")
    assert "8♦" in text  # the alter's card is still shown


def test_cards_without_a_tiplu_ask_for_it(client):
    players = [
        {"name": "Asha", "seen": "sequences", "maal_mode": "cards", "maal_cards": "8H"},
        ("Bikash", "sequences", 0),
    ]
    response = client.post("/check", data=hand_form(players))
    assert response.status_code == 422
    assert "Enter the tiplu" in errors_of(response.get_data(as_text=True), "tiplu")


def test_errors_show_beside_their_fields(client):
    players = [
        {"name": "Asha", "seen": "sequences", "maal_mode": "cards", "maal_cards": "8H 1X"},
        {"name": "Bikash", "maal_mode": "counts", "count_poplu": "two"},
        {"name": "Chandra", "seen": "sequences", "maal_mode": "counts", "count_tiplu": "9"},
    ]
    response = client.post("/check", data=hand_form(players, tiplu="8H", finish="", winner=""))
    assert response.status_code == 422
    body = response.get_data(as_text=True)
    assert "'1X' is not a card" in errors_of(body, "players-0-maal_cards")
    assert "Choose how this player saw" in errors_of(body, "players-1-seen")
    assert "Enter a whole number" in errors_of(body, "players-1-count_poplu")
    # The tiplu's own range (its third copy is the indicator), naming the player.
    assert "Chandra cannot hold 9 tiplus" in errors_of(body, "players-2-count_tiplu")
    assert "Enter 0 to 2." in errors_of(body, "players-2-count_tiplu")
    assert "Choose how the hand ended" in errors_of(body, "finish")
    assert 'aria-invalid="true"' in body
    assert '<table class="nets">' not in body  # nothing settled


@pytest.mark.parametrize("lang", ["en", "ne"])
def test_a_maal_entered_in_no_way_of_the_form_is_refused_on_its_field(client, lang):
    """A "Maal entered as" none of the form's ways (a form sent by hand) was read as
    counts, silently: Asha's total of 15 settled as no maal at all."""
    players = [
        {"name": "Asha", "seen": "sequences", "maal_mode": "total", "maal": "15"},
        ("Bikash", "sequences", 0),
    ]
    client.get(f"/lang/{lang}")
    response = client.post("/check", data=hand_form(players))
    assert response.status_code == 422
    body = response.get_data(as_text=True)
    message = {
        "en": "Choose how the maal is entered: as a count, as cards, or as a total.",
        "ne": "माल कसरी हाल्ने छान्नुहोस्: गन्ती, पत्ता, वा जम्मा।",
    }[lang]
    assert message in errors_of(body, "players-0-maal_mode")
    assert '<table class="nets">' not in body


def test_whole_hand_problems_show_at_the_top(client):
    response = client.post("/check", data=hand_form([("Asha", "sequences", 3)]))
    body = response.get_data(as_text=True)
    top = re.search(r'<div class="form-problems".*?</div>', body, re.S).group(0)
    assert "A hand has 2 to 5 players" in text_of(top)


def test_empty_rows_are_left_out(client):
    players = [("Asha", "sequences", 4), ("Bikash", "unseen", 0), {"name": ""}, {"name": ""}]
    body = client.post("/check", data=hand_form(players)).get_data(as_text=True)
    assert set(nets(body)) == {"Asha", "Bikash"}


def test_names_full_of_html_are_escaped(client):
    evil = '<script>alert("x")</script><b>'
    players = [(evil, "sequences", 10), ("Bo&b", "sequences", 5)]
    body = client.post("/check", data=hand_form(players)).get_data(as_text=True)
    assert "<script>alert" not in body
    assert "<b>" not in body
    assert "&lt;script&gt;alert(" in body
    assert nets(body) == {evil: "+8", "Bo&b": MINUS + "8"}
    # A problem that quotes the name is escaped too.
    twice = [(evil, "sequences", 1), (evil, "sequences", 2)]
    body = client.post("/check", data=hand_form(twice)).get_data(as_text=True)
    assert "listed twice" in body
    assert "<script>alert" not in body


def test_preview_returns_the_partial(client):
    response = client.post("/check/preview", data=hand_form(WORKED, drawn_for='"sparkai"'))
    assert response.status_code == 200
    assert "HX-Retarget" not in response.headers
    body = response.get_data(as_text=True)
    assert "<html" not in body and "<form" not in body
    assert '<section class="settlement"' in body
    assert nets(body)["Asha"] == "+41"
    assert 'id="share-link"' in body


def test_preview_lists_problems_by_player(client):
    players = [("Asha", "sequences", 10), {"name": "Bikash", "maal_mode": "counts"}]
    data = hand_form(players, drawn_for='"sparkai"')
    body = client.post("/check/preview", data=data).get_data(as_text=True)
    assert "Not settled yet" in body
    assert 'href="#players-1-seen">Bikash · Seen</a>' in body
    assert "HX-Retarget" not in client.post("/check/preview", data=data).headers


def test_preview_redraws_the_form_for_other_rules(client):
    data = hand_form(WORKED, profile="classic", drawn_for='"amarnepal"')
    response = client.post("/check/preview", data=data)
    assert response.headers["HX-Retarget"] == "#check-form"
    assert response.headers["HX-Reswap"] == "outerHTML"
    body = response.get_data(as_text=True)
    assert '<div class="hand-entry" id="check-form">' in body
    assert 'name="drawn_for" type="hidden" value="&#34;classic&#34;"' in body
    assert "players-0-count_alter" not in body  # classic: the alter is no maal
    assert 'value="Asha"' in body
    assert nets(body)["Asha"] == "+41"


def test_overrides_change_the_settlement(client):
    data = hand_form(WORKED, **{"rules-unseen_maal": "kidnap"})
    body = client.post("/check", data=data).get_data(as_text=True)
    # Kidnap: Dipa's 8 goes to Asha: E 18, T 23; Asha 72 − 23 + 16 = 65.
    assert nets(body)["Asha"] == "+65"
    text = text_of(body)
    assert "unseen_maal" not in text or "kidnap" in text
    assert "plus the kidnapped maal of Dipa (8)" in text
    assert "changed: unseen maal kidnap" in text


def test_bad_override_shows_beside_it(client):
    data = hand_form(WORKED, **{"rules-tiplu": "three", "rules-fee_unseen": "-1"})
    response = client.post("/check", data=data)
    assert response.status_code == 422
    body = response.get_data(as_text=True)
    assert "totals for holding 1, 2, 3" in errors_of(body, "rules-tiplu")
    assert '<table class="nets">' not in body
    data = hand_form(WORKED, **{"rules-fee_unseen": "-1"})
    body = client.post("/check", data=data).get_data(as_text=True)
    assert "0 to 1000" in errors_of(body, "rules-fee_unseen")


def test_add_a_player(client):
    body = client.post("/check", data=hand_form(WORKED, action="add_player"))
    body = body.get_data(as_text=True)
    assert 'name="players-4-name"' in body
    assert 'value="Dipa"' in body
    assert "Add a player" not in body  # five is the most


def test_share_link_round_trip(client):
    data = hand_form(
        [
            {"name": "Asha", "seen": "sequences", "maal_mode": "cards", "maal_cards": "7H 8H 9H"},
            {"name": "Bikash", "seen": "dublees", "maal_mode": "counts", "count_tiplu": "1"},
            ("Chandra", "unseen", 8),
            {"name": "Dipa", "seen": "sequences", "maal_mode": "counts", "dealt_tunnelas": "5S"},
        ],
        profile="amarnepal",
        tiplu="8H",
        **{"rules-unseen_maal": "kidnap"},
    )
    first = client.post("/check", data=data).get_data(as_text=True)
    link = share_link(first)
    query = parse_qs(urlsplit(link).query)
    request_json = decode_hand_link(query["h"][0])
    assert request_json["rules"] == {"profile": "amarnepal", "unseen_maal": "kidnap"}
    assert request_json["players"][0]["maal_cards"] == ["7H", "8H", "9H"]
    assert request_json["players"][3]["dealt_tunnelas"] == ["5S"]
    # The API settles the same request to the same nets.
    api = client.post("/api/v1/settle", json=request_json).get_json()
    again = client.get(urlsplit(link).path + "?" + urlsplit(link).query)
    assert again.status_code == 200
    body = again.get_data(as_text=True)
    assert nets(body) == nets(first)
    assert {p["name"]: p["net"] for p in api["players"]}["Asha"] == int(nets(body)["Asha"])
    assert re.search(r'name="players-0-maal_cards"[^>]*value="7H 8H 9H"', body)
    assert '<option selected value="kidnap">' in body
    assert share_link(body) == link


def test_share_link_encoding():
    request_json = {"rules": "sparkai", "tiplu": None, "players": [{"name": "दिपा"}]}
    h = encode_hand_link(request_json)
    assert re.fullmatch(r"[A-Za-z0-9_-]+", h)
    assert decode_hand_link(h) == {"rules": "sparkai", "players": [{"name": "दिपा"}]}


def b64(text: str) -> str:
    return base64.urlsafe_b64encode(text.encode()).decode().rstrip("=")


@pytest.mark.parametrize(
    ("h", "message"),
    [
        ("!!not-base64!!", "damaged"),
        ("", "damaged"),
        ("a", "damaged"),
        (b64('{"players": [1, 2'), "damaged"),
        (b64("[1, 2]"), "does not hold a hand"),
        (base64.urlsafe_b64encode(b"\xff\xfe{}").decode(), "damaged"),
        ("A" * 9000, "too long"),
    ],
)
def test_bad_share_link_is_a_clear_message(client, h, message):
    response = client.get("/check", query_string={"h": h})
    assert response.status_code == 400
    body = response.get_data(as_text=True)
    assert message in body
    assert 'name="players-0-name"' in body  # an empty form to start again


@pytest.mark.parametrize(
    "request_json",
    [
        {"players": "everybody"},
        {"rules": 7, "players": [1, "x", {"name": ["A"], "seen": {}}]},
        {"rules": {"profile": "nope", "fee_seen": "x", "bogus": 1}, "winner": 5},
        {"players": [{"name": "A", "maal_counts": {"kings": 2}, "maal": "x"}] * 9},
        {"tiplu": {"x": 1}, "finish": ["void"], "players": [{"maal_cards": "8H"}]},
    ],
)
def test_odd_share_links_never_break(client, request_json):
    h = encode_hand_link(request_json)
    response = client.get("/check", query_string={"h": h})
    assert response.status_code == 200
    assert "Dispute checker" in response.get_data(as_text=True)


def test_share_link_with_an_invalid_hand_shows_its_problems(client):
    h = encode_hand_link({"rules": "sparkai", "players": [{"name": "Asha", "seen": "sequences"}]})
    body = client.get("/check", query_string={"h": h}).get_data(as_text=True)
    assert "A hand has 2 to 5 players" in body
    assert 'value="Asha"' in body


def test_csrf_is_required(csrf_client):
    refused = csrf_client.post("/check", data=hand_form(WORKED))
    assert refused.status_code == 400
    assert "This form has expired" in refused.get_data(as_text=True)
    assert csrf_client.post("/check/preview", data=hand_form(WORKED)).status_code == 400

    page = csrf_client.get("/check").get_data(as_text=True)
    token = re.search(r'name="csrf_token" value="([^"]+)"', page).group(1)
    accepted = csrf_client.post("/check", data={**hand_form(WORKED), "csrf_token": token})
    assert accepted.status_code == 200
    assert nets(accepted.get_data(as_text=True))["Asha"] == "+41"
    # htmx sends the token in a header (hx-headers on <body>).
    assert json.loads(html.unescape(re.search(r"hx-headers='([^']+)'", page).group(1)))
    preview = csrf_client.post(
        "/check/preview",
        data=hand_form(WORKED, drawn_for='"sparkai"'),
        headers={"X-CSRFToken": token},
    )
    assert preview.status_code == 200
    assert nets(preview.get_data(as_text=True))["Dipa"] == MINUS + "25"


def test_why_the_finisher_pays_a_player(client):
    """Chandra's maal points (4 × 15 − 26 = +34) are more than the fee Chandra owes the
    finisher Dipa (3): netted, Dipa pays Chandra 31, and the page says why."""
    body = client.post("/check", data=hand_form(FINISHER_PAYS, winner="3")).get_data(as_text=True)
    text = text_of(body)
    assert "Dipa pays Chandra 31" in text
    assert (
        f"Why Dipa pays: Chandra's maal points (4 × 15 {MINUS} 26 = +34) are more than the "
        f"fee Chandra owes Dipa (3); the two are netted into one payment, 34 {MINUS} 3 = 31."
    ) in text
    # Only where the finisher pays: those who pay the finisher need no word of why.
    assert text.count("Why ") == 1
    # The worked example's Asha pays Bikash 2: his +5 less the seen fee 3.
    worked = text_of(client.post("/check", data=hand_form(WORKED)).get_data(as_text=True))
    assert f"Bikash's maal points (4 × 5 {MINUS} 15 = +5)" in worked
    assert f"5 {MINUS} 3 = 2." in worked
    # Where the house charges a seen player no fee, the maal points are the payment.
    free = hand_form(FINISHER_PAYS, winner="3", **{"rules-fee_seen": "0"})
    text = text_of(client.post("/check", data=free).get_data(as_text=True))
    assert "Dipa pays Chandra 34" in text
    assert (
        f"Why Dipa pays: Chandra owes Dipa no fee, and Chandra's maal points are "
        f"4 × 15 {MINUS} 26 = +34."
    ) in text


def test_why_the_finisher_pays_in_nepali(client):
    body = client.post(
        "/check", data=hand_form(FINISHER_PAYS, winner="3"), headers={"Accept-Language": "ne"}
    ).get_data(as_text=True)
    text = text_of(body)
    assert "Why Dipa pays" not in text
    assert "Dipa किन तिर्छ" in text
    assert "३४ − ३ = ३१" in text


FINISHER_PAYS = [
    ("Asha", "sequences", 5),
    ("Bikash", "sequences", 6),
    ("Chandra", "sequences", 15),
    ("Dipa", "sequences", 0),
]


def test_why_a_cards_grouping_won(client):
    """docs/rules.md §2's example as cards (classic): no marriage (23) beats one (20)."""
    players = [
        {
            "name": "Asha",
            "seen": "sequences",
            "maal_mode": "cards",
            "maal_cards": "8H 9H 9H 9H 7H 7H 7H",
        },
        {"name": "Bikash", "seen": "sequences", "maal_mode": "counts", "count_tiplu": "1"},
    ]
    data = hand_form(players, profile="classic", tiplu="8H")
    text = text_of(client.post("/check", data=data).get_data(as_text=True)).replace(" .", ".")
    assert "Own maal 23" in text
    assert (
        "These cards could form other numbers of marriages; the maal each way: "
        "one marriage: 20 · no marriage: 23 (chosen). These house rules form the number "
        "of marriages that scores most (the fewest on a tie)."
    ) in text
    # Counts say nothing of it (entered as counts, not cards); the live preview says it too.
    assert text.count("could form other numbers") == 1
    live = text_of(client.post("/check/preview", data=data).get_data(as_text=True))
    assert "no marriage: 23 (chosen)" in live
    # Where the house forms as many as it can, the one marriage is chosen.
    first = {**data, "rules-marriage_grouping": "marriages_first"}
    text = text_of(client.post("/check", data=first).get_data(as_text=True)).replace(" .", ".")
    assert "one marriage: 20 (chosen) · no marriage: 23." in text
    assert "form as many marriages as the cards allow" in text
    # In Nepali.
    ne = client.post("/check", data=data, headers={"Accept-Language": "ne"})
    assert "(चुनिएको)" in text_of(ne.get_data(as_text=True))


def test_rows_open_compact_and_seen_by_sequences(client):
    """As the match's hand form opens a plain hand: each row a total box, seen by
    sequences, "More" closed; the hand finished by sequences."""
    body = client.get("/check").get_data(as_text=True)
    for i in range(4):
        seen = re.search(rf'<input[^>]*name="players-{i}-seen"[^>]*value="sequences"[^>]*>', body)
        assert seen and "checked" in seen.group(0), i
        mode = re.search(rf'<input[^>]*name="players-{i}-maal_mode"[^>]*value="number"[^>]*>', body)
        assert mode and "checked" in mode.group(0), i
    assert '<details class="more" open' not in body
    finish = re.search(r'<input[^>]*name="finish"[^>]*value="sequences"[^>]*>', body).group(0)
    assert "checked" in finish


def test_rows_left_blank_are_no_players_without_script(client):
    """The form posted as it opened, two rows filled in: the two blank rows (seen by
    sequences, a total box) are no players."""
    data = hand_form([("Asha", "sequences", 10), ("Bikash", "sequences", 3)], profile="sparkai")
    for i in (2, 3):
        data.update({f"players-{i}-name": "", f"players-{i}-seen": "sequences"})
        data.update({f"players-{i}-maal_mode": "number", f"players-{i}-maal": ""})
    response = client.post("/check", data=data)
    assert response.status_code == 200
    assert nets(response.get_data(as_text=True)) == {"Asha": "+10", "Bikash": MINUS + "10"}
    # A row with a maal but no name is still asked for its name.
    data["players-2-maal"] = "4"
    assert client.post("/check", data=data).status_code == 422
    # "Add a player" (no script) adds a row that opens the same way.
    added = client.post("/check", data={**data, "action": "add_player"}).get_data(as_text=True)
    mode = re.search(r'<input[^>]*name="players-4-maal_mode"[^>]*value="number"[^>]*>', added)
    assert mode and "checked" in mode.group(0)


def unseen_notes(body: str) -> dict[int, str]:
    """Each row's note on an unseen player's maal, shown ("" where the row has it hidden)."""
    notes = re.findall(
        r'<p class="unseen-maal" id="player-(\d+)-unseen-maal"( hidden)?>(.*?)</p>', body, re.S
    )
    return {int(row): "" if hidden else text_of(words).strip() for row, hidden, words in notes}


def test_an_unseen_players_maal_says_what_it_counts_by_the_box(client):
    """The settlement said an unseen player's maal counts 0 under murder; the form, where
    it is typed, said nothing. The note shows beside the maal of the row marked unseen
    (the maal is still taken and kept); kidnap says the finisher takes it; keep needs no
    note. A form shown again with a problem keeps it."""
    murder = client.post("/check", data=hand_form(WORKED)).text
    assert unseen_notes(murder) == {
        0: "",
        1: "",
        2: "",
        3: "Murder: maal counts 0",
    }
    assert 'id="players-3-maal"' in murder and 'value="8"' in murder  # taken, not refused
    kidnap = client.post("/check", data=hand_form(WORKED, **{"rules-unseen_maal": "kidnap"}))
    assert unseen_notes(kidnap.text)[3] == "Kidnap: maal to the finisher"
    keep = client.post("/check", data=hand_form(WORKED, **{"rules-unseen_maal": "keep"}))
    assert unseen_notes(keep.text) == {}
    again = client.post("/check", data=hand_form(WORKED, finish="", winner=""))
    assert again.status_code == 422
    assert unseen_notes(again.text)[3] == "Murder: maal counts 0"
    nepali = client.post("/check", data=hand_form(WORKED), headers={"Accept-Language": "ne"})
    assert "मर्डर" in unseen_notes(nepali.text)[3] and "०" in unseen_notes(nepali.text)[3]


def test_a_points_race_that_murders_says_so_in_the_settlement(client):
    """A points race counts everyone's own maal, but a table that sets unseen_maal to
    murder (or kidnap) drops an unseen player's: the engine gives Dipa E = 0, and the
    step-by-step settlement says why instead of "everyone's own maal counts"."""
    murder = client.post(
        "/check", data=hand_form(WORKED, profile="gamerules", **{"rules-unseen_maal": "murder"})
    )
    assert murder.status_code == 200
    assert "unseen: murdered, counts 0" in text_of(murder.text)
    kidnap = client.post(
        "/check", data=hand_form(WORKED, profile="gamerules", **{"rules-unseen_maal": "kidnap"})
    )
    words = text_of(kidnap.text)
    assert "unseen: kidnapped by Asha, counts 0" in words
    assert "own 10, plus the kidnapped maal of Dipa (8)" in words
    kept = text_of(client.post("/check", data=hand_form(WORKED, profile="gamerules")).text)
    assert "murdered" not in kept and "points race: everyone's own maal counts" in kept


MARRIAGES_BY_COUNT = {
    "rules": "amarnepal",
    "tiplu": "8H",
    "finish": "sequences",
    "winner": "Asha",
    "players": [
        {"name": "Asha", "seen": "sequences", "maal": 0},
        {"name": "Bikash", "seen": "sequences", "maal_counts": {"marriage": 2, "poplu": 1}},
    ],
}


def test_a_link_with_marriages_entered_as_a_count_opens_with_them_in_their_box(client):
    """A shared hand whose maal gives marriages as a count (the API's
    ``maal_counts.marriage``, docs/rules.md §7) opens in the checker with them in their
    box and settles as the API does: the form had no box for them, so they were left out
    (with a note) and the settlement shown was not the link's."""
    api = client.post("/api/v1/settle", json=MARRIAGES_BY_COUNT).get_json()
    body = client.get("/check", query_string={"h": encode_hand_link(MARRIAGES_BY_COUNT)}).text
    assert re.search(r'name="players-1-count_marriage"[^>]*value="2"', body)
    assert "left out" not in body
    assert {name: int(net.replace(MINUS, "-")) for name, net in nets(body).items()} == {
        p["name"]: p["net"] for p in api["players"]
    }
    # The share link the checker offers is of the same hand, marriages included.
    shared = decode_hand_link(parse_qs(urlsplit(share_link(body)).query)["h"][0])
    assert shared["players"][1]["maal_counts"] == {"poplu": 1, "marriage": 2}


@pytest.mark.parametrize("typed", ["2", "२"])
def test_marriages_are_entered_as_a_count_in_the_form(client, typed):
    """The counts have a box for the marriages entered as such, in either digits; their
    step of the settlement says so."""
    players = [
        ("Asha", "sequences", 0),
        {"name": "Bikash", "seen": "sequences", "maal_mode": "counts", "count_marriage": typed},
    ]
    body = client.post("/check", data=hand_form(players, profile="amarnepal", tiplu="8H")).text
    assert re.search(r'<label for="players-1-count_marriage">Marriages</label>', body)
    # amarnepal: two marriages 30 (docs/rules.md §5); fees 3 / 10
    api = client.post(
        "/api/v1/settle",
        json={
            **MARRIAGES_BY_COUNT,
            "players": [
                {"name": "Asha", "seen": "sequences", "maal": 0},
                {"name": "Bikash", "seen": "sequences", "maal_counts": {"marriage": 2}},
            ],
        },
    ).get_json()
    assert {name: int(net.replace(MINUS, "-")) for name, net in nets(body).items()} == {
        p["name"]: p["net"] for p in api["players"]
    }
    assert "2 marriages" in text_of(body)


def test_a_marriage_count_past_the_tiplus_is_refused_on_its_box(client):
    players = [
        ("Asha", "sequences", 0),
        {"name": "Bikash", "seen": "sequences", "maal_mode": "counts", "count_marriage": "4"},
    ]
    response = client.post("/check", data=hand_form(players, profile="amarnepal", tiplu="8H"))
    assert response.status_code == 422
    assert "cannot hold 4 marriages" in errors_of(response.text, "players-1-count_marriage")


TUNNELA_IN_A_NUMBER = {
    "rules": "amarnepal",
    "tiplu": "8H",
    "finish": "sequences",
    "winner": "Asha",
    "players": [
        {"name": "Asha", "seen": "sequences", "maal": 0},
        {"name": "Bikash", "seen": "sequences", "maal": 25, "dealt_tunnelas": ["9H"]},
    ],
}


def test_a_dealt_tunnela_with_a_maal_total_is_a_step_of_the_settlement(client):
    """A maal entered as one number holds its dealt tunnelas (docs/rule-choices.md); the
    tunnela's bonus is still shown as a step, as with counts or cards, so a player can
    check it: the form read no tunnela beside a total, and the breakdown showed the
    number alone."""
    body = client.get("/check", query_string={"h": encode_hand_link(TUNNELA_IN_A_NUMBER)}).text
    words = text_of(body)
    assert "Dealt tunnela of poplus or jhiplus" in words
    assert "Included in the maal entered as one number" in words
    assert "less the dealt tunnelas' bonus above" in words
    shared = decode_hand_link(parse_qs(urlsplit(share_link(body)).query)["h"][0])
    assert shared["players"][1] == TUNNELA_IN_A_NUMBER["players"][1]
    players = [
        ("Asha", "sequences", 0),
        {
            "name": "Bikash",
            "seen": "sequences",
            "maal_mode": "number",
            "maal": "25",
            "dealt_tunnelas": "9H",
        },
    ]
    posted = client.post("/check", data=hand_form(players, profile="amarnepal", tiplu="8H"))
    assert "Dealt tunnela of poplus or jhiplus" in text_of(posted.text)
    assert nets(posted.text) == nets(body)


@pytest.mark.parametrize("lang", ["en", "ne"])
def test_a_link_with_a_setting_of_no_value_shows_no_english_word(client, lang):
    """A shared link whose house rules turn a table off (``"alter": null``) opens with
    "—" in that box, as its placeholder writes no value, not the English "none" on a
    Nepali page; the box reads it back as no value, so the link settles as the API."""
    request_json = {
        "rules": {"profile": "amarnepal", "alter": None},
        "tiplu": "8H",
        "finish": "sequences",
        "winner": "Asha",
        "players": [
            {"name": "Asha", "seen": "sequences", "maal_counts": {"alter": 2}},
            {"name": "Bikash", "seen": "sequences", "maal": 3},
            {"name": "Chandra", "seen": "unseen"},
        ],
    }
    link = "/check?h=" + encode_hand_link(request_json)
    body = client.get(link, headers={"Accept-Language": lang}).get_data(as_text=True)
    box = re.search(r'<input[^>]*name="rules-alter"[^>]*>', body).group(0)
    assert 'value="—"' in box
    api = client.post("/api/v1/settle", json=request_json).get_json()
    shown = sorted(map(int, re.findall(r'data-net="(-?\d+)"', body)))
    assert shown == sorted(p["net"] for p in api["players"])
