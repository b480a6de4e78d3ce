"""The match service the API and the pages share: models, the one transaction, input
checks, the one-pass view, export and import. Callers use the service's functions from
here (``matches.add_hand(...)``)."""

from ledger.matches.service import *  # noqa: F403  (the service's functions, by its __all__)
from ledger.matches.service import __all__  # noqa: F401
