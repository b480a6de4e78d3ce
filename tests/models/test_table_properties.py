"""Property tests of a table's figures: for random seasons (matches of random players
with sit-outs, hands edited and deleted, a rename), the standings are the sums of what
the matches and their hands say, and the money settles exactly in the fewest payments."""

from __future__ import annotations

import json
from decimal import Decimal

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from settle_up_support import fewest_by_search

from ledger import matches
from ledger.tables import service as tables

ROSTER = ["Asha", "Bikash", "Chandra", "Dipa", "Esha", "Gopal"]


@st.composite
def hands_of(draw, players: list[str]) -> dict:
    names = draw(st.lists(st.sampled_from(players), min_size=2, max_size=5, unique=True))
    winner = draw(st.sampled_from(names))
    return {
        "finish": "sequences",
        "winner": winner,
        "players": [
            {
                "name": n,
                "seen": "sequences"
                if n == winner
                else draw(st.sampled_from(["sequences", "unseen"])),
                "maal": draw(st.integers(0, 10)),
            }
            for n in names
        ],
    }


@st.composite
def seasons(draw) -> list[dict]:
    """Matches: players, length, hands, and edits/deletes of some hands."""
    out = []
    for _ in range(draw(st.integers(1, 4))):
        players = draw(st.lists(st.sampled_from(ROSTER), min_size=2, max_size=6, unique=True))
        hands = draw(st.lists(hands_of(players), min_size=1, max_size=5))
        out.append(
            {
                "players": players,
                "finished": draw(st.booleans()),
                "hands": hands,
                "edit": draw(st.one_of(st.none(), st.tuples(st.integers(0, 4), hands_of(players)))),
                "delete": draw(st.one_of(st.none(), st.integers(0, 4))),
                "per_point": draw(st.sampled_from(["0.50", "1.00", "2.25"])),
            }
        )
    return out


@settings(
    max_examples=25,
    deadline=None,
    database=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@pytest.mark.slow  # seconds: lays out PDFs or runs many requests
@given(season=seasons(), rename=st.booleans(), paid=st.integers(0, 300))
def test_the_standings_are_the_sums_of_the_matches_and_their_hands(app, season, rename, paid):
    with app.app_context():
        table, _ = tables.create_table(
            {
                "name": "Property",
                "players": ROSTER,
                "rules": "sparkai",
                "stake": {"per_point": "1.00", "currency": "NPR"},
            }
        )
        played = []
        for spec in season:
            match, _ = tables.new_match(
                table,
                {
                    "name": "Night",
                    "players": spec["players"],
                    "length": {"hands": len(spec["hands"])} if spec["finished"] else None,
                    "stake": {"per_point": spec["per_point"], "currency": "NPR"},
                },
            )
            for data in spec["hands"]:
                matches.add_hand(match, data)
            numbers = [h.number for h in matches.match_view(match).hands]
            if spec["edit"] is not None:
                matches.replace_hand(
                    match, numbers[spec["edit"][0] % len(numbers)], spec["edit"][1]
                )
            if spec["delete"] is not None and len(numbers) > 1:
                matches.delete_hand(match, numbers[spec["delete"] % len(numbers)])
            played.append(match)
        if rename:
            tables.change_player(table, "Bikash", {"name": "Bikas"})
        bodies = [json.loads(matches.match_json(m)) for m in played]

        found = tables.standings(table, None)
        lines = {line.name: line for line in found.players}
        for name in {p["name"] for b in bodies for h in b["hands"] for p in h["players"]}:
            line = lines[name]
            in_hands = [
                p for b in bodies for h in b["hands"] for p in h["players"] if p["name"] == name
            ]
            assert line.hands == len(in_hands)
            assert line.maal == sum(p["maal"] for p in in_hands)
            assert line.seen_hands == sum(p["seen"] != "unseen" for p in in_hands)
            assert line.hands_won == sum(
                h["winner"] == name
                for b in bodies
                for h in b["hands"]
                if name in [p["name"] for p in h["players"]]
            )
            mine = [
                b
                for b in bodies
                if any(p["name"] == name for h in b["hands"] for p in h["players"])
            ]
            totals = [next(p["total"] for p in b["players"] if p["name"] == name) for b in mine]
            assert line.total == sum(totals)
            assert line.amount == sum(
                (t * Decimal(b["stake"]["per_point"]) for t, b in zip(totals, mine, strict=True)),
                Decimal(0),
            )
        for pair in found.head_to_head:
            for payer, payee, got in (
                (pair.a, pair.b, pair.a_paid_b),
                (pair.b, pair.a, pair.b_paid_a),
            ):
                want = sum(
                    pay["points"]
                    for b in bodies
                    for h in b["hands"]
                    for pay in h["payments"]
                    if (pay["from"], pay["to"]) == (payer, payee)
                )
                assert got == want

        # Money: after one payment, every balance is settled exactly, in the fewest.
        roster = tables.roster(table)
        if paid:
            tables.add_payment(table, {"from": roster[0], "to": roster[2], "amount": f"{paid}.00"})
        money = tables.season_settle_up(table, None)
        owed = {b["name"]: Decimal(b["amount"]) for b in money["balances"]}
        for t in money["transfers"]:
            owed[t["from"]] += Decimal(t["amount"])
            owed[t["to"]] -= Decimal(t["amount"])
        assert set(owed.values()) <= {Decimal(0)}
        cents = [int(Decimal(b["amount"]) * 100) for b in money["balances"]]
        assert len(money["transfers"]) == fewest_by_search(cents)
