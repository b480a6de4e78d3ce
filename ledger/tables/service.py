"""The table service: a group of players, its roster, seasons, matches and money.

The API (and the pages to come) call these functions. A table stands on the match
service: its matches are created, moved, renamed and changed through ``ledger.matches``
(one write, one commit, the match's row first), and it never writes a hand itself.
Where a table write goes with a match write (a new match's players joining the roster,
a rename), the table's rows are added to the session first and the match service's
one commit stores both, or neither.

- Problems with input raise ``ledger.engine.Invalid`` (field errors), a missing table,
  player or payment werkzeug's ``NotFound``; nothing is stored then.
- The table's figures (``standings``, ``player_record``, ``season_settle_up``,
  ``rating_history``) are sums over what each match keeps (``ledger.tables.figures``).
- A season argument is a ``Season``, or None for all time; ``read_season`` reads the
  ``?season=`` of a request.
"""

from __future__ import annotations

import hmac
import re
import secrets
import threading
from collections import Counter, OrderedDict
from collections.abc import Callable, Mapping, Sequence
from datetime import datetime
from typing import Any, cast

from msgspec import Struct
from sqlalchemy import func, select, update
from sqlalchemy.engine import CursorResult
from sqlalchemy.exc import IntegrityError
from sqlalchemy.sql.elements import ColumnElement
from werkzeug.exceptions import Conflict, Forbidden, NotFound

from ledger import matches
from ledger.engine import FieldError, Invalid, Stake
from ledger.engine.names import name_problem
from ledger.extensions import db
from ledger.i18n import Msg
from ledger.matches import fold, membership
from ledger.matches.answers import SettleUp
from ledger.matches.models import Match, MatchPlayer, utcnow
from ledger.matches.reading import find_player, read_match, rules_record
from ledger.matches.service import _hash_key
from ledger.matches.view import iso
from ledger.tables import answers, earlier_names, figures, guests, payment_keys
from ledger.tables.answers import Handle, PayTo
from ledger.tables.figures import MatchFigures, Standings
from ledger.tables.models import (
    BY_PAYER,
    BY_TABLE,
    CONFIRMED,
    PENDING,
    REJECTED,
    UNCONFIRMED,
    EarlierName,
    Season,
    Table,
    TablePayment,
    TablePlayer,
)
from ledger.tables.payment_keys import Answered
from ledger.tables.reading import (
    MAX_ROSTER,
    PaymentSpec,
    read_new_season,
    read_payment,
    read_player_change,
    read_player_name,
    read_table,
    read_table_changes,
    season_key,
)

#: ``?season=all``: every match of the table, in a season or not.
ALL = "all"


# --- the table -----------------------------------------------------------------------


def create_table(data: Mapping[str, Any], imported: bool = False) -> tuple[Table, str]:
    """A new table from ``{"name", "players", "rules", "stake", "season"?}`` with its
    first season; returns it and its edit key (shown once, stored hashed). A roster
    typed by hand takes no former player's name; an ``imported`` one keeps those who
    had left the exported table."""
    spec = read_table(data)
    if not imported:
        _refuse_former_names([(f"players.{i}", n) for i, n in enumerate(spec.players)])
    key = secrets.token_urlsafe(24)
    table = Table(
        name=spec.name,
        rules=spec.rules_json(),
        edit_key_hash=_hash_key(key),
        players=[TablePlayer(name=n, name_key=n.casefold()) for n in spec.players],
        seasons=[Season(name=spec.season)],
    )
    _put_stake(table, spec.stake)
    with matches.transaction():
        db.session.add(table)
    return table, key


#: The 404 of a table that is not (or no longer) there.
NO_TABLE = Msg(
    "There is no table at this address. Check the link; a table made by mistake may "
    "have been deleted."
)


def get_table(public_id: str) -> Table:
    """The table with this public id; 404."""
    return matches.by_public_id(Table, Table.public_id, public_id, NO_TABLE)


def table_of(match: Match) -> Table | None:
    """The table ``match`` is played in, or None for a lone match."""
    return db.session.get(Table, match.table_id) if match.table_id is not None else None


def table_name_of(match: Match) -> str | None:
    """The name of the table ``match`` is played in (one column of one row), or None for
    a lone match: what a kept read-only match page shows of its table."""
    if match.table_id is None:
        return None
    return db.session.scalar(select(Table.name).where(Table.id == match.table_id))


def tables_with_ids(public_ids: list[str]) -> list[Table]:
    """The tables with these public ids, in no order (one query; unknown ids left out)."""
    return list(db.session.scalars(select(Table).where(Table.public_id.in_(public_ids))))


def matches_version(table: Table) -> tuple[int, int]:
    """The sum and count of the versions of the table's matches (one query)."""
    total, count = db.session.execute(
        select(func.coalesce(func.sum(Match.version), 0), func.count(Match.id)).where(
            Match.table_id == table.id
        )
    ).one()
    return int(total), int(count)


def newest_match(table: Table) -> Match | None:
    """The table's newest match (tonight's), or None before its first."""
    return db.session.scalars(
        select(Match)
        .where(Match.table_id == table.id)
        .order_by(Match.created_at.desc(), Match.id.desc())
        .limit(1)
    ).first()


def lone_matches(public_ids: list[str]) -> list[Match]:
    """The matches with these public ids that are in no table yet (one query)."""
    return list(
        db.session.scalars(
            select(Match).where(Match.public_id.in_(public_ids), Match.table_id.is_(None))
        )
    )


def check_table_key(table: Table, key: object) -> bool:
    """Whether ``key`` is the table's edit key (constant time, as hashes)."""
    if not isinstance(key, str) or not key:
        return False
    return hmac.compare_digest(_hash_key(key), table.edit_key_hash)


def may_write_match(match: Match, key: object) -> bool:
    """Whether ``key`` may write to ``match``: its own edit key, or the edit key of the
    table it is played in."""
    if matches.check_edit_key(match, key):
        return True
    if match.table_id is None:
        return False
    table = db.session.get(Table, match.table_id)
    return table is not None and check_table_key(table, key)


def change_table(table: Table, data: Mapping[str, Any]) -> Table:
    """``name``, ``rules``, ``stake`` (the defaults of new matches) and ``players``
    (names to add to the roster); a field left out stays."""
    if not read_table_changes(data, roster(table)):
        return table
    with matches.transaction():
        _touch(table)
        changes = read_table_changes(data, roster(table))  # the roster as it is now
        joining = cast(tuple[str, ...], changes.get("players", ()))
        _refuse_former_names([(f"players.{i}", n) for i, n in enumerate(joining)])
        if "name" in changes:
            table.name = changes["name"]  # type: ignore[assignment]
        if "rules" in changes:
            table.rules = rules_record(changes["rules"])  # type: ignore[arg-type]
        if "stake" in changes:
            given = cast(Stake | None, changes["stake"])
            _carry_currency(table, given)
            _put_stake(table, given)
        _add_players(table, list(joining))
    return table


