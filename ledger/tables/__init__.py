"""Tables: the same people, many nights. A service beside the match service, standing
on it (``ledger.tables.service``; its figures in ``ledger.tables.figures``, its
export in ``ledger.tables.export``); callers use ``ledger.tables.service``'s
functions."""
