"""The hand form and the engine's JSON, both ways, and the engine's problems on the form.

One place for the conversion, shared by the dispute checker and the match pages:

- ``build_hand_form(rules, players=..., formdata=...)`` builds the form (or
  ``prepare_hand_form`` readies one already constructed, like the checker's);
- ``check_hand(form, rules)`` reads it into the settle format of API.md (without
  ``rules``), has the engine parse and settle it, and puts every problem next to its
  field (``field.errors``) or, when it concerns no field, in ``HandCheck.problems``
  with ``field is None``;
- ``hand_formdata(data, players=...)`` turns a hand in the settle format back into
  form data (to edit a stored hand, or to open a shared link).

Nothing here adds up points: the engine does.
"""

from __future__ import annotations

import re
from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from werkzeug.datastructures import MultiDict
from wtforms import Field, SelectChoice

from ledger.engine import FieldError, HouseRules, Invalid, parse_hand, settle
from ledger.engine.errors import N_
from ledger.engine.hand import tunnela_setting
from ledger.i18n import tr, translate
from ledger.web.forms.hand import COUNT_KINDS, KIND_LABELS, HandForm
from ledger.web.forms.numbers import read_whole

MIN_ROWS, MAX_CHECK_ROWS, DEFAULT_ROWS = 2, 5, 4
FINISHES = ("sequences", "dublees", "void")
TUNNELA_KINDS = ("ordinary", "ordinary_joker", "poplu", "jhiplu", "alter", "printed_joker", "tiplu")
_SPLIT = re.compile(r"[\s,;]+")


@dataclass(frozen=True)
class HandLayout:
    """Which inputs these house rules need (the template shows only these)."""

    count_kinds: tuple[str, ...]
    marriages_shown: bool
    tunnelas: bool
    tunnela_kinds: tuple[str, ...]
    foul: bool
    dublees: bool
    points_race: bool

    @classmethod
    def for_rules(cls, rules: HouseRules) -> HandLayout:
        kinds = ["tiplu", "poplu", "jhiplu"]
        if rules.alter is not None:
            kinds.append("alter")
        if rules.printed_jokers:
            kinds.append("printed_joker")
        if rules.ordinary_jokers_wild and any(rules.ordinary_joker):
            kinds.append("ordinary_joker")
        tunnela_kinds = tuple(
            k
            for k in TUNNELA_KINDS
            if tunnela_setting(k, rules) is not None
            and (k != "printed_joker" or rules.printed_jokers)
            and (k != "alter" or rules.alter is not None)
        )
        return cls(
            count_kinds=tuple(kinds),
            marriages_shown=rules.marriage_shown is not None,
            tunnelas=rules.scores_dealt_tunnelas,
            tunnela_kinds=tunnela_kinds,
            foul=rules.foul != "off",
            dublees=rules.dublees_allowed,
            points_race=not rules.zero_sum,
        )


@dataclass
class Problem:
    """One problem, in words a player understands, and the form field it concerns."""

    message: str
    field: Field | None = None  # None: shown at the top of the form
    label: str = ""  # whose and which field, for lists away from the field: "Asha · Poplu"

    @property
    def anchor(self) -> str:
        return self.field.id if self.field is not None else ""


@dataclass
class HandInput:
    """The form read into the settle format, before the engine has seen it."""

    data: dict[str, Any]
    rows: list[int]  # rows[j]: the form row of data["players"][j]
    problems: list[Problem] = field(default_factory=list)
    #: The winner's problem is told already (a row with no name yet, or not playing):
    #: the engine's own words about the winner would only repeat it.
    winner_unnamed: bool = False


@dataclass
class HandCheck:
    """What ``check_hand`` found: the hand as read, and its settlement or its problems."""

    data: dict[str, Any]  # the settle format of API.md, without "rules"
    settlement: dict[str, Any] | None = None  # {"hand": ..., **Settlement.to_json()}
    problems: list[Problem] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return self.settlement is not None

    @property
    def top_problems(self) -> list[Problem]:
        return [p for p in self.problems if p.field is None]


# --- building the form -----------------------------------------------------------


