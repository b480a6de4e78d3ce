"""Fixtures for tests that run ``marriage-ledger`` in processes of their own."""

import shutil
import subprocess

import pytest
from postgres_cluster import free_port
from served import DEV_SCRIPT, Served, clean_environment, run


@pytest.fixture
def ledger_env(empty_database_url, tmp_path):
    """The environment of a ledger on a database of its own (not yet initialised)."""
    return clean_environment(
        LEDGER_DATABASE_URL=empty_database_url,
        LEDGER_INSTANCE_PATH=str(tmp_path / "instance"),
    )


@pytest.fixture
def init_db(tmp_path):
    """``init_db(env, script=DEV_SCRIPT)``: ``marriage-ledger init-db``; its output."""

    def initialise(env, script=DEV_SCRIPT):
        return run([str(script), "init-db"], env, tmp_path)

    return initialise


@pytest.fixture
def serve(tmp_path):
    """``serve(env, *options, script=DEV_SCRIPT)``: ``marriage-ledger serve --port P
    *options`` started and answering; stopped at the end of the test."""
    started: list[Served] = []

    def start(env, *options, script=DEV_SCRIPT) -> Served:
        port = free_port()
        command = [str(script), "serve", "--port", str(port), *options]
        served = Served(command, port, env, tmp_path / f"served{len(started)}")
        started.append(served)
        return served

    yield start
    for served in started:
        served.stop()


def chattr(flag: str, *paths) -> None:
    subprocess.run(["chattr", flag, *map(str, paths)], check=True, capture_output=True)


@pytest.fixture
def unwritable(tmp_path):
    """``unwritable(*paths)``: the paths made immutable (as a read-only disk is, even to
    root) until the test ends."""
    made = []

    def make(*paths):
        if shutil.which("chattr") is None:
            pytest.skip("needs chattr")
        try:
            chattr("+i", *paths)
        except subprocess.CalledProcessError as error:
            pytest.skip(f"this file system or user cannot make files immutable: {error.stderr}")
        made.extend(paths)

    yield make
    if made:
        chattr("-i", *made)
