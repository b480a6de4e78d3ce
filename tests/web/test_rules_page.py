"""The house-rules page: every profile side by side, and what each setting means."""

import html
import re

from markupsafe import escape

from ledger.engine import PROFILES
from ledger.engine.rules import PROFILE_TITLES, SETTING_HELP


def test_rules_page_shows_every_profile(client):
    response = client.get("/rules")
    assert response.status_code == 200
    body = response.get_data(as_text=True)
    header = re.search(r"<thead>(.*?)</thead>", body, re.S).group(1)
    for pid, title in PROFILE_TITLES.items():
        assert f'<code lang="en">{pid}</code>' in header  # a code, not a word of the page
        assert html.escape(title) in header
    rows = re.findall(r"<tr>\s*<th scope=\"row\".*?</tr>", body, re.S)
    assert len(rows) == len(PROFILES["amarnepal"].to_json()) - 1  # every setting but "profile"
    tiplu = next(r for r in rows if '#setting-tiplu"' in r)
    cells = re.findall(r"<td>(.*?)</td>", tiplu)
    assert cells == ["3 / 8", "3 / 8", "3 / 7", "3 / 7 / 12", "3 / 7"]
    alter = next(r for r in rows if '#setting-alter"' in r)
    assert re.findall(r"<td>(.*?)</td>", alter)[2] == "—"  # classic: no alter
    length = next(r for r in rows if '#setting-match_length"' in r)
    assert re.findall(r"<td>(.*?)</td>", length)[:2] == ["4 hands", "—"]


def test_rules_page_explains_every_setting(client):
    body = client.get("/rules").get_data(as_text=True)
    for name, text in SETTING_HELP.items():
        assert f'id="setting-{name}"' in body
        assert str(escape(text)) in body
    assert 'class="table-wrap rules-table-wrap"' in body  # scrolls sideways on a phone


def test_setting_codes_are_marked_english_on_the_nepali_page(client):
    """A screen reader reads a code like ``unseen_maal`` as English, not as Nepali."""
    client.set_cookie("lang", "ne")
    body = client.get("/rules").get_data(as_text=True)
    assert '<html lang="ne">' in body
    codes = re.findall(r"<code([^>]*)>([^<]*)</code>", body)
    assert len(codes) == len(PROFILE_TITLES) + len(SETTING_HELP)
    assert all(attrs == ' lang="en"' for attrs, _ in codes), codes