def build_hand_form(
    rules: HouseRules,
    *,
    players: Sequence[str] | None = None,
    formdata: Mapping | None = None,
    rows: int | None = None,
    sit_outs: bool | None = None,
    playing: Collection[str] | None = None,
    form_class: type[HandForm] = HandForm,
) -> HandForm:
    """A hand form for these rules.

    ``players``: a match's registered players, in seat order; their names are fixed
    (posted names are ignored). ``None``: names are typed (the dispute checker), in
    ``rows`` rows (2 to 5; default: the rows posted, or 4).
    ``formdata``: ``request.form`` when the form was posted, or ``hand_formdata(...)``;
    ``None`` for an empty form. ``sit_outs``: show a "plays this hand" switch per
    player (default: more than 5 players). ``playing``: on an empty form, who plays
    (default: everybody); rows missing from posted data sit out.
    """
    form = form_class(formdata=formdata)
    return prepare_hand_form(
        form, rules, players=players, rows=rows, sit_outs=sit_outs, playing=playing
    )


def prepare_hand_form(
    form: HandForm,
    rules: HouseRules,
    *,
    players: Sequence[str] | None = None,
    rows: int | None = None,
    sit_outs: bool | None = None,
    playing: Collection[str] | None = None,
) -> HandForm:
    """Ready a constructed form: its rows, the finisher's choices and the layout."""
    entries = form.players
    if players is not None:
        wanted = len(players)
    else:
        wanted = rows if rows is not None else (len(entries) or DEFAULT_ROWS)
        wanted = max(MIN_ROWS, min(MAX_CHECK_ROWS, wanted))
    posted = len(entries) > 0
    del entries.entries[wanted:]
    entries.last_index = len(entries.entries) - 1
    while len(entries) < wanted:
        name = players[len(entries)] if players is not None else ""
        # A row missing from posted data did not play; on a new form, ``playing`` plays.
        plays = not posted and (playing is None or name in playing)
        entries.append_entry({"name": name, "plays": plays, "maal_mode": "counts"})
    for entry in entries:
        if entry.form.maal_mode.data not in ("counts", "cards", "number"):
            entry.form.maal_mode.data = "counts"
    form.fixed_names = list(players) if players is not None else None
    form.sit_outs = (
        (len(players) > 5) if sit_outs is None and players is not None else bool(sit_outs)
    )
    form.layout = HandLayout.for_rules(rules)
    form.winner.choices = [SelectChoice("", tr("Choose who finished"))] + [
        SelectChoice(str(i), player_name(form, i) or row_title(i)) for i in range(len(entries))
    ]
    return form


def row_title(row: int) -> str:
    """A row with no name yet: "Player 2"."""
    return tr("Player {n}", n=row + 1)


def player_name(form: HandForm, row: int) -> str:
    """The name of a row: the match's registered name, or what was typed."""
    if form.fixed_names is not None:
        return form.fixed_names[row]
    return " ".join((form.players[row].form.name.data or "").split())


# --- form -> settle format ---------------------------------------------------------


def _cell(field: Field) -> str:
    return (field.data or "").strip() if isinstance(field.data, str) else ""


def _whole(field: Field, problems: list[Problem], label: str) -> int | None:
    """A typed whole number: None when blank; a problem when it is no number."""
    text = _cell(field)
    if not text:
        return None
    try:
        return int(text)
    except ValueError:
        problems.append(Problem(tr("Enter a whole number, like 0, 1 or 2."), field, label))
        return None


def _codes(text: str) -> list[str]:
    return [code for code in _SPLIT.split(text) if code]


def _row_has_input(row) -> bool:
    counts = [getattr(row, f"count_{k}") for k in (*COUNT_KINDS, "marriages_shown")]
    return bool(
        _cell(row.name)
        or row.seen.data
        or any(_cell(c) not in ("", "0") for c in counts)
        or _cell(row.maal_cards)
        or _cell(row.maal)
        or _cell(row.dealt_tunnelas)
        or row.foul.data
    )


