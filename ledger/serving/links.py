"""External links under the ledger's public URL.

Share links and QR codes must carry an address the other phones at the table can
open. A scorekeeper's browser on the serving computer talks to 127.0.0.1, which no
phone can reach, so links built from the request would be useless: when
``PUBLIC_URL`` is set (``LEDGER_PUBLIC_URL``, or the LAN address ``marriage-ledger
serve`` found), every ``url_for(..., _external=True)`` starts with it instead.
"""

from __future__ import annotations

from typing import Any

from flask import Flask, has_request_context, request

from ledger.serving.url_rules import LazyBuilderRule


class Ledger(Flask):
    url_rule_class = LazyBuilderRule

    def url_for(
        self,
        endpoint: str,
        *,
        _anchor: str | None = None,
        _method: str | None = None,
        _scheme: str | None = None,
        _external: bool | None = None,
        **values: Any,
    ) -> str:
        public: str | None = self.config.get("PUBLIC_URL")
        if not (_external and public and has_request_context()):
            return super().url_for(
                endpoint,
                _anchor=_anchor,
                _method=_method,
                _scheme=_scheme,
                _external=_external,
                **values,
            )
        path = super().url_for(endpoint, _anchor=_anchor, _method=_method, **values)
        root = request.script_root  # the public URL's own path takes its place
        if root and path.startswith(root):
            path = path[len(root) :]
        return public + path
