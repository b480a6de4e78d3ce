"""The web app manifest (ledger/web/home_screen.py): every page links it in its own
language, and what it names is there."""

import io
import json
import re

import pytest
from PIL import Image

MANIFEST_LINK = re.compile(r'<link rel="manifest" href="([^"]+)">')


@pytest.mark.parametrize(("lang", "name"), [("en", "Marriage ledger"), ("ne", "म्यारिज खाता")])
def test_a_page_links_the_manifest_in_its_language(client, lang, name):
    client.set_cookie("lang", lang)
    page = client.get("/").get_data(as_text=True)
    (href,) = MANIFEST_LINK.findall(page)
    client.delete_cookie("lang")  # the browser fetches a manifest without cookies
    answer = client.get(href.replace("&amp;", "&"))
    assert answer.status_code == 200
    assert answer.mimetype == "application/manifest+json"
    manifest = json.loads(answer.get_data(as_text=True))
    assert manifest["name"] == name and manifest["lang"] == lang
    assert manifest["start_url"] == manifest["scope"] == "/"
    assert manifest["display"] == "standalone"


def test_the_icons_it_names_are_pngs_of_their_sizes(client):
    manifest = client.get("/manifest.webmanifest").get_json(force=True)
    purposes = set()
    for icon in manifest["icons"]:
        answer = client.get(icon["src"])
        assert answer.status_code == 200, icon
        image = Image.open(io.BytesIO(answer.data))
        answer.close()  # a static file's answer holds it open
        assert image.format == "PNG" and icon["type"] == "image/png"
        assert f"{image.width}x{image.height}" == icon["sizes"]
        purposes.add(icon["purpose"])
    assert {"192x192", "512x512"} <= {icon["sizes"] for icon in manifest["icons"]}
    assert purposes == {"any", "maskable"}


def test_an_unknown_language_is_english(client):
    manifest = client.get("/manifest.webmanifest?lang=xx").get_json(force=True)
    assert manifest["lang"] == "en" and manifest["name"] == "Marriage ledger"


def test_the_icon_is_where_a_browser_asks_for_it_unasked(client):
    """/favicon.ico, asked by a phone's PDF viewer: the icon, not a 404."""
    answer = client.get("/favicon.ico", follow_redirects=True)
    assert answer.status_code == 200
    assert Image.open(io.BytesIO(answer.data)).format == "PNG"
    answer.close()
