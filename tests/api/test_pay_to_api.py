"""How to pay me (docs/api.md): only the player's own key sets their handles and QR;
the QR is read from a real image made here with segno (PNG and JPEG, turned, made
small) and only its text is kept; bad images are 413 or 422 and keep nothing; the
table key takes them down but never sets them; every settle-up carries them."""

from __future__ import annotations

import io
import struct
import zlib

import pytest
import segno
from api_support import bearer, hand
from people_support import give_link, me, staked_table
from PIL import Image

from ledger.extensions import db
from ledger.tables.models import TablePlayer

PAYLOAD = "000201010211153740014A00000059600000012345678905204000053035245802NP5910Asha Rai"
ESEWA = {"kind": "esewa", "handle": "9841000000", "label": "Personal"}


@pytest.fixture
def table(client):
    return staked_table(client)


def qr_image(text: str = PAYLOAD, fmt: str = "PNG", turn: float = 0, scale: float = 1.0):
    out = io.BytesIO()
    segno.make(text, error="m").save(out, kind="png", scale=8, border=4)
    image = Image.open(io.BytesIO(out.getvalue())).convert("L")
    if turn:
        image = image.rotate(turn, expand=True, fillcolor=255)
    if scale != 1.0:
        image = image.resize((int(image.width * scale), int(image.height * scale)))
    saved = io.BytesIO()
    image.save(saved, format=fmt, **({"quality": 85} if fmt == "JPEG" else {}))
    return saved.getvalue()


def upload(client, key, body: bytes, mimetype="image/png"):
    return client.post(
        "/api/v1/me/qr", data=body, headers={**bearer(key), "Content-Type": mimetype}
    )


def stored_qr(app) -> list:
    with app.app_context():
        return [q for q in db.session.scalars(db.select(TablePlayer.qr)) if q]


@pytest.mark.parametrize(
    ("fmt", "turn", "scale"),
    [
        ("PNG", 0, 1.0),
        ("JPEG", 0, 1.0),
        ("PNG", 30, 1.0),
        ("JPEG", 90, 1.0),
        ("PNG", 12, 0.4),
        ("JPEG", 0, 0.5),
    ],
)
def test_a_real_qr_is_read_back_to_its_text(client, table, fmt, turn, scale):
    key = give_link(table, "Asha")
    mimetype = "image/png" if fmt == "PNG" else "image/jpeg"
    response = upload(client, key, qr_image(fmt=fmt, turn=turn, scale=scale), mimetype)
    assert response.status_code == 200, response.get_json()
    assert response.get_json() == {"qr": PAYLOAD}
    assert me(client, key)["qr"] == PAYLOAD
    pay_to = next(b for b in table.get("/settle-up")["balances"] if b["name"] == "Asha")["pay_to"]
    assert pay_to["qr"] == PAYLOAD and pay_to["handles"] == [] and pay_to["set_at"]


def _photo_without_code() -> bytes:
    image = Image.effect_noise((400, 300), 60).convert("RGB")
    out = io.BytesIO()
    image.save(out, format="JPEG")
    return out.getvalue()


def _png_bomb(width: int = 30000, height: int = 30000) -> bytes:
    """A small PNG whose header claims a huge picture (its rows compress to nothing)."""

    def chunk(kind: bytes, data: bytes) -> bytes:
        body = kind + data
        return struct.pack(">I", len(data)) + body + struct.pack(">I", zlib.crc32(body))

    header = struct.pack(">IIBBBBB", width, height, 8, 0, 0, 0, 0)
    rows = zlib.compress(b"\x00" * (width + 1) * 64, 9)  # a few rows: enough to claim
    return (
        b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header) + chunk(b"IDAT", rows) + chunk(b"IEND", b"")
    )


def _two_codes() -> bytes:
    one = Image.open(io.BytesIO(qr_image("first code")))
    two = Image.open(io.BytesIO(qr_image("second code")))
    both = Image.new("L", (one.width + two.width + 40, max(one.height, two.height)), 255)
    both.paste(one, (0, 0))
    both.paste(two, (one.width + 40, 0))
    out = io.BytesIO()
    both.save(out, format="PNG")
    return out.getvalue()


