"""What stands in front of the app on every request, served or in the test client (so
that a test meets the app as waitress serves it): the request log (``logs``), the
followers' poll of an unchanged match answered before Flask (``polls``), a proxy's
headers when one is trusted (``proxy``), and ``/readyz`` (``readiness``)."""

from flask import Flask

from ledger.http import logs, polls, proxy, readiness


def init_front(app: Flask) -> None:
    shortcut = polls.UnchangedPolls(app, app.wsgi_app)
    app.wsgi_app = logs.RequestLog(shortcut)  # type: ignore[method-assign]
    proxy.init_proxy(app)  # outside the log: the log shows the client, not the proxy
    app.register_blueprint(readiness.bp)
