"""PDFs are laid out in a child process, so that the memory a big one takes comes back.

WeasyPrint keeps much of what a long document took (a server that printed one
1,000-hand summary kept 500 MB), so the serving process never lays a PDF out itself:
``render`` sends the job (``RenderJob``: the HTML, paper, CSS and attached files) to a
renderer, a process of its own that has imported WeasyPrint and parsed the stylesheets
and fonts once. The renderer forks a fresh child for each PDF; the child lays it out,
sends the bytes back and exits, and its memory goes with it. Forking from the
renderer, which runs no other thread, is safe; the child starts with everything parsed.

The renderer is started with ``subprocess`` (``python -c``, importing this module), not
with multiprocessing: the children of its "spawn" and "forkserver" methods run the
server's main script again, which starts a script without an ``if __name__ ==
"__main__"`` guard over. Each serving process starts renderers when it first needs
them and keeps them for the next PDF; a renderer serves one PDF at a time (the render
slots, ``ledger.http.slots``, bound how many are busy). It ends when its server closes
the pipe to it, which the server's exit or death does too.

What WeasyPrint logs in a child (a glyph no font has, a fetch the sandbox refused) is
sent back with the PDF and logged again in the server, under the same logger.
Between the processes go pickles, in frames of a length and the pickle, over the
renderer's own pipes.
"""

from __future__ import annotations

import atexit
import gc
import logging
import os
import pickle
import select
import signal
import struct
import subprocess
import sys
import threading
import time
import traceback
from pathlib import Path
from typing import IO

from msgspec.structs import replace

from ledger.pdf.jobs import RenderJob, StaticFiles

#: A PDF that takes longer is given up (its child is stopped): nothing the ledger prints
#: comes near it (a 1,000-hand summary with every settlement takes about 30 s here).
RENDER_SECONDS = 180
#: Longer than the renderer would need to say that its child overran.
REPLY_SECONDS = RENDER_SECONDS + 30
#: What the renderer lays out before its first fork, to load the fonts (Latin, Devanagari,
#: the symbols) in itself rather than in every child.
WARM_UP = '<html lang="en"><title>Warm-up</title><p>Marriage म्यारिज ♥ − →</p></html>'
#: Where ``ledger`` was imported from: the renderer imports the same package.
PACKAGE_ROOT = str(Path(__file__).resolve().parents[2])
_LENGTH = struct.Struct(">Q")


class RenderFailed(RuntimeError):
    """The PDF could not be made: the child raised, overran or died, or the renderer is
    gone. The server answers 500 and logs the message."""


class RendererLost(RenderFailed):
    """The renderer itself stopped answering (it is stopped; the next PDF starts another)."""


def render_in_child(job: RenderJob) -> bytes:
    """The PDF of ``job``, laid out in a child process. Needs an app context when
    ``job.static`` is not given (the app's static files are then the job's)."""
    if job.static is None:
        job = replace(job, static=StaticFiles.of_app())
    renderer = _take()
    try:
        pdf = renderer.render(job)
    except RenderFailed as failure:
        if isinstance(failure, RendererLost):
            renderer.stop()
        else:
            _give_back(renderer)
        raise
    except BaseException:
        renderer.stop()
        raise
    _give_back(renderer)
    return pdf


# --- the server's side: its renderers -----------------------------------------------------


class _Renderer:
    """One renderer process, and the pipes to it."""

    def __init__(self) -> None:
        self.process = subprocess.Popen(
            [sys.executable, "-c", _PROGRAM, PACKAGE_ROOT],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
        )

    def render(self, job: RenderJob) -> bytes:
        assert self.process.stdin is not None and self.process.stdout is not None  # PIPEs
        try:
            _write_frame(self.process.stdin, pickle.dumps(job, pickle.HIGHEST_PROTOCOL))
            payload = _read_frame(self.process.stdout.fileno(), time.monotonic() + REPLY_SECONDS)
        except (OSError, EOFError, TimeoutError) as problem:
            raise RendererLost(f"the PDF renderer stopped answering: {problem}") from problem
        kind, value, records = pickle.loads(payload)
        for name, level, message in records:
            logging.getLogger(name).log(level, message)
        if kind != "pdf":
            raise RenderFailed(value)
        pdf: bytes = value
        return pdf

    def stop(self) -> None:
        """Close its pipes: it ends (killed if it does not within a second)."""
        for pipe in (self.process.stdin, self.process.stdout):
            try:
                if pipe is not None:
                    pipe.close()
            except OSError:
                pass  # the renderer is gone already
        try:
            self.process.wait(timeout=1)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()


_idle: list[_Renderer] = []
_lock = threading.Lock()


def _take() -> _Renderer:
    with _lock:
        while _idle:
            renderer = _idle.pop()
            if renderer.process.poll() is None:
                return renderer
            renderer.stop()
    return _Renderer()


