"""A family's table kept for months, and its figures worked out again by hand.

Seven people and two guests play three seasons (29 nights: zero-sum and points-race
nights mixed, the stake raised between seasons, one night of the last season still
going); one person is entered twice under two spellings and merged, one is renamed,
and one leaves the table and forgets themselves through their own link. ``build`` makes
it through the JSON API with any client that can post JSON (a Flask test client, or a
browser's request context); ``expected`` works out every figure from the hands alone,
by the rules of docs/rules.md §3 and §4 written out here again, never with the app's
own functions, so a test that compares the two checks the app's arithmetic.
"""

from __future__ import annotations

import random
from collections import defaultdict
from collections.abc import Callable
from dataclasses import dataclass, field
from decimal import Decimal

ROSTER = ["Sita", "Ram", "Gita", "Hari", "Maya", "Kiran", "Binod"]
GUESTS = ["Raju", "Suman"]
#: Hari entered as "Hary" one night (merged into Hari), Gita renamed "Geeta", and Binod
#: forgot himself: the names every figure is counted under at the end.
FINAL = {"Hary": "Hari", "Gita": "Geeta", "Binod": "Former player 1"}
SEASONS = ["Dashain 2082", "Tihar 2082", "Holi 2082"]
#: The table's stake in each season (raised between the first and the second).
STAKES = ["1.00", "2.00", "2.00"]
#: Sparkai's fees (docs/rules.md §6): seen, seen by dublees, unseen, the dublee finish
#: bonus each loser pays; and the points race's bonus per opponent.
FEE = {"sequences": 3, "dublees": 3, "unseen": 10}
DUBLEE_BONUS = 5
RACE_BONUS = 10


@dataclass
class Night:
    season: int
    name: str
    players: list[str]
    race: bool = False
    guests: list[str] = field(default_factory=list)
    hands: list[dict] = field(default_factory=list)
    finished: bool = True


def _hand(rng: random.Random, players: list[str], race: bool) -> dict:
    """A hand: a finisher, each player seen (by sequences or dublees) or not, their maal."""
    winner = rng.choice(players)
    routes = ["sequences", "unseen"] if race else ["sequences", "sequences", "dublees", "unseen"]
    rows = []
    for name in players:
        seen = rng.choice(routes[:-1] if name == winner else routes)
        rows.append({"name": name, "seen": seen, "maal": rng.randrange(0, 26)})
    finish = next(r["seen"] for r in rows if r["name"] == winner)
    return {"finish": finish, "winner": winner, "players": rows}


def nights() -> list[Night]:
    """The table's nights in play order (seeded: the same every run)."""
    rng = random.Random(20)
    plan: list[Night] = []
    family = ["Sita", "Ram", "Gita", "Hari", "Maya", "Kiran", "Binod"]
    for season in range(3):
        count = 10 if season < 2 else 9
        for i in range(count):
            size = rng.choice([3, 4, 5])
            pool = [p for p in family if not (season == 2 and p == "Binod")]
            players = rng.sample(pool, size)
            guests: list[str] = []
            if season == 0 and i == 3:  # Hari's name typed wrong that night
                players = [("Hary" if p == "Hari" else p) for p in players]
                if "Hary" not in players:
                    players[0] = "Hary"
            if (season, i) in {(0, 5), (1, 2)}:
                guests = ["Raju"]
            if (season, i) == (2, 4):
                guests = ["Raju", "Suman"]
            players = [p for p in players if p != "Hari" or "Hary" not in players]
            players = (players + guests)[:5]
            race = season == 2 and i % 3 == 1 or (season == 1 and i == 7)
            length = rng.choice([3, 4, 5])
            night = Night(season, f"{SEASONS[season].split()[0]} night {i + 1}", players, race)
            night.guests = [g for g in guests if g in players]
            night.hands = [_hand(rng, players, race) for _ in range(length)]
            night.finished = not (season == 2 and i == count - 1)
            plan.append(night)
    return plan


# --- building it through the API --------------------------------------------------------

Post = Callable[[str, dict, str | None], tuple[int, dict]]


def client_calls(client) -> tuple[Post, Post, Post]:
    """``build``'s post, patch and delete through a Flask test client."""

    def call(method: str) -> Post:
        def send(path: str, body: dict, key: str | None) -> tuple[int, dict]:
            headers = {"Authorization": f"Bearer {key}"} if key else {}
            answer = getattr(client, method)(path, json=body, headers=headers)
            return answer.status_code, answer.get_json(silent=True)

        return send

    return call("post"), call("patch"), call("delete")