def _in_hand(form: HandForm, index: int) -> bool:
    row = form.players[index].form
    if form.fixed_names is not None:
        return bool(row.plays.data) if form.sit_outs else True
    return _row_has_input(row)


def _label(form: HandForm, row: int, field: Field) -> str:
    who = player_name(form, row) or row_title(row)
    return f"{who} · {field.label.text}"


def read_hand_form(form: HandForm) -> HandInput:
    """The form in the settle format of API.md (without rules); what could not be read
    (a number that is no number, a finisher who is not in the hand) is a problem."""
    layout: HandLayout = form.layout
    problems: list[Problem] = []
    players: list[dict[str, Any]] = []
    rows: list[int] = []
    for index, entry in enumerate(form.players):
        if not _in_hand(form, index):
            continue
        row = entry.form
        player: dict[str, Any] = {"name": player_name(form, index), "seen": row.seen.data or None}
        mode = row.maal_mode.data
        if mode == "number":
            value = _whole(row.maal, problems, _label(form, index, row.maal))
            if value is not None:
                player["maal"] = value
        elif mode == "cards":
            codes = _codes(_cell(row.maal_cards))
            if codes:
                player["maal_cards"] = codes
        else:
            counts = {}
            for kind in layout.count_kinds:
                f = getattr(row, f"count_{kind}")
                value = _whole(f, problems, _label(form, index, f))
                if value:
                    counts[kind] = value
            if counts:
                player["maal_counts"] = counts
        if layout.marriages_shown and mode != "number":
            f = row.count_marriages_shown
            shown = _whole(f, problems, _label(form, index, f))
            if shown:
                player["marriages_shown"] = shown
        if layout.tunnelas and mode != "number":
            tunnelas = _codes(_cell(row.dealt_tunnelas))
            if tunnelas:
                player["dealt_tunnelas"] = tunnelas
        if layout.foul and row.foul.data:
            player["foul"] = True
        players.append(player)
        rows.append(index)

    finish = form.finish.data if form.finish.data in FINISHES else None
    winner = None
    winner_unnamed = False
    w = read_whole(form.winner.data)
    if finish != "void" and w is not None and w < len(form.players):
        if w in rows:
            winner = player_name(form, w)
            winner_unnamed = not winner
        else:
            who = player_name(form, w) or row_title(w)
            winner_unnamed = True  # this problem says it all about the winner
            problems.append(
                Problem(
                    tr("{name} is not playing this hand; choose one of its players.", name=who),
                    form.winner,
                    form.winner.label.text,
                )
            )
    data: dict[str, Any] = {
        "tiplu": _cell(form.tiplu) or None,
        "finish": finish,
        "winner": winner,
        "players": players,
    }
    return HandInput(data, rows, problems, winner_unnamed)


# --- the engine's problems -> form fields ------------------------------------------

_PLAYER_FIELDS = {
    "name": "name",
    "seen": "seen",
    "maal": "maal",
    "maal_cards": "maal_cards",
    "dealt_tunnelas": "dealt_tunnelas",
    "marriages_shown": "count_marriages_shown",
    "foul": "foul",
}


def field_for_path(form: HandForm, path: str, rows: Sequence[int]) -> tuple[Field | None, int]:
    """The form field an engine error path concerns (None: none) and its row (or -1)."""
    parts = path.split(".")
    head = parts[0]
    if len(parts) == 1 and head in ("tiplu", "finish", "winner"):
        return getattr(form, head), -1
    if head == "rules" and len(parts) == 2 and hasattr(form, "rules"):
        return getattr(form.rules.form, parts[1], None), -1
    if head == "players" and len(parts) >= 3 and parts[1].isdigit():
        j = int(parts[1])
        if j >= len(rows):
            return None, -1
        row = form.players[rows[j]].form
        key = parts[2]
        if key == "maal_counts":
            if len(parts) >= 4 and parts[3] in COUNT_KINDS:
                return getattr(row, f"count_{parts[3]}"), rows[j]
            return None, rows[j]
        if key in _PLAYER_FIELDS:
            return getattr(row, _PLAYER_FIELDS[key]), rows[j]
        return None, rows[j]
    return None, -1


