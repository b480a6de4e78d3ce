"""A rename or a merge racing the rest of the evening, against a served ledger (one
process or two): a player renamed back and forth (or a misspelt entry added and merged
into them, again and again) while others read the table and the match, save hands and
record payments naming that player. Nothing may answer 5xx, and afterwards no row
names a player who is not on the roster."""

from __future__ import annotations

import json
import threading
import urllib.error
import urllib.request
from collections import Counter
from dataclasses import dataclass, field

PLAYERS = ["Asha", "Bikash", "Chandra", "Dipa"]
SPELLINGS = ("Bikash", "Bikas")
RENAMES = 12
MERGES = 6
#: How long a rename waits for a payment to go through before the next one. Back to
#: back, the renames hold the table's row nearly all the time as the hands pile up, and
#: then every payment naming the player is rightly refused: the right spelling passes
#: the first check, waits for the row and finds the name changed; the other spelling is
#: not on the roster yet. A real table renames now and then, never in a loop.
PAUSE_FOR_A_PAYMENT = 3.0
#: A hand in which the renamed player sits out: it is right whatever their name is.
HAND = {
    "finish": "sequences",
    "winner": "Asha",
    "players": [
        {"name": "Asha", "seen": "sequences", "maal": 10},
        {"name": "Chandra", "seen": "sequences", "maal": 3},
        {"name": "Dipa", "seen": "unseen", "maal": 0},
    ],
}


def call(method: str, url: str, body: object = None, key: str | None = None):
    """(status, parsed JSON or None) of one request."""
    headers = {"Content-Type": "application/json"}
    if key is not None:
        headers["Authorization"] = f"Bearer {key}"
    data = json.dumps(body).encode() if body is not None else None
    request = urllib.request.Request(url, data=data, headers=headers, method=method)
    try:
        with urllib.request.urlopen(request, timeout=60) as answer:
            status, text = answer.status, answer.read()
    except urllib.error.HTTPError as refused:
        status, text = refused.code, refused.read()
    try:
        return status, json.loads(text)
    except ValueError:
        return status, None


@dataclass
class Evening:
    """The table and its match, made through the first server."""

    base: str
    table: str = ""
    key: str = ""
    match: str = ""
    statuses: Counter = field(default_factory=Counter)
    failures: list = field(default_factory=list)

    def setup(self) -> None:
        status, made = call(
            "POST",
            f"{self.base}/api/v1/tables",
            {
                "name": "Friday",
                "players": PLAYERS,
                "rules": "sparkai",
                "stake": {"per_point": "1.00", "currency": "NPR"},
            },
        )
        assert status == 201, made
        self.table, self.key = made["id"], made["edit_key"]
        status, match = call(
            "POST",
            f"{self.base}/api/v1/tables/{self.table}/matches",
            {"name": "Night", "players": PLAYERS, "length": None},
            self.key,
        )
        assert status == 201, match
        self.match = match["id"]
        assert self.hand(self.base) == 201

    def record(self, what: str, status: int, body: object) -> None:
        self.statuses[(what, status)] += 1
        if status >= 500:
            self.failures.append((what, status, body))

    def rename(self, base: str, turn: int) -> bool:
        """Bikash and Bikas by turns: whether it went through."""
        old, new = SPELLINGS[turn % 2], SPELLINGS[(turn + 1) % 2]
        url = f"{base}/api/v1/tables/{self.table}/players/{old}"
        status, body = call("PATCH", url, {"name": new}, self.key)
        self.record("rename", status, body)
        return status == 200

    def merge(self, base: str, turn: int) -> bool:
        """Bikas joins the roster (one night's misspelling) and is merged into Bikash."""
        url = f"{base}/api/v1/tables/{self.table}"
        status, body = call("PATCH", url, {"players": ["Bikas"]}, self.key)
        self.record("misspelt", status, body)
        status, body = call("PATCH", f"{url}/players/Bikas", {"merge_into": "Bikash"}, self.key)
        self.record("merge", status, body)
        return status == 200

    def hand(self, base: str) -> int:
        status, body = call("POST", f"{base}/api/v1/matches/{self.match}/hands", HAND, self.key)
        self.record("hand", status, body)
        return status


def race(evening: Evening, bases: list[str], *, merging: bool = False) -> None:
    """The renames (or merges) through the first server, each followed by a payment
    (or ``PAUSE_FOR_A_PAYMENT``); readers, hand saves and payments through every server
    until they are done."""
    done, paid = threading.Event(), threading.Event()
    table_url = f"/api/v1/tables/{evening.table}"

    def renamer() -> None:
        change, times = (evening.merge, MERGES) if merging else (evening.rename, RENAMES)
        try:
            for turn in range(times):
                paid.clear()
                if not change(bases[0], turn):
                    break
                paid.wait(PAUSE_FOR_A_PAYMENT)
        finally:
            done.set()

    def reader(base: str, path: str) -> None:
        while not done.is_set():
            status, body = call("GET", base + path)
            evening.record(path, status, body)

    def saver(base: str) -> None:
        while not done.is_set():
            evening.hand(base)

    def payer(base: str) -> None:
        turn = 0
        while not done.is_set():
            payer_name = SPELLINGS[turn % 2]  # right or wrong: whichever it is now
            status, body = call(
                "POST",
                f"{base}{table_url}/payments",
                {"from": payer_name, "to": "Asha", "amount": "1.00"},
                evening.key,
            )
            evening.record("payment", status, body)
            if status == 201:
                paid.set()
            turn += 1

    paths = [
        table_url,
        f"{table_url}/settle-up",
        f"{table_url}/standings",
        f"/tables/{evening.table}",
        f"/api/v1/matches/{evening.match}",
        f"/matches/{evening.match}",
    ]
    threads = [threading.Thread(target=renamer)]
    for base in bases:
        threads += [threading.Thread(target=saver, args=(base,))]
        threads += [threading.Thread(target=payer, args=(base,))]
        threads += [threading.Thread(target=reader, args=(base, path)) for path in paths]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=600)


def check_evening(evening: Evening, *, merging: bool = False) -> None:
    """0 × 5xx; every rename (merge) went through; each side of the race happened; and
    every name the table shows is on its roster."""
    assert evening.failures == [], evening.failures[:3]
    if merging:
        assert evening.statuses[("merge", 200)] == MERGES, evening.statuses
    else:
        assert evening.statuses[("rename", 200)] == RENAMES, evening.statuses
    assert evening.statuses[("hand", 201)] > 1 and evening.statuses[("payment", 201)] > 0
    base = evening.base
    status, table = call("GET", f"{base}/api/v1/tables/{evening.table}")
    roster = {p["name"] for p in table["players"]}
    kept = SPELLINGS[0] if merging else SPELLINGS[RENAMES % 2]
    assert roster == {"Asha", kept, "Chandra", "Dipa"}
    _, paid = call("GET", f"{base}/api/v1/tables/{evening.table}/payments")
    assert {name for p in paid["payments"] for name in (p["from"], p["to"])} <= roster
    _, settle = call("GET", f"{base}/api/v1/tables/{evening.table}/settle-up")
    assert {b["name"] for b in settle["balances"]} <= roster
    for t in settle["transfers"]:
        assert {t["from"], t["to"]} <= roster
    _, standings = call("GET", f"{base}/api/v1/tables/{evening.table}/standings")
    assert {line["name"] for line in standings["players"]} <= roster
    _, match = call("GET", f"{base}/api/v1/matches/{evening.match}")
    assert {p["name"] for p in match["players"]} <= roster
    for hand in match["hands"]:
        assert {p["name"] for p in hand["players"]} <= roster
        assert hand["dealer"] in roster
