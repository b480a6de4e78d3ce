"""The ledger served by ``marriage-ledger serve`` in a process of its own, and a small
HTTP client with cookies, for tests that use it as phones and browsers would.

Requests go to 127.0.0.1 only. The process gets the environment of the tests without
any ``LEDGER_*`` variable, plus what the test gives.
"""

from __future__ import annotations

import http.cookiejar
import json
import os
import re
import signal
import subprocess
import sys
import time
import urllib.error
import urllib.parse
import urllib.request
from dataclasses import dataclass
from email.message import Message
from pathlib import Path

#: A three-player match's hand, in the settle format, for the tests that add one.
PLAYERS = ["Asha", "Bikash", "Chandra"]
HAND = {
    "finish": "sequences",
    "winner": "Asha",
    "players": [
        {"name": "Asha", "seen": "sequences", "maal": 10},
        {"name": "Bikash", "seen": "sequences", "maal": 3},
        {"name": "Chandra", "seen": "unseen", "maal": 0},
    ],
}

REPOSITORY = Path(__file__).resolve().parents[2]
#: The console script of the virtualenv running the tests (the project's, editable).
DEV_SCRIPT = Path(sys.executable).parent / "marriage-ledger"
STARTUP_SECONDS = 60


def clean_environment(**extra: str) -> dict[str, str]:
    env = {
        name: value
        for name, value in os.environ.items()
        if not name.startswith("LEDGER_") and name not in ("PYTHONPATH", "FLASK_APP")
    }
    env.update(extra)
    return env


def run(command: list[str], env: dict[str, str], cwd: Path, timeout: float = 120) -> str:
    """Run a command to its end; its output (an error shows it)."""
    done = subprocess.run(
        command, env=env, cwd=cwd, capture_output=True, text=True, timeout=timeout
    )
    assert done.returncode == 0, f"{command} failed:\n{done.stdout}\n{done.stderr}"
    return done.stdout + done.stderr


class Served:
    """``command`` (a ``marriage-ledger serve ...``) running until ``stop``; it must
    answer on 127.0.0.1:``port``."""

    def __init__(self, command: list[str], port: int, env: dict[str, str], folder: Path):
        self.port = port
        self.base = f"http://127.0.0.1:{port}"
        self.stdout_path = folder / f"serve-{port}.out"
        self.stderr_path = folder / f"serve-{port}.err"
        folder.mkdir(parents=True, exist_ok=True)
        with self.stdout_path.open("w") as out, self.stderr_path.open("w") as err:
            self.process = subprocess.Popen(command, env=env, cwd=folder, stdout=out, stderr=err)
        self._wait_until_it_answers()

    def _wait_until_it_answers(self) -> None:
        deadline = time.monotonic() + STARTUP_SECONDS
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise AssertionError(f"the server stopped:\n{self.stdout()}\n{self.stderr()}")
            try:
                with urllib.request.urlopen(self.base + "/healthz", timeout=2) as answer:
                    if answer.status == 200:
                        return
            except OSError:
                time.sleep(0.2)
        self.stop()
        raise AssertionError(f"no answer in {STARTUP_SECONDS} s:\n{self.stderr()}")

    def stdout(self) -> str:
        return self.stdout_path.read_text(encoding="utf-8", errors="replace")

    def stderr(self) -> str:
        return self.stderr_path.read_text(encoding="utf-8", errors="replace")

    def stop(self) -> int:
        """SIGTERM, as a service manager stops it; its exit code."""
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGTERM)
            try:
                self.process.wait(timeout=20)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()
        return self.process.returncode


@dataclass
class Answer:
    status: int
    headers: Message
    body: bytes

    @property
    def text(self) -> str:
        return self.body.decode("utf-8")

    def json(self):
        return json.loads(self.body)


class _NoRedirect(urllib.request.HTTPRedirectHandler):
    def redirect_request(self, *args, **kwargs):
        return None


class Browser:
    """Cookies kept between requests, like a phone's browser; redirects are not
    followed (the answer is the redirect)."""

    def __init__(self, base: str, headers: dict[str, str] | None = None):
        self.base = base
        self.headers = dict(headers or {})
        self.cookies = http.cookiejar.CookieJar()
        self.opener = urllib.request.build_opener(
            urllib.request.HTTPCookieProcessor(self.cookies), _NoRedirect
        )

    def at(self, base: str) -> Browser:
        """The same browser (its cookies) talking to another server: cookies do not
        depend on the port, so two processes on 127.0.0.1 see the same ones."""
        other = Browser(base, self.headers)
        other.cookies, other.opener = self.cookies, self.opener
        return other

    def request(
        self,
        method: str,
        path: str,
        *,
        form: dict[str, str] | None = None,
        json_body: object = None,
        headers: dict[str, str] | None = None,
        timeout: float = 60,
    ) -> Answer:
        data = None
        sent = {**self.headers, **(headers or {})}
        if form is not None:
            data = urllib.parse.urlencode(form).encode()
            sent["Content-Type"] = "application/x-www-form-urlencoded"
        elif json_body is not None:
            data = json.dumps(json_body).encode()
            sent["Content-Type"] = "application/json"
        request = urllib.request.Request(self.base + path, data, sent, method=method)
        try:
            with self.opener.open(request, timeout=timeout) as answer:
                return Answer(answer.status, answer.headers, answer.read())
        except urllib.error.HTTPError as error:
            with error:
                return Answer(error.code, error.headers, error.read())

    def get(self, path: str, **kwargs) -> Answer:
        return self.request("GET", path, **kwargs)

    def post(self, path: str, **kwargs) -> Answer:
        return self.request("POST", path, **kwargs)

    def csrf_token(self, path: str) -> str:
        """The CSRF token of the form on ``path``."""
        page = self.get(path)
        assert page.status == 200, (path, page.status)
        found = re.search(r'name="csrf_token"[^>]*value="([^"]+)"', page.text)
        assert found, f"no CSRF token on {path}"
        return found.group(1)
