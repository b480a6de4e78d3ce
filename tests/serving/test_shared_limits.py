"""The rate limits shared by two ``marriage-ledger serve`` processes through a real Redis
server (``RATELIMIT_STORAGE_URI``): each process alone would allow each limit once more."""

from __future__ import annotations

import pytest
from redis_server import RedisServer, server_binary
from served import Browser

SETTLE = {
    "rules": "sparkai",
    "finish": "void",
    "players": [{"name": "Asha", "seen": "unseen"}, {"name": "Bikash", "seen": "unseen"}],
}


@pytest.fixture
def redis_url():
    binary = server_binary()
    if binary is None:
        pytest.skip("needs Debian's redis-server (scripts/install-system-deps.sh)")
    server = RedisServer(binary).start()
    yield server.url
    server.stop()


@pytest.mark.slow
def test_two_processes_share_one_count_in_redis(ledger_env, init_db, serve, tmp_path, redis_url):
    shared = {
        **ledger_env,
        "LEDGER_SECRET_KEY": "one key for every process",
        "LEDGER_RATELIMIT_STORAGE_URI": redis_url,
        "LEDGER_RATELIMIT_SETTLE": "3 per minute",
    }
    init_db(shared)
    first = serve({**shared, "LEDGER_INSTANCE_PATH": str(tmp_path / "a")}, "--host", "127.0.0.1")
    second = serve({**shared, "LEDGER_INSTANCE_PATH": str(tmp_path / "b")}, "--host", "127.0.0.1")
    one, other = Browser(first.base), Browser(second.base)
    answers = [
        client.post("/api/v1/settle", json_body=SETTLE).status
        for client in (one, other, one, other, one)
    ]
    assert answers == [200, 200, 200, 429, 429]
    refused = other.post("/api/v1/settle", json_body=SETTLE)
    assert refused.status == 429 and int(refused.headers["Retry-After"]) >= 1
