"""A whole ledger copied from one database into another: a club that began on SQLite
(``make run``, a laptop at the table) moves to PostgreSQL when it hosts many tables, or
back. ``export.json`` moves one match or table at a time and gives it new ids and a new
edit key; this keeps every row as it is, so every link, edit key, own link and QR code
handed out goes on working against the new database.

The rows are read and written through the models' tables (SQLAlchemy Core), so each
column's type converts between the two databases (times, JSON, money as text). The
source is checked before the target is touched (a source refused leaves the target as
it was), then read in one transaction (one snapshot) and the target written in one: a
copy that fails partway leaves the target as empty as it was, to be copied into again.
PostgreSQL's id sequences are moved past the copied ids afterwards, so the next row
written gets a new one.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path

from sqlalchemy import Connection, Engine, Table, create_engine, func, inspect, select, text
from sqlalchemy.engine import URL, make_url
from sqlalchemy.exc import ArgumentError, DBAPIError

from ledger.extensions import db
from ledger.migrating import migration_heads, revisions

#: Rows read and written per round trip: a season of hands is a few thousand.
BATCH = 1000


class CopyError(Exception):
    """A copy that cannot be made; the sentence says why and what to do."""


#: Said after a source refused: it is found unfit before the target is touched.
UNTOUCHED = "Nothing was copied, and this ledger's database was not touched."
#: Said when the copy fails partway (a server gone, a row refused): the target's one
#: transaction kept nothing, and an empty ledger is what a copy goes into, so it is
#: simply run again.
STOPPED = (
    "The copy stopped and nothing was copied: {cause}. This ledger's database holds no "
    "row of it (its tables may be made, empty, as a copy needs them): put that right and "
    "run marriage-ledger copy-db again."
)


def copy_database(
    source_url: str, target: Engine, migrations: str, prepare: Callable[[], object]
) -> dict[str, int]:
    """Copy every row of the ledger at ``source_url`` into ``target``, which is empty and
    at the latest of the ``migrations`` folder's migrations; the rows copied, by table.
    ``prepare`` brings the target to that migration once the source is found fit to
    copy (a source refused leaves the target as it was)."""
    try:
        source = _open(source_url)
    except CopyError as refused:
        raise CopyError(f"{refused} {UNTOUCHED}") from None
    try:
        with source.connect() as reading:
            _snapshot(reading)
            _check_revision(reading, source_url, migrations)
            prepare()
            with target.begin() as writing:
                _check_empty(writing)
                copied = {table.name: _copy_table(reading, writing, table) for table in _tables()}
                if writing.dialect.name == "postgresql":
                    _move_sequences(writing)
    except DBAPIError as error:
        raise CopyError(STOPPED.format(cause=_first_line(error))) from None
    finally:
        source.dispose()
    return copied


def _tables() -> list[Table]:
    """The ledger's tables, each after those its rows point at."""
    return list(db.metadata.sorted_tables)


#: A URL that cannot even be parsed: said without repeating it (a password's @, : or /
#: written as it is splits it in the wrong places, and SQLAlchemy's reason quotes a
#: piece of the password).
UNREADABLE = (
    "SOURCE_URL is no database URL that can be read, such as sqlite:////srv/ledger/"
    "instance/ledger.sqlite3 or postgresql+psycopg://ledger:PASSWORD@db.example.org/ledger: "
    "write any @, :, / or % in the user's name or password as %40, %3A, %2F or %25."
)


def _open(source_url: str) -> Engine:
    if "://" not in source_url and Path(source_url).is_file():  # the URL's scheme left out
        found = Path(source_url).resolve()
        raise CopyError(
            f"{source_url!r} is a file's path, not a database URL: give sqlite:///{found}."
        )
    try:
        url = make_url(source_url)
    except (ArgumentError, ValueError):
        raise CopyError(UNREADABLE) from None
    shown = url.render_as_string(hide_password=True)
    try:
        _check_file(url)
        source = create_engine(source_url)
        with source.connect() as connection:
            names = set(inspect(connection).get_table_names())
    except (ArgumentError, ValueError) as error:  # NoSuchModuleError is an ArgumentError
        raise CopyError(f"{shown} is no database URL: {error}.") from None
    except DBAPIError as error:
        raise CopyError(f"Cannot read the database at {shown}: {_first_line(error)}.") from None
    if not {"alembic_version", *(t.name for t in _tables())} <= names:
        source.dispose()
        raise CopyError(f"{shown} is not a Marriage ledger's database.")
    return source


