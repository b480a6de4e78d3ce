"""The totals after every hand (the chart's points) are kept from one version of a match
to the next (``ledger.matches.running_kept``): a new hand reads only its own moves; any
other write reads them all again, and either way they are the fold's."""

from __future__ import annotations

import pytest
from sql_counting import counting_queries

from ledger import matches
from ledger.matches import fold
from ledger.matches.running_kept import running_kept

PLAYERS = ["Asha", "Bikash", "Chandra", "Dipa"]


def plain(winner: str, maal: int = 2) -> dict:
    return {
        "finish": "sequences",
        "winner": winner,
        "players": [{"name": n, "seen": "sequences", "maal": maal} for n in PLAYERS],
    }


@pytest.fixture
def match(app):
    with app.app_context():
        match, _ = matches.create_match("Kept totals", PLAYERS, "sparkai", None, "Asha")
        for i in range(20):
            matches.add_hand(match, plain(PLAYERS[i % 4], i % 5))
        yield match


def moves_reads(statements: list[str]) -> list[str]:
    return [s for s in statements if "moves" in s and s.lstrip().upper().startswith("SELECT")]


def read_afresh(app, match) -> tuple[list, tuple]:
    """The totals and dates as read from every hand, nothing kept."""
    running_kept(app).clear()
    return fold.totals_after_each_hand(match), fold.played(match)


def test_a_new_hand_reads_only_its_own_moves(app, match):
    fold.totals_after_each_hand(match), fold.played(match)  # kept at this version
    matches.add_hand(match, plain("Chandra", 7))
    matches.add_hand(match, plain("Dipa", 1))
    with counting_queries(app) as statements:
        totals, played = fold.totals_after_each_hand(match), fold.played(match)
    (read,) = moves_reads(statements)
    assert "number >" in read  # the hands after the last one kept, not all of them
    assert not any("min(" in s.lower() for s in statements)  # the dates taken up too
    assert (totals, played) == read_afresh(app, match)
    assert len(totals) == 22
    assert totals[-1][1] == tuple(matches.match_view(match, newest=0).totals[n] for n in PLAYERS)


@pytest.mark.parametrize("write", ["edit", "delete", "rules"])
def test_any_other_write_reads_every_hand_again(app, match, write):
    fold.totals_after_each_hand(match)
    if write == "edit":
        matches.replace_hand(match, 3, plain("Bikash", 8))
    elif write == "delete":
        matches.delete_hand(match, 3)
    else:
        matches.change_match(match, {"rules": {"profile": "everestbuzz"}})
    matches.add_hand(match, plain("Asha"))  # then a hand: one version on, one number on
    with counting_queries(app) as statements:
        totals = fold.totals_after_each_hand(match)
    (read,) = moves_reads(statements)
    assert "number >" not in read
    assert totals == read_afresh(app, match)[0]
