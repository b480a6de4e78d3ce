"""A table's page draws each match's line once per version of the match (issue 41): a
hand added tonight draws tonight's line again, and no other."""

from __future__ import annotations

from table_pages_support import ROSTER, create_table, edit_key, play, start_match

from ledger.web import tables

HAND = {
    "finish": "sequences",
    "winner": "Asha",
    "players": [{"name": n, "seen": "sequences", "maal": 2} for n in ROSTER[:4]],
}


def test_a_new_hand_draws_only_its_matchs_line(client, monkeypatch):
    url = create_table(client)
    key = edit_key(client, url)
    nights = [start_match(client, url, ROSTER[:4]) for _ in range(3)]
    for night in nights:
        play(client, night, key, [HAND])
    drawn: list[str] = []
    draw = tables.render_match_line

    def counted(match):
        drawn.append(match.public_id)
        return draw(match)

    monkeypatch.setattr(tables, "render_match_line", counted)
    first = client.get(url).text
    assert sorted(drawn) == sorted(nights)
    drawn.clear()
    play(client, nights[-1], key, [HAND])
    again = client.get(url).text
    assert drawn == [nights[-1]]
    for night in nights:
        assert f'href="/matches/{night}"' in first and f'href="/matches/{night}"' in again
    assert again.count('class="hint"') == first.count('class="hint"')