@pytest.mark.parametrize(
    ("body", "status", "mimetype"),
    [
        (_photo_without_code(), 422, "image/jpeg"),
        (b"\x89PNG\r\n\x1a\n" + b"\x00" * 64, 422, "image/png"),  # a broken PNG
        (b"GIF89a" + b"\x00" * 100, 422, "image/gif"),
        (b"%PDF-1.7 not an image", 422, "application/pdf"),
        (_png_bomb(), 413, "image/png"),
        (_png_bomb(5000, 4000), 413, "image/png"),  # 20 megapixels
        (b"\xff\xd8\xff" + b"\x00" * (1024 * 1024 + 1), 413, "image/jpeg"),
        (_two_codes(), 422, "image/png"),
        (qr_image("a\x07bell"), 422, "image/png"),
        (qr_image("x" * 600), 422, "image/png"),
        # Not a payment code: a Wi-Fi network's holds its password, which the table
        # would have read beside the player's name; a contact card, an event.
        (qr_image("WIFI:T:WPA;S:Ghar;P:secret99;;"), 422, "image/png"),
        (qr_image("BEGIN:VCARD\nVERSION:3.0\nFN:Asha\nEND:VCARD"), 422, "image/png"),
        (qr_image("MECARD:N:Asha;TEL:9841000000;;"), 422, "image/png"),
        (qr_image("BEGIN:VEVENT\nSUMMARY:Tihar\nEND:VEVENT"), 422, "image/png"),
    ],
    ids=[
        "photo",
        "broken-png",
        "gif",
        "pdf",
        "bomb",
        "20-mp",
        "over-1-mb",
        "two-codes",
        "control-character",
        "too-long",
        "wifi",
        "contact-card",
        "mecard",
        "event",
    ],
)
def test_a_bad_image_keeps_nothing(app, client, table, body, status, mimetype):
    key = give_link(table, "Asha")
    response = upload(client, key, body, mimetype)
    assert response.status_code == status, response.get_json()
    assert response.get_json()["errors"][0]["message"]
    if status == 413:  # over the body's limit or the image's: said alike, on the image
        assert response.get_json()["errors"] == [TOO_LARGE]
    assert stored_qr(app) == []
    assert me(client, key)["qr"] is None


#: Any 413 of ``POST /me/qr``: on the image, with the sizes allowed (as the page says it).
TOO_LARGE = {
    "field": "image",
    "message": "The image is too large: send at most 1 MB and 16 megapixels "
    "(a screenshot of your QR code is far less).",
}


def test_a_five_megabyte_image_is_413_on_the_image_with_the_size_allowed(app, client, table):
    """Over the body's limit (refused before the image is read, by the request's length):
    the same answer as an image too large, not a generic 413 on field ""."""
    key = give_link(table, "Asha")
    noise = Image.effect_noise((1600, 1200), 100).convert("RGB")
    out = io.BytesIO()
    noise.save(out, format="PNG")
    body = out.getvalue() + b"\x00" * max(0, 5 * 1024 * 1024 - len(out.getvalue()))
    response = upload(client, key, body)
    assert response.status_code == 413
    assert response.get_json()["errors"] == [TOO_LARGE]
    assert stored_qr(app) == []


def test_handles_are_set_by_their_holder_and_shown_in_every_settle_up(client, table):
    key = give_link(table, "Asha")
    match = table.new_match(["Asha", "Bikash", "Chandra", "Dipa"])
    table.play(match, [hand()])
    response = client.put("/api/v1/me/handles", json={"handles": [ESEWA]}, headers=bearer(key))
    assert response.status_code == 200
    assert response.get_json() == {"handles": [ESEWA]}
    for url in (f"{table.url}/settle-up", f"/api/v1/matches/{match['id']}/settle-up"):
        rows = {b["name"]: b["pay_to"] for b in client.get(url).get_json()["balances"]}
        assert rows["Asha"]["handles"] == [ESEWA] and rows["Asha"]["qr"] is None
        assert rows["Bikash"] is None


@pytest.mark.parametrize(
    ("handles", "field"),
    [
        ([{"kind": "paypal", "handle": "x"}], "handles.0.kind"),
        ([{"kind": "esewa", "handle": ""}], "handles.0.handle"),
        ([{"kind": "esewa", "handle": "x" * 65}], "handles.0.handle"),
        ([{"kind": "esewa", "handle": "98\u202e41"}], "handles.0.handle"),
        ([{"kind": "esewa", "handle": "98\n41"}], "handles.0.handle"),
        ([{"kind": "esewa", "handle": "1", "label": "y" * 41}], "handles.0.label"),
        ([{"kind": "esewa", "handle": "1", "colour": "red"}], "handles.0.colour"),
        ([ESEWA] * 6, "handles"),
        ("9841", "handles"),
        (["9841"], "handles.0"),
    ],
)
def test_bad_handles_are_refused_on_their_field(client, table, handles, field):
    key = give_link(table, "Asha")
    response = client.put("/api/v1/me/handles", json={"handles": handles}, headers=bearer(key))
    assert response.status_code == 422
    assert field in [e["field"] for e in response.get_json()["errors"]]
    assert me(client, key)["handles"] == []


