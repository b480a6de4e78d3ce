"""Helpers of the table tests: a table through the API, and every figure the
standings give summed again here from the matches' own JSON (their hands), never from
what the ledger keeps."""

from __future__ import annotations

from collections import defaultdict
from decimal import Decimal

from api_support import bearer


class TableClient:
    """A test client bound to one table."""

    def __init__(self, client, body: dict):
        self.client = client
        self.id = body["id"]
        self.key = body["edit_key"]
        self.url = f"/api/v1/tables/{self.id}"

    @property
    def auth(self) -> dict[str, str]:
        return bearer(self.key)

    def get(self, path: str = "", **query) -> dict:
        response = self.client.get(f"{self.url}{path}", query_string=query)
        assert response.status_code == 200, response.get_json()
        return response.get_json()

    def post(self, path: str, body: object, status: int = 201):
        response = self.client.post(f"{self.url}{path}", json=body, headers=self.auth)
        assert response.status_code == status, response.get_json()
        return response.get_json()

    def patch(self, path: str, body: object, status: int = 200):
        response = self.client.patch(f"{self.url}{path}", json=body, headers=self.auth)
        assert response.status_code == status, response.get_json()
        return response.get_json()

    def new_match(self, players: list[str], **fields) -> dict:
        body = {"name": fields.pop("name", "Night"), "players": players, **fields}
        return self.post("/matches", body)

    def play(self, match: dict, hands: list[dict]) -> None:
        for data in hands:
            response = self.client.post(
                f"/api/v1/matches/{match['id']}/hands", json=data, headers=self.auth
            )
            assert response.status_code == 201, response.get_json()


#: The players ``create_table`` gives a table unless told otherwise.
ROSTER = ["Asha", "Bikash", "Chandra", "Dipa", "Esha"]


def create_table(client, **fields) -> TableClient:
    body = {
        "name": "Friday table",
        "players": list(ROSTER),
        "rules": "sparkai",
        "stake": None,
        **fields,
    }
    response = client.post("/api/v1/tables", json=body)
    assert response.status_code == 201, response.get_json()
    return TableClient(client, response.get_json())


def match_bodies(client, ids: list[str]) -> list[dict]:
    out = []
    for public_id in ids:
        response = client.get(f"/api/v1/matches/{public_id}")
        assert response.status_code == 200
        out.append(response.get_json())
    return out


def expected_standings(bodies: list[dict]) -> dict:
    """Per player and per pair, every figure of the standings, summed over the matches'
    JSON: the hands as the match shows them, its totals, whether it is finished."""
    players: dict[str, dict] = defaultdict(
        lambda: dict.fromkeys(
            ("matches", "matches_won", "hands", "hands_won", "seen_hands", "maal", "total"), 0
        )
    )
    amounts: dict[str, Decimal] = defaultdict(Decimal)
    staked: set[str] = set()
    pairs: dict[tuple[str, str], dict] = {}
    for body in bodies:
        totals = {p["name"]: p["total"] for p in body["players"]}
        played = []
        for hand in body["hands"]:
            for p in hand["players"]:
                line = players[p["name"]]
                line["hands"] += 1
                line["hands_won"] += hand["winner"] == p["name"]
                line["seen_hands"] += p["seen"] != "unseen"
                line["maal"] += p["maal"]
                if p["name"] not in played:
                    played.append(p["name"])
        best = max(totals.values())
        for name in played:
            players[name]["matches"] += 1
            players[name]["total"] += totals[name]
            players[name]["matches_won"] += body["finished"] and totals[name] == best
            if body["stake"]:
                staked.add(name)
                amounts[name] += totals[name] * Decimal(body["stake"]["per_point"])
        for a in played:
            for b in played:
                if a >= b:
                    continue
                pair = pairs.setdefault(
                    (a, b), {"matches": 0, "above": defaultdict(int), "paid": defaultdict(int)}
                )
                pair["matches"] += 1
                if body["finished"] and totals[a] != totals[b]:
                    pair["above"][a if totals[a] > totals[b] else b] += 1
                for hand in body["hands"]:
                    for pay in hand["payments"]:
                        if {pay["from"], pay["to"]} == {a, b}:
                            pair["paid"][pay["from"]] += pay["points"]
    return {
        "players": {n: dict(v) for n, v in players.items()},
        "amounts": {n: amounts[n] for n in staked},
        "pairs": pairs,
    }


def check_standings(standings: dict, bodies: list[dict]) -> None:
    """The standings' every figure equals the sums over ``bodies``."""
    want = expected_standings(bodies)
    got = {p["name"]: p for p in standings["players"]}
    assert set(got) == set(want["players"])
    for name, figures in want["players"].items():
        assert {k: got[name][k] for k in figures} == figures, name
        amount = want["amounts"].get(name)
        assert got[name]["amount"] == (None if amount is None else f"{amount:.2f}"), name
    totals = [p["total"] for p in standings["players"]]
    assert totals == sorted(totals, reverse=True)
    rows = {frozenset((r["a"], r["b"])): r for r in standings["head_to_head"]}
    assert set(rows) == {frozenset(pair) for pair in want["pairs"]}
    for (a, b), pair in want["pairs"].items():
        row = rows[frozenset((a, b))]
        x, y = row["a"], row["b"]
        assert row["matches"] == pair["matches"]
        assert (row["a_above"], row["b_above"]) == (pair["above"][x], pair["above"][y])
        assert (row["a_paid_b"], row["b_paid_a"]) == (pair["paid"][x], pair["paid"][y])


def check_settles(settle_up: dict) -> None:
    """The transfers settle every balance exactly: in minus out equals the amount (or,
    without a stake, the points)."""
    money = settle_up["stake"] is not None
    owed = {
        b["name"]: Decimal(b["amount"]) if money else Decimal(b["total"])
        for b in settle_up["balances"]
    }
    for t in settle_up["transfers"]:
        value = Decimal(t["amount"]) if money else Decimal(t["points"])
        assert value > 0
        owed[t["from"]] += value
        owed[t["to"]] -= value
    assert all(v == 0 for v in owed.values()), owed