def start_renderer() -> None:
    """Start a renderer ahead of the first PDF (``serve`` does): it imports WeasyPrint
    and parses the stylesheets while nobody waits, some 1.5 s."""
    with _lock:
        if not _idle:
            _idle.append(_Renderer())


def _give_back(renderer: _Renderer) -> None:
    with _lock:
        _idle.append(renderer)


@atexit.register
def stop_renderers() -> None:
    """End the idle renderers (at exit; tests)."""
    with _lock:
        stopping = list(_idle)
        _idle.clear()
    for renderer in stopping:
        renderer.stop()


def _write_frame(pipe: IO[bytes], payload: bytes) -> None:
    pipe.write(_LENGTH.pack(len(payload)))
    pipe.write(payload)
    pipe.flush()


def _read_frame(fd: int, deadline: float | None) -> bytes:
    """One frame's payload; EOFError when the pipe closed, TimeoutError after ``deadline``
    (``time.monotonic``; None: no limit)."""
    (length,) = _LENGTH.unpack(_read_exactly(fd, _LENGTH.size, deadline))
    return _read_exactly(fd, length, deadline)


def _read_exactly(fd: int, size: int, deadline: float | None) -> bytes:
    parts, left = [], size
    while left:
        wait = None if deadline is None else max(0.0, deadline - time.monotonic())
        if not select.select([fd], [], [], wait)[0]:
            raise TimeoutError("the PDF renderer did not answer in time")
        part = os.read(fd, min(left, 1 << 20))
        if not part:
            raise EOFError("the PDF renderer ended")
        parts.append(part)
        left -= len(part)
    return b"".join(parts)


# --- the renderer's side ------------------------------------------------------------------

#: The renderer's program: the package the server imported, then ``serve``.
_PROGRAM = (
    "import sys; sys.path.insert(0, sys.argv[1]); from ledger.pdf.child import serve; serve()"
)


def serve() -> None:
    """The renderer: reads jobs from stdin until it closes, answers each on stdout with
    the reply of a child forked for it."""
    from ledger.pdf import render  # WeasyPrint: here, never in the serving process

    signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl+C stops the server, which stops us
    replies = os.fdopen(os.dup(1), "wb")
    os.dup2(2, 1)  # a stray print() goes to stderr, not into the replies
    warm = None
    while True:
        try:
            job = pickle.loads(_read_frame(0, None))
        except EOFError:
            return
        try:
            kit = render.kit_for(job.static)  # parsed here, once: every child inherits it
            if kit is not warm:
                render.render_pdf(WARM_UP, static=job.static)
                warm = kit
                gc.collect()
                gc.freeze()  # the children's collections leave what they inherit alone
        except Exception:  # a static folder gone wrong: the server is told
            reply = pickle.dumps(("error", traceback.format_exc(), []))
        else:
            reply = _reply_of_child(job, replies.fileno())
        try:
            _write_frame(replies, reply)
        except BrokenPipeError:  # the server gave up on this PDF and stopped us
            return


def _reply_of_child(job: RenderJob, replies: int) -> bytes:
    """Fork a child that renders ``job``; its reply (pickled), or one saying it failed.
    The child lets go of the pipes to the server (``replies``, stdin): should the
    renderer die, the server sees it at once."""
    readable, writable = os.pipe()
    pid = os.fork()
    if pid == 0:
        for fd in (readable, replies, 0):
            os.close(fd)
        _child(job, writable)
    os.close(writable)
    with os.fdopen(readable, "rb") as pipe:
        reply = pipe.read()
    _, status = os.waitpid(pid, 0)
    if os.WIFSIGNALED(status) and os.WTERMSIG(status) == signal.SIGALRM:
        why = f"the PDF took longer than {RENDER_SECONDS} s"
    elif os.WIFEXITED(status) and os.WEXITSTATUS(status) == 0:
        return reply
    else:
        why = f"the PDF renderer's child ended with status {status}"
    return pickle.dumps(("error", why, []))


def _child(job: RenderJob, writable: int) -> None:
    """In the forked child: render, write the reply, exit (never returns). The kits it
    inherited stay referenced until the end (``os._exit`` frees nothing): freeing one
    would delete the renderer's font files."""
    code = 1
    try:
        signal.alarm(RENDER_SECONDS)
        kept = _KeptRecords()
        logging.root.handlers = [kept]
        reply: tuple[str, bytes | str, list[tuple[str, int, str]]]
        try:
            reply = ("pdf", job.render(), kept.records)
        except Exception:
            reply = ("error", traceback.format_exc(), kept.records)
        with os.fdopen(writable, "wb") as pipe:
            pipe.write(pickle.dumps(reply, pickle.HIGHEST_PROTOCOL))
        code = 0
    finally:
        os._exit(code)


class _KeptRecords(logging.Handler):
    """Keeps what is logged (warnings and worse) to send it to the server."""

    def __init__(self) -> None:
        super().__init__(logging.WARNING)
        self.records: list[tuple[str, int, str]] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.records.append((record.name, record.levelno, record.getMessage()))
