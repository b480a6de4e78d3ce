"""Building the hand form for a match's or the checker's house rules."""

from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence
from typing import Any

from msgspec import Struct
from wtforms import SelectChoice

from ledger.engine import HouseRules
from ledger.engine.game import TUNNELA_KINDS
from ledger.engine.hand import tunnela_setting
from ledger.forms.hand import HandForm
from ledger.i18n import tr

MIN_ROWS, DEFAULT_ROWS = 2, 4


class HandLayout(Struct, frozen=True):
    """Which inputs these house rules need (the template shows only these)."""

    count_kinds: tuple[str, ...]
    marriages_shown: bool
    tunnela_kinds: tuple[str, ...]
    foul: bool
    dublees: bool
    points_race: bool
    #: What an unseen player's maal does: the form says it by the maal of a row marked
    #: unseen where it is not theirs (murder: counts 0; kidnap: the finisher takes it).
    unseen_maal: str

    @classmethod
    def for_rules(cls, rules: HouseRules) -> HandLayout:
        kinds = ["tiplu", "poplu", "jhiplu"]
        if rules.alter is not None:
            kinds.append("alter")
        if rules.printed_jokers:
            kinds.append("printed_joker")
        if rules.ordinary_jokers_wild and any(rules.ordinary_joker):
            kinds.append("ordinary_joker")
        # Marriages entered as a count are a way to enter maal, not a rule: every profile
        # takes them (docs/rule-choices.md).
        kinds.append("marriage")
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
            tunnela_kinds=tunnela_kinds,
            foul=rules.foul != "off",
            dublees=rules.dublees_allowed,
            points_race=not rules.zero_sum,
            unseen_maal=rules.unseen_maal,
        )


def build_hand_form(
    rules: HouseRules,
    *,
    players: Sequence[str] | None = None,
    formdata: Mapping[str, Any] | None = None,
    rows: int | None = None,
    sit_outs: bool | None = None,
    playing: Collection[str] | None = None,
    form_class: type[HandForm] = HandForm,
) -> HandForm:
    """A hand form for these rules.

    ``players``: a match's registered players, in seat order; their names are fixed
    (posted names are ignored). ``None``: names are typed (the dispute checker), in
    ``rows`` rows (2 to the most a hand has under the rules, 5 or 8 by the packs; default:
    the rows posted, or 4).
    ``formdata``: ``request.form`` when the form was posted, or ``hand_formdata(...)``;
    ``None`` for an empty form. ``sit_outs``: show a "plays this hand" switch per
    player (default: more players than a hand deals to). ``playing``: on an empty form, who plays
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
        # Rows posted past these rules' most players stay (four packs were taken back):
        # the engine then says the hand needs four packs, where dropping them would
        # settle the hand without its last players, without a word.
        wanted = max(MIN_ROWS, min(max(rules.max_players, len(entries)), wanted))
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
        (len(players) > rules.max_players)
        if sit_outs is None and players is not None
        else bool(sit_outs)
    )
    form.max_rows = rules.max_players
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
