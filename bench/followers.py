"""Followers at scale: F phones follow one match while its scorekeeper enters hands.

The ledger is served as ``marriage-ledger serve`` serves it (waitress with the settings
of ``ledger.serving.server``, in a process of its own, on a throwaway SQLite database)
on 127.0.0.1. Each follower polls ``/matches/<id>/live?v=<version>`` on one kept-alive
connection, as the match page does (htmx, compressed answers): every 3 s, or at the
pace the live part asks for (``hx-trigger="every 15s"``: the server spreads the polls of
many followers); a poll after a change brings the fresh live part, whose version and
pace the next polls carry. The followers
are asyncio tasks in a second process, so that the scorekeeper, in this one, sends and
times its writes on time: a hand through the JSON API every 0.5 to 1 s, on its own
kept-alive connection.

A level runs ``SECONDS`` of load after the followers' first polls (about 25 writes:
their p99 is the slowest), then stops the followers and the server. The figures:
the writes' median and p99; the polls measured, how many brought a change (at this
pace of hands, nearly all) and their p99; ``errors``, failed requests of either side
(refused, reset, timed out after 10 s, unexpected status); ``reconnects``, follower
connections the server closed; ``server_cpu``, the cores the server used, and
``client_cpu``, those the followers' process used (apart: on one machine they share the
cores); ``load_average``, the machine's one-minute load when the level ended.

``poll_cost``: the poll of an unchanged match against ``/healthz`` in Flask's test
client, the issue's measure of a request's cost.

``--postgresql``: the ledger on a PostgreSQL cluster the bench starts (Debian's server
binaries, as the tests start theirs: ``tests/postgres_cluster.py``, durability traded
for speed as there), served by ``--processes`` processes (default 2), each with its own
instance folder and port as behind a proxy; the followers are dealt to them in turn,
the scorekeeper writes to the first. ``server_cpu`` is then the processes' sum, and
``database_cpu`` PostgreSQL's. ``--redis``: the processes share their rate limits on a
Redis server the bench starts (Debian's ``redis-server``); each counts its own followers'
pace (``ledger.http.pace``).

Run alone: ``python -m bench.followers [--postgresql [--processes N]] [--redis]
[followers ...]`` (default: 200 and 1000).
"""

from __future__ import annotations

import asyncio
import gzip
import multiprocessing
import os
import random
import re
import secrets
import signal
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.request
from argparse import ArgumentParser
from collections.abc import Iterator
from contextlib import ExitStack, contextmanager
from dataclasses import dataclass, field
from pathlib import Path

import brotli

if __name__ == "__main__":
    sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from bench.pages_bench import PLAYERS, Client, hand_body, seed_match  # noqa: E402
from bench.serving import bench_app, free_port  # noqa: E402

LEVELS = (200, 1000)
POLL_SECONDS = 3.0
SECONDS = 18.0  # of load per level, after the followers' first polls
WRITE_GAP = (0.5, 1.0)  # seconds between the scorekeeper's hands
SEEDED_HANDS = 10
TIMEOUT = 10.0  # a request that takes longer counts as an error
SCRIPT = Path(sys.executable).parent / "marriage-ledger"
#: What a phone's browser sends with the poll (htmx): the answer is compressed.
POLL_HEADERS = "Accept: */*\r\nAccept-Encoding: gzip, deflate, br\r\nHX-Request: true\r\n"
VERSION = re.compile(rb'data-version="(\d+)"')
#: The pace the live part asks for (``ledger.http.polls.poll_seconds``), as htmx reads it.
PACE = re.compile(rb'hx-trigger="every (\d+)s"')
DECODE = {b"br": brotli.decompress, b"gzip": gzip.decompress}


# --- the server ------------------------------------------------------------------------


@dataclass(frozen=True)
class Setup:
    """What serves the ledger: SQLite and one process, or PostgreSQL and ``processes``;
    with or without a shared Redis."""

    postgresql: bool = False
    processes: int = 1
    redis: bool = False

    def __str__(self) -> str:
        served = f"PostgreSQL, {self.processes} processes" if self.postgresql else "SQLite"
        return served + (" + Redis" if self.redis else "")


#: What ``make bench`` measures: one process on SQLite, and two sharing PostgreSQL.
SETUPS = (Setup(), Setup(postgresql=True, processes=2))


@dataclass
class Served:
    """The serving processes' ports and ids (the first takes the scorekeeper's writes)
    and the database server's main process id, if any."""

    ports: list[int]
    pids: list[int]
    database_pid: int | None = None


