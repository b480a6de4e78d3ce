"""A hand in the settle format of docs/api.md turned back into form data: to edit a stored
hand, or to open a shared link."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from werkzeug.datastructures import MultiDict

from ledger.engine.game import COUNT_KINDS, MAX_PLAYERS
from ledger.i18n import tr
from ledger.i18n.words import KIND_NAMES


def _text(value: object) -> str:
    if value is None:
        return ""
    if isinstance(value, bool):
        return "y" if value else ""
    return str(value)


def hand_formdata(
    data: Mapping[str, Any], *, players: Sequence[str] | None = None, most: int = MAX_PLAYERS
) -> tuple[MultiDict[str, str], list[str]]:
    """Form data that shows a hand in the settle format (docs/api.md), and the problems met.

    ``players``: a match's registered players (the hand's players are matched to them
    by name; the others sit out). ``None``: one row per player of the hand, at most
    ``most`` (the most a hand has under its rules: 5, or 8 with four packs). Anything
    of the wrong shape is dropped with a problem, never raised.
    """
    out: MultiDict[str, str] = MultiDict()
    notes: list[str] = []
    if not isinstance(data, Mapping):
        return out, [tr("The hand is not an object with players, finish and winner.")]
    listed = data.get("players")
    if not isinstance(listed, list):
        notes.append(tr("The hand lists no players."))
        listed = []
    by_name = {p.casefold(): i for i, p in enumerate(players)} if players is not None else {}
    row_of_name: dict[str, int] = {}
    used_rows: set[int] = set()
    limit = len(players) if players is not None else most
    for j, item in enumerate(listed):
        if not isinstance(item, Mapping):
            notes.append(tr("Player {n} of the hand is not an object; it was left out.", n=j + 1))
            continue
        name = _text(item.get("name")).strip()
        if players is not None:
            row = by_name.get(name.casefold())
            if row is None:
                if name:
                    notes.append(tr("{name} is not a player of this match.", name=name))
                else:
                    notes.append(tr("A player without a name is not a player of this match."))
                continue
        else:
            row = len(used_rows)
            if row >= limit:
                notes.append(
                    tr(
                        "A hand has at most {most} players; {name} was left out.",
                        most=limit,
                        name=name,
                    )
                )
                continue
        used_rows.add(row)
        row_of_name.setdefault(name.casefold(), row)
        prefix = f"players-{row}-"
        out[prefix + "name"] = name
        out[prefix + "plays"] = "y"
        out[prefix + "seen"] = _text(item.get("seen"))
        mode = "counts"
        if item.get("maal") is not None:
            mode = "number"
            out[prefix + "maal"] = _text(item["maal"])
        elif isinstance(item.get("maal_cards"), list):
            mode = "cards"
            out[prefix + "maal_cards"] = " ".join(_text(c) for c in item["maal_cards"])
        elif isinstance(item.get("maal_counts"), Mapping):
            for kind, count in item["maal_counts"].items():
                if kind in COUNT_KINDS:
                    out[prefix + f"count_{kind}"] = _text(count)
                else:
                    notes.append(
                        tr(
                            "{name}: {kind!r} is not a kind of maal; it was left out.",
                            name=name,
                            kind=kind,
                        )
                    )
        out[prefix + "maal_mode"] = mode
        if item.get("marriages_shown"):
            out[prefix + "count_marriages_shown"] = _text(item["marriages_shown"])
        tunnelas = item.get("dealt_tunnelas")
        if isinstance(tunnelas, list) and tunnelas:
            # a kind in the page's words, as the chips write it (the field reads both)
            out[prefix + "dealt_tunnelas"] = ", ".join(
                str(KIND_NAMES[t]) if isinstance(t, str) and t in KIND_NAMES else _text(t)
                for t in tunnelas
            )
        if item.get("foul") is True:
            out[prefix + "foul"] = "y"
    if players is not None:
        for row, name in enumerate(players):
            if row not in used_rows:  # sits out: a row with no "plays"
                out[f"players-{row}-name"] = name
                out[f"players-{row}-maal_mode"] = "counts"
    if data.get("tiplu") is not None:
        out["tiplu"] = _text(data["tiplu"])
    if data.get("finish") is not None:
        out["finish"] = _text(data["finish"])
    winner = data.get("winner")
    if isinstance(winner, str) and winner.strip():
        row = row_of_name.get(winner.strip().casefold())
        if row is None:
            notes.append(
                tr("The finisher {name} is not one of the hand's players.", name=winner.strip())
            )
        else:
            out["winner"] = str(row)
    return out, notes
