"""Serving the ledger for real: at a table on the LAN, or behind a proxy.

- ``server``: waitress and its settings; the ``marriage-ledger serve`` command's work.
- ``address``: the LAN address phones reach, the public URL, the QR code in a terminal.
- ``links``: the Flask class whose external links (share links, QR codes) use the
  public URL.
- ``proxy``: trust in a proxy's headers, by number of proxies (opt-in).
- ``readiness``: ``/readyz``, which touches the database.
- ``logs``: one line per request or error, on standard error.
- ``polls``: the followers' poll of an unchanged match, answered before Flask.
- ``keepalive``: waitress keeping a connection open after a 204 or 304.
"""

from flask import Flask

from ledger.serving import logs, polls, proxy, readiness
from ledger.serving.links import Ledger

__all__ = ["Ledger", "init_serving"]


def init_serving(app: Flask) -> None:
    """The request log, the polls' short answer, the proxy's headers (when configured)
    and ``/readyz``."""
    shortcut = polls.UnchangedPolls(app, app.wsgi_app)
    app.wsgi_app = logs.RequestLog(shortcut)  # type: ignore[method-assign]
    proxy.init_proxy(app)  # outside the log: the log shows the client, not the proxy
    app.register_blueprint(readiness.bp)