def roster(table: Table) -> list[str]:
    """The roster's names, in the order they joined."""
    return [p.name for p in table.players]


#: "Former player 3": the name a player who asked to be forgotten takes (people.forget).
FORMER_PLAYER = "Former player {number}"
_FORMER = re.compile(r"former player [0-9]+")


def left_the_table(name: str) -> bool:
    """A "Former player N": someone who forgot themselves and left the table. Their
    nights stay, under that name; they play no new night, and their name is not
    changed back nor folded into another's (their own wish, which only they can make)."""
    return _FORMER.fullmatch(name.strip().casefold()) is not None


def _refuse_former(names: Sequence[object], field: str) -> None:
    """Invalid on ``field`` (".N" for each) for any of ``names`` who left the table."""
    problems = [
        FieldError(
            f"{field}.{i}", "{name} has left the table: they play no more nights.", name=name
        )
        for i, name in enumerate(names)
        if isinstance(name, str) and left_the_table(name)
    ]
    if problems:
        raise Invalid(problems)


def _refuse_former_names(named: Sequence[tuple[str, object]]) -> None:
    """Invalid for any name given by hand, (field, name), that is a former player's: a
    roster entry so named would be taken for one who left (never renamed, never
    playing)."""
    problems = [
        FieldError(
            field,
            "“{name}” is how the table names a player who left: choose another name.",
            name=name,
        )
        for field, name in named
        if isinstance(name, str) and left_the_table(name)
    ]
    if problems:
        raise Invalid(problems)


def stake(table: Table) -> Stake | None:
    if table.stake_per_point is None or table.stake_currency is None:
        return None
    return Stake(table.stake_per_point, table.stake_currency)


# --- its matches ---------------------------------------------------------------------


def new_match(table: Table, data: Mapping[str, Any]) -> tuple[Match, str]:
    """A new match in the table, from the body of ``POST /api/v1/matches``: ``rules``
    and ``stake`` default to the table's, names are matched to the roster ignoring case
    (its spelling is kept), new names join the roster, the first dealer defaults to
    where the table left off (``next_dealer``), and the match joins the current season."""
    try:
        with matches.transaction():  # one commit: the match and the roster's new names
            _touch(table)  # first: the table's row; then its roster as it is now
            names = data.get("players")
            on_roster = roster(table)
            if isinstance(names, list):
                known = guests.guest_names(table.id)
                names = [find_player(n, on_roster) or n for n in names]
                names = guests.spelt_as_before(names, known)
                _refuse_former(names, "players")
            table_stake = stake(table)
            given_stake = data.get("stake", table_stake.to_json() if table_stake else None)
            _check_currency(table_stake, given_stake, "stake.currency")
            first_dealer = data.get("first_dealer")
            if first_dealer is None and isinstance(names, list):
                first_dealer = next_dealer(table, [n for n in names if isinstance(n, str)])
            guests.refuse_roster_players(data.get("guests"), guests.roster_keys(on_roster))
            spec = read_match(
                data.get("name"),
                names,
                data.get("rules", rules_spec(table)),
                data.get("length"),  # none given: an open night, ended by the table
                first_dealer,
                given_stake,
            )
            playing_as_guests = guests.read_guests(data.get("guests"), spec.players)
            joined = _add_players(
                table, [n for n in _joining(table, spec.players) if n not in playing_as_guests]
            )
            match, key = membership.create_placed(
                spec, table.id, table.current_season.id, playing_as_guests
            )
            db.session.flush()  # the match's id, kept by the players it added
            for player in joined:
                player.joined_with_match_id = match.id
            return match, key
    except IntegrityError:
        raise _roster_changed() from None


def move_match(table: Table, data: Mapping[str, Any]) -> Match:
    """``{"match": id, "match_edit_key": key}``: a match played before the table existed
    goes into it (its current season); its players join the roster (a name the roster
    spells otherwise, ignoring case, takes the roster's spelling)."""
    match = _match_to_move(data)
    try:
        with matches.transaction():  # the new spellings, the roster and the move, or none
            _touch(table)  # first: the table's row; then its roster as it is now
            on_roster = roster(table)
            if match.table_id is not None and match.table_id != table.id:
                raise Invalid([FieldError("match", "This match is already in another table.")])
            _check_currency(stake(table), _stake_json(match), "match")
            respelt = [
                (name, spelling)
                for name in match.player_names
                if (spelling := find_player(name, on_roster)) is not None and spelling != name
            ]
            for name, spelling in respelt:
                membership.rename_player([match], name, spelling)
            _add_players(table, _joining(table, match.player_names))
            return membership.place_match(match, table.id, table.current_season.id)
    except IntegrityError:
        raise _roster_changed() from None


def delete_match(match: Match) -> list[str]:
    """A match with no hand deleted (``matches.delete_match``: started by mistake). In a
    table, the players its start added to the roster (``joined_with_match_id``: a name
    new to the table typed for it) leave the roster again, unless something else at the
    table is theirs (``leaving_with``): the roster is as it was before the mistake. The
    names of those who left, in roster order."""
    if match.table_id is None:
        matches.delete_match(match)
        return []
    with matches.transaction():
        table = db.session.get(Table, match.table_id)
        assert table is not None  # the match's table: a foreign key
        _touch(table)  # first, as a new match holds it: the roster as it is now
        leaving = _leaving(table, match)
        joined = [p for p in table.players if p.joined_with_match_id == match.id]
        matches.delete_match(match)
        for player in joined:
            player.joined_with_match_id = None
        for player in leaving:
            table.players.remove(player)  # its row goes with it (delete-orphan)
        return [p.name for p in leaving]


def leaving_with(match: Match) -> list[str]:
    """Who would leave the roster if ``match`` were deleted now (its confirmation page
    names them): the rule ``delete_match`` follows, in roster order."""
    table = db.session.get(Table, match.table_id) if match.table_id is not None else None
    return [p.name for p in _leaving(table, match)] if table is not None else []


def _leaving(table: Table, match: Match) -> list[TablePlayer]:
    """The players ``match``'s start added to ``table``'s roster with nothing else at the
    table theirs: they leave the roster with the match."""
    return [
        p
        for p in table.players
        if p.joined_with_match_id == match.id and not _has_a_record(table, p, besides=match)
    ]


def _has_a_record(table: Table, player: TablePlayer, besides: Match) -> bool:
    """Whether anything at the table is ``player``'s beyond their place on the roster and
    their seat in ``besides`` (the match being deleted): a seat in another match of the
    table, a payment (in any state), their own link or how to pay them, or an earlier
    name (a rename or a merge)."""
    key = player.name_key
    if player.person_key_hash or player.handles or player.qr or player.pay_to_set_at:
        return True
    seated = select(MatchPlayer.id).join(Match, MatchPlayer.match_id == Match.id)
    elsewhere = seated.where(
        Match.table_id == table.id, Match.id != besides.id, MatchPlayer.name_key == key
    )
    if db.session.scalar(elsewhere.limit(1)):
        return True
    if db.session.scalar(select(EarlierName.id).where(EarlierName.player_id == player.id).limit(1)):
        return True
    paid = select(TablePayment.payer, TablePayment.payee).where(TablePayment.table_id == table.id)
    return any(
        key in (payer.casefold(), payee.casefold()) for payer, payee in db.session.execute(paid)
    )


