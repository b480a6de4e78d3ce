"""A player's own pages: the link is kept by the browser and leaves the address bar;
the page shows their money, payments and nights, and its forms (I paid, Received,
Not received, handles, the QR, a new link) write with the player's own key only."""

from __future__ import annotations

import html
import io
import re

import pytest
import segno
from match_pages_support import WORKED
from table_pages_support import ROSTER, create_table

STAKE = {"per_point": "1.00", "currency": "NPR"}


def _table(client) -> dict:
    body = {
        "name": "Friday table",
        "players": ["Asha", "Bikash", "Chandra", "Dipa"],
        "rules": "sparkai",
        "stake": STAKE,
    }
    made = client.post("/api/v1/tables", json=body).get_json()
    return {"id": made["id"], "auth": {"Authorization": f"Bearer {made['edit_key']}"}}


def _link(client, table, name) -> str:
    response = client.post(
        f"/api/v1/tables/{table['id']}/players/{name}/link", headers=table["auth"]
    )
    return response.get_json()["url"]


def _payments(client, table) -> list[dict]:
    return client.get(f"/api/v1/tables/{table['id']}/payments").get_json()["payments"]


def test_the_link_is_kept_and_opens_the_players_page(app, client):
    table = _table(client)
    url = _link(client, table, "Dipa")
    response = client.get(url.split("localhost", 1)[1])
    assert response.status_code == 303
    assert response.headers["Location"].endswith(f"/me/{table['id']}")
    page = client.get(f"/me/{table['id']}")
    assert page.status_code == 200
    html = page.get_data(as_text=True)
    assert "Dipa at Friday table" in html and "You are square." in html
    listed = client.get("/me").get_data(as_text=True)
    assert "Friday table" in listed and "(Dipa)" in listed


def test_without_the_link_the_page_is_403(client):
    table = _table(client)
    assert client.get(f"/me/{table['id']}").status_code == 403
    assert client.get("/me/join/not-a-key").status_code == 403
    assert client.post(f"/me/{table['id']}/pay", data={"payee": "Asha"}).status_code == 403


def test_i_paid_then_received_then_the_balance_counts_it(client, app):
    table = _table(client)
    dipa = _link(client, table, "Dipa").split("localhost", 1)[1]
    asha = _link(client, table, "Asha").split("localhost", 1)[1]
    client.get(dipa)
    # No night yet, so Dipa owes nothing: she records it with "Yes, record" (overpaying).
    sent = {"payee": "Asha", "amount": "150", "confirmed": "150"}
    response = client.post(f"/me/{table['id']}/pay", data=sent)
    assert response.status_code == 303
    [paid] = _payments(client, table)
    assert (paid["from"], paid["to"], paid["state"]) == ("Dipa", "Asha", "pending")
    bad = client.post(f"/me/{table['id']}/pay", data={"payee": "Asha", "amount": "lots"})
    assert bad.status_code == 422 and "amount" in bad.get_data(as_text=True)
    # Dipa cannot confirm her own payment.
    assert client.post(f"/me/{table['id']}/payments/{paid['id']}/confirm").status_code == 403
    client.get(asha)  # the same browser is now Asha's at this table
    page = client.get(f"/me/{table['id']}").get_data(as_text=True)
    assert "Received" in page
    done = client.post(f"/me/{table['id']}/payments/{paid['id']}/confirm")
    assert done.status_code == 303
    assert _payments(client, table)[0]["state"] == "confirmed"
    settle = client.get(f"/api/v1/tables/{table['id']}/settle-up").get_json()
    assert {b["name"]: b["amount"] for b in settle["balances"]}["Dipa"] == "150.00"


def test_the_amount_i_owe_is_offered_in_the_pages_digits(client):
    """The "I paid" form offers the amount owed in the page's digits: it was in Western
    digits on a Devanagari page, beside the same amount in Devanagari above it."""
    table = _table(client)
    night = client.post(
        f"/api/v1/tables/{table['id']}/matches",
        json={"name": "Night", "players": ROSTER},
        headers=table["auth"],
    ).get_json()
    played = client.post(f"/api/v1/matches/{night['id']}/hands", json=WORKED, headers=table["auth"])
    assert played.status_code == 201, played.get_json()
    client.get(_link(client, table, "Dipa").split("localhost", 1)[1])
    box = re.compile(r'<input(?![^>]*type="hidden")[^>]*name="amount"[^>]*>')
    assert 'value="25.00"' in box.search(client.get(f"/me/{table['id']}").text).group(0)
    client.set_cookie("lang", "ne")
    assert 'value="२५.००"' in box.search(client.get(f"/me/{table['id']}").text).group(0)


