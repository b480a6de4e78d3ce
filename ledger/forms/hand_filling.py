"""A hand in the settle format of docs/api.md turned back into form data: to edit a stored
hand, or to open a shared link."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from werkzeug.datastructures import MultiDict

from ledger.engine.game import MAX_PLAYERS
from ledger.engine.hand_body import PLAYER
from ledger.forms.form_json import MODES, text, write
from ledger.i18n import tr

#: What a row with no maal shows by counts: a shown marriage only they show
#: (``hand_reading._shows``), and dealt tunnelas beside an empty total would look like a
#: maal left out. A row that holds one of these and no maal opens by counts.
_BESIDE_MAAL = frozenset({"dealt_tunnelas", "marriages_shown"})


def _fill_row(
    item: Mapping[str, Any], prefix: str, name: str, notes: list[str]
) -> list[tuple[str, str]]:
    """A player of the settle format as the form data of its row: each field of
    ``PLAYER`` in the form field its declaration names; the first maal given sets the
    row's mode. A row with no maal opens as the new hand's form opens every row, as a
    total (its box on the row, the "More" folded), unless it holds a dealt tunnela or a
    shown marriage (``_BESIDE_MAAL``): a player who typed nothing is edited
    like any other, not by a screen of steppers."""
    out = [(prefix + "name", name), (prefix + "plays", "y")]
    mode = None
    beside = False
    for declared in PLAYER.fields:
        value = item.get(declared.key)
        if declared.key == "name" or declared.form is None:
            continue
        if not declared.required and (value is None or value == declared.absent):
            continue
        if declared.key in MODES and mode is not None:
            continue  # one maal only
        entries = write(declared, value, prefix, name, notes)
        if entries is not None and declared.key in MODES:
            mode = MODES[declared.key]
        beside = beside or bool(entries and declared.key in _BESIDE_MAAL)
        out.extend(entries or ())
    out.append((prefix + "maal_mode", mode or ("counts" if beside else "number")))
    return out


def _left_out(name: str, limit: int, of_match: bool) -> str:
    """Why a player of the hand has no row: not of the match, or past the rows."""
    if not of_match:
        return tr("A hand has at most {most} players; {name} was left out.", most=limit, name=name)
    if name:
        return tr("{name} is not a player of this match.", name=name)
    return tr("A player without a name is not a player of this match.")


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
        name = text(item.get("name")).strip()
        row = by_name.get(name.casefold()) if players is not None else len(used_rows)
        if row is None or row >= limit:
            notes.append(_left_out(name, limit, players is not None))
            continue
        used_rows.add(row)
        row_of_name.setdefault(name.casefold(), row)
        for key, value in _fill_row(item, f"players-{row}-", name, notes):
            out[key] = value
    if players is not None:
        for row, name in enumerate(players):
            if row not in used_rows:  # sits out: a row with no "plays", a total if switched on
                out[f"players-{row}-name"] = name
                out[f"players-{row}-maal_mode"] = "number"
    if data.get("tiplu") is not None:
        out["tiplu"] = text(data["tiplu"])
    if data.get("finish") is not None:
        out["finish"] = text(data["finish"])
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
