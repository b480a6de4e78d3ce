"""Each player's own link (their person key) and how to pay them (docs/api.md,
"People"; the trust model is docs/security.md).

Nobody has an account: the table key's holder may give a roster player a link, which
only that player then holds. The key is stored hashed, as edit keys are; a new link
revokes the one before. Only the player, with their own key, may publish how to pay
them (handles, the text of their wallet's QR code): a new link given with the table key
clears them, so the table key can never publish someone's QR by making a link for
itself. The table key may take them down.
"""

from __future__ import annotations

import secrets
import unicodedata
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Literal, get_args

from sqlalchemy import select
from werkzeug.exceptions import NotFound

from ledger import matches
from ledger.engine import FieldError, Invalid
from ledger.engine.names import joins_after_virama
from ledger.extensions import db
from ledger.i18n import Msg
from ledger.matches import membership
from ledger.matches.models import utcnow
from ledger.matches.reading import find_player
from ledger.matches.service import _hash_key
from ledger.tables import earlier_names, service
from ledger.tables.models import MAX_QR_TEXT, Table, TablePlayer

if TYPE_CHECKING:  # the answers are declared with this module's kinds: they import it
    from ledger.tables.answers import TableSettleUpTransfer
    from ledger.tables.people_answers import Me, MeEarlier, MeEarlierSeason, MeNight

#: The kinds of handle a player may publish, and how many at most.
HandleKind = Literal["esewa", "khalti", "fonepay", "upi", "bank", "other"]
HANDLE_KINDS: tuple[str, ...] = get_args(HandleKind)
MAX_HANDLES = 5
MAX_HANDLE = 64
MAX_LABEL = 40


def new_person_key() -> str:
    """192 random bits, URL-safe (the key of a player's own link)."""
    return secrets.token_urlsafe(24)


def person_of(key: object) -> TablePlayer | None:
    """The roster player whose own link ``key`` is (of any table), or None for a wrong
    or revoked key. The key is looked up by its SHA-256 hash: the hash of a guess tells
    nothing of any stored key."""
    if not isinstance(key, str) or not key or len(key) > 200:
        return None
    return db.session.scalars(
        select(TablePlayer).where(TablePlayer.person_key_hash == _hash_key(key))
    ).one_or_none()


def give_link(table: Table, name: str) -> tuple[TablePlayer, str]:
    """A new own link for the roster player ``name`` (the table key's holder hands it
    over): the one before is revoked and their handles and QR are cleared. 404 for a
    name the table does not know; 422 for a guest or a former player."""
    key = new_person_key()
    with matches.transaction():
        service._touch(table)
        player = _linkable(table, name)
        player.person_key_hash = _hash_key(key)
        _clear_pay_to(player)
        service.pay_to_changed(table)
    return player, key


def revoke_link(table: Table, name: str) -> None:
    """The player's link stops working (their handles stay: they set them)."""
    with matches.transaction():
        service._touch(table)
        _linkable(table, name).person_key_hash = None


def renew_link(player: TablePlayer) -> str:
    """The holder replaces their own key (handles kept): the old one stops working."""
    key = new_person_key()
    holder = service.Caller.holding(player)
    with matches.transaction():
        service._touch(player.table)
        service.still_held(holder)  # a revoked link renews nothing, even on its way
        player.person_key_hash = _hash_key(key)
    return key


def _linkable(table: Table, name: str) -> TablePlayer:
    """The roster player ``name``, found while the write holds the table: a player who
    left the table ("Forget me") or was renamed a moment before is not written to."""
    if service.left_the_table(name):
        raise Invalid(
            [FieldError("name", "A former player has left the table: they get no own link.")]
        )
    found = next((p for p in table.players if p.name_key == name.casefold()), None)
    if found is not None:
        return found
    played = {n for m in service.table_matches(table) for n in m.player_names}
    if find_player(name, sorted(played)) is not None:
        raise Invalid(
            [
                FieldError(
                    "name",
                    "{name} played as a guest: only a player on the table's roster gets an "
                    "own link. Add them to the roster first.",
                    name=name,
                )
            ]
        )
    raise NotFound(Msg("This table has no player called {name}.", name=name))


# --- how to pay me -------------------------------------------------------------------


