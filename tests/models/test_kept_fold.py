"""The fold kept with a match (``ledger.matches.fold``) is the engine's ``run_match`` over
every hand, after any mix of writes: random matches are added to, edited, deleted from
and imported, and after each write the kept scoreboard, the hands' fold records and the
match's JSON (put together from the hands' kept JSON) are checked against a fold from
the first hand."""

from __future__ import annotations

import json
import random

import pytest
from sqlalchemy import select, update

from ledger import matches
from ledger.engine import Invalid, run_match
from ledger.extensions import db
from ledger.matches.models import Hand, Match
from ledger.matches.reading import rules_from_record
from ledger.matches.view import hand_record

PLAYERS = ["Asha", "Bikash", "Chandra", "Dipa"]
#: Fouls wait for the next hand with a finisher: the carries that an edit changes.
RULES = {"profile": "sparkai", "foul": "next_hand"}


@pytest.fixture
def ctx(app):
    with app.app_context():
        yield


def random_hand(rng: random.Random) -> dict:
    """A hand of three or four players: a finisher, or none (a void hand), a foul now and
    then; some maal numbers. Some are refused by the engine: the test skips those."""
    playing = PLAYERS if rng.random() < 0.7 else rng.sample(PLAYERS, 3)
    seen = {name: rng.choice(["sequences", "sequences", "unseen", "dublees"]) for name in playing}
    void = rng.random() < 0.15
    finishers = [n for n in playing if seen[n] != "unseen"]
    winner = None if void or not finishers else rng.choice(finishers)
    players = []
    for name in playing:
        entry = {"name": name, "seen": seen[name], "maal": rng.randint(0, 8)}
        if name != winner and rng.random() < 0.2:
            entry["foul"] = True
        players.append(entry)
    finish = "void" if winner is None else ("dublees" if seen[winner] == "dublees" else "sequences")
    return {"finish": finish, "winner": winner, "players": players}


def expected(match: Match):
    """The match folded from its first hand by the engine's definition."""
    rows = db.session.scalars(
        select(Hand).where(Hand.match_id == match.id).order_by(Hand.number)
    ).all()
    records = [hand_record(h.number, h.dealer, h.result) for h in rows]
    rules = rules_from_record(match.rules)
    return rows, run_match(match.player_names, match.first_dealer, rules, None, records)


def check(match: Match) -> None:
    db.session.expire_all()
    rows, state = expected(match)
    view = matches.match_view(match)
    assert view.state.totals == state.totals
    assert view.state.standings == state.standings
    assert view.state.fouls_pending == state.fouls_pending
    assert view.state.next_dealer == state.next_dealer
    assert view.state.hands_played == state.hands_played
    assert view.state.cumulative == state.cumulative
    for hand in view.hands:
        assert hand.carried_penalties == state.carried_penalties.get(hand.number, {})
    # The JSON put together from the hands' kept JSON is the view's JSON.
    assert json.loads(matches.match_json(match)) == json.loads(json.dumps(view.to_json()))
    page = matches.match_view(match, newest=3)
    assert page.state.standings == state.standings
    assert page.state.cumulative == state.cumulative[-3:]
    assert [h.number for h in page.hands] == [h.number for h in rows][-3:]


def random_write(rng: random.Random, match: Match) -> None:
    numbers = list(db.session.scalars(select(Hand.number).where(Hand.match_id == match.id)))
    roll = rng.random()
    try:
        if numbers and roll < 0.3:
            matches.replace_hand(match, rng.choice(numbers), random_hand(rng))
        elif numbers and roll < 0.45:
            matches.delete_hand(match, rng.choice(numbers))
        else:
            matches.add_hand(match, random_hand(rng))
    except Invalid:
        db.session.rollback()


@pytest.mark.slow  # seconds: lays out PDFs or runs many requests
@pytest.mark.parametrize("seed", range(12))
def test_the_kept_fold_is_the_fold_from_the_first_hand(ctx, seed):
    rng = random.Random(seed)
    match, _ = matches.create_match("Kept", PLAYERS, RULES, None, "Asha")
    for _ in range(30):
        random_write(rng, match)
        check(match)
    # An import folds the hands it stores the same way.
    copy, _ = matches.import_match(matches.export_json(match))
    check(copy)
    assert matches.match_view(copy).totals == matches.match_view(match).totals


def test_a_match_stored_before_the_fold_was_kept_is_filled_on_first_read(ctx):
    rng = random.Random(99)
    match, _ = matches.create_match("Old", PLAYERS, RULES, None, "Asha")
    for _ in range(15):
        random_write(rng, match)
    before = json.loads(matches.match_json(match))
    db.session.execute(update(Match).values(scoreboard=None, updated_at=Match.updated_at))
    db.session.execute(update(Hand).values(record=None, fragment=None, moves=None))
    db.session.commit()
    db.session.expire_all()
    assert json.loads(matches.match_json(match)) == before
    check(match)
    matches.add_hand(match, random_hand(random.Random(1)) | {"winner": None, "finish": "void"})
    check(match)


def test_an_edit_reads_only_the_hands_its_carries_reach(ctx, app):
    """Hand 2 of 40 changed: the fold goes on to hand 3 (its finisher settles the fouls)
    and stops there; no hand after it is read."""
    from sql_counting import counting_queries

    match, _ = matches.create_match("Long", PLAYERS, RULES, None, "Asha")
    plain = {
        "finish": "sequences",
        "winner": "Asha",
        "players": [{"name": n, "seen": "sequences", "maal": 2} for n in PLAYERS],
    }
    for _ in range(40):
        matches.add_hand(match, plain)
    fouled = {**plain, "players": [*plain["players"][:3], {**plain["players"][3], "foul": True}]}
    with counting_queries(app) as statements:
        matches.replace_hand(match, 2, fouled)
    reads = [s for s in statements if s.lstrip().upper().startswith("SELECT")]
    # 9: the match, the hand; once the write holds the match's row, the match and its
    # players again (as other writes left them); the hand before, the scoreboard, the
    # later hands' records (hand 3's), hand 3, and the fold records for the scoreboard.
    assert len(reads) <= 9, reads
    check(match)
    assert matches.match_view(match, newest=40).hand(3).carried_penalties == {
        "Dipa": -rules_from_record(match.rules).foul_penalty,
        "Asha": rules_from_record(match.rules).foul_penalty,
    }