def build(post: Post, patch: Post, delete: Post) -> dict:
    """The table made through the JSON API as the family did, in order: each season's
    nights, the stake raised after the first season, the merge and the rename at the end
    of the second, and Binod forgetting himself in the third. ``post``/``patch``/
    ``delete`` take a path, a body and a bearer key and return (status, JSON). Returns
    the table's id, key, the seasons' ids and each night's match id."""
    status, table = post(
        "/api/v1/tables",
        {
            "name": "Family table",
            "players": ROSTER,
            "rules": "sparkai",
            "stake": {"per_point": STAKES[0], "currency": "NPR"},
            "season": SEASONS[0],
        },
        None,
    )
    assert status == 201, table
    tid, key = table["id"], table["edit_key"]
    seasons = [table["seasons"][0]["id"]]
    ids: list[str] = []
    current = 0
    for night in nights():
        if night.season != current:
            current = night.season
            if current == 1:
                status, _ = patch(
                    f"/api/v1/tables/{tid}",
                    {"stake": {"per_point": STAKES[1], "currency": "NPR"}},
                    key,
                )
                assert status == 200
            status, made = post(f"/api/v1/tables/{tid}/seasons", {"name": SEASONS[current]}, key)
            assert status == 201, made
            seasons.append(made["id"])
            if current == 2:
                # Between the seasons: Hary merged into Hari, Gita renamed Geeta.
                status, answer = patch(
                    f"/api/v1/tables/{tid}/players/Hary", {"merge_into": "Hari"}, key
                )
                assert status == 200, answer
                status, answer = patch(f"/api/v1/tables/{tid}/players/Gita", {"name": "Geeta"}, key)
                assert status == 200, answer

        # The last season's nights are entered under the names the roster has by then.
        def entered(name: str, night: Night = night) -> str:
            return FINAL.get(name, name) if night.season == 2 and name != "Binod" else name

        body: dict = {"name": night.name, "players": [entered(p) for p in night.players]}
        if night.finished:
            body["length"] = {"hands": len(night.hands)}
        if night.guests:
            body["guests"] = night.guests
        if night.race:
            body["rules"] = "gamerules"
            body["stake"] = None
        status, match = post(f"/api/v1/tables/{tid}/matches", body, key)
        assert status == 201, (night.name, match)
        ids.append(match["id"])
        for hand in night.hands:
            sent = {
                "finish": hand["finish"],
                "winner": entered(hand["winner"]),
                "players": [dict(row, name=entered(row["name"])) for row in hand["players"]],
            }
            status, answer = post(f"/api/v1/matches/{match['id']}/hands", sent, key)
            assert status == 201, (night.name, answer)
    status, link = post(f"/api/v1/tables/{tid}/players/Binod/link", {}, key)
    assert status == 201, link
    status, _ = delete("/api/v1/me", {}, link["person_key"])
    assert status == 204
    return {"id": tid, "key": key, "seasons": seasons, "matches": ids}


# --- the figures worked out again -----------------------------------------------------


#: The rules a hand may be settled under here: the fees a non-finisher pays by route,
#: the dublee finish bonus, what an unseen player's maal does, and whether it is a race.
SPARKAI = {"fee": FEE, "bonus": DUBLEE_BONUS, "unseen": "murder", "race": False}
EVERESTBUZZ = dict(SPARKAI, fee=dict(FEE, dublees=0))
KIDNAP = dict(SPARKAI, unseen="kidnap")
RACE = {"race": True}


def settle(
    hand: dict, race: bool, rules: dict = SPARKAI
) -> tuple[dict[str, int], dict[tuple[str, str], int]]:
    """Each player's net in the hand and who pays whom (payer, payee) → points, by
    docs/rules.md §3 (zero-sum: murder or kidnap, the fees, the dublee finish bonus
    each loser pays) and §4 (the points race: own maal, the finisher 10 an opponent)."""
    rows = hand["players"]
    winner = hand["winner"]
    n = len(rows)
    if race or rules["race"]:
        nets = {r["name"]: r["maal"] for r in rows}
        nets[winner] += RACE_BONUS * (n - 1)
        return nets, {}
    eff = {r["name"]: 0 if r["seen"] == "unseen" else r["maal"] for r in rows}
    if rules["unseen"] == "kidnap":
        eff[winner] += sum(r["maal"] for r in rows if r["seen"] == "unseen")
    total = sum(eff.values())
    pays: dict[tuple[str, str], int] = {}
    nets = {winner: 0}
    for r in rows:
        name = r["name"]
        if name == winner:
            continue
        fee = rules["fee"][r["seen"]] + (rules["bonus"] if hand["finish"] == "dublees" else 0)
        owed = total + fee - n * eff[name]
        nets[name] = -owed
        nets[winner] += owed
        if owed > 0:
            pays[(name, winner)] = owed
        elif owed < 0:
            pays[(winner, name)] = -owed
    return nets, pays


def totals_under(rules: dict, season: int | None) -> dict[str, int]:
    """Each player's total over the period with every night settled under ``rules``
    (What if…?); a hand the points race refuses (dublees: it has none) stays as played."""
    totals: dict[str, int] = defaultdict(int)
    for night in nights():
        if season is not None and night.season != season:
            continue
        for hand in night.hands:
            refused = rules["race"] and any(r["seen"] == "dublees" for r in hand["players"])
            nets, _ = settle(hand, night.race) if refused else settle(hand, False, rules)
            for name, net in nets.items():
                totals[final_name(name)] += net
    return dict(totals)