def test_handles_and_qr_are_set_on_the_page_and_shown_in_the_settle_up(client):
    table = _table(client)
    client.get(_link(client, table, "Asha").split("localhost", 1)[1])
    form = {"rows-0-kind": "esewa", "rows-0-handle": "9841000000", "rows-0-label": "Home"}
    assert client.post(f"/me/{table['id']}/handles", data=form).status_code == 303
    png = io.BytesIO()
    segno.make("fonepay:asha", error="m").save(png, kind="png", scale=8)
    upload = {"image": (io.BytesIO(png.getvalue()), "qr.png", "image/png")}
    response = client.post(f"/me/{table['id']}/qr", data=upload, content_type="multipart/form-data")
    assert response.status_code == 303
    settle = client.get(f"/api/v1/tables/{table['id']}/settle-up").get_json()
    pay_to = {b["name"]: b["pay_to"] for b in settle["balances"]}["Asha"]
    assert pay_to["handles"] == [{"kind": "esewa", "handle": "9841000000", "label": "Home"}]
    assert pay_to["qr"] == "fonepay:asha"
    page = client.get(f"/me/{table['id']}").get_data(as_text=True)
    assert "fonepay:asha" in page and "<svg" in page
    noise = {"image": (io.BytesIO(b"not an image"), "x.png", "image/png")}
    bad = client.post(f"/me/{table['id']}/qr", data=noise, content_type="multipart/form-data")
    assert bad.status_code == 422 and "PNG or JPEG" in bad.get_data(as_text=True)
    bad_handle = {"rows-0-kind": "esewa", "rows-0-handle": "98\u202e41"}
    assert client.post(f"/me/{table['id']}/handles", data=bad_handle).status_code == 422


def test_a_wallet_number_typed_in_devanagari_is_kept_in_western_digits(client):
    """A Nepali keyboard types ९८४१०००००० ; the payer copies the number into eSewa, which
    takes 9841000000 only (the amount box converts its digits too). The label is kept as
    typed."""
    table = _table(client)
    client.get(_link(client, table, "Asha").split("localhost", 1)[1])
    form = {"rows-0-kind": "esewa", "rows-0-handle": "९८४१००००००", "rows-0-label": "घर"}
    assert client.post(f"/me/{table['id']}/handles", data=form).status_code == 303
    settle = client.get(f"/api/v1/tables/{table['id']}/settle-up").get_json()
    pay_to = {b["name"]: b["pay_to"] for b in settle["balances"]}["Asha"]
    assert pay_to["handles"] == [{"kind": "esewa", "handle": "9841000000", "label": "घर"}]


def test_a_new_link_replaces_the_old(client):
    table = _table(client)
    old = _link(client, table, "Asha").split("localhost", 1)[1]
    client.get(old)
    page = client.post(f"/me/{table['id']}/link").get_data(as_text=True)
    new = re.search(r'id="new-link" type="url" readonly value="([^"]+)"', page).group(1)
    assert new != old
    assert client.get(old).status_code == 403
    assert client.get(f"/me/{table['id']}").status_code == 200  # the browser kept the new


def test_my_tables_names_the_table_whose_link_was_revoked(client):
    """The scorekeeper revoked Asha's link: "My tables" said "A link that no longer
    works (a newer one was made)", naming no table (a player of two tables could not
    tell whose scorekeeper to ask) and saying a newer one was made, which none was."""
    table = _table(client)
    client.get(_link(client, table, "Asha").split("localhost", 1)[1])
    gone = client.delete(f"/api/v1/tables/{table['id']}/players/Asha/link", headers=table["auth"])
    assert gone.status_code == 204
    page = client.get("/me").get_data(as_text=True)
    row = re.search(r'<ul class="match-list person-tables">\s*<li>(.*?)</li>', page, re.S)
    assert row is not None
    assert re.sub(r"\s+", " ", row.group(1)).strip() == (
        f'<a href="/tables/{table["id"]}">Friday table</a>: This link no longer works: it was'
        " revoked, or a newer one was made. Ask the table's scorekeeper for a new one."
    )
    # A table deleted since: the words alone.
    assert client.delete(f"/api/v1/tables/{table['id']}", headers=table["auth"]).status_code == 204
    page = client.get("/me").get_data(as_text=True)
    assert "Friday table" not in page
    assert "This link no longer works: it was revoked, or a newer one was made." in page


def test_the_forms_need_a_csrf_token(csrf_client):
    table = _table(csrf_client)
    csrf_client.get(_link(csrf_client, table, "Dipa").split("localhost", 1)[1])
    for path in ("pay", "handles", "qr", "qr/delete", "link", "forget"):
        assert csrf_client.post(f"/me/{table['id']}/{path}", data={}).status_code == 400