def table_matches(table: Table) -> list[Match]:
    return list(db.session.scalars(select(Match).where(Match.table_id == table.id)))


def last_match(table: Table) -> MatchFigures | None:
    """The table's newest match as its kept scoreboard tells it (None: no match yet)."""
    found = _figures(table, None, newest=True)
    return found[0] if found else None


def next_dealer(table: Table, players: list[str]) -> str | None:
    """Who deals first when ``players`` sit down again: the seat after the last dealer
    of the table's newest match when the same people played it (the deal passing as its
    rules say), else None (the first player deals)."""
    return figures.next_dealer(last_match(table), players)


# --- players -------------------------------------------------------------------------


def change_player(table: Table, name: str, data: Mapping[str, Any]) -> Table:
    """Rename a roster player (``{"name": new}``) or fold them into another
    (``{"merge_into": other}``), through every match and hand of the table and its
    payments: no total changes, and each hand's history keeps the hand as it was. 404
    for a name not on the roster; 422 for a new name already on it, or a merge of two
    who played in the same match or have a payment between them.

    One write holding the table's row from the start: the roster, the matches and the
    payments are read as they are then, so that a payment or a new match stored at the
    same moment is either renamed with the rest or refused for naming someone who is no
    longer on the roster, never left with the old name."""
    _roster_player(table, name)  # 404 before anything is held
    kind, value = read_player_change(data)
    into_former = kind == "merge_into" and isinstance(value, str) and left_the_table(value)
    if left_the_table(name) or into_former:
        raise Invalid(
            [
                FieldError(
                    kind,
                    "{name} has left the table: their name stays as it is, and their nights "
                    "stay theirs.",
                    name=value if into_former else name,
                )
            ]
        )
    with matches.transaction():
        _touch(table)  # first: the table's row; then all of it as it is now
        player = _roster_player(table, name)
        old = player.name
        others = [n for n in roster(table) if n != old]
        in_table = table_matches(table)
        if kind == "name":
            new = read_player_name(value, "name")
            _refuse_former_names([("name", new)])
            clash = find_player(new, others)
            if clash is not None:
                raise Invalid(
                    [
                        FieldError(
                            "name",
                            "{name} is already on the table's roster; to fold these two "
                            "players into one, send merge_into.",
                            name=clash,
                        )
                    ]
                )
            # A guest's name is refused too (a guest is on no roster, so not merged).
            guest = find_player(new, guests.guest_names(table.id))
            if guest is not None:
                raise Invalid(
                    [
                        FieldError(
                            "name",
                            "{name} played at this table as a guest: their nights would "
                            "become this player's. Choose another name.",
                            name=guest,
                        )
                    ]
                )
            if new == old:
                return table
            player.name, player.name_key = new, new.casefold()
            earlier_names.renamed(player, old)
        else:
            target = find_player(value, others)
            if target is None:
                raise Invalid(  # the page's words too: no field name of the API
                    [
                        FieldError(
                            "merge_into",
                            "The player to merge into must be another player on the roster.",
                        )
                    ]
                )
            together = [m.name for m in in_table if {old, target} <= set(m.player_names)]
            if together:
                raise Invalid(
                    [
                        FieldError(
                            "merge_into",
                            "{a} and {b} played in the same match ({match}), so they are two "
                            "people: they cannot be merged.",
                            a=old,
                            b=target,
                            match=together[0],
                        )
                    ]
                )
            if _paid_between(table, old, target):
                raise Invalid(
                    [
                        FieldError(
                            "merge_into",
                            "{a} and {b} have a payment between them, so they are two "
                            "people: they cannot be merged.",
                            a=old,
                            b=target,
                        )
                    ]
                )
            new = target
            earlier_names.merged(player, _roster_player(table, target))
            db.session.delete(player)
        _rename_payments(table, old, new)
        membership.rename_player(in_table, old, new)
    return table


# --- seasons -------------------------------------------------------------------------


def start_season(table: Table, data: Mapping[str, Any]) -> Season:
    """``{"name": "Tihar 2083"}``: a new current season; the old one is kept, closed.
    Started once: the same name again (``season_key``) while the current season has no
    match and no payment (a double tap, a retry) answers the current season and changes
    nothing, rather than a second, empty season of the same name."""
    name = read_new_season(data)
    with matches.transaction():
        _touch(table)  # first: the table's row, so that two such requests queue
        current = table.current_season
        if season_key(current.name) == season_key(name) and not _season_used(current):
            return current
        _refuse_season_name(table, name, None)
        season = Season(name=name, started_at=utcnow())
        table.seasons.append(season)
    return season


def take_back_season(table: Table, public_id: str) -> Season:
    """The current season taken back, started by mistake: only while no match and no
    payment is in it, and never the table's first; the season before it is current again
    (and takes the next nights). Answers that season; 404 for no season of the table,
    409 for one that must be kept."""
    with matches.transaction():
        _touch(table)  # first: the table's row, so that no night starts in it meanwhile
        season = _season_of(table, public_id)
        if season is not table.current_season:
            raise Conflict(Msg("Only the current season can be taken back: this one is closed."))
        if len(table.seasons) == 1:
            raise Conflict(
                Msg("This is the table's first season: there is none before it to go back to.")
            )
        if _season_used(season):
            raise Conflict(Msg("This season has a match or a payment in it, so it is kept."))
        table.seasons.remove(season)  # its row goes with it (delete-orphan)
    return table.current_season


def rename_season(table: Table, public_id: str, data: Mapping[str, Any]) -> Season:
    """``{"name": "Tihar 2083"}``: a season's name put right (the body of a new season)."""
    name = read_new_season(data)
    with matches.transaction():
        _touch(table)
        season = _season_of(table, public_id)
        _refuse_season_name(table, name, season)
        season.name = name
    return season


def _refuse_season_name(table: Table, name: str, season: Season | None) -> None:
    """Invalid on ``name`` when another season of the table than ``season`` is called
    ``name`` (as ``season_key`` compares them: case, surrounding space and the digits'
    script aside): two seasons of one name would make the season picker ambiguous."""
    key = season_key(name)
    clash = next((s for s in table.seasons if s is not season and season_key(s.name) == key), None)
    if clash is not None:
        raise Invalid(
            [
                FieldError(
                    "name",
                    "The table already has a season called “{season}”: choose another name.",
                    season=clash.name,
                )
            ]
        )


def _season_of(table: Table, public_id: str) -> Season:
    """The table's season with this id; 404 for none."""
    season = next((s for s in table.seasons if s.public_id == public_id), None)
    if season is None:
        raise NotFound(Msg("This table has no season with this id."))
    return season


