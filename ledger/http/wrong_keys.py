"""Wrong edit keys, counted per address and per thing they were tried on.

A key is checked first; only a wrong one is counted (``count_wrong_key``), under its
address and its target (``"match:<id>"``, ``"table:<id>"``; any other kind of link
names its own), at most ``RATELIMIT_EDIT_KEY`` (20 a minute, 100 an hour). The next wrong
key on that target from that address is answered 429 with ``Retry-After`` instead of
403. A right key is never counted nor refused: guesses from any address, the
scorekeeper's own included (one home router is one address for every phone), cost the
holder of the right key nothing, and guesses at one match do not limit another.

The counts live where the other limits' do (``ledger.http.limits``: memory, or Redis
shared by several processes); should that backend fail, the guess is answered 403.
"""

from __future__ import annotations

import logging
import math
import time

from flask import current_app
from flask_limiter import Limiter
from flask_limiter.util import get_remote_address
from limits import parse_many
from werkzeug.exceptions import TooManyRequests

log = logging.getLogger(__name__)
SETTING = "RATELIMIT_EDIT_KEY"
SCOPE = "wrong_edit_key"
#: ``app.extensions`` key of the app's Flask-Limiter (``ledger.http.limits``).
LIMITER = "ledger_limiter"
#: The target of a wrong player's own link (a wrong key names no table nor player): the
#: address's guesses at person links, wherever they are tried.
PERSON_LINKS = "person"


class TooManyWrongKeys(TooManyRequests):
    """429: this address tried too many wrong keys on this target just now."""

    def __init__(self, limit: str, seconds: int):
        super().__init__(retry_after=seconds)
        self.limit = limit
        self.seconds = seconds


def count_wrong_key(target: str) -> None:
    """Count a wrong key tried on ``target`` from this request's address; raise
    ``TooManyWrongKeys`` when that is more than the budget allows."""
    limiter: Limiter | None = current_app.extensions.get(LIMITER)
    if limiter is None or not limiter.enabled:
        return
    who = (SCOPE, get_remote_address(), target)
    try:
        strategy = limiter.limiter
        for limit in parse_many(current_app.config[SETTING]):
            if not strategy.hit(limit, *who):
                reset = strategy.get_window_stats(limit, *who).reset_time
                raise TooManyWrongKeys(str(limit), max(1, math.ceil(reset - time.time())))
    except TooManyWrongKeys:
        raise
    except Exception:  # the counts' backend failed: a 403, as without a limit
        log.warning("wrong edit keys could not be counted", exc_info=True)
