"""waitress, set up so that a table's followers never lock out its scorekeeper.

Every phone that follows a match polls every 3 s; with the poll's 204 keeping its
connection (``ledger.serving.keepalive``) each phone holds one connection while it
follows, plus a few for a while after loading a page (a browser opens up to six).
waitress's defaults stop accepting connections at 100 open ones and keep an idle one
for 120 s: the scorekeeper's next save then waits for an idle connection to time out.
Hence (``bench/followers.py`` measures 200 and 1,000 followers):

- ``connection_limit`` 4000: 1,000 following phones and their page loads. At 1000,
  a thousand followers and the scorekeeper were one connection too many: the last
  phone waited in the backlog until its polls timed out. It needs as many file
  descriptors, so the soft limit is raised to match where the system allows (else the
  limit is lowered to fit). Each open connection costs the server a little on every
  turn of its loop (waitress registers every socket anew): at 1,000 followers that is
  about a third of its Python time, which is why idle ones are let go (below);
- ``asyncore_use_poll``: ``select()`` cannot watch more than 1024 sockets;
- ``channel_timeout`` 30 s, checked every 10 s: a phone that stopped following (screen
  off) gives its connection back within 40 s; one that follows polls every 3 s and
  keeps it;
- ``threads`` 8: requests are short, but a PDF takes a thread for a while; the
  scorekeeper's save should not queue behind a few of them. (4 threads measured no
  better for the saves at 1,000 followers: the work is bound by one processor either
  way.)
- the interpreter's switch interval 0.5 ms (Python's default is 5 ms): a request that
  settles hands for seconds (an import, a season's rescore) holds the interpreter lock,
  and every time the scorekeeper's request comes back from the database or the socket it
  waited up to the whole interval for it, dozens of times a save (``bench/import_bench.py``:
  saves' p99 0.4-0.75 s during three 200-match imports, 0.04-0.12 s on SQLite with it);
- ``clear_untrusted_proxy_headers`` off only when the app trusts a proxy
  (``PROXY_COUNT``): the app's ProxyFix reads those headers, waitress must leave them.
"""

from __future__ import annotations

import signal
import sys
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import click
from flask import Flask, request_finished
from waitress import wasyncore

from ledger.pdf.child import start_renderer
from ledger.serving.address import Listening, print_banner
from ledger.serving.keepalive import create_keep_alive_server

THREADS = 8
#: Seconds a thread may hold the interpreter lock while another waits for it (above).
SWITCH_SECONDS = 0.0005
CONNECTION_LIMIT = 4000
SPARE_DESCRIPTORS = 64  # the database, log files, PDFs' fonts
SETTINGS: dict[str, Any] = {
    "channel_timeout": 30,
    "cleanup_interval": 10,
    "asyncore_use_poll": True,
    "backlog": 1024,
    "max_request_body_size": 16 * 1024 * 1024,  # the app's own limits are far below
    "ident": "marriage-ledger",
}


def connection_limit(wanted: int = CONNECTION_LIMIT) -> int:
    """``wanted``, after raising the soft limit on open files to fit it if possible."""
    try:
        import resource
    except ImportError:  # Windows: no such limit to raise
        return wanted
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    needed = wanted + SPARE_DESCRIPTORS
    if soft != resource.RLIM_INFINITY and soft < needed:
        raised = needed if hard == resource.RLIM_INFINITY else min(needed, hard)
        try:
            resource.setrlimit(resource.RLIMIT_NOFILE, (raised, hard))
            soft = raised
        except (OSError, ValueError):
            pass
    if soft == resource.RLIM_INFINITY:
        return wanted
    return max(1, min(wanted, soft - SPARE_DESCRIPTORS))


def waitress_settings(app: Flask, plan: Listening, threads: int) -> dict[str, Any]:
    return {
        **SETTINGS,
        "listen": " ".join(plan.listen),
        "threads": threads,
        "connection_limit": connection_limit(),
        "clear_untrusted_proxy_headers": not app.config["PROXY_COUNT"],
    }


def serve(app: Flask, plan: Listening, threads: int = THREADS) -> None:
    """Serve ``app`` until Ctrl+C or SIGTERM (both close the sockets and return); the
    app's links use the plan's public URL."""
    if plan.public_url:
        app.config["PUBLIC_URL"] = plan.public_url
    settings = waitress_settings(app, plan, threads)
    server = listening(app, plan, settings)
    print_banner(plan, threads, settings["connection_limit"], sys.stdout)
    signal.signal(signal.SIGTERM, _stop)
    if app.config["PDF_CHILD_PROCESS"]:
        renderer_after_first_answer(app)
    server.print_listen("Serving on http://{}:{}")
    with switching_often():
        server.run()


def listening(app: Flask, plan: Listening, settings: dict[str, Any]) -> Any:
    """waitress's server, its sockets bound before the banner is printed: a port in use
    (another ``serve`` still running, say) or an address not this computer's is one
    sentence and exit status 1, where it was a traceback under an address and QR code
    that led nowhere."""
    try:
        return create_keep_alive_server(app, **settings)
    except OSError as error:
        raise click.ClickException(
            f"Cannot listen on {', '.join(plan.listen)}: {error.strerror or error}. Stop the"
            " program that holds the port (another marriage-ledger serve?) or choose"
            " another --port; --host must be an address of this computer."
        ) from error


def renderer_after_first_answer(app: Flask) -> None:
    """Start the PDF renderer once the app has answered its first request, so that the
    first PDF need not wait for it (WeasyPrint's import, some 1.5 s of a processor), nor
    the first pages for it: on a two-processor machine, phones opening the table's link
    as the server starts would share a processor with that import."""
    started = threading.Lock()

    def start(sender: Flask, **extra: object) -> None:
        if started.acquire(blocking=False):
            request_finished.disconnect(start, app)
            start_renderer()

    request_finished.connect(start, app, weak=False)


@contextmanager
def switching_often() -> Iterator[None]:
    """The interpreter's switch interval at ``SWITCH_SECONDS`` while the block runs."""
    before = sys.getswitchinterval()
    sys.setswitchinterval(SWITCH_SECONDS)
    try:
        yield
    finally:
        sys.setswitchinterval(before)


def _stop(signum: int, frame: object) -> None:
    raise SystemExit(0)  # waitress's loop closes its sockets on SystemExit


@contextmanager
def serving_in_thread(app: Flask, threads: int = THREADS) -> Iterator[int]:
    """``app`` served as ``serve`` serves it, on 127.0.0.1 at a free port, by a thread of
    this process while the block runs (the tests' and the benchmarks' server); yields
    the port."""
    settings = {**SETTINGS, "threads": threads, "connection_limit": connection_limit()}
    server = create_keep_alive_server(app, host="127.0.0.1", port=0, **settings)
    stopping = threading.Event()

    def run() -> None:
        while not stopping.is_set():
            adj = server.adj  # the loop as waitress's own run() drives it, a turn at a time
            wasyncore.loop(adj.asyncore_loop_timeout, adj.asyncore_use_poll, server._map, 1)

    thread = threading.Thread(target=run, daemon=True)
    thread.start()
    try:
        with switching_often():
            yield server.effective_port
    finally:
        server.task_dispatcher.shutdown()  # lets running requests finish first
        stopping.set()
        server.pull_trigger()  # wakes the loop, which then ends
        thread.join()
        # Closed only once the loop has ended: closed while it runs, a socket could be
        # polled after its close ("bad file descriptor"), and a thunk closing them from
        # the loop could close the trigger before the pull that asked for it had written.
        wasyncore.close_all(server._map)
