"""Serving the ledger for real: at a table on the LAN, or behind a proxy.

- ``server``: waitress and its settings; the ``marriage-ledger serve`` command's work.
- ``address``: the LAN address phones reach, the public URL, the QR code in a terminal.
- ``links``: the Flask class whose external links (share links, QR codes) use the
  public URL.
- ``keepalive``: waitress keeping a connection open after a 204 or 304.

What stands in front of the app on every request (the request log, the followers' polls,
a proxy's headers, ``/readyz``) is per-request plumbing: ``ledger.http.front``.
"""

from ledger.serving.links import Ledger

__all__ = ["Ledger"]
