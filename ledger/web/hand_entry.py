"""The shared hand form (``ledger.forms.hand_setup``) inside a match.

The form is the dispute checker's, for the match's registered players (names fixed,
a plays / sits-out switch each), with the dealer and, when editing, the version of
the hand that was loaded. The match service checks, settles and stores the hand
(``preview_hand``, ``add_hand``, ``replace_hand``); its problems go next to the fields
they concern.
"""

from __future__ import annotations

import secrets
from collections.abc import Mapping, Sequence
from typing import Any

from wtforms import SelectChoice

from ledger import matches
from ledger.engine import Invalid, settlement_json
from ledger.forms.hand import MatchHandForm
from ledger.forms.hand_filling import hand_formdata
from ledger.forms.hand_reading import (
    HandCheck,
    check_hand,
    problems_from_errors,
    read_hand_form,
)
from ledger.forms.hand_setup import build_hand_form
from ledger.forms.numbers import read_whole
from ledger.forms.problems import attach
from ledger.matches.models import Match
from ledger.matches.view import HandView, MatchView


def default_playing(view: MatchView) -> list[str]:
    """Who plays a new hand, to start with. With more players than a hand deals to (5,
    or 8 with four packs): everyone but those who sit out in turn (the dealer, then the
    seats after: ``view.next_sitting_out``). Else the last hand's players (someone who
    stepped away stays out until they are back), and everybody before the first hand."""
    players = list(view.players)
    in_turn = view.next_sitting_out
    if in_turn:
        return [p for p in players if p not in in_turn]
    if view.hands:
        last = view.hands[-1]
        return [p for p in players if p not in last.sitting_out]
    return players


def build_match_hand_form(
    view: MatchView,
    formdata: Mapping[str, Any] | None = None,
    *,
    playing: Sequence[str] | None = None,
) -> MatchHandForm:
    form = build_hand_form(
        view.rules,
        players=view.players,
        formdata=formdata,
        sit_outs=len(view.players) > 2,
        playing=playing,
        form_class=MatchHandForm,
    )
    form.dealer.choices = [SelectChoice(p, p) for p in view.players]
    if form.dealer.data not in view.players:
        form.dealer.data = view.next_dealer
    return form


def new_hand_form(view: MatchView) -> MatchHandForm:
    """The form for the next hand, ready for the usual case: the dealer and players
    preselected (a sit-out carried from the last hand is marked for the row to say so),
    every maal as a total, everyone seen by sequences and the hand finished by
    sequences; the scorekeeper changes only what differs. The defaults are on the form
    for all to see: nothing is filled in behind it. A new idempotency key, for the
    match's next hand.

    Every row opens compact, however a player entered the last hand: a row opened by
    counts or cards hid the total box and took a screen more, for a saving of two taps
    only when that player counts the same way again (README: Entering hands)."""
    form = build_match_hand_form(view, playing=default_playing(view))
    for entry in form.players:
        entry.form.maal_mode.data = "number"
        entry.form.seen.data = "sequences"
    form.finish.data = "sequences"
    form.in_turn = frozenset(view.next_sitting_out)
    if view.hands and not form.in_turn:
        form.sat_out_last = frozenset(view.hands[-1].sitting_out)
    renew_hand_key(form, view)
    return form


#: What a player's row holds once something was typed into it (a typed 0 is a maal).
_ENTERED = ("maal", "maal_cards", "maal_counts", "marriages_shown", "dealt_tunnelas", "foul")


def nothing_entered(data: dict[str, Any]) -> bool:
    """A finisher and no player's maal, tunnela or foul typed: the form as it opened
    (Back to a form reloaded after a save, say) but for one choice, not a hand anyone
    filled in. A void hand is not one: the form opens finished by sequences."""
    entered = any(key in player for player in data["players"] for key in _ENTERED)
    return bool(data.get("winner")) and not entered


def renew_hand_key(form: MatchHandForm, view: MatchView) -> None:
    """Make the form a new request: a new idempotency key, for the match's next hand."""
    form.hand_key.data = secrets.token_urlsafe(16)
    form.hand_number.data = str(view.next_hand_number)


def form_hand_number(form: MatchHandForm) -> int | None:
    """The hand number the form says it adds (None from a form that does not say)."""
    return read_whole(form.hand_number.data)


def stored_hand_form(view: MatchView, hand: HandView) -> tuple[MatchHandForm, list[str]]:
    """The form filled with a stored hand as it was entered, to edit it (and notes on
    anything that could not be shown)."""
    formdata, notes = hand_formdata(hand.input, players=view.players)
    formdata["dealer"] = hand.dealer
    formdata["version"] = str(hand.version)
    return build_match_hand_form(view, formdata), notes


def _rejected(form: MatchHandForm, check: HandCheck, invalid: Invalid) -> HandCheck:
    """The service refused the hand: its problems on the form's fields."""
    rows = read_hand_form(form).rows
    found = problems_from_errors(form, invalid.errors, rows)
    attach(found)
    return HandCheck(check.data, None, [*check.problems, *found])


def check_match_hand(form: MatchHandForm, match: Match, view: MatchView) -> HandCheck:
    """Read the form and settle it as a hand of ``match`` (stores nothing): the preview."""
    check = check_hand(form, view.rules, groupings=True)
    if not check.ok:
        return check
    try:
        hand, result, _dealer = matches.preview_hand(match, check.data, form.dealer.data)
    except Invalid as invalid:
        return _rejected(form, check, invalid)
    return HandCheck(check.data, settlement_json(hand, result), groupings=check.groupings)


def save_new_hand(
    form: MatchHandForm, match: Match, check: HandCheck
) -> matches.Receipt | HandCheck:
    """Store a checked hand once for the form's key; the receipt, or the problems the
    service found. ``matches.KeyReused``, ``HandNumberTaken`` and ``MatchFinished`` go on
    to the page, which shows the hand already there."""
    try:
        return matches.submit_hand(
            match,
            check.data,
            form.dealer.data,
            key=form.hand_key.data or None,
            number=form_hand_number(form),
        )
    except matches.KeyReused:
        raise
    except Invalid as invalid:
        return _rejected(form, check, invalid)


def save_edited_hand(
    form: MatchHandForm, match: Match, number: int, check: HandCheck
) -> HandCheck | None:
    """Replace hand ``number`` with a checked hand, if it is still the version the form
    was loaded from (else ``matches.HandConflict`` is raised, and nothing changes); the
    problems the service found, or None once saved (nothing is read after the commit)."""
    try:
        matches.replace_hand(
            match, number, check.data, expected_version=form_version(form), dealer=form.dealer.data
        )
    except Invalid as invalid:
        return _rejected(form, check, invalid)
    return None


def form_version(form: MatchHandForm) -> int:
    """The hand's version the form was loaded from (0 when missing: always stale)."""
    return read_whole(form.version.data) or 0
