"""Renames and merges racing reads, hand saves and payments over two server processes on one
database (PostgreSQL with ``--db=postgresql``): never a 5xx, and no row names a player
who is not on the roster. A payment recorded while a rename committed used to keep
the old name there, and reads and saves answered 500."""

import pytest
from rename_race_support import Evening, check_evening, race


@pytest.mark.parametrize("merging", [False, True], ids=["renames", "merges"])
def test_renames_and_merges_race_the_evening_over_two_processes(
    ledger_env, init_db, serve, tmp_path, merging
):
    shared = {**ledger_env, "LEDGER_SECRET_KEY": "one key for every process"}
    init_db(shared)
    first = serve({**shared, "LEDGER_INSTANCE_PATH": str(tmp_path / "a")}, "--host", "127.0.0.1")
    second = serve({**shared, "LEDGER_INSTANCE_PATH": str(tmp_path / "b")}, "--host", "127.0.0.1")
    evening = Evening(first.base)
    evening.setup()
    race(evening, [first.base, second.base], merging=merging)
    check_evening(evening, merging=merging)
