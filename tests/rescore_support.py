"""A match whose hands try every corner of a rescore (docs/rules.md §8), and an
independent rescore of it: each stored input settled under the other rules by the
engine's ``settle`` alone, the fouls carried to the next hand folded here by hand."""

from __future__ import annotations

from ledger.engine import Invalid, parse_hand, resolve_rules, settle

PLAYERS = ["Asha", "Bikash", "Chandra", "Dipa", "Esha", "Gopal"]
#: The match's own rules: fouls go to the next hand's finisher, so that they carry.
OWN_RULES = {"profile": "sparkai", "foul": "next_hand"}


def _p(name: str, seen: str, **maal: object) -> dict:
    return {"name": name, "seen": seen, **maal}


#: Counts, cards, one-number maal, a dublee finish, fouls carried on, sit-outs, a void hand.
HANDS: list[dict] = [
    {
        "tiplu": "8H",
        "finish": "sequences",
        "winner": "Asha",
        "players": [
            _p("Asha", "sequences", maal_cards=["7H", "8H", "9H", "8D"]),
            _p("Bikash", "sequences", maal_counts={"poplu": 1, "jhiplu": 1}),
            _p("Chandra", "unseen", maal_counts={"tiplu": 1}),
            _p("Dipa", "sequences", maal_counts={}),
        ],
    },
    {
        "finish": "sequences",
        "winner": "Bikash",
        "players": [
            _p("Asha", "sequences", maal=10),
            _p("Bikash", "sequences", maal=5),
            _p("Esha", "unseen", maal=8),
        ],
    },
    {
        "finish": "dublees",
        "winner": "Dipa",
        "players": [
            _p("Chandra", "sequences", maal_counts={"alter": 1}),
            _p("Dipa", "dublees", maal_counts={"tiplu": 2}),
            _p("Gopal", "unseen", maal_counts={"poplu": 2}),
        ],
    },
    {
        "finish": "void",
        "winner": None,
        "players": [
            _p("Asha", "sequences", maal_counts={"tiplu": 1}),
            _p("Bikash", "unseen", foul=True),
            _p("Esha", "sequences", maal_counts={"poplu": 1}),
        ],
    },
    {
        "finish": "sequences",
        "winner": "Esha",
        "players": [
            _p("Bikash", "sequences", maal_counts={}),
            _p("Esha", "sequences", maal_counts={"jhiplu": 2}),
            _p("Gopal", "unseen", maal_counts={"alter": 2}),
            _p("Chandra", "sequences", maal_counts={"tiplu": 1, "poplu": 1}),
        ],
    },
    {
        "finish": "sequences",
        "winner": "Gopal",
        "players": [
            _p("Gopal", "sequences", maal_counts={"tiplu": 2, "poplu": 1, "jhiplu": 1}),
            _p("Dipa", "sequences", maal_counts={}, foul=True),
            _p("Asha", "unseen", maal_counts={"poplu": 1}),
        ],
    },
    {
        "finish": "sequences",
        "winner": "Chandra",
        "players": [
            _p("Chandra", "sequences", maal_counts={"tiplu": 1}),
            _p("Asha", "sequences", maal_counts={"jhiplu": 1}),
        ],
    },
]


def independent_rescore(stored: list[dict], rules_spec: object) -> tuple[list[dict], dict]:
    """Each stored hand (the match JSON's ``hand`` and ``players``) settled under
    ``rules_spec``, and the totals: nets as the settle gives them, or as played when
    the rules refuse the hand; a foul waiting is paid to the next finisher."""
    rules = resolve_rules(rules_spec)
    hands, totals, waiting = [], dict.fromkeys(PLAYERS, 0), []
    for kept in stored:
        played = {p["name"]: p["net"] for p in kept["players"]}
        try:
            result = settle(parse_hand(kept["hand"], rules), rules)
        except Invalid:
            nets, how, winner = played, "no", kept["winner"]
            fouls = kept["fouls_carried"]
        else:
            nets = {p.name: p.net for p in result.players}
            one_number = any("maal" in p for p in kept["hand"]["players"])
            how, winner, fouls = ("partly" if one_number else "full"), result.winner, []
            fouls = list(result.fouls_carried)
        carried: dict[str, int] = {}
        if winner is not None and waiting:
            for foul in waiting:
                if foul != winner:
                    carried[foul] = carried.get(foul, 0) - rules.foul_penalty
                    carried[winner] = carried.get(winner, 0) + rules.foul_penalty
            waiting = []
        waiting += fouls
        for name, points in [*nets.items(), *carried.items()]:
            totals[name] += points
        hands.append(
            {
                "number": kept["number"],
                "rescored": how,
                "nets": nets,
                "played": played,
                "carried": {k: v for k, v in carried.items() if v},
            }
        )
    return hands, totals
