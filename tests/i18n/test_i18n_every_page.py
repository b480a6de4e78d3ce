"""Every page a Nepali table can reach, in Nepali: followed link by link from a table
with a stake, two seasons, a guest, a payment, a player's own link and a night still
going, as its scorekeeper, as one who follows and as the player with the own link. None
fails, and none shows a Western digit or an English word but names, codes and addresses
(the pages listed one by one in test_i18n_pages.py and test_nepali_table_words.py are
those a new page is not in)."""

from __future__ import annotations

import re
from collections import deque
from urllib.parse import urljoin, urlparse

from babel.numbers import get_currency_name, list_currencies
from i18n_support import NE, english_words, visible_text

PLAYERS = ["Asha", "Bikash", "Chandra", "Dipa", "Esha"]
GUEST = "Ram"
#: Latin words a Nepali page may show: names (OpenSkill, the rating's), currency codes,
#: abbreviations.
ALLOWED = {*PLAYERS, GUEST, "Friday", "Night", "Dashain", "OpenSkill", "PDF", "QR", "JK", "TS"}
#: The wallets and the image kinds a player's own page names.
ALLOWED |= {"eSewa", "Khalti", "Fonepay", "UPI", "PNG", "JPEG", *list_currencies()}
#: Not followed: writes and switches reached by a link, files, the API.
NOT_FOLLOWED = re.compile(
    r"/(join|lang|digits)/|/(forget|own-link)\b|\.(pdf|csv|json|png|svg|js|css)$|"
    r"^/(static|api)/"
)
#: What may hold Western digits: an address or file name, a card code as typed (8H,
#: 10♥), the match names given here, the digits switch's own example of Western digits,
#: and the currencies' names as CLDR gives them ("भेनेजुएलन बोलिभर-2").
NOT_PROSE = re.compile(
    "|".join(
        [
            r"\S*/\S*|\S+\.json\b",
            r"(?<![A-Za-z0-9])(?:[2-9]|10|[AJQKT])[SHDC♠♥♦♣](?![A-Za-z0-9])",
            r"Night \d+|अङ्ग्रेजी अङ्क 012",
            *(re.escape(get_currency_name(code, locale="ne")) for code in list_currencies()),
        ]
    )
)
WESTERN_NUMBER = re.compile(r"(?<![A-Za-z0-9])[0-9]+")


def _api(client, method: str, path: str, key: str | None = None, **body):
    headers = {"Authorization": f"Bearer {key}"} if key else {}
    answer = client.open(f"/api/v1{path}", method=method, json=body or None, headers=headers)
    assert answer.status_code < 300, (path, answer.get_json())
    return answer.get_json()


def _night(client, table: dict, name: str, players: list[str], hands: int, guests=()) -> str:
    """A night of ``hands`` hands at the table, its finisher going round and its last
    player unseen; its match's id."""
    key, path = table["edit_key"], f"/tables/{table['id']}/matches"
    match = _api(client, "POST", path, key, name=name, players=players, guests=list(guests))
    for number in range(hands):
        resting = set(_api(client, "GET", f"/matches/{match['id']}")["next_sitting_out"])
        *seen, unseen = [p for p in players if p not in resting]
        hand = [
            {"name": p, "seen": "sequences", "maal": 3 * i + number} for i, p in enumerate(seen)
        ]
        hand.append({"name": unseen, "seen": "unseen"})
        winner = seen[number % len(seen)]
        _api(
            client,
            "POST",
            f"/matches/{match['id']}/hands",
            key,
            finish="sequences",
            winner=winner,
            players=hand,
        )
    return match["id"]


def _table(client) -> dict:
    """A table at a stake: a finished night, a new season with a night of six (a guest
    among them) still going, a payment, and Asha's own link (``own_link``)."""
    table = _api(
        client,
        "POST",
        "/tables",
        name="Friday",
        players=PLAYERS,
        stake={"per_point": "5.00", "currency": "NPR"},
    )
    key = table["edit_key"]
    first = _night(client, table, "Night 1", PLAYERS[:4], 4)
    _api(client, "PATCH", f"/matches/{first}", key, finished=True)
    _api(client, "POST", f"/tables/{table['id']}/seasons", key, name="Dashain")
    _night(client, table, "Night 2", [*PLAYERS, GUEST], 6, guests=[GUEST])
    owed = _api(client, "GET", f"/tables/{table['id']}/settle-up")["transfers"][0]
    payment = {"from": owed["from"], "to": owed["to"], "amount": "10.00"}
    _api(client, "POST", f"/tables/{table['id']}/payments", key, **payment)
    own = _api(client, "POST", f"/tables/{table['id']}/players/Asha/link", key)
    return {**table, "own_link": urlparse(own["url"]).path}


def _crawl(client, starts: list[str]) -> dict[str, list[str]]:
    """Each page reached from ``starts`` by its links, with what is wrong on it."""
    seen: set[str] = set()
    queue, found = deque(starts), {}
    while queue:
        url = queue.popleft()
        if url in seen:
            continue
        seen.add(url)
        answer = client.get(url, headers=NE)
        if answer.status_code in (301, 302, 303):
            queue.append(urlparse(answer.headers["Location"]).path)
            continue
        problems = [f"status {answer.status_code}"] if answer.status_code >= 400 else []
        html = answer.get_data(as_text=True)
        if answer.content_type.startswith("text/html"):
            text = NOT_PROSE.sub(" ", visible_text(html))
            problems += [f"Western digits {n}" for n in sorted(set(WESTERN_NUMBER.findall(text)))]
            problems += [f"English {w}" for w in sorted(english_words(text, ALLOWED))]
            for href in re.findall(r'href="([^"#]+)"', html):
                link = urlparse(urljoin(url, href))
                if not link.netloc and not NOT_FOLLOWED.search(link.path):
                    queue.append(link.path + (f"?{link.query}" if link.query else ""))
        found[url] = problems
    return found


def test_every_page_a_nepali_table_reaches_is_nepali(app, client):
    table = _table(client)
    starts = ["/", f"/tables/{table['id']}", "/me", "/check", "/rules", "/glossary"]
    reader, asha = app.test_client(), app.test_client()
    client.get(f"/tables/{table['id']}/join/{table['edit_key']}")  # the scorekeeper's phone
    asha.get(table["own_link"])  # Asha's phone, with her own link
    for who in (client, reader, asha):
        pages = _crawl(who, starts)
        assert len(pages) > 40, sorted(pages)  # the links were followed
        wrong = {url: problems for url, problems in pages.items() if problems}
        assert not wrong, wrong
