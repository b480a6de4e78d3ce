"""Several app processes on one database keep every promise: a browser's session and
CSRF token work on each (the secret key comes from the configuration, not from one
process), and a page served by one process shows what another just stored (the page
cache is keyed by the match's version in the database; a follower's poll within a
second)."""

import re
import time
from pathlib import Path

from served import HAND, PLAYERS, Browser

from ledger.http.polls import VERSION_SECONDS


def hands_shown(html: str) -> list[str]:
    return re.findall(r'aria-label="Hand (\d+)"', html)


def test_two_processes_on_one_database(ledger_env, init_db, serve, tmp_path):
    shared = {**ledger_env, "LEDGER_SECRET_KEY": "one key for every process"}
    init_db(shared)
    first = serve({**shared, "LEDGER_INSTANCE_PATH": str(tmp_path / "a")}, "--host", "127.0.0.1")
    second = serve({**shared, "LEDGER_INSTANCE_PATH": str(tmp_path / "b")}, "--host", "127.0.0.1")

    made = Browser(first.base).post(
        "/api/v1/matches",
        json_body={"name": "Two servers", "players": PLAYERS, "rules": "sparkai", "length": None},
    )
    assert made.status == 201
    public_id, key = made.json()["id"], made.json()["edit_key"]
    page = f"/matches/{public_id}"

    follower = Browser(first.base)
    before = follower.get(page)
    assert before.status == 200 and hands_shown(before.text) == []
    version = re.search(r'data-version="(\d+)"', before.text).group(1)
    assert follower.get(f"{page}/live?v={version}").status == 204  # kept on the first

    scorekeeper = Browser(first.base)
    assert scorekeeper.get(f"{page}/join/{key}").status == 303  # session set by the first
    on_second = scorekeeper.at(second.base)
    assert 'id="edit-link"' in on_second.get(page).text  # ...and believed by the second
    stored = on_second.post(
        f"/api/v1/matches/{public_id}/hands",
        json_body=HAND,
        headers={"Authorization": f"Bearer {key}"},
    )
    assert stored.status == 201

    # The first sees the second's write once the version it believed is a second old
    # (ledger.http.polls.VERSION_SECONDS; margin for a busy machine).
    deadline = time.monotonic() + VERSION_SECONDS + 2
    while (live := follower.get(f"{page}/live?v={version}")).status == 204:
        assert time.monotonic() < deadline, "the second's write was never polled"
        time.sleep(0.1)
    assert live.status == 200 and hands_shown(live.text) == ["1"]
    assert hands_shown(follower.get(page).text) == ["1"]

    form = scorekeeper.get(f"{page}/hands/1/delete").text  # a form from the first...
    token = re.search(r'name="csrf_token" value="([^"]+)"', form).group(1)
    deleted = on_second.post(
        f"{page}/hands/1/delete",  # ...posted to the second
        form={"csrf_token": token, "version": "1"},
    )
    assert deleted.status == 303, deleted.text
    assert hands_shown(follower.get(page).text) == []
    assert not (tmp_path / "a" / "secret_key").exists()  # the key came from the environment


def test_serve_starts_the_pdf_renderer_once_it_has_answered(ledger_env, init_db, serve):
    """The renderer (a child running ledger.pdf.child) is there once the server has
    answered (the fixture waits for its first answer), so the first PDF does not wait for
    WeasyPrint to load."""
    init_db(ledger_env)
    served = serve(ledger_env, "--host", "127.0.0.1")
    pid = served.process.pid
    children = [  # the renderer's parent is the thread that answered
        child
        for thread in Path(f"/proc/{pid}/task").glob("*/children")
        for child in thread.read_text().split()
    ]
    commands = [Path(f"/proc/{child}/cmdline").read_bytes() for child in children]
    assert any(b"from ledger.pdf.child import serve" in command for command in commands)