@contextmanager
def served_ledger(
    folder: str, setup: Setup = Setup(), settings: dict[str, str] | None = None
) -> Iterator[Served]:
    """``marriage-ledger serve --host 127.0.0.1`` on a new database (in ``folder``, or
    on a PostgreSQL cluster of its own), in ``setup.processes`` processes, until the
    block ends; ``settings``: more ``LEDGER_*`` variables for them. Their request logs
    go to ``folder``/serve-N.log."""
    if not SCRIPT.exists():
        raise RuntimeError(f"no {SCRIPT}: install the project (make venv)")
    with ExitStack() as stack:
        env = {k: v for k, v in os.environ.items() if not k.startswith("LEDGER_")}
        env["LEDGER_SECRET_KEY"] = secrets.token_hex(32)  # the same in every process
        env.update(settings or {})
        database_pid = None
        if setup.postgresql:
            cluster = postgresql_cluster()
            stack.callback(cluster.stop)
            env["LEDGER_DATABASE_URL"] = cluster.url(cluster.create_database())
            database_pid = cluster.main_pid()
        else:
            env["LEDGER_DATABASE_URL"] = f"sqlite:///{folder}/followers.sqlite3"
        if setup.redis:
            redis = _redis()
            stack.callback(redis.stop)
            env["LEDGER_RATELIMIT_STORAGE_URI"] = redis.url
        subprocess.run(
            [str(SCRIPT), "init-db"],
            env={**env, "LEDGER_INSTANCE_PATH": folder},
            cwd=folder,
            check=True,
            capture_output=True,
            timeout=120,
        )
        servers = []
        for n in range(setup.processes):
            instance = os.path.join(folder, f"instance-{n}")
            os.makedirs(instance)
            here = {**env, "LEDGER_INSTANCE_PATH": instance}
            port = free_port()
            with open(os.path.join(folder, f"serve-{n}.log"), "wb") as log:
                server = subprocess.Popen(
                    [str(SCRIPT), "serve", "--host", "127.0.0.1", "--port", str(port)],
                    env=here,
                    cwd=folder,
                    stdout=subprocess.DEVNULL,
                    stderr=log,
                )
            stack.callback(_stop, server)
            servers.append((server, port))
        for server, port in servers:
            _wait_for(server, port)
        yield Served([port for _, port in servers], [s.pid for s, _ in servers], database_pid)


def _stop(server: subprocess.Popen) -> None:
    server.send_signal(signal.SIGTERM)
    try:
        server.wait(timeout=20)
    except subprocess.TimeoutExpired:
        server.kill()
        server.wait()


def _test_helpers():
    """The tests' own starters of PostgreSQL and Redis (``tests/``: not a package)."""
    tests = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "tests")
    if tests not in sys.path:
        sys.path.insert(0, tests)
    import postgres_cluster
    import redis_server

    return postgres_cluster, redis_server


def postgresql_cluster():
    """A PostgreSQL cluster of its own, started (``stop()`` ends it)."""
    postgres_cluster, _ = _test_helpers()
    bindir = postgres_cluster.server_binaries()
    if bindir is None:
        raise RuntimeError("no PostgreSQL server binaries: make system-deps")
    return postgres_cluster.Cluster(bindir).start()


def _redis():
    """A Redis server of its own, started (``stop()`` ends it)."""
    _, redis_server = _test_helpers()
    binary = redis_server.server_binary()
    if binary is None:
        raise RuntimeError("no redis-server: make system-deps")
    return redis_server.RedisServer(binary).start()


def tree_cpu_seconds(pid: int) -> float | None:
    """The processor time a process and its children (PostgreSQL's backends) used so far."""
    total = cpu_seconds(pid)
    if total is None:
        return None
    try:
        with open(f"/proc/{pid}/task/{pid}/children") as listed:
            children = [int(n) for n in listed.read().split()]
    except OSError:
        children = []
    return total + sum(cpu_seconds(child) or 0.0 for child in children)


def cpu_seconds(pid: int) -> float | None:
    """The processor time a process used so far (Linux's /proc; else None)."""
    try:
        with open(f"/proc/{pid}/stat") as stat:
            fields = stat.read().rsplit(")", 1)[1].split()
    except OSError:
        return None
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def _wait_for(server: subprocess.Popen, port: int, seconds: float = 60) -> None:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if server.poll() is not None:
            raise RuntimeError(f"the server stopped (exit {server.returncode})")
        try:
            with urllib.request.urlopen(f"http://127.0.0.1:{port}/healthz", timeout=2):
                return
        except OSError:
            time.sleep(0.2)
    raise RuntimeError(f"the server did not answer in {seconds:.0f} s")


