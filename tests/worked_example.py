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

#: What docs/rules.md §3 works out for it (murder: Dipa, unseen, counts no maal), per
#: player: maal points (4 × counted maal − 15), fee and net.
WORKED_MAAL_POINTS = {"Asha": 25, "Bikash": 5, "Chandra": -15, "Dipa": -15}
WORKED_FEES = {"Asha": 16, "Bikash": -3, "Chandra": -3, "Dipa": -10}
WORKED_NETS = {"Asha": 41, "Bikash": 2, "Chandra": -18, "Dipa": -25}

#: (name, how they saw, maal) per row, as a person types it into the hand form.
WORKED_ROWS = [(p["name"], p["seen"], p["maal"]) for p in WORKED_HAND["players"]]