def read_handles(data: Mapping[str, Any]) -> list[dict[str, str]]:
    """``{"handles": [{"kind", "handle", "label"?}]}``: at most 5; ``kind`` one of
    HANDLE_KINDS, ``handle`` 1 to 64 characters and ``label`` at most 40, printable (no
    control or direction characters). Every problem together, on its field."""
    given = data.get("handles")
    others = [str(k) for k in data if k != "handles"]
    if others:
        raise Invalid([FieldError(others[0], "Send only handles: a list of your handles.")])
    if not isinstance(given, list) or len(given) > MAX_HANDLES:
        raise Invalid(
            [
                FieldError(
                    "handles",
                    "handles must be a list of at most {most} handles, each "
                    '{{"kind", "handle", "label"}}.',
                    most=MAX_HANDLES,
                )
            ]
        )
    errors: list[FieldError] = []
    handles: list[dict[str, str]] = []
    for i, item in enumerate(given):
        field = f"handles.{i}"
        if not isinstance(item, Mapping):
            errors.append(FieldError(field, 'Each handle must be an object {"kind", "handle"}.'))
            continue
        extra = [str(k) for k in item if k not in ("kind", "handle", "label")]
        if extra:
            errors.append(
                FieldError(
                    f"{field}.{extra[0]}",
                    "A handle has only kind, handle and label.",
                )
            )
        kind = item.get("kind")
        if kind not in HANDLE_KINDS:
            errors.append(
                FieldError(
                    f"{field}.kind",
                    "kind must be one of {kinds}.",
                    kinds=", ".join(HANDLE_KINDS),
                )
            )
        handle = _text(item.get("handle"), f"{field}.handle", 1, MAX_HANDLE, errors)
        label = _text(item.get("label", ""), f"{field}.label", 0, MAX_LABEL, errors)
        if isinstance(kind, str) and handle is not None and label is not None:
            handles.append({"kind": kind, "handle": handle, "label": label})
    if errors:
        raise Invalid(errors)
    return handles


def _text(value: object, field: str, least: int, most: int, errors: list[FieldError]) -> str | None:
    if value is None and least == 0:
        return ""
    if not isinstance(value, str) or not least <= len(value.strip()) <= most:
        errors.append(
            FieldError(
                field,
                "{what} must be text of {least} to {most} characters.",
                what=field.rsplit(".", 1)[-1],
                least=least,
                most=most,
            )
        )
        return None
    if not printable(value):
        errors.append(
            FieldError(
                field,
                "{what} must be printable text: no control or direction characters.",
                what=field.rsplit(".", 1)[-1],
            )
        )
        return None
    return value.strip()


def printable(text: str) -> bool:
    """No control, format (direction marks, zero-width joiners), surrogate, private or
    unassigned characters: what is shown is what is there. A joiner after a Devanagari
    virama (a half form, as a Nepali keyboard types it) is allowed, as in names."""
    return all(
        unicodedata.category(c)[0] != "C" or joins_after_virama(c, previous)
        for previous, c in zip(" " + text, text, strict=False)  # each after the one before
    )


def set_handles(player: TablePlayer, handles: list[dict[str, str]]) -> None:
    holder = service.Caller.holding(player)
    with matches.transaction():
        service._touch(player.table)
        service.still_held(holder)
        player.handles = handles or None
        player.pay_to_set_at = utcnow()
        service.pay_to_changed(player.table)


#: How the QR codes that are plainly no payment begin (compared ignoring case): a Wi-Fi
#: network's (its password in it, which the whole table would then read beside the
#: player's name), a contact card, an event, a text message or an e-mail to send.
NOT_PAYMENT = (
    "wifi:",
    "begin:vcard",
    "mecard:",
    "begin:vevent",
    "begin:vcalendar",
    "smsto:",
    "matmsg:",
)


def read_qr_text(text: str) -> str:
    """What a wallet's QR code says, if a ledger may show it: at most MAX_QR_TEXT
    characters, printable, and none of the codes that are plainly no payment
    (NOT_PAYMENT). Invalid on field ``qr``."""
    if text.strip().casefold().startswith(NOT_PAYMENT):
        raise Invalid(
            [
                FieldError(
                    "qr",
                    "This QR code is not a payment code (it is a Wi-Fi network, a contact "
                    "card, an event or a message), so nothing was kept: send a screenshot "
                    "of your wallet's QR code.",
                )
            ]
        )
    if not text or len(text) > MAX_QR_TEXT or not printable(text):
        raise Invalid(
            [
                FieldError(
                    "qr",
                    "The QR code's text must be 1 to {most} printable characters (no "
                    "control characters); this one is not a payment code the ledger can show.",
                    most=MAX_QR_TEXT,
                )
            ]
        )
    return text


def set_qr(player: TablePlayer, text: str) -> str:
    """Keeps what the QR code says (``read_qr_text``) and returns it."""
    holder = service.Caller.holding(player)
    with matches.transaction():
        service._touch(player.table)
        service.still_held(holder)
        player.qr = kept = read_qr_text(text)
        player.pay_to_set_at = utcnow()
        service.pay_to_changed(player.table)
    return kept


def clear_qr(player: TablePlayer) -> None:
    holder = service.Caller.holding(player)
    with matches.transaction():
        service._touch(player.table)
        service.still_held(holder)
        player.qr = None
        service.pay_to_changed(player.table)