def season_to_take_back(table: Table) -> Season | None:
    """The current season, when it may be taken back (``take_back_season``); else None."""
    current = table.current_season
    return current if len(table.seasons) > 1 and not _season_used(current) else None


def _season_used(season: Season) -> bool:
    """Whether a match or a payment was recorded in the season."""
    return _holds(Match.season_id == season.id, TablePayment.season_id == season.id)


def table_used(table: Table) -> bool:
    """Whether a match was played or a payment recorded in the table."""
    return _holds(Match.table_id == table.id, TablePayment.table_id == table.id)


def _holds(matches_where: ColumnElement[bool], payments_where: ColumnElement[bool]) -> bool:
    """Whether any match or any payment is where they say."""
    match = select(Match.id).where(matches_where).limit(1)
    paid = select(TablePayment.id).where(payments_where).limit(1)
    return db.session.scalar(match) is not None or db.session.scalar(paid) is not None


def delete_table(table: Table) -> None:
    """Delete a table made by mistake (or to try the ledger), with its roster, seasons
    and own links: only while no match and no payment is in it; one with either is kept
    (409), since they hold the table's figures and money."""
    with matches.transaction():
        _touch(table)  # first: the table's row, so that no night starts in it meanwhile
        if table_used(table):
            raise Conflict(
                Msg(
                    "This table has a match or a payment in it, so it is kept: only a table "
                    "with neither can be deleted."
                )
            )
        db.session.delete(table)


def read_season(table: Table, value: object) -> Season | None:
    """``?season=``: None or absent is the current season, ``all`` all time (None),
    else a season's id; Invalid on field ``season`` for anything else."""
    if value is None or value == "":
        return table.current_season
    if value == ALL:
        return None
    found = next((s for s in table.seasons if s.public_id == value), None)
    if found is None:
        raise Invalid(
            [
                FieldError(
                    "season",
                    "This table has no season with this id; give one of its seasons' ids, or all.",
                )
            ]
        )
    return found


# --- figures -------------------------------------------------------------------------


def standings(table: Table, season: Season | None) -> Standings:
    """The season's standings (None: all time): per player matches, matches won, hands,
    hands won, seen hands, maal, total, money and rating, highest total first; and the
    head-to-head of every pair that played a match together. Sums over the matches' kept
    figures (two queries, whatever the number of hands)."""
    names, found = roster(table), _figures(table, season)
    return figures.standings(names, found, _earlier_sums(names, found[:-1]))


def season_matches(table: Table, season: Season | None) -> list[MatchFigures]:
    """The season's matches (None: all) as their kept scoreboards tell them, in play
    order (the order they were made)."""
    return _figures(table, season)


def standings_json(table: Table, season: Season | None) -> answers.Standings:
    """The body of ``GET /api/v1/tables/<id>/standings``."""
    found = standings(table, season)
    return {
        "season": season_json(table, season) if season is not None else None,
        "players": [line.to_json() for line in found.players],
        "head_to_head": [pair.to_json() for pair in found.head_to_head],
    }


def player_record(
    table: Table, name: str, season: Season | None, read: Standings | None = None
) -> answers.PlayerRecord:
    """One player's record: their nights in the season (date, match, total, place,
    whether it is over and whether it was a points race), their line over the season and
    over all time, best and worst nights (of the zero-sum nights that are over: a points
    race's total is a count of maal, and a night still going has no result yet), their
    head-to-head with each other player, and their nemesis and rival (``_rivals``). 404
    for a name not on the roster or among its guests. ``read``: the season's standings
    already read."""
    player = _known_player(table, name)
    found = read if read is not None else standings(table, season)
    ever = standings(table, None) if season is not None else found
    nights: list[answers.PlayerRecordNight] = []
    for match in found.matches:
        if player in match.played:
            nights.append(
                {
                    "match": match.public_id,
                    "name": match.name,
                    "date": iso(match.created_at),
                    "total": match.totals[player],
                    "place": match.places[player],
                    "finished": match.finished,
                    "points_race": not match.zero_sum,
                }
            )
    rows: list[answers.PlayerRecordVersus] = []
    for pair in found.pairs_of(player):
        mine = pair.a == player
        rows.append(
            {
                "other": pair.b if mine else pair.a,
                "guest": pair.b_guest if mine else pair.a_guest,
                "matches": pair.matches,
                "above": pair.a_above if mine else pair.b_above,
                "below": pair.b_above if mine else pair.a_above,
                "paid": pair.a_paid_b if mine else pair.b_paid_a,
                "received": pair.b_paid_a if mine else pair.a_paid_b,
            }
        )
    decided = Counter(  # the nights that are over together: the only ones with places
        other
        for match in found.matches
        if match.finished and player in match.played
        for other in match.played
        if other != player
    )
    rival, nemesis = _rivals(rows, decided)
    results = [n for n in nights if n["finished"] and not n["points_race"]]
    line, all_time = found.line(player), ever.line(player)
    return {
        "name": player,
        "guest": player not in roster(table),
        "season": season_json(table, season) if season is not None else None,
        "figures": line.to_json() if line else None,
        "all_time": all_time.to_json() if all_time else None,
        "nights": nights,
        "best_night": max(results, key=lambda n: n["total"], default=None),
        "worst_night": min(results, key=lambda n: n["total"], default=None),
        "head_to_head": rows,
        "rival": rival,
        "nemesis": nemesis,
        "rival_matches": figures.RIVAL_MATCHES,
    }


def _rivals(
    rows: Sequence[Mapping[str, Any]], decided: Counter[str]
) -> tuple[str | None, str | None]:
    """(rival, nemesis) among a player's head-to-head ``rows``, of those they have
    ``figures.RIVAL_MATCHES`` nights over with (``decided``, by name; None until then: a
    night still going puts nobody above anyone, as in the rows' above and below): the
    nemesis the worst record against (the most nights above them less those below, when
    above 0; ties: the most nights over together), the rival the closest record among
    the others (the smallest difference; ties: the most nights over together). Two
    names, never one twice: the worst record against is the nemesis even when it is also
    the closest."""
    enough = [r for r in rows if decided[r["other"]] >= figures.RIVAL_MATCHES]
    nemesis = max(
        (r for r in enough if r["below"] > r["above"]),
        key=lambda r: (r["below"] - r["above"], decided[r["other"]]),
        default=None,
    )
    rival = min(
        (r for r in enough if r is not nemesis),
        key=lambda r: (abs(r["above"] - r["below"]), -decided[r["other"]]),
        default=None,
    )
    return (rival["other"] if rival else None, nemesis["other"] if nemesis else None)


