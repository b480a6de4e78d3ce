"""A 204 or 304 keeps its HTTP/1.1 connection open.

waitress (3.0.2) closes an HTTP/1.1 connection after every response that carries no
Content-Length, to mark where the body ends. A 1xx, 204 or 304 has no body: it ends at
the blank line after its headers and must not carry a Content-Length (RFC 9112 6.3),
so waitress closed the connection after each of them too. Every follower's poll that
found nothing new (204) then cost a new TCP connection, and at a big table the
connections' churn was most of the server's work. The fix proposed upstream
(Pylons/waitress pull request 502) is not released; until it is, the server's
connections use ``KeepAliveChannel``, whose task closes only when waitress would for
another reason: HTTP/1.0, the client's ``Connection: close``, or an error.
"""

from __future__ import annotations

from typing import Any

from waitress.channel import HTTPChannel
from waitress.server import BaseWSGIServer, create_server
from waitress.task import WSGITask


class BodilessKeepAliveTask(WSGITask):  # type: ignore[misc]  # waitress ships no types
    def set_close_on_finish(self) -> None:
        bodiless_keep_alive = (
            not self.has_body
            and self.version == "1.1"
            and self.request.headers.get("CONNECTION", "").lower() != "close"
        )
        if not bodiless_keep_alive:
            super().set_close_on_finish()


class KeepAliveChannel(HTTPChannel):  # type: ignore[misc]  # waitress ships no types
    task_class = BodilessKeepAliveTask


def create_keep_alive_server(app: Any, **settings: Any) -> Any:
    """waitress's ``create_server(app, **settings)``, its listening sockets handing
    their connections to ``KeepAliveChannel``."""
    sockets: dict[int, Any] = {}
    server = create_server(app, map=sockets, **settings)
    for listener in sockets.values():
        if isinstance(listener, BaseWSGIServer):
            listener.channel_class = KeepAliveChannel
    return server