def test_the_table_page_hands_over_a_link_and_shows_states_and_pay_to(client):
    made = client.post(
        "/tables/new",
        data={
            "name": "Friday table",
            "players": "Asha\nBikash\nChandra\nDipa",
            "rules-profile": "sparkai",
            "stake-per_point": "1.00",
            "stake-currency": "NPR",
        },
    )
    assert made.status_code == 303, made.get_data(as_text=True)[:2000]
    table_url = made.headers["Location"]

    page = client.post(f"{table_url}/own-link", data={"player": "Asha"})
    assert page.status_code == 200 and page.headers["Cache-Control"] == "no-store"
    html = page.get_data(as_text=True)
    link = re.search(r'id="own-link" type="url" readonly value="([^"]+)"', html).group(1)
    assert "/me/join/" in link and "<svg" in html
    key = link.rsplit("/", 1)[1]
    auth = {"Authorization": f"Bearer {key}"}
    client.put(
        "/api/v1/me/handles", json={"handles": [{"kind": "khalti", "handle": "98"}]}, headers=auth
    )
    marked = {"payer": "Dipa", "payee": "Asha", "amount": "5", "confirmed": "5"}  # owes nothing
    client.post(f"{table_url}/payments", data=marked)
    shown = client.get(table_url).get_data(as_text=True)
    assert "not yet confirmed" in shown
    assert client.get("/api/v1/me", headers=auth).status_code == 200
    assert client.post(f"{table_url}/pay-to/take-down", data={"player": "Asha"}).status_code == 303
    assert client.get("/api/v1/me", headers=auth).get_json()["handles"] == []
    assert client.post(f"{table_url}/own-link/revoke", data={"player": "Asha"}).status_code == 303
    assert client.get("/api/v1/me", headers=auth).status_code == 401


@pytest.mark.parametrize("path", ["own-link/revoke", "pay-to/take-down"])
def test_a_guest_or_a_former_player_sent_by_hand_is_told_not_a_500(client, path):
    """The table page offers these buttons for roster players alone; a form naming a
    guest or a former player is answered as "Own link" answers it."""
    table_url = create_table(client)
    night = client.post(f"{table_url}/matches", data={"players": ROSTER[:2], "guests": "Ram"})
    assert night.status_code == 303
    said = {
        "Ram": "Ram played as a guest: only a player on the table's roster gets an own link.",
        "Former player 1": "A former player has left the table: they get no own link.",
    }
    for name, words in said.items():
        answer = client.post(f"{table_url}/{path}", data={"player": name})
        assert answer.status_code == 422
        assert words in html.unescape(answer.get_data(as_text=True))


def test_forget_me_from_the_page(client):
    table = _table(client)
    client.get(_link(client, table, "Dipa").split("localhost", 1)[1])
    response = client.post(f"/me/{table['id']}/forget")
    assert response.status_code == 303 and response.headers["Location"].endswith("/me")
    roster = client.get(f"/api/v1/tables/{table['id']}").get_json()["players"]
    assert [p["name"] for p in roster] == ["Asha", "Bikash", "Chandra", "Former player 1"]
    assert client.get(f"/me/{table['id']}").status_code == 403


def test_the_table_page_offers_a_player_who_left_for_nothing_new(client):
    """Dipa played the last night, then forgot herself: the table's page still lists
    "Former player 1" in the roster (her nights stay), but tonight's match neither ticks
    nor offers her, and no rename, merge or own link is offered for her."""
    table = _table(client)
    night = client.post(
        f"/api/v1/tables/{table['id']}/matches",
        json={"name": "Night", "players": ["Asha", "Bikash", "Dipa"]},
        headers=table["auth"],
    ).get_json()
    hand = {
        "finish": "sequences",
        "winner": "Asha",
        "players": [
            {"name": n, "seen": "sequences", "maal": 3} for n in ("Asha", "Bikash", "Dipa")
        ],
    }
    client.post(f"/api/v1/matches/{night['id']}/hands", json=hand, headers=table["auth"])
    client.get(_link(client, table, "Dipa").split("localhost", 1)[1])
    client.post(f"/me/{table['id']}/forget")
    key = table["auth"]["Authorization"].split()[1]
    client.get(f"/tables/{table['id']}/join/{key}")
    html = client.get(f"/tables/{table['id']}").get_data(as_text=True)
    assert re.findall(r'name="players" type="checkbox" value="([^"]+)"', html) == [
        "Asha", "Bikash", "Chandra"
    ]  # fmt: skip
    assert re.findall(r'<input checked[^>]*name="players"[^>]*value="([^"]+)"', html) == [
        "Asha", "Bikash"
    ]  # fmt: skip
    assert "Former player 1</a>" in html  # the roster still lists her, and her page
    assert 'name="player" value="Former player 1"' not in html  # no rename or merge
    own_links = re.search(r'<select id="own-link-player".*?</select>', html, re.S).group(0)
    merges = re.findall(r"<select[^>]*merge_into.*?</select>", html, re.S)
    assert len(merges) == 3  # Asha, Bikash, Chandra: into one of the others
    assert all("Former player 1" not in select for select in [own_links, *merges])
    # She may still owe or be owed: the payments still name her.
    assert '<option value="Former player 1">' in html