def rating_history(
    table: Table, season: Season | None, read: Standings | None = None
) -> list[answers.RatingHistoryGame]:
    """The rating after each finished match of the season, in play order (a chart's
    points): ``{"match", "name", "date", "ratings": {name: {"mu", "sigma", "ordinal"}}}``.
    ``read``: the season's standings already read (a page shows both: one read)."""
    found = list(read.matches) if read is not None else _figures(table, season)
    rated = [m for m in found if m.finished and len(m.played) >= 2]
    steps = figures.rating_steps(figures.games(found))
    return [
        {
            "match": match.public_id,
            "name": match.name,
            "date": iso(match.created_at),
            "ratings": {name: rating.to_json() for name, rating in step.items()},
        }
        for match, step in zip(rated, steps, strict=True)
    ]


def rating_history_json(table: Table, season: Season | None) -> answers.RatingHistory:
    """The body of ``GET /api/v1/tables/<id>/rating-history``."""
    return {"games": rating_history(table, season)}


def season_settle_up(
    table: Table,
    season: Season | None,
    read: Standings | None = None,
    paid: Sequence[TablePayment] | None = None,
) -> answers.TableSettleUp:
    """Money across nights: each player's balance over the season's zero-sum matches
    (with a table stake: their money at each match's stake in the table's currency,
    less what they paid, plus what they were paid, counting the payments whose state
    counts in that currency, as the matches are counted) and the fewest transfers that
    settle every balance exactly (the engine's ``settle_up``; among the fewest, what is
    left of the plan made before any payment stands, and a debt paid in part goes on to
    the same payee). Without a stake, in points. Each balance
    row carries how to pay that player (``pay_to``); ``unconfirmed`` and ``pending``
    list the payments counted but not yet confirmed, and recorded by the payer, not yet
    counted.
    ``read``: the season's standings already read; ``paid``: its payments already read
    (``payments``: a page lists them too)."""
    table_stake = stake(table)
    found = payments(table, season) if paid is None else paid
    in_currency = [p for p in found if _in_currency(p, table)]
    counted = [(p.payer, p.payee, p.amount) for p in in_currency if p.counts]
    balances = figures.money_balances(
        roster(table),
        list(read.matches) if read is not None else _figures(table, season),
        table_stake,
        counted,
    )
    # Every payment said (counted or not yet; not one taken back, a mistake): its two go
    # on settling with each other.
    pairs = [(p.payer, p.payee) for p in in_currency if p.deleted_at is None]
    pay_to = pay_to_of(table)
    return {
        "stake": table_stake.to_json() if table_stake else None,
        "balances": [b.to_json(pay_to.get(b.name)) for b in balances],
        "transfers": figures.money_transfers(balances, table_stake, pairs, counted),
        "unconfirmed": [p.id for p in found if p.state == UNCONFIRMED],
        "pending": [p.id for p in found if p.state == PENDING],
    }


def _in_currency(payment: TablePayment, table: Table) -> bool:
    """Whether a payment is in the table's currency (one stored before payments kept
    their currency has none: it was the table's)."""
    return payment.currency is None or payment.currency == table.stake_currency


# --- payments ------------------------------------------------------------------------


class Caller(Struct, frozen=True):
    """Who sends a payment write: the table key's holder (``player`` None), or a roster
    player of this table with their own link (docs/api.md, "Payments that close"), whose
    key's hash (``key_hash``) is checked again once the write holds the table."""

    player: TablePlayer | None = None
    key_hash: str | None = None

    @classmethod
    def holding(cls, player: TablePlayer) -> Caller:
        """The player found by their own key as the request began: the key is theirs."""
        return cls(player, player.person_key_hash)

    @property
    def table_key(self) -> bool:
        return self.player is None

    @property
    def key_owner(self) -> int | None:
        """Whose an ``Idempotency-Key`` sent is (``payment_keys``): the player's, by id;
        None, the table key's."""
        return None if self.player is None else self.player.id


TABLE_KEY = Caller()


class LinkGone(Forbidden):
    """The caller's own link stopped working while their write was on its way."""


def still_held(by: Caller) -> None:
    """403 when the caller's own link was revoked, renewed or forgotten on another phone
    after their request found them by it (checked once the write holds the table: the
    player's row is read again). Found before, the old key went on to confirm a payment
    (or record one, or take one back) after it stopped working."""
    if by.player is None:
        return
    db.session.refresh(by.player, ["person_key_hash"])
    if by.key_hash is None or by.player.person_key_hash != by.key_hash:
        raise LinkGone(
            Msg(
                "Your own link was replaced or revoked a moment ago: nothing was changed. "
                "Ask the table's scorekeeper for a new link."
            )
        )


def add_payment(
    table: Table,
    data: Mapping[str, Any],
    by: Caller = TABLE_KEY,
    *,
    key: object = None,
    ask: Callable[[PaymentSpec], None] | None = None,
) -> Answered:
    """``{"from", "to", "amount", "at"?, "season"?}``: money handed over, in the season
    whose money it settles (a debt outlives its season; by default the current one); the
    answer (201 and the payment's JSON). With the table key it is ``unconfirmed`` and
    counts at once; the payer with their own link records it ``pending`` (counted once
    the payee confirms it), and ``from`` must then be them (403). 422 on a table without
    a stake. Once per ``key`` (an ``Idempotency-Key``): the same request again records
    nothing and gets the first answer (``replayed``); another with it is refused.

    The names are checked against the roster while the write holds the table's row (a
    rename holds it too), and the answer is made before the commit: nothing is read
    after it, so a database lost just after the commit cannot turn a recorded payment
    into an error that says nothing was stored.

    ``ask``: a page's question before a payment it doubts is recorded (one larger than
    the debt), called with the payment once it is read and is no replay, while the write
    holds the table's row: a payment of the same debt recorded from another phone a
    moment before is counted in it (asked before the write, both were recorded); it
    raises to record nothing."""
    key = payment_keys.read_key(key)
    request = payment_keys.digest("POST", None, data)
    if (earlier := payment_keys.answered_before(table, by.key_owner, key, request)) is not None:
        return earlier
    _read_payment_by(table, data, by)  # a request that is no payment holds no row
    try:
        with matches.transaction():
            now = _touch(table)  # first: the table's row; then its roster as it is now
            if (
                earlier := payment_keys.answered_before(table, by.key_owner, key, request)
            ) is not None:
                return earlier  # its first request was carried out meanwhile
            still_held(by)
            spec = _read_payment_by(table, data, by)
            if ask is not None:  # here: against the payments recorded until now
                ask(spec)
            payment = TablePayment(
                table_id=table.id,
                season_id=_paid_season(table, spec.season).id,
                payer=spec.payer,
                payee=spec.payee,
                amount=spec.amount,
                currency=spec.currency,
                at=spec.at or now,
                recorded_at=now,
                state=UNCONFIRMED if by.table_key else PENDING,
                recorded_by=BY_TABLE if by.table_key else BY_PAYER,
            )
            db.session.add(payment)
            db.session.flush()  # gives payment.id
            answer = Answered(201, payment_json(table, payment))
            payment_keys.remember(table, by.key_owner, key, request, answer, payment.id)
    except IntegrityError:
        if (earlier := _first_answer(table, by, key, request)) is None:
            raise
        return earlier
    return answer


