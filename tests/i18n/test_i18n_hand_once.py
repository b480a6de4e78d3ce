"""A hand entered once, its undo and the end of a match, in Nepali: the hand already
there beside yours, the match that ended meanwhile, undo, play on / stop here, and the
words hand-queue.js writes (data-text-*), with no English left but names."""

from __future__ import annotations

import re
import sys
from pathlib import Path

from i18n_support import visible_text

sys.path[:0] = [str(Path(__file__).resolve().parents[1] / "web")]

from match_pages_support import (  # noqa: E402
    BY_COUNTS,
    THREE_PLAY,
    WORKED,
    add_hand,
    create_match,
    hand_form,
    hidden,
)
from test_i18n_pages import assert_nepali  # noqa: E402


def nepali(client, **fields) -> str:
    client.set_cookie("lang", "ne")
    return create_match(client, **fields)


def test_the_hand_already_there_in_nepali(client):
    url = nepali(client)
    html = client.get(f"{url}/hands/new").get_data(as_text=True)
    assert_nepali(visible_text(html), "बाजी १ हाल्दै")
    mine = hand_form(WORKED, hand_key=hidden(html, "hand_key"), hand_number="1", dealer="Asha")
    add_hand(client, url, BY_COUNTS)  # someone else's hand 1
    refused = client.post(f"{url}/hands/new", data=mine)
    assert refused.status_code == 409
    assert_nepali(
        visible_text(refused.get_data(as_text=True)),
        "सेभ भएन।",
        "बाजी १ अरू कसैले पहिल्यै सेभ गरिसकेको थियो।",
        "सेभ भएको बाजी १, र तपाईंको",
        "मेरो बाजी २ का रूपमा सेभ गर्नुहोस्",
        "मेरो हटाउनुहोस्",
    )


def test_undo_and_the_words_of_the_script_in_nepali(client):
    url = nepali(client)
    add_hand(client, url, WORKED)
    page = client.get(url).get_data(as_text=True)
    assert_nepali(visible_text(page), "बाजी १ सेभ भयो।", "बाजी १ फिर्ता लिनुहोस्")
    words = dict(re.findall(r'data-text-([a-z-]+)="([^"]*)"', page))
    for key in ("unsent", "sending", "refused", "sent", "saved-before", "send", "drop"):
        assert_nepali(words[key].replace("{n}", ""))
    assert words["unsent"].startswith("बाजी {n}: अझै पठाइएको छैन।")
    undone = client.post(f"{url}/hands/1/undo", data={"version": "1"}, follow_redirects=True)
    assert_nepali(visible_text(undone.get_data(as_text=True)), "बाजी १ फिर्ता लिइयो।")


def test_the_end_of_a_match_in_nepali(client):
    url = nepali(client, length_count="2")
    add_hand(client, url, WORKED)
    stop = client.get(f"{url}/length").get_data(as_text=True)
    assert_nepali(visible_text(stop), "खेल जारी राख्ने कि यहीँ रोक्ने", "यहीँ रोक्नुहोस्")
    add_hand(client, url, THREE_PLAY)
    page = client.get(url).get_data(as_text=True)
    assert_nepali(visible_text(page), "म्याच सकियो।", "खेल जारी राख्नुहोस्…", "म्याचको सारांश")
    play_on = client.get(f"{url}/length").get_data(as_text=True)
    assert_nepali(visible_text(play_on), "जम्मा बाजी", "यो सकियो")
    refused = client.post(f"{url}/length", data={"action": "play_on", "count": "1"})
    assert_nepali(
        visible_text(refused.get_data(as_text=True)),
        "यो म्याचमा २ बाजी खेलिइसके; यसको लम्बाइ त्योभन्दा कम बाजीको हुन सक्दैन।",
    )
    client.post(f"{url}/length", data={"action": "play_on", "count": "3"})
    assert_nepali(visible_text(client.get(url).get_data(as_text=True)), "म्याच जारी छ।")