def take_down(table: Table, name: str) -> None:
    """The table key takes a player's handles and QR down (it can never set them)."""
    with matches.transaction():
        service._touch(table)
        _clear_pay_to(_linkable(table, name))
        service.pay_to_changed(table)


def _clear_pay_to(player: TablePlayer) -> None:
    player.handles = None
    player.qr = None
    player.pay_to_set_at = None


# --- forget me -----------------------------------------------------------------------


def forget(player: TablePlayer) -> str:
    """The player leaves the table: their name becomes "Former player N" (N the next
    free number) in the roster and in every match, hand, hand's history and payment of
    the table, their handles, QR and link are gone, every total stays as it was.
    Returns the new name. (The caller empties the kept pages and PDFs:
    ``ledger.http.forgetting``.)"""
    table = player.table
    holder = service.Caller.holding(player)
    with matches.transaction():
        service._touch(table)  # first: the table's row, as every write to the table
        service.still_held(holder)
        old, new = player.name, _next_former_name(table)
        in_table = service.table_matches(table)
        player.name, player.name_key = new, new.casefold()
        player.person_key_hash = None
        earlier_names.forgotten(player)
        _clear_pay_to(player)
        service._rename_payments(table, old, new)
        membership.forget_player(in_table, old, new)
    service.forget_kept_figures(table)
    return new


def _next_former_name(table: Table) -> str:
    names = [p.name for p in table.players]
    names += [n for m in service.table_matches(table) for n in m.player_names]
    taken = [int(n.rsplit(" ", 1)[1]) for n in names if service.left_the_table(n)]
    return service.FORMER_PLAYER.format(number=max(taken, default=0) + 1)


# --- what the holder sees ------------------------------------------------------------


def _money_of(
    name: str, money: Mapping[str, Any]
) -> tuple[str | None, list[TableSettleUpTransfer]]:
    """A player's balance in a settle-up (None without a stake) and its transfers that
    name them."""
    row = next((b for b in money["balances"] if b["name"] == name), None)
    balance = None if money["stake"] is None else row["amount"] if row else "0.00"
    return balance, [t for t in money["transfers"] if name in (t["from"], t["to"])]


def _earlier(player: TablePlayer) -> list[MeEarlier]:
    """What the player still owes or is owed in the seasons before the current one (a
    debt outlives its season), oldest first: ``{"season": {"id", "name"}, "balance",
    "transfers"}`` for each season where it is not zero."""
    table = player.table
    if table.stake_currency is None:
        return []
    out: list[MeEarlier] = []
    for season in table.seasons[:-1]:
        balance, transfers = _money_of(player.name, service.season_settle_up(table, season))
        if transfers and balance is not None:  # with the table's stake, always money
            season_id: MeEarlierSeason = {"id": season.public_id, "name": season.name}
            out.append({"season": season_id, "balance": balance, "transfers": transfers})
    return out


def season_owed(player: TablePlayer, payee: str) -> str | None:
    """The season an "I paid" to ``payee`` that names none settles: the current one
    while the player owes ``payee`` there (None), else the oldest earlier season where
    they still do. Paid into a season where nothing was owed, 100 towards an old debt of
    235 left the 235 standing and made the payee owe it back this season."""
    table = player.table
    pair = (player.name, payee)
    if any(
        (t["from"], t["to"]) == pair
        for t in service.season_settle_up(table, table.current_season)["transfers"]
    ):
        return None
    return next(
        (
            e["season"]["id"]
            for e in _earlier(player)
            if any((t["from"], t["to"]) == pair for t in e["transfers"])
        ),
        None,
    )


def me_json(player: TablePlayer) -> Me:
    """The body of ``GET /api/v1/me``: the player's money in the current season, the
    transfers and payments that name them, what is still owed from earlier seasons, how
    to pay them, and their nights."""
    table = player.table
    season = table.current_season
    read = service.standings(table, season)
    name = player.name
    balance, transfers = _money_of(name, service.season_settle_up(table, season, read))
    nights: list[MeNight] = [
        {
            "match": m.public_id,
            "name": m.name,
            "total": m.totals[name],
            "place": m.places[name],
            "points_race": not m.zero_sum,
        }
        for m in read.matches
        if name in m.played
    ]
    return {
        "table": {"id": table.public_id, "name": table.name},
        "name": name,
        "currency": table.stake_currency,
        "balance": balance,
        "transfers": transfers,
        "payments": [
            service.payment_json(table, p)
            for p in service.payments(table, None)
            if name in (p.payer, p.payee)
        ],
        "handles": service.handles_of(player),
        "qr": player.qr,
        "nights": nights,
        "earlier": _earlier(player),
    }