def _first_answer(table: Table, by: Caller, key: str | None, request: str) -> Answered | None:
    """After a write refused by the unique key: the answer of the key's first request,
    which won (the unique key catches what the check before the write missed); None
    when there is none (the refusal was another)."""
    return None if key is None else payment_keys.answered_before(table, by.key_owner, key, request)


def _read_payment_by(table: Table, data: Mapping[str, Any], by: Caller) -> PaymentSpec:
    """The payment as read against the table's players as they are now (guests can pay
    and be paid); 403 when a player's own link records a payment not from them."""
    spec = read_payment(
        data,
        lambda name: find_player(name, known_players(table)),
        table.stake_currency,
        [s.public_id for s in table.seasons],
    )
    if by.player is not None and spec.payer != by.player.name:
        raise Forbidden(Msg("With your own link you can record only a payment from you."))
    return spec


def _paid_season(table: Table, season_id: str | None) -> Season:
    """The season a payment settles: the one it names (read as one of the table's), else
    the current season."""
    if season_id is None:
        return table.current_season
    return next(s for s in table.seasons if s.public_id == season_id)


def payments(table: Table, season: Season | None, *, deleted: bool = False) -> list[TablePayment]:
    """The payments recorded in the season (None: all), in the order they were made;
    rejected ones included (marked), the kept records of deleted ones only with
    ``deleted``."""
    query = select(TablePayment).where(TablePayment.table_id == table.id)
    if season is not None:
        query = query.where(TablePayment.season_id == season.id)
    if not deleted:
        query = query.where(TablePayment.deleted_at.is_(None))
    return list(db.session.scalars(query.order_by(TablePayment.at, TablePayment.id)))


def _payment(table: Table, payment_id: int) -> TablePayment:
    found = db.session.scalars(
        select(TablePayment).where(
            TablePayment.table_id == table.id,
            TablePayment.id == payment_id,
            TablePayment.deleted_at.is_(None),
        )
    ).one_or_none()
    if found is None:
        raise NotFound(Msg("This table has no such payment."))
    return found


def delete_payment(
    table: Table, payment_id: int, by: Caller = TABLE_KEY, *, key: object = None
) -> Answered:
    """Take a payment back (204): an unconfirmed one with the table key, a pending one
    with the table key or the payer's own link (both gone for good); a confirmed one
    with the table key alone, kept as a record that counts no more. A rejected one
    stays, marked (409). 404; 403 for any other key. Once per ``key``, as
    ``add_payment``: the same request again gets the first answer, not a 404 for the
    payment it took back itself."""
    key = payment_keys.read_key(key)
    request = payment_keys.digest("DELETE", payment_id, None)
    if (earlier := payment_keys.answered_before(table, by.key_owner, key, request)) is not None:
        return earlier
    try:
        with matches.transaction():
            now = _touch(table)  # first: the table's row, as in every write to the table
            if (
                earlier := payment_keys.answered_before(table, by.key_owner, key, request)
            ) is not None:
                return earlier
            still_held(by)
            found = _payment(table, payment_id)
            if found.state == REJECTED:
                raise Conflict(Msg("A rejected payment is kept as it is, marked rejected."))
            payer = by.player is not None and by.player.name == found.payer
            if not (by.table_key or (found.state == PENDING and payer)):
                raise Forbidden(Msg("Only the table's edit key may take this payment back."))
            if found.state == CONFIRMED:
                found.deleted_at = now
            else:
                db.session.delete(found)
            answer = Answered(204, {})
            payment_keys.remember(table, by.key_owner, key, request, answer, None)
    except IntegrityError:
        if (earlier := _first_answer(table, by, key, request)) is None:
            raise
        return earlier
    return answer


def answer_payment(table: Table, payment_id: int, confirm: bool, by: Caller) -> Answered:
    """The payee says the money reached them (``confirm``) or did not: 200 with the
    payment. Only their own link may answer; a payee without one (not on the roster, or
    never given a link) is answered for with the table key. The same answer again
    changes nothing; confirming a rejected payment or rejecting a confirmed one is 409.
    Read and answered while the write holds the table's row, as every payment write."""
    with matches.transaction():
        now = _touch(table)
        still_held(by)
        found = _payment(table, payment_id)
        payee = next((p for p in table.players if p.name == found.payee), None)
        if payee is not None and payee.person_key_hash is not None:
            allowed = by.player is not None and by.player.id == payee.id
        else:
            allowed = by.table_key
        if not allowed:
            raise Forbidden(
                Msg(
                    "Only {name}, who was paid, may say whether this money reached them.",
                    name=found.payee,
                )
            )
        wanted = CONFIRMED if confirm else REJECTED
        if found.state in (CONFIRMED, REJECTED) and found.state != wanted:
            raise Conflict(
                Msg("This payment is already confirmed: it cannot be rejected now.")
                if found.state == CONFIRMED
                else Msg("This payment was rejected: it cannot be confirmed now.")
            )
        if found.state != wanted:
            found.answered_at = now
            found.state = wanted
        return Answered(200, payment_json(table, found))


def payment_json(table: Table, payment: TablePayment) -> answers.TablePayment:
    season = next((s for s in table.seasons if s.id == payment.season_id), None)
    return {
        "id": payment.id,
        "from": payment.payer,
        "to": payment.payee,
        "amount": format(payment.amount, "f"),
        "currency": payment.currency,
        "season": season.public_id if season else None,
        "at": iso(payment.at),
        "recorded_at": iso(payment.recorded_at),
        "state": payment.state,
        "confirmed": payment.state == CONFIRMED,
        "rejected": payment.state == REJECTED,
        "recorded_by": payment.recorded_by,
        "deleted": payment.deleted_at is not None,
        "deleted_at": iso(payment.deleted_at) if payment.deleted_at else None,
    }


def handles_of(player: TablePlayer) -> list[Handle]:
    """The player's handles as kept: ``people.read_handles`` read each before it was
    stored, so each is the declared ``Handle`` (the column keeps plain dicts)."""
    return cast("list[Handle]", list(player.handles or []))


def pay_to_json(player: TablePlayer | None) -> PayTo | None:
    """How to pay a player, as they set it: ``{"handles", "qr", "set_at"}``, or None
    when they set nothing (``ledger.tables.people`` sets it)."""
    if player is None or (not player.handles and player.qr is None):
        return None
    return {
        "handles": handles_of(player),
        "qr": player.qr,
        "set_at": iso(player.pay_to_set_at) if player.pay_to_set_at else None,
    }


def pay_to_of(table: Table | None) -> dict[str, PayTo | None]:
    """How to pay each player of the table's roster (``pay_to_json``), by name: read
    with the roster, no query; nobody for a match in no table (``table`` None)."""
    return {p.name: pay_to_json(p) for p in table.players} if table is not None else {}