def _handle_rows(page: str) -> list[str]:
    """Each handle block of the "How to pay me" form: "shown" or "spare" (a spare block
    waits behind "Add another handle" where the page's script runs)."""
    return [
        "spare" if " data-spare" in attrs else "shown"
        for attrs in re.findall(r'<fieldset class="handle-row"([^>]*)>', page)
    ]


def test_how_to_pay_me_shows_my_handles_and_one_empty_block(client):
    """Five empty blocks made a player's own page long on a phone: the blocks they fill
    and one empty are shown; the other empty ones are spare (every block is still in the
    form, and shown without a script), with "Add another handle" to reveal them."""
    table = _table(client)
    client.get(_link(client, table, "Asha").split("localhost", 1)[1])
    page = client.get(f"/me/{table['id']}").text
    assert _handle_rows(page) == ["shown", "spare", "spare", "spare", "spare"]
    assert re.search(r'<p class="add-row" hidden>\s*<button type="button"[^>]*data-add-row', page)
    assert "Add another handle" in page
    two = {
        "rows-0-kind": "esewa",
        "rows-0-handle": "9841000000",
        "rows-1-kind": "khalti",
        "rows-1-handle": "9841000001",
    }
    assert client.post(f"/me/{table['id']}/handles", data=two).status_code == 303
    page = client.get(f"/me/{table['id']}").text
    assert _handle_rows(page) == ["shown", "shown", "shown", "spare", "spare"]
    # A form shown again with a problem shows every block that holds something.
    later = {f"rows-{i}-{f}": "" for i in range(5) for f in ("handle", "label")}
    later |= {"rows-0-handle": "9841000000", "rows-3-handle": "98\u202e41"}  # as posted
    again = client.post(f"/me/{table['id']}/handles", data=later)
    assert again.status_code == 422
    assert _handle_rows(again.text) == ["shown", "shown", "spare", "shown", "spare"]
    full = {
        f"rows-{i}-{f}": v
        for i in range(5)
        for f, v in (("kind", "esewa"), ("handle", f"98410000{i}0"))
    }
    assert client.post(f"/me/{table['id']}/handles", data=full).status_code == 303
    page = client.get(f"/me/{table['id']}").text
    assert _handle_rows(page) == ["shown"] * 5 and "data-add-row" not in page


def test_a_wifi_qr_uploaded_by_mistake_is_refused_in_nepali_and_kept_nowhere(client):
    """Asha's screenshot was her home Wi-Fi's code, not her wallet's: it was kept and
    shown to the whole table beside her name, its password with it."""
    table = _table(client)
    client.get(_link(client, table, "Asha").split("localhost", 1)[1])
    client.set_cookie("lang", "ne")
    png = io.BytesIO()
    segno.make("WIFI:T:WPA;S:Ghar;P:secret99;;", error="m").save(png, kind="png", scale=8)
    upload = {"image": (io.BytesIO(png.getvalue()), "qr.png", "image/png")}
    bad = client.post(f"/me/{table['id']}/qr", data=upload, content_type="multipart/form-data")
    assert bad.status_code == 422
    page = html.unescape(bad.get_data(as_text=True))
    assert "भुक्तानीको QR होइन" in page and "secret99" not in page
    settle = client.get(f"/api/v1/tables/{table['id']}/settle-up").get_json()
    assert {b["name"]: b["pay_to"] for b in settle["balances"]}["Asha"] is None


@pytest.mark.parametrize(
    ("image", "nepali"),
    [
        (b"not an image", "PNG वा JPEG तस्बिर होइन"),
        (b"\x89PNG\r\n\x1a\n" + b"\x00" * 64, "यो तस्बिर पढ्न सकिएन"),
        (b"", "PNG वा JPEG तस्बिर होइन"),
    ],
    ids=["text", "broken-png", "no-file"],
)
def test_an_image_refused_on_a_nepali_page_says_why_in_nepali(client, image, nepali):
    """The sentences of an image that is no QR screenshot were never in the catalogue:
    the Nepali page said "This is not a PNG or JPEG image: …" in English."""
    table = _table(client)
    client.get(_link(client, table, "Asha").split("localhost", 1)[1])
    client.set_cookie("lang", "ne")
    upload = {"image": (io.BytesIO(image), "qr.png", "image/png")} if image else {}
    bad = client.post(f"/me/{table['id']}/qr", data=upload, content_type="multipart/form-data")
    assert bad.status_code == 422
    problems = re.findall(r'<p class="form-problem" role="alert">([^<]*)</p>', bad.text)
    assert len(problems) == 1 and nepali in html.unescape(problems[0])
