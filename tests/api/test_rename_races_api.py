"""A rename or merge while others read the table, save hands and record payments, in
one served process (waitress's threads): never a 5xx, and no row names a player who is
not on the roster (docs/architecture.md, "Writes at the same moment"). The same over
two processes on one database: tests/serving/test_rename_races.py."""

import pytest
from rename_race_support import Evening, check_evening, race


@pytest.mark.slow
@pytest.mark.parametrize("merging", [False, True], ids=["renames", "merges"])
def test_renames_and_merges_race_reads_saves_and_payments_in_one_process(live_server, merging):
    evening = Evening(live_server)
    evening.setup()
    race(evening, [live_server], merging=merging)
    check_evening(evening, merging=merging)