def pay_to_in_table(table_id: int | None) -> dict[str, PayTo]:
    """How to pay each player of the table (its row id), by name, for those who set it
    (none for a lone match: ``table_id`` None, no query): what a match's settle-up shows
    beside each payee."""
    if table_id is None:
        return {}
    players = db.session.scalars(
        select(TablePlayer).where(
            TablePlayer.table_id == table_id,
            (TablePlayer.handles.is_not(None)) | (TablePlayer.qr.is_not(None)),
        )
    )
    return {p.name: found for p in players if (found := pay_to_json(p)) is not None}


def pay_to_changed(table: Table) -> None:
    """A player's handles or QR changed: count a write on each of the table's matches
    (their version, in one UPDATE), so that their pages, kept by version, are drawn
    again with it (a QR taken down must never be shown from a kept page)."""
    db.session.execute(
        update(Match).where(Match.table_id == table.id).values(version=Match.version + 1),
        execution_options={"synchronize_session": False},
    )


def with_pay_to(table: Table | None, settle_up: SettleUp) -> SettleUp:
    """A match's settle-up with each ``balances`` row's ``pay_to``, as a table's
    settle-up gives it (a guest, or a player of a match in no table: None)."""
    found = pay_to_of(table)
    rows = settle_up["balances"]
    return {**settle_up, "balances": [{**row, "pay_to": found.get(row["name"])} for row in rows]}


# --- the table's JSON ----------------------------------------------------------------


def season_json(table: Table, season: Season) -> answers.Season:
    return {
        "id": season.public_id,
        "name": season.name,
        "started_at": iso(season.started_at),
        "current": season.id == table.current_season.id,
    }


def table_json(table: Table) -> answers.Table:
    """The body of ``GET /api/v1/tables/<id>``: newest match first."""
    seasons: dict[int | None, str] = {s.id: s.public_id for s in table.seasons}
    found = _figures(table, None)
    table_stake = stake(table)
    return {
        "id": table.public_id,
        "name": table.name,
        "rules": rules_spec(table),
        "stake": table_stake.to_json() if table_stake else None,
        "players": [{"name": name} for name in roster(table)],
        "seasons": [season_json(table, s) for s in table.seasons],
        "matches": [
            m.to_json(seasons.get(m.season_id), guests.roster_keys(roster(table)))
            for m in reversed(found)
        ],
        "version": table.version,
        "created_at": iso(table.created_at),
    }


# --- inside --------------------------------------------------------------------------


#: The figures of the matches read lately, by (public id, version): a write to a match
#: changes its version, so after a new hand only that match's figures are read again.
_KEPT: OrderedDict[tuple[str, int], MatchFigures] = OrderedDict()
_KEPT_MOST = 4096
_KEPT_LOCK = threading.Lock()
#: The standings' sums over all but a season's newest match (``_earlier_sums``).
_SUMS: OrderedDict[tuple[tuple[str, ...], tuple[tuple[str, int], ...]], figures.Sums] = (
    OrderedDict()
)
_SUMS_MOST = 64


def _figures(table: Table, season: Season | None, *, newest: bool = False) -> list[MatchFigures]:
    """The kept figures of the table's matches (of ``season``; None: all), in play order
    (``newest``: the newest match alone). Two small queries: the matches' ids and
    versions, then the kept scoreboards of those not read since their last write (a
    match stored before scoreboards were kept is folded once and kept first)."""
    query = select(Match.id, Match.public_id, Match.version).where(Match.table_id == table.id)
    if season is not None:
        query = query.where(Match.season_id == season.id)
    if newest:
        query = query.order_by(Match.created_at.desc(), Match.id.desc()).limit(1)
    else:
        query = query.order_by(Match.created_at, Match.id)
    # Through the connection: plain rows, no ORM objects (a season has many matches).
    rows = db.session.connection().execute(query).all()
    with _KEPT_LOCK:
        found = {row.id: _KEPT.get((row.public_id, row.version)) for row in rows}
    missing = [match_id for match_id, kept in found.items() if kept is None]
    if missing:
        for fresh in _read_figures(missing):
            found[fresh.id] = fresh
    with _KEPT_LOCK:
        for row in rows:
            key = (row.public_id, row.version)
            _KEPT[key] = found[row.id]  # type: ignore[assignment]
            _KEPT.move_to_end(key)
        while len(_KEPT) > _KEPT_MOST:
            _KEPT.popitem(last=False)
    return [found[row.id] for row in rows]  # type: ignore[misc]


def _earlier_sums(names: list[str], earlier: Sequence[MatchFigures]) -> figures.Sums:
    """The standings' sums over ``earlier`` (all but the season's newest match), kept by
    the roster and those matches' versions: a hand tonight sums tonight's match alone."""
    key = (tuple(names), tuple((m.public_id, m.version) for m in earlier))
    with _KEPT_LOCK:
        found = _SUMS.get(key)
        if found is not None:
            _SUMS.move_to_end(key)
            return found
    found = figures.sum_matches(names, earlier)
    with _KEPT_LOCK:
        _SUMS[key] = found
        while len(_SUMS) > _SUMS_MOST:
            _SUMS.popitem(last=False)
    return found


def forget_kept_figures(table: Table) -> None:
    """Drop the kept figures of the table's matches (a player was forgotten: the kept
    ones of the versions before hold their old name)."""
    ids = {m.public_id for m in table_matches(table)}
    with _KEPT_LOCK:
        for key in [k for k in _KEPT if k[0] in ids]:
            del _KEPT[key]
        for sums in [k for k in _SUMS if any(public_id in ids for public_id, _ in k[1])]:
            del _SUMS[sums]


def _read_figures(ids: list[int]) -> list[MatchFigures]:
    query = select(
        Match.id,
        Match.public_id,
        Match.version,
        Match.name,
        Match.created_at,
        Match.season_id,
        Match.rules,
        Match.length,
        Match.ended_at,
        Match.stake_per_point,
        Match.stake_currency,
        Match.scoreboard,
    ).where(Match.id.in_(ids))
    rows = db.session.connection().execute(query).all()
    if any(row.scoreboard is None for row in rows):
        for row in rows:
            if row.scoreboard is None:
                stored = db.session.get(Match, row.id)
                assert stored is not None  # its row was just read
                fold.scoreboard(stored)
        rows = db.session.connection().execute(query).all()
    seats: dict[int, list[str]] = {row.id: [] for row in rows}
    for match_id, name in db.session.connection().execute(
        select(MatchPlayer.match_id, MatchPlayer.name)
        .where(MatchPlayer.match_id.in_(ids))
        .order_by(MatchPlayer.match_id, MatchPlayer.seat)
    ):
        seats[match_id].append(name)
    return [figures.match_figures(row, seats[row.id]) for row in rows]


def rules_spec(table: Table) -> dict[str, Any]:
    """The rules of the table's new matches as a request gives them: the profile and
    its overrides."""
    return {"profile": table.rules["profile"], **table.rules.get("overrides", {})}


