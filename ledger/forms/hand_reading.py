"""The hand form read into the settle format of docs/api.md, checked and settled by the engine,
with every problem placed on its field. Nothing here adds up points: the engine does."""

from __future__ import annotations

import re
from collections.abc import Sequence
from functools import cache
from typing import Any

from flask_babel import force_locale
from msgspec import Struct, field
from wtforms import Field, Form

from ledger.engine import (
    FieldError,
    HouseRules,
    Invalid,
    hand_groupings,
    parse_hand,
    settle,
    settlement_json,
)
from ledger.engine.game import MAAL_COUNT_KEYS, TUNNELA_KINDS
from ledger.engine.hand_body import PLAYER, TOO_MANY
from ledger.forms.form_json import MODES, RowReader, cell, codes
from ledger.forms.hand import HandForm
from ledger.forms.hand_setup import HandLayout, player_name, row_title
from ledger.forms.numbers import read_whole
from ledger.forms.problems import Problem, attach, place_errors
from ledger.i18n import tr, western_digits
from ledger.i18n.language import LANGUAGES
from ledger.i18n.words import KIND_NAMES, KIND_WORDS


class HandInput(Struct):
    """The form read into the settle format, before the engine has seen it."""

    data: dict[str, Any]
    rows: list[int]  # rows[j]: the form row of data["players"][j]
    problems: list[Problem] = field(default_factory=list)
    #: The winner's problem is told already (a row with no name yet, or not playing):
    #: the engine's own words about the winner would only repeat it.
    winner_unnamed: bool = False


class HandCheck(Struct):
    """What ``check_hand`` found: the hand as read, and its settlement or its problems."""

    data: dict[str, Any]  # the settle format of docs/api.md, without "rules"
    settlement: dict[str, Any] | None = None  # {"hand": ..., **Settlement.to_json()}
    problems: list[Problem] = field(default_factory=list)
    #: Why a maal was grouped as it was (``check_hand(..., groupings=True)``): each
    #: player given as cards or counts who could form other numbers of marriages, by
    #: name (``engine.hand_groupings``: [{"marriages", "total", "chosen"}], most first).
    groupings: dict[str, list[dict[str, Any]]] = field(default_factory=dict)

    @property
    def ok(self) -> bool:
        return self.settlement is not None

    @property
    def top_problems(self) -> list[Problem]:
        return [p for p in self.problems if p.field is None]


@cache  # the catalogues do not change
def _kind_words() -> tuple[dict[str, str], re.Pattern[str]]:
    """Every word a scorekeeper may type for a kind of dealt tunnela, in each language of
    the pages (``पप्लु``, ``साधारण जोकर``, ``ordinary joker``; the ids too), lower case →
    the kind's id; and a pattern finding them as whole entries, longest first (so that
    ``साधारण जोकर`` is not read as ``साधारण``)."""
    words: dict[str, str] = {}
    for language in LANGUAGES:
        with force_locale(language):
            for kind in TUNNELA_KINDS:
                for word in (KIND_NAMES[kind], KIND_WORDS[kind], kind, kind.replace("_", " ")):
                    words[" ".join(str(word).lower().split())] = kind
    alternatives = "|".join(
        r"\s+".join(map(re.escape, w.split())) for w in sorted(words, key=len, reverse=True)
    )
    return words, re.compile(rf"(?<![^\s,;])(?:{alternatives})(?![^\s,;])", re.IGNORECASE)


def tunnela_entries(text: str) -> list[str]:
    """The dealt-tunnela field's entries: card codes as typed, kinds as their ids, however
    they were written (the engine reads ids and codes only)."""
    words, pattern = _kind_words()
    ids = pattern.sub(lambda found: words[" ".join(found.group(0).lower().split())], text)
    return codes(ids)