#: Engine sentences that name JSON fields, by their template, in the words of the form.
FORM_WORDS = {
    "seen must be sequences, dublees or unseen.": N_(
        "Choose how this player saw: by sequences, by dublees, or unseen."
    ),
    "The finish must be sequences, dublees or void.": N_(
        "Choose how the hand ended: by sequences, by dublees, or void (nobody finished)."
    ),
    "Each player needs a name.": N_("Enter this player's name."),
}


def plain_message(error: FieldError) -> str:
    """An engine error in the page's language, in the words of the form."""
    words = FORM_WORDS.get(error.template)
    return tr(words) if words else translate(error)


def problems_from_errors(
    form: HandForm, errors: Sequence[FieldError], rows: Sequence[int] = ()
) -> list[Problem]:
    """The engine's errors as problems on the form's fields (unmapped ones at the top)."""
    problems = []
    for error in errors:
        target, row = field_for_path(form, error.field, rows)
        message = plain_message(error)
        if target is None:
            who = (player_name(form, row) or row_title(row)) if row >= 0 else ""
            problems.append(Problem(f"{who}: {message}" if who else message, None, who))
        elif row >= 0:
            problems.append(Problem(message, target, _label(form, row, target)))
        else:
            problems.append(Problem(message, target, target.label.text))
    return problems


def clear_errors(form) -> None:
    """Forget every field's errors (to redraw a form whose problems show elsewhere)."""
    for f in form:
        if hasattr(f, "entries"):  # FieldList
            for entry in f.entries:
                clear_errors(entry.form if hasattr(entry, "form") else [entry])
        elif hasattr(f, "form") and f.type == "FormField":
            clear_errors(f.form)
        else:
            f.errors = []


def attach(problems: Sequence[Problem]) -> None:
    """Put each problem in its field's ``errors``, for the template to show beside it."""
    for problem in problems:
        if problem.field is not None:
            problem.field.errors = [*problem.field.errors, problem.message]


# --- the whole round -------------------------------------------------------------


def check_hand(
    form: HandForm, rules: HouseRules, extra_problems: Sequence[Problem] = ()
) -> HandCheck:
    """Read the form, let the engine parse and settle it, and place every problem
    (``field.errors``; those of no field stay in ``HandCheck.top_problems``).

    ``extra_problems`` (the checker's house-rules problems, already placed) are listed
    first and stop the settlement. The settlement is
    ``{"hand": Hand.to_json(), **Settlement.to_json()}``.
    """
    hand_input = read_hand_form(form)
    found = list(hand_input.problems)
    settlement = None
    try:
        hand = parse_hand(hand_input.data, rules)
    except Invalid as invalid:
        errors = invalid.errors
        if hand_input.winner_unnamed:
            errors = [e for e in errors if e.field != "winner"]
        found += problems_from_errors(form, errors, hand_input.rows)
    else:
        if not found and not extra_problems:
            settlement = {"hand": hand.to_json(), **settle(hand, rules).to_json()}
    attach(found)
    return HandCheck(hand_input.data, settlement, [*extra_problems, *found])


# --- settle format -> form data ----------------------------------------------------


def _text(value: object) -> str:
    if value is None:
        return ""
    if isinstance(value, bool):
        return "y" if value else ""
    return str(value)


def hand_formdata(
    data: Mapping[str, Any], *, players: Sequence[str] | None = None
) -> tuple[MultiDict, list[str]]:
    """Form data that shows a hand in the settle format (API.md), and the problems met.

    ``players``: a match's registered players (the hand's players are matched to them
    by name; the others sit out). ``None``: one row per player of the hand. Anything
    of the wrong shape is dropped with a problem, never raised.
    """
    out: MultiDict = MultiDict()
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
    limit = len(players) if players is not None else MAX_CHECK_ROWS
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
            out[prefix + "dealt_tunnelas"] = ", ".join(_text(t) for t in tunnelas)
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


def kind_label(kind: str) -> str:
    label = KIND_LABELS.get(kind)
    return str(label) if label is not None else kind.replace("_", " ")
