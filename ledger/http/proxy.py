"""Behind a proxy: believe its X-Forwarded-* headers, but only when told how many
proxies there are (``PROXY_COUNT``, ``LEDGER_PROXY_COUNT``; 0 by default).

With the count right, ``request.remote_addr`` is the client's, and ``request.scheme``
and ``request.host`` are the ones the browser used, so a ledger behind TLS knows it is
served over https (Secure session cookie, HSTS: ``ledger.http.security``) and its links
start with https. A header with fewer entries than the count is not believed. The
proxy must set (not pass on) X-Forwarded-For, -Proto, -Host and, under a sub-path,
-Prefix: see docs/deployment.md.
"""

from flask import Flask
from werkzeug.middleware.proxy_fix import ProxyFix


def init_proxy(app: Flask) -> None:
    count = app.config["PROXY_COUNT"]
    if count:
        app.wsgi_app = ProxyFix(  # type: ignore[method-assign]
            app.wsgi_app, x_for=count, x_proto=count, x_host=count, x_prefix=count
        )