def _row_has_input(row: Form) -> bool:
    """Whether a row of typed names holds a player: a name, or anything typed. How the
    player saw is no input of its own: the checker's rows open seen by sequences."""
    counts = [getattr(row, f"count_{k}") for k in (*MAAL_COUNT_KEYS, "marriages_shown")]
    return bool(
        cell(row.name)
        or any(cell(c) and read_whole(cell(c)) != 0 for c in counts)
        or cell(row.maal_cards)
        or cell(row.maal)
        or cell(row.dealt_tunnelas)
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


def _shows(key: str, mode: str, layout: HandLayout) -> bool:
    """Whether a row whose maal is given as ``mode`` shows the field ``key``."""
    if key in MODES:
        return MODES[key] == mode
    if key == "marriages_shown":
        return layout.marriages_shown and mode != "number"
    if key == "foul":
        return layout.foul
    # Every profile takes dealt tunnelas as the table saw them (one it never scores
    # counts as its cards: docs/rules.md §9), so the box is always there; beside a
    # total too, which holds them, for their bonus is a step of the settlement.
    return True


def _read_row(form: HandForm, index: int) -> dict[str, Any]:
    """A row as a player of the settle format: each field of ``PLAYER`` the row shows
    (its name is the match's, or typed)."""
    row = form.players[index].form
    mode = row.maal_mode.data if row.maal_mode.data in ("number", "cards") else "counts"
    layout: HandLayout = form.layout

    reader = RowReader(row, layout.count_kinds, tunnela_entries)
    player: dict[str, Any] = {"name": player_name(form, index)}
    for declared in PLAYER.fields:
        key = declared.key
        if key == "name" or declared.form is None or not _shows(key, mode, layout):
            continue
        value = reader.read(declared)
        if declared.required or (value is not None and value != declared.absent):
            player[key] = value
    return player


def _read_winner(
    form: HandForm, finish: str | None, rows: list[int], problems: list[Problem]
) -> tuple[str | None, bool]:
    """The finisher's name, and whether their problem is told already (a row with no
    name yet, or one not playing)."""
    w = read_whole(form.winner.data)
    if finish == "void" or w is None or w >= len(form.players):
        return None, False
    if w in rows:
        winner = player_name(form, w)
        return winner, not winner
    who = player_name(form, w) or row_title(w)
    problems.append(
        Problem(
            tr("{name} is not playing this hand; choose one of its players.", name=who),
            form.winner,
            form.winner.label.text,
        )
    )
    return None, True  # this problem says it all about the winner


def _unknown_modes(form: HandForm, rows: list[int]) -> list[Problem]:
    """A "Maal entered as" posted as none of the form's ways (only a form sent by hand has
    one): a problem on it. ``prepare_hand_form`` redraws such a row by counts, which read
    as they are would lose the maal typed another way, without a word."""
    return [
        Problem(
            tr("Choose how the maal is entered: as a count, as cards, or as a total."),
            mode,
            _label(form, index, mode),
        )
        for index in rows
        if (mode := form.players[index].form.maal_mode).raw_data
        and mode.raw_data[0] not in ("", *MODES.values())
    ]


def read_hand_form(form: HandForm) -> HandInput:
    """The form in the settle format of docs/api.md (without rules); what could not be read
    (a number that is no number, a finisher who is not in the hand, a way of entering the
    maal the form has not) is a problem."""
    rows = [index for index in range(len(form.players)) if _in_hand(form, index)]
    problems = _unknown_modes(form, rows)
    players = [_read_row(form, index) for index in rows]
    finish = form.finish.data or None  # the engine refuses one not among the choices
    winner, winner_unnamed = _read_winner(form, finish, rows, problems)
    data: dict[str, Any] = {
        "tiplu": western_digits(cell(form.tiplu)) or None,
        "finish": finish,
        "winner": winner,
        "players": players,
    }
    return HandInput(data, rows, problems, winner_unnamed)


#: The form field of each player's field, by its JSON key (``{}``: one per kind).
_FORM_NAMES = {f.key: f.form for f in PLAYER.fields if f.form is not None}


def field_for_path(form: HandForm, path: str, rows: Sequence[int]) -> tuple[Field | None, int]:
    """The form field an engine error path concerns (None: none) and its row (or -1)."""
    parts = path.split(".")
    head = parts[0]
    if len(parts) == 1 and head in ("tiplu", "finish", "winner", "dealer") and hasattr(form, head):
        return getattr(form, head), -1
    if head == "rules" and len(parts) == 2 and hasattr(form, "rules"):
        return getattr(form.rules.form, parts[1], None), -1
    if head == "players" and len(parts) >= 3 and parts[1].isdigit():
        j = int(parts[1])
        if j >= len(rows):
            return None, -1
        row = form.players[rows[j]].form
        name = _FORM_NAMES.get(parts[2])
        if name is not None and "{}" in name:
            kind = parts[3] if len(parts) >= 4 else ""
            name = name.format(kind) if kind in MAAL_COUNT_KEYS else None
        return (getattr(row, name) if name is not None else None), rows[j]
    return None, -1


def problems_from_errors(
    form: HandForm, errors: Sequence[FieldError], rows: Sequence[int] = ()
) -> list[Problem]:
    """The engine's errors as problems on the form's fields; one of a player but of no
    field is shown at the top, saying whose it is."""

    def locate(error: FieldError) -> tuple[Field | None, str]:
        target, row = field_for_path(form, error.field, rows)
        if target is None:
            return None, (player_name(form, row) or row_title(row)) if row >= 0 else ""
        return target, _label(form, row, target) if row >= 0 else target.label.text

    problems = place_errors(errors, locate)
    for problem in problems:
        if problem.field is None and problem.label:
            problem.message = f"{problem.label}: {problem.message}"
    return problems


def said_for_a_match(error: FieldError) -> FieldError:
    """The engine's "more players than three packs deal to" as a match's hand form says
    it: its packs are the match's, not a field of this form, so the sentence says what
    the scorekeeper can do from here (the API and the checker name the setting)."""
    if error.template != TOO_MANY:
        return error
    return FieldError(
        error.field,
        "A hand has 2 to {most} players with three packs; this one lists {n}. Switch those "
        "who sit out this hand to “Sits out”, or play on four packs (up to 8 a hand) with "
        "“Change the rules…” on the match page.",
        **error.values,
    )


def _winner_name_refused(data: dict[str, Any], errors: Sequence[FieldError]) -> bool:
    names = [p.get("name") for p in data["players"]]
    if data.get("winner") not in names:
        return False
    field = f"players.{names.index(data['winner'])}.name"
    return any(e.field == field for e in errors)


def check_hand(
    form: HandForm,
    rules: HouseRules,
    extra_problems: Sequence[Problem] = (),
    *,
    groupings: bool = False,
) -> HandCheck:
    """Read the form, let the engine parse and settle it, and place every problem
    (``field.errors``; those of no field stay in ``HandCheck.top_problems``).

    ``extra_problems`` (the checker's house-rules problems, already placed) are listed
    first and stop the settlement. The settlement is
    ``{"hand": Hand.to_json(), **Settlement.to_json()}``; with ``groupings``, the
    settled hand's ``HandCheck.groupings`` too.
    """
    hand_input = read_hand_form(form)
    found = list(hand_input.problems)
    settlement = None
    grouped: dict[str, list[dict[str, Any]]] = {}
    try:
        hand = parse_hand(hand_input.data, rules)
    except Invalid as invalid:
        errors = invalid.errors
        # The finisher's box says nothing the finisher's own row says already (no name
        # yet, or a name refused): "not one of this hand's players" would only mislead.
        if hand_input.winner_unnamed or _winner_name_refused(hand_input.data, errors):
            errors = [e for e in errors if e.field != "winner"]
        if form.fixed_names is not None:  # a match's hand form
            errors = [said_for_a_match(e) for e in errors]
        found += problems_from_errors(form, errors, hand_input.rows)
    else:
        if not found and not extra_problems:
            settlement = settlement_json(hand, settle(hand, rules))
            if groupings:
                grouped = hand_groupings(hand.players, rules, hand.tiplu)
    attach(found)
    return HandCheck(hand_input.data, settlement, [*extra_problems, *found], grouped)