# --- the followers (a process of their own) ----------------------------------------------


@dataclass
class Followed:
    """What the followers saw: each poll's end time, seconds and status."""

    polls: list[tuple[float, float, int]] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)
    reconnects: int = 0


class Connection:
    """One kept-alive HTTP/1.1 connection, asyncio streams, no library."""

    def __init__(self, port: int):
        self.port = port
        self.streams: tuple[asyncio.StreamReader, asyncio.StreamWriter] | None = None

    async def get(self, path: str) -> tuple[int, bytes, bool]:
        """(status, body, whether a new connection was opened for it)."""
        opened = self.streams is None
        if opened:
            self.streams = await asyncio.open_connection("127.0.0.1", self.port)
        reader, writer = self.streams
        writer.write(f"GET {path} HTTP/1.1\r\nHost: 127.0.0.1\r\n{POLL_HEADERS}\r\n".encode())
        head = await reader.readuntil(b"\r\n\r\n")
        status = int(head.split(b" ", 2)[1])
        fields = dict(
            line.split(b":", 1) for line in head.lower().split(b"\r\n")[1:] if b":" in line
        )
        if b"content-length" not in fields and status not in (204, 304):
            raise ConnectionError("an answer of unknown length")  # no chunked reading here
        length = int(fields.get(b"content-length", b"0"))
        body = await reader.readexactly(length) if length else b""
        if fields.get(b"connection", b"").strip() == b"close":
            self.close()
        encoding = fields.get(b"content-encoding", b"").strip()
        if encoding in DECODE:
            body = DECODE[encoding](body)
        return status, body, opened

    def close(self) -> None:
        if self.streams is not None:
            self.streams[1].close()
            self.streams = None


async def _follower(port: int, live: str, start: float, until: float, seen: Followed):
    """One phone: a poll every POLL_SECONDS from ``start`` (its phase) to ``until``."""
    connection = Connection(port)
    version = 0  # a page loaded before the first hand: the first poll brings the live part
    pace = POLL_SECONDS  # until the live part says another, as the page's htmx does
    due = start
    try:
        while True:
            await asyncio.sleep(max(0.0, due - time.monotonic()))
            if due >= until:
                return
            began = time.monotonic()
            try:
                status, body, opened = await asyncio.wait_for(
                    connection.get(f"{live}?v={version}"), TIMEOUT
                )
            except (TimeoutError, OSError, asyncio.IncompleteReadError) as error:
                seen.errors.append(type(error).__name__)
                connection.close()
            else:
                ended = time.monotonic()
                seen.polls.append((ended, ended - began, status))
                if opened and due > start:
                    seen.reconnects += 1
                if status == 200 and (found := VERSION.search(body)):
                    version = int(found[1])
                    if asked := PACE.search(body):
                        pace = float(asked[1])
                elif status != 204:
                    seen.errors.append(f"poll answered {status}")
            due += pace
    finally:
        connection.close()


async def _follow_all(ports: list[int], live: str, followers: int, until: float) -> Followed:
    """``followers`` phones, dealt to the serving processes in turn."""
    seen = Followed()
    now = time.monotonic()
    phases = [now + POLL_SECONDS * i / followers for i in range(followers)]
    await asyncio.gather(
        *(
            _follower(ports[i % len(ports)], live, phase, until, seen)
            for i, phase in enumerate(phases)
        )
    )
    return seen


def _followers_process(ports: list[int], live: str, followers: int, until: float, out) -> None:
    out.send(asyncio.run(_follow_all(ports, live, followers, until)))
    out.close()


# --- a level -----------------------------------------------------------------------------


def _percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(len(ordered) * share))] if ordered else 0.0