def _snapshot(reading: Connection) -> None:
    """Read the whole source as it was at one moment, even should a server still write
    to it: SQLite's driver begins no transaction for a SELECT, and PostgreSQL's default
    isolation lets each statement see what was committed since the last."""
    if reading.dialect.name == "sqlite":
        reading.exec_driver_sql("BEGIN")
    else:
        reading.execution_options(isolation_level="REPEATABLE READ")


def _check_file(url: URL) -> None:
    """An SQLite source must be a file already: opening a mistyped path would make one."""
    if url.get_backend_name() == "sqlite":
        path = Path(url.database or "")
        if not url.database or url.database == ":memory:" or not path.is_file():
            raise CopyError(f"There is no SQLite database at {url.database or '(no file)'}.")


def _check_revision(reading: Connection, source_url: str, migrations: str) -> None:
    """The source must be at this version's migration: its columns are then the models'."""
    found = set(reading.scalars(text("SELECT version_num FROM alembic_version")))
    if found == migration_heads(migrations):
        return
    if found and found <= revisions(migrations):
        raise CopyError(
            f"The database at {_hidden(source_url)} was made by an earlier version of the "
            f"ledger. {UNTOUCHED} Bring it up to this version first, then copy again:\n"
            f"  LEDGER_DATABASE_URL='{_hidden(source_url)}' marriage-ledger init-db"
        )
    raise CopyError(
        f"The database at {_hidden(source_url)} was made by a newer version of the ledger "
        f"(migration {', '.join(sorted(found)) or 'none'}): copy it with that version. " + UNTOUCHED
    )


def _check_empty(writing: Connection) -> None:
    """A copy goes into an empty ledger only: ids would clash with rows already there."""
    counts = {t.name: writing.scalar(select(func.count()).select_from(t)) for t in _tables()}
    held = ", ".join(f"{name} ({count})" for name, count in counts.items() if count)
    if held:
        raise CopyError(
            f"The ledger's database is not empty: it holds rows in {held}. Copy into a new "
            "database (set LEDGER_DATABASE_URL to it); nothing was copied."
        )


def _copy_table(reading: Connection, writing: Connection, table: Table) -> int:
    copied = 0
    for rows in _batches(reading, table):
        writing.execute(table.insert(), rows)
        copied += len(rows)
    return copied


def _batches(reading: Connection, table: Table) -> Iterator[list[dict[str, object]]]:
    """The table's rows, a batch at a time (streamed: a server-side cursor on PostgreSQL)."""
    query = select(table).order_by(*table.primary_key.columns)
    result = reading.execute(query.execution_options(yield_per=BATCH))
    for rows in result.mappings().partitions():
        yield [dict(row) for row in rows]


def _move_sequences(writing: Connection) -> None:
    """Each id sequence past the largest id copied (``setval``'s third argument false: the
    next id is 1 again in a table with no rows)."""
    for table in _tables():
        for column in table.primary_key.columns:
            if column.autoincrement is False:
                continue
            writing.execute(
                text(
                    "SELECT setval(pg_get_serial_sequence(:table, :column), "
                    f"COALESCE(MAX({column.name}), 1), MAX({column.name}) IS NOT NULL) "
                    f"FROM {table.name}"
                ),
                {"table": table.name, "column": column.name},
            )


def _hidden(url: str) -> str:
    """A URL ``_open`` read, its password as ``***``."""
    return make_url(url).render_as_string(hide_password=True)


def _first_line(error: DBAPIError) -> str:
    return str(error.orig or error).strip().splitlines()[0]
