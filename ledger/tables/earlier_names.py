"""A roster player's earlier names, so that the address of their page under a name they
no longer have (a bookmark, a link shared in the family chat) still leads to them.

- A rename keeps the old name for the player; a merge keeps the merged name, and every
  earlier name of the merged player, for the player they went into.
- A name on the roster is its player's alone: a player who joins or is renamed with a
  name once someone else's takes it (the earlier name is dropped).
- Forget me forgets: a forgotten player's earlier names are dropped with their name.

Names are kept by ``casefold()`` only (the roster compares names so), never shown.
"""

from __future__ import annotations

from collections.abc import Iterable

from sqlalchemy import delete, select, update

from ledger.extensions import db
from ledger.tables.models import EarlierName, TablePlayer


def renamed(player: TablePlayer, old: str) -> None:
    """``player`` (named anew already) was called ``old``: it leads to them."""
    taken(player.table_id, [player.name])
    if old.casefold() != player.name.casefold():  # old, a roster name till now, has no row
        db.session.add(
            EarlierName(table_id=player.table_id, player_id=player.id, name_key=old.casefold())
        )


def merged(player: TablePlayer, into: TablePlayer) -> None:
    """``player`` is merged into ``into``: their name and earlier names lead to ``into``
    (before ``player``'s row is deleted, which would drop them)."""
    db.session.execute(
        update(EarlierName)
        .where(EarlierName.player_id == player.id)
        .values(player_id=into.id)
        .execution_options(synchronize_session=False)
    )
    db.session.add(
        EarlierName(table_id=player.table_id, player_id=into.id, name_key=player.name.casefold())
    )


def taken(table_id: int, names: Iterable[str]) -> None:
    """``names`` are on the table's roster now: no earlier name leads elsewhere."""
    keys = [name.casefold() for name in names]
    if keys:
        db.session.execute(
            delete(EarlierName).where(
                EarlierName.table_id == table_id, EarlierName.name_key.in_(keys)
            )
        )


def forgotten(player: TablePlayer) -> None:
    """``player`` asked to be forgotten: no name they had leads to them."""
    db.session.execute(delete(EarlierName).where(EarlierName.player_id == player.id))


def now_called(table_id: int, name: str) -> str | None:
    """The roster name of the player once called ``name`` (compared ignoring case and
    surrounding space); None if nobody was."""
    return db.session.scalar(
        select(TablePlayer.name)
        .join(EarlierName, EarlierName.player_id == TablePlayer.id)
        .where(EarlierName.table_id == table_id, EarlierName.name_key == name.strip().casefold())
    )