def _carry_currency(table: Table, value: Stake | None) -> None:
    """A table has one currency: when it changes (one picked by mistake, put right after
    nights were played), the table's matches and payments in the old one move to the new
    one, the matches at the same amount a point, so their money stays in the balances
    with the payments that settled it; each such match's version moves, so kept pages
    and PDFs follow. Dropping the stake leaves the matches and the payments as they are
    (a stake set again in another currency leaves them out of its balances)."""
    old = table.stake_currency
    if value is None or old is None or value.currency == old:
        return
    db.session.execute(
        update(Match)
        .where(Match.table_id == table.id, Match.stake_currency == old)
        .values(stake_currency=value.currency, version=Match.version + 1)
    )
    db.session.execute(
        update(TablePayment)
        .where(TablePayment.table_id == table.id, TablePayment.currency == old)
        .values(currency=value.currency)
    )


def check_match_stake(match: Match, data: object) -> None:
    """A change of a match (``PATCH``'s body, or the page's stake) that gives a match of a
    staked table another currency than the table's: Invalid on ``stake.currency``."""
    table = table_of(match)
    if table is not None and isinstance(data, Mapping) and "stake" in data:
        _check_currency(stake(table), data["stake"], "stake.currency")


def _put_stake(table: Table, value: Stake | None) -> None:
    table.stake_per_point = value.per_point if value else None
    table.stake_currency = value.currency if value else None


def _stake_json(match: Match) -> dict[str, Any] | None:
    if match.stake_per_point is None:
        return None
    return {"per_point": format(match.stake_per_point, "f"), "currency": match.stake_currency}


def _check_currency(table_stake: Stake | None, given: object, field: str) -> None:
    """A match of the table is staked in the table's one currency (or not staked)."""
    if table_stake is None or not isinstance(given, Mapping):
        return
    currency = given.get("currency")
    if isinstance(currency, str) and currency != table_stake.currency:
        raise Invalid(
            [
                FieldError(
                    field,
                    "This table plays in {currency}: a match of it is staked in {currency} "
                    "too, or played for points only.",
                    currency=table_stake.currency,
                )
            ]
        )


def _joining(table: Table, names: tuple[str, ...] | list[str]) -> list[str]:
    on_roster = {n.casefold() for n in roster(table)}
    return [n for n in names if n.casefold() not in on_roster]


def _add_players(table: Table, names: list[str]) -> list[TablePlayer]:
    """``names`` join the roster (a guest of earlier nights included: those nights become
    theirs); their rows."""
    if len(table.players) + len(names) > MAX_ROSTER:
        raise Invalid(
            [
                FieldError(
                    "players", "A table's roster holds at most {most} people.", most=MAX_ROSTER
                )
            ]
        )
    joined = [TablePlayer(name=name, name_key=name.casefold()) for name in names]
    table.players.extend(joined)
    guests.join_roster(table.id, names)
    return joined


def linked_players(table: Table) -> set[str]:
    """The roster players who hold an own link: each says for themselves whether a
    payment reached them; for anyone else (a guest too) the table's key says it."""
    return {p.name for p in table.players if p.person_key_hash is not None}


def known_players(table: Table) -> list[str]:
    """Who may pay or be paid, or has a record: the roster, then the table's guests."""
    return [*roster(table), *guests.guest_names(table.id)]


def _known_player(table: Table, name: str) -> str:
    """A roster player's or a guest's name as the table spells it; 404 otherwise."""
    found = find_player(name, known_players(table))
    if found is None:
        raise NotFound(Msg("This table has no player called {name}.", name=name))
    return found


def renamed_to(table: Table, name: str) -> str | None:
    """The name now of the roster player once called ``name`` (renamed, or merged into
    them), for their old address; None for the name of a player or guest of the table
    now, a name nobody had, and any name of a player who was forgotten."""
    if find_player(name, known_players(table)) is not None:
        return None
    if name_problem(name, "name") is not None:
        return None  # no name was ever stored so (a NUL, say: PostgreSQL refuses it in a query)
    return earlier_names.now_called(table.id, name)


def _roster_player(table: Table, name: str) -> TablePlayer:
    found = next((p for p in table.players if p.name_key == name.casefold()), None)
    if found is None:
        raise NotFound(Msg("This table has no player called {name}.", name=name))
    return found


def _paid_between(table: Table, a: str, b: str) -> bool:
    """Whether a payment of the table went between ``a`` and ``b`` either way (a kept
    record of one taken back too): merged, it would go from a player to themselves, which
    no payment may (the table's export would carry it, and its import refuse it)."""
    pair = ((TablePayment.payer == a) & (TablePayment.payee == b)) | (
        (TablePayment.payer == b) & (TablePayment.payee == a)
    )
    found = select(TablePayment.id).where(TablePayment.table_id == table.id, pair).limit(1)
    return db.session.scalars(found).first() is not None


def _rename_payments(table: Table, old: str, new: str) -> None:
    """The payments, and the answers kept for their keys, name ``new`` for ``old``."""
    payment_keys.rename_in_answers(table, old, new)
    for column in (TablePayment.payer, TablePayment.payee):
        db.session.execute(
            update(TablePayment)
            .where(TablePayment.table_id == table.id, column == old)
            .values({column: new}),
            execution_options={"synchronize_session": False},
        )


def _match_to_move(data: Mapping[str, Any]) -> Match:
    public_id = data.get("match")
    key = data.get("match_edit_key")
    others = [k for k in data if k not in ("match", "match_edit_key")]
    if others:
        raise Invalid(
            [FieldError(str(others[0]), "To move a match in, send only match and match_edit_key.")]
        )
    if not isinstance(public_id, str):
        raise Invalid([FieldError("match", "match must be the id of the match to move in.")])
    try:
        match = matches.get_match(public_id)
    except NotFound:
        raise Invalid([FieldError("match", "There is no match with this id.")]) from None
    if not matches.check_edit_key(match, key):
        raise Invalid([FieldError("match_edit_key", "This is not the edit key of that match.")])
    return match


def _touch(table: Table) -> datetime:
    """Count a write on the table (its version) in one UPDATE; the write's moment.

    Every write to a table does this first: it holds the table's row from here to its
    commit (so two writes to one table queue, on both databases), and reads the table,
    its roster and seasons again, as the writes before it left them."""
    now = utcnow()
    touched = db.session.execute(
        update(Table).where(Table.id == table.id).values(version=Table.version + 1, updated_at=now),
        execution_options={"synchronize_session": False},
    )
    if not cast("CursorResult[Any]", touched).rowcount:
        # Deleted since the request read it (a table made by mistake, deleted on another
        # phone while a night was being started there): 404, as for the next request.
        raise NotFound(NO_TABLE)
    db.session.expire(table)  # and, by its cascade, the roster and seasons loaded
    return now


def _roster_changed() -> Invalid:
    return Invalid(
        [
            FieldError(
                "players",
                "Someone added a player to the roster at the same moment. Please try again.",
            )
        ]
    )
