"""The worked example of docs/rules.md §3 (murder, four players), shared by the tests."""

#: In the settle format of docs/api.md, without ``rules``.
WORKED_HAND = {
    "finish": "sequences",
    "winner": "Asha",
    "players": [
        {"name": "Asha", "seen": "sequences", "maal": 10},
        {"name": "Bikash", "seen": "sequences", "maal": 5},
        {"name": "Chandra", "seen": "sequences", "maal": 0},
        {"name": "Dipa", "seen": "unseen", "maal": 8},
    ],
}

#: (name, how they saw, maal) per row, as a person types it into the hand form.
WORKED_ROWS = [(p["name"], p["seen"], p["maal"]) for p in WORKED_HAND["players"]]