@dataclass
class Figures:
    """One player's figures over a period, worked out from the hands."""

    matches: int = 0
    matches_won: int = 0
    total: int = 0
    hands: int = 0
    hands_won: int = 0
    seen_hands: int = 0
    dublee_seen_hands: int = 0
    unseen_hands: int = 0
    unseen_points: int = 0
    unseen_points_hands: int = 0
    dublee_finishes: int = 0
    maal: int = 0
    amount: Decimal | None = None  # None: no staked night (a points race has no stake)
    best_hand: tuple[int, int, int] | None = None  # (night index, hand number, net)
    worst_hand: tuple[int, int, int] | None = None
    best_night: tuple[int, int] | None = None  # (night index, total)
    worst_night: tuple[int, int] | None = None
    places: dict[int, int] = field(default_factory=dict)
    run: int = 0
    longest_run: int = 0
    form: list[int] = field(default_factory=list)


def _pair(pairs: dict, a: str, b: str) -> dict:
    """The pair's row: the matches they played together, and each one's matches above
    the other and points paid to the other."""
    return pairs.setdefault(
        frozenset((a, b)), {"matches": 0, a: {"above": 0, "paid": 0}, b: {"above": 0, "paid": 0}}
    )


def final_name(name: str) -> str:
    return FINAL.get(name, name)


def expected(season: int | None) -> tuple[dict[str, Figures], dict, list[dict]]:
    """Each player's figures (by their name at the end), the head-to-head (frozenset of
    the pair → {name: [above, paid to the other]}) and the awards, for one season (0, 1,
    2) or all time (None). A points-race night counts as a night played, for its hands
    and its place (above or below each other player too), but not for the points won or
    lost (total, money, the nets of the best and worst hand, unseen points, best and
    worst night: its totals are each player's own maal); a night still going has no
    place, puts nobody above anyone and is no best or worst night (docs/tables.md)."""
    figures: dict[str, Figures] = defaultdict(Figures)
    pairs: dict[frozenset, dict[str, list[int]]] = {}
    for index, night in enumerate(nights()):
        if season is not None and night.season != season:
            continue
        totals: dict[str, int] = defaultdict(int)
        for number, hand in enumerate(night.hands, start=1):
            nets, pays = settle(hand, night.race)
            for row in hand["players"]:
                name = final_name(row["name"])
                fig = figures[name]
                net = nets[row["name"]]
                totals[name] += net
                fig.hands += 1
                fig.maal += row["maal"]
                if row["name"] == hand["winner"]:
                    fig.hands_won += 1
                    fig.dublee_finishes += hand["finish"] == "dublees"
                if row["seen"] == "unseen":
                    fig.unseen_hands += 1
                    fig.unseen_points += 0 if night.race else net
                    fig.unseen_points_hands += not night.race
                else:
                    fig.seen_hands += 1
                    fig.dublee_seen_hands += row["seen"] == "dublees"
                if night.race:
                    continue
                if fig.best_hand is None or net > fig.best_hand[2]:
                    fig.best_hand = (index, number, net)
                if fig.worst_hand is None or net < fig.worst_hand[2]:
                    fig.worst_hand = (index, number, net)
            for (payer, payee), points in pays.items():
                a, b = final_name(payer), final_name(payee)
                _pair(pairs, a, b)[a]["paid"] += points
        stake = None if night.race else Decimal(STAKES[night.season])
        for name, total in totals.items():
            fig = figures[name]
            fig.matches += 1
            if not night.race:
                fig.total += total
            if stake is not None:
                fig.amount = (fig.amount or 0) + total * stake
            if night.finished and not night.race:
                if fig.best_night is None or total > fig.best_night[1]:
                    fig.best_night = (index, total)
                if fig.worst_night is None or total < fig.worst_night[1]:
                    fig.worst_night = (index, total)
            for other, theirs in totals.items():
                if other != name:
                    pair = _pair(pairs, name, other)
                    pair["matches"] += name < other  # each pair once a night
                    pair[name]["above"] += night.finished and total > theirs
            if night.finished:
                place = 1 + sum(t > total for t in totals.values())
                fig.places[place] = fig.places.get(place, 0) + 1
                fig.matches_won += place == 1
                fig.run = fig.run + 1 if place == 1 else 0
                fig.longest_run = max(fig.longest_run, fig.run)
                fig.form = (fig.form + [place])[-5:]
    awards = []
    order = sorted(figures, key=lambda n: -figures[n].total)  # ties: checked separately
    for award, value in (
        ("hands_won", lambda f: f.hands_won),
        ("dublee_finishes", lambda f: f.dublee_finishes),
        ("best_hand", lambda f: f.best_hand[2] if f.best_hand else 0),
        ("best_night", lambda f: f.best_night[1] if f.best_night else 0),
    ):
        top = max(value(figures[n]) for n in order)
        if top > 0:
            awards.append(
                {
                    "award": award,
                    "players": {n for n in order if value(figures[n]) == top},
                    "value": top,
                }
            )
    return dict(figures), pairs, awards
