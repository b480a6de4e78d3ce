"""Logging to standard error, one line per request or error.

``configure_logging`` (called by ``marriage-ledger serve``) sends every record to
stderr, a traceback folded onto its record's line (newlines written as ``\\n``), so
that a log collector sees one event per line. ``RequestLog`` writes one line per
request under the logger ``ledger.requests``: client, method, path, protocol, status,
response size and milliseconds. An edit key in a join link or a query string never
reaches the log, nor does any raw control character.
"""

from __future__ import annotations

import logging
import re
import sys
import time
from collections.abc import Callable, Iterable
from typing import Any

log = logging.getLogger("ledger.requests")
FORMAT = "%(asctime)s %(levelname)s %(name)s: %(message)s"
JOIN_KEY = re.compile(r"(/join/)[^/?]+")
CONTROL = re.compile(r"[\x00-\x1f\x7f]")


#: A query parameter whose name says it holds a key (``?key=``, ``?edit_key=``): a key
#: sent there by mistake is never logged.
KEY_PARAMETER = re.compile(r"((?:^|[?&;])[^=&;]*key=)[^&;]*", re.IGNORECASE)


def escape_controls(text: str) -> str:
    """``text`` with every control character written out (``\\x00``): none reaches a log
    line raw, where it could end the line or drive the terminal."""
    return CONTROL.sub(lambda found: f"\\x{ord(found[0]):02x}", text)


class OneLineFormatter(logging.Formatter):
    """One line per record, whoever logs it (Flask's error line quotes the request's
    path): the traceback's newlines as ``\\n``, every other control character escaped."""

    def format(self, record: logging.LogRecord) -> str:
        text = super().format(record).replace("\r\n", "\n").replace("\n", "\\n")
        return escape_controls(text)


def configure_logging(level: int = logging.INFO) -> None:
    handler = logging.StreamHandler(sys.stderr)
    handler.setFormatter(OneLineFormatter(FORMAT))
    root = logging.getLogger()
    root.handlers[:] = [handler]
    root.setLevel(level)


def shown_path(environ: dict[str, Any]) -> str:
    """The path and query as the log shows them (a join link's key replaced)."""
    path = environ.get("SCRIPT_NAME", "") + environ.get("PATH_INFO", "")
    query = environ.get("QUERY_STRING")
    shown = JOIN_KEY.sub(r"\1<key>", path)
    if query:
        shown += "?" + KEY_PARAMETER.sub(r"\1<key>", query)
    return escape_controls(shown)


class RequestLog:
    """WSGI middleware: logs a request when its response starts (the app has answered;
    the size is the Content-Length). Costs nothing when INFO is not logged."""

    def __init__(self, app: Callable[..., Iterable[bytes]]):
        self.app = app

    def __call__(
        self, environ: dict[str, Any], start_response: Callable[..., Any]
    ) -> Iterable[bytes]:
        if not log.isEnabledFor(logging.INFO):
            return self.app(environ, start_response)
        started = time.perf_counter()

        def logging_start_response(
            status: str, headers: list[tuple[str, str]], exc_info: Any = None
        ) -> object:
            size = next((v for k, v in headers if k.lower() == "content-length"), "-")
            log.info(
                '%s "%s %s %s" %s %s %.1fms',
                environ.get("REMOTE_ADDR", "-"),
                environ.get("REQUEST_METHOD", "-"),
                shown_path(environ),
                environ.get("SERVER_PROTOCOL", "-"),
                status.split(" ", 1)[0],
                size,
                (time.perf_counter() - started) * 1000,
            )
            return start_response(status, headers, exc_info)

        return self.app(environ, logging_start_response)
