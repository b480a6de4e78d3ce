"""A roster player's earlier names, so that the address of their page under a name they
no longer have (a bookmark, a link shared in the family chat) still leads to them.

- A rename keeps the old name for the player; a merge keeps the merged name, and every
  earlier name of the merged player, for the player they went into.
- A name on the roster is its player's alone: a player who joins, or is renamed, with a
  name once someone else's takes its address (``service.renamed_to`` asks the roster
  first). The earlier name waits behind them: when they leave the roster with it (the
  newcomer of a match deleted as started by mistake), it leads on as before; when they
  are renamed or merged away from it, it leads to them, its newest holder.
- Forget me forgets: a forgotten player's earlier names are dropped with their name.

Names are kept by ``casefold()`` only (the roster compares names so), never shown.
"""

from __future__ import annotations

from sqlalchemy import delete, select, update

from ledger.extensions import db
from ledger.tables.models import EarlierName, TablePlayer


def renamed(player: TablePlayer, old: str) -> None:
    """``player`` (named anew already) was called ``old``: it leads to them."""
    if old.casefold() != player.name.casefold():  # a new spelling: the same address
        _leads(player.table_id, old, player.id)


def merged(player: TablePlayer, into: TablePlayer) -> None:
    """``player`` is merged into ``into``: their name and earlier names lead to ``into``
    (before ``player``'s row is deleted, which would drop them)."""
    db.session.execute(
        update(EarlierName)
        .where(EarlierName.player_id == player.id)
        .values(player_id=into.id)
        .execution_options(synchronize_session=False)
    )
    _leads(player.table_id, player.name, into.id)


def _leads(table_id: int, name: str, player_id: int) -> None:
    """``name`` leads to the player ``player_id``, its newest holder, whoever's earlier
    name it was before."""
    key = name.casefold()
    db.session.execute(
        delete(EarlierName).where(EarlierName.table_id == table_id, EarlierName.name_key == key)
    )
    db.session.add(EarlierName(table_id=table_id, player_id=player_id, name_key=key))


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