@pytest.mark.parametrize("kind", ["none", "wrong", "table", "match", "revoked"])
def test_only_a_person_key_sets_handles_or_a_qr(client, table, kind):
    match = table.new_match(["Asha", "Bikash", "Chandra", "Dipa"])
    revoked = give_link(table, "Asha")
    key = give_link(table, "Asha")
    keys = {
        "none": None,
        "wrong": "w" * 32,
        "table": table.key,
        "match": match["edit_key"],
        "revoked": revoked,
    }
    headers = bearer(keys[kind]) if keys[kind] else {}
    assert (
        client.put("/api/v1/me/handles", json={"handles": [ESEWA]}, headers=headers).status_code
        == 401
    )
    assert client.post("/api/v1/me/qr", data=qr_image(), headers=headers).status_code == 401
    assert client.delete("/api/v1/me/qr", headers=headers).status_code == 401
    assert me(client, key)["handles"] == [] and me(client, key)["qr"] is None


def test_the_table_key_takes_them_down_and_a_new_link_clears_them(client, table):
    key = give_link(table, "Asha")
    client.put("/api/v1/me/handles", json={"handles": [ESEWA]}, headers=bearer(key))
    upload(client, key, qr_image())
    response = client.delete(f"{table.url}/players/Asha/handles", headers=table.auth)
    assert response.status_code == 204
    assert me(client, key)["handles"] == [] and me(client, key)["qr"] is None
    client.put("/api/v1/me/handles", json={"handles": [ESEWA]}, headers=bearer(key))
    new = give_link(table, "Asha")  # a link made with the table key starts clean
    assert me(client, new)["handles"] == [] and me(client, new)["qr"] is None


def test_the_holder_takes_their_qr_down(client, table):
    key = give_link(table, "Asha")
    upload(client, key, qr_image())
    assert client.delete("/api/v1/me/qr", headers=bearer(key)).status_code == 204
    assert me(client, key)["qr"] is None


def test_the_match_page_shows_how_to_pay_and_forgets_it_when_taken_down(client, table):
    key = give_link(table, "Asha")
    match = table.new_match(["Asha", "Bikash", "Chandra", "Dipa"])
    table.play(match, [hand()])
    page = f"/matches/{match['id']}"
    assert "9841000000" not in client.get(page).get_data(as_text=True)  # kept by version
    client.put("/api/v1/me/handles", json={"handles": [ESEWA]}, headers=bearer(key))
    shown = client.get(page).get_data(as_text=True)
    assert "9841000000" in shown and "How to pay Asha, as set by Asha" in shown
    client.delete(f"{table.url}/players/Asha/handles", headers=table.auth)
    assert "9841000000" not in client.get(page).get_data(as_text=True)


def test_a_handle_that_is_no_object_is_told_the_shape_as_it_is_written(client, table):
    """The sentence read 'Each handle must be an object {{"kind", "handle"}}.': the
    braces doubled for a template that was never filled in."""
    key = give_link(table, "Asha")
    response = client.put("/api/v1/me/handles", json={"handles": ["9841"]}, headers=bearer(key))
    assert response.get_json()["errors"] == [
        {"field": "handles.0", "message": 'Each handle must be an object {"kind", "handle"}.'}
    ]


def test_a_nepali_label_with_a_half_form_is_kept_as_a_name_would_be(client, table):
    """A Nepali keyboard writes a half form as virama + zero-width joiner (क्‍ष): names
    take it, a handle's label was refused as holding an invisible character. A joiner
    anywhere else is still refused."""
    key = give_link(table, "Asha")
    half = {"kind": "esewa", "handle": "9841000000", "label": "घर क्\u200dष"}
    response = client.put("/api/v1/me/handles", json={"handles": [half]}, headers=bearer(key))
    assert response.status_code == 200, response.get_json()
    assert me(client, key)["handles"] == [half]
    loose = {**half, "label": "घर\u200d"}
    response = client.put("/api/v1/me/handles", json={"handles": [loose]}, headers=bearer(key))
    assert response.status_code == 422
