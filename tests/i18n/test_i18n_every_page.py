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

from babel.numbers import list_currencies
from i18n_support import (
    GUEST,
    NE,
    NOT_PROSE,
    PLAYERS,
    WESTERN_NUMBER,
    busy_table,
    english_words,
    visible_text,
)

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
    table = busy_table(client)
    starts = ["/", f"/tables/{table['id']}", "/me", "/check", "/rules", "/glossary"]
    reader, asha = app.test_client(), app.test_client()
    client.get(f"/tables/{table['id']}/join/{table['edit_key']}")  # the scorekeeper's phone
    asha.get(table["own_link"])  # Asha's phone, with her own link
    for who in (client, reader, asha):
        pages = _crawl(who, starts)
        assert len(pages) > 40, sorted(pages)  # the links were followed
        wrong = {url: problems for url, problems in pages.items() if problems}
        assert not wrong, wrong