def run(followers: int, seconds: float = SECONDS, setup: Setup = Setup()) -> dict[str, float]:
    """``followers`` phones and one scorekeeper for ``seconds``: the figures."""
    rng = random.Random(followers)
    fork = multiprocessing.get_context("fork")
    with tempfile.TemporaryDirectory() as folder, served_ledger(folder, setup) as served:
        scorekeeper = Client(served.ports[0])
        match = seed_match(scorekeeper, SEEDED_HANDS, rng)
        hands = f"/api/v1/matches/{match['id']}/hands"
        auth = {"Authorization": f"Bearer {match['edit_key']}"}
        begin = time.monotonic() + POLL_SECONDS  # every follower has polled once
        until = begin + seconds
        receiving, sending = fork.Pipe(duplex=False)
        phones = fork.Process(
            target=_followers_process,
            args=(served.ports, f"/matches/{match['id']}/live", followers, until, sending),
        )
        phones.start()
        sending.close()
        writes: list[float] = []
        errors = 0
        try:
            time.sleep(max(0.0, begin - time.monotonic()))
            cpu_before = _cpu(served.pids)
            database_before = _database_cpu(served)
            client_before = cpu_seconds(phones.pid) if phones.pid else None
            while time.monotonic() < until:
                elapsed, status, _ = scorekeeper.request(
                    "POST", hands, hand_body(rng, PLAYERS), auth
                )
                writes.append(elapsed)
                errors += status != 201
                time.sleep(max(0.0, rng.uniform(*WRITE_GAP) - elapsed))
            cpu_after = _cpu(served.pids)
            database_after = _database_cpu(served)
            client_after = cpu_seconds(phones.pid) if phones.pid else None
            if not receiving.poll(POLL_SECONDS + TIMEOUT + 30):
                raise RuntimeError("the followers did not report")
            seen: Followed = receiving.recv()
        finally:
            scorekeeper.conn.close()
            phones.join(timeout=5)
            if phones.is_alive():
                phones.kill()
                phones.join()
    polls = [(took, status) for ended, took, status in seen.polls if ended >= begin]
    figures = {
        "writes": len(writes),
        "write_median_ms": statistics.median(writes) * 1000,
        "write_p99_ms": _percentile(writes, 0.99) * 1000,
        "polls": len(polls),
        "changed": sum(status == 200 for _, status in polls),
        "poll_p99_ms": _percentile([took for took, _ in polls], 0.99) * 1000,
        "errors": errors + len(seen.errors),
        "reconnects": seen.reconnects,
    }
    if cpu_before is not None and cpu_after is not None:
        figures["server_cpu"] = (cpu_after - cpu_before) / seconds
    if database_before is not None and database_after is not None:
        figures["database_cpu"] = (database_after - database_before) / seconds
    if client_before is not None and client_after is not None:
        figures["client_cpu"] = (client_after - client_before) / seconds
    figures["load_average"] = os.getloadavg()[0]  # the machine's, others' work included
    return figures


def _cpu(pids: list[int]) -> float | None:
    used = [cpu_seconds(pid) for pid in pids]
    return None if None in used else sum(u for u in used if u is not None)


def _database_cpu(served: Served) -> float | None:
    return tree_cpu_seconds(served.database_pid) if served.database_pid else None


# --- the poll's cost in the test client --------------------------------------------------


def poll_cost(runs: int = 2000, rounds: int = 5) -> dict[str, float]:
    """The poll of an unchanged match and ``/healthz`` through Flask's test client (the
    best of ``rounds`` rounds of ``runs`` each, in µs)."""
    with bench_app() as app:
        client = app.test_client()
        made = client.post(
            "/api/v1/matches",
            json={
                "name": "Followed",
                "players": PLAYERS,
                "rules": "amarnepal",
                "length": None,
                "first_dealer": PLAYERS[0],
            },
        ).get_json()
        poll = f"/matches/{made['id']}/live?v={made['version']}"
        assert client.get(poll).status_code == 204

        def best(path: str) -> float:
            times = []
            for _ in range(rounds):
                start = time.perf_counter()
                for _ in range(runs):
                    client.get(path)
                times.append((time.perf_counter() - start) / runs)
            return min(times) * 1e6

        healthz, polled = best("/healthz"), best(poll)
    return {"poll_us": polled, "healthz_us": healthz, "x_healthz": polled / healthz}


def main(levels: tuple[int, ...] = LEVELS, setups: tuple[Setup, ...] = (Setup(),)) -> None:
    """The lines of ``make bench``: the poll's cost, then one line per setup and level."""
    from bench.run import line

    line("poll of an unchanged match (test client)", poll_cost())
    for setup in setups:
        for followers in levels:
            line(f"{setup}: {followers} followers, a scorekeeper", run(followers, setup=setup))


if __name__ == "__main__":
    parser = ArgumentParser(description="Followers at scale (see the module's docstring).")
    parser.add_argument("followers", nargs="*", type=int, default=list(LEVELS))
    parser.add_argument("--postgresql", action="store_true")
    parser.add_argument("--processes", type=int, default=None)
    parser.add_argument("--redis", action="store_true")
    given = parser.parse_args()
    processes = given.processes or (2 if given.postgresql else 1)
    if processes > 1 and not given.postgresql:
        parser.error("several processes need --postgresql (SQLite is one process's)")
    main(tuple(given.followers), (Setup(given.postgresql, processes, given.redis),))
