"""The hand body read three ways (issue 37: how to declare each request body once).

The same 4-player hands are read by the engine's reader (``parse_hand``: the declared shape and
the game's own checks), by a pydantic v2 model of the body's shape and by a msgspec
``Struct`` of it (``msgspec.convert`` from the decoded JSON, as a view gets it). Each is
timed on valid hands (maal given as cards, and as counts) and on an invalid hand with
three problems (a bad route, a maal past its bound, a foul that is not true or false),
whose problems are counted: the reader must report every problem at once.

The pydantic and msgspec models read the shape only: the game's checks (copies of the
pack, who may finish, totals) would still be paid on top of them.
"""

# No "from __future__ import annotations": the models below are local classes, whose
# annotations msgspec and pydantic read at once.

import time
from collections.abc import Callable
from typing import Annotated, Literal

from bench.engine_bench import hands_for
from ledger.engine import PROFILES, Invalid, parse_hand
from ledger.engine.game import MAAL_COUNT_KEYS, MAX_DEALT_TUNNELAS, MAX_MAAL, MAX_NAME

ROUTES = Literal["sequences", "dublees", "unseen"]
FINISH = Literal["sequences", "dublees", "void"]
MaalKind = Literal[MAAL_COUNT_KEYS]  # type: ignore[valid-type]


def pydantic_reader() -> tuple[Callable[[object], object], Callable[[Exception], int]]:
    from pydantic import BaseModel, ConfigDict, Field, ValidationError

    class Player(BaseModel):
        model_config = ConfigDict(strict=True, extra="forbid")
        name: Annotated[str, Field(min_length=1, max_length=MAX_NAME)]
        seen: ROUTES
        maal: Annotated[int, Field(ge=0, le=MAX_MAAL)] | None = None
        maal_counts: dict[MaalKind, Annotated[int, Field(ge=0, le=MAX_MAAL)]] | None = None
        maal_cards: list[Annotated[str, Field(max_length=12)]] | None = None
        dealt_tunnelas: Annotated[list[str], Field(max_length=MAX_DEALT_TUNNELAS)] | None = None
        marriages_shown: Annotated[int, Field(ge=0, le=4)] | None = None
        foul: bool | None = None

    class Hand(BaseModel):
        model_config = ConfigDict(strict=True, extra="forbid")
        tiplu: Annotated[str, Field(max_length=12)] | None = None
        finish: FINISH | None = None
        winner: str | None = None
        players: Annotated[list[Player], Field(min_length=2, max_length=8)]

    def count(problem: Exception) -> int:
        assert isinstance(problem, ValidationError)
        return len(problem.errors())

    return Hand.model_validate, count


def msgspec_reader() -> tuple[Callable[[object], object], Callable[[Exception], int]]:
    import msgspec
    from msgspec import Meta

    class Player(msgspec.Struct, forbid_unknown_fields=True):
        name: Annotated[str, Meta(min_length=1, max_length=MAX_NAME)]
        seen: ROUTES
        maal: Annotated[int, Meta(ge=0, le=MAX_MAAL)] | None = None
        maal_counts: dict[MaalKind, Annotated[int, Meta(ge=0, le=MAX_MAAL)]] | None = None
        maal_cards: list[Annotated[str, Meta(max_length=12)]] | None = None
        dealt_tunnelas: Annotated[list[str], Meta(max_length=MAX_DEALT_TUNNELAS)] | None = None
        marriages_shown: Annotated[int, Meta(ge=0, le=4)] | None = None
        foul: bool | None = None

    class Hand(msgspec.Struct, forbid_unknown_fields=True):
        players: Annotated[list[Player], Meta(min_length=2, max_length=8)]
        tiplu: Annotated[str, Meta(max_length=12)] | None = None
        finish: FINISH | None = None
        winner: str | None = None

    def read(data: object) -> object:
        return msgspec.convert(data, Hand)

    def count(problem: Exception) -> int:
        assert isinstance(problem, msgspec.ValidationError)
        return 1  # msgspec stops at its first problem

    return read, count


def engine_reader() -> tuple[Callable[[object], object], Callable[[Exception], int]]:
    rules = PROFILES["amarnepal"]

    def count(problem: Exception) -> int:
        assert isinstance(problem, Invalid)
        return len(problem.errors)

    return (lambda data: parse_hand(data, rules)), count


def invalid_hand() -> dict[str, object]:
    """Three problems: a route that is none, a maal past its bound, a foul given as text."""
    return {
        "finish": "sequences",
        "winner": "Asha",
        "players": [
            {"name": "Asha", "seen": "sequences", "maal": 3},
            {"name": "Bikash", "seen": "sideways", "maal": 2},
            {"name": "Chandra", "seen": "unseen", "maal": MAX_MAAL + 1},
            {"name": "Dipa", "seen": "unseen", "maal": 0, "foul": "yes"},
        ],
    }


def as_counts(data: dict[str, object]) -> dict[str, object]:
    """A hand whose maal is given as counts of each kind (what the hand form sends)."""
    players = [
        {"name": f"P{i}", "seen": "sequences" if i == 0 else "unseen"}
        | ({"maal_counts": {"tiplu": 1, "poplu": 1}} if i % 2 else {})
        for i in range(4)
    ]
    return {"finish": "sequences", "winner": "P0", "players": players}


READERS = {
    "engine (declared)": engine_reader,
    "pydantic": pydantic_reader,
    "msgspec": msgspec_reader,
}


def _best_us(read: Callable[[object], object], hands: list[dict[str, object]]) -> float:
    """µs a hand: the processor time of the best of short rounds."""
    best = float("inf")
    for _ in range(5):
        start = time.process_time()
        for data in hands:
            try:
                read(data)
            except Exception:  # the invalid hands are timed with their error built
                pass
        best = min(best, (time.process_time() - start) / len(hands))
    return best * 1e6


def run(count: int = 400) -> dict[str, dict[str, float]]:
    """For each reader: µs a hand (cards, counts, invalid) and the problems it reports
    of the invalid hand's three."""
    cards = hands_for("cards", PROFILES["amarnepal"], count)
    counts = [as_counts(h) for h in cards]
    bad = [invalid_hand() for _ in range(count)]
    out: dict[str, dict[str, float]] = {}
    for label, make in READERS.items():
        try:
            read, problems = make()
        except ImportError:  # msgspec is the bench's alone: not installed, not measured
            continue
        try:
            read(bad[0])
        except Exception as problem:
            found = problems(problem)
        out[label] = {
            "us_cards": _best_us(read, cards),
            "us_counts": _best_us(read, counts),
            "us_invalid": _best_us(read, bad),
            "problems_of_3": found,
        }
    return out


if __name__ == "__main__":
    for label, figures in run().items():
        print(label, {k: round(v, 1) for k, v in figures.items()})
