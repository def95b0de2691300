"""A process refuses to start misconfigured, waits for the services it needs, and ``asobiba
check`` says what it would find (``asobiba/server/startup.py``, ``check.py``): with real
processes, PostgreSQL and Redis."""

from __future__ import annotations

import os
import subprocess
import sys
import uuid
from pathlib import Path

import redis
from alembic.script import ScriptDirectory

from asobiba.server.startup import fingerprint, fingerprint_key
from asobiba.server.store.db import migrations_config
from tests.server.cluster import REDIS_URL, RedisServer
from tests.server.servers import Guest, ServerProcess, eventually, free_port, wait_until_up
from tests.server.tcp_cut import cuttable

"""The Alembic migrations: a fresh database has every one of them pending."""


def site_env(redis_url: str, prefix: str, key: str) -> dict[str, str]:
    return {"REDIS_URL": redis_url, "ASOBIBA_REDIS_PREFIX": prefix, "SECRET_KEY": key}


def ended(server: ServerProcess, seconds: float = 60.0) -> int:
    """The exit status of a process that must stop by itself."""
    assert server.process is not None
    return server.process.wait(timeout=seconds)


def forget(prefix: str) -> None:
    with redis.Redis.from_url(REDIS_URL) as client:
        keys = list(client.scan_iter(f"{prefix}:*"))
        if keys:
            client.delete(*keys)


def test_a_process_with_another_key_refuses_to_start(tmp_path: Path, postgres_url: str) -> None:
    prefix = f"asobiba-test-{uuid.uuid4().hex[:10]}"
    (tmp_path / "a").mkdir()
    (tmp_path / "b").mkdir()
    first = ServerProcess(tmp_path / "a", postgres_url, site_env(REDIS_URL, prefix, "key-one"))
    second = ServerProcess(tmp_path / "b", postgres_url, site_env(REDIS_URL, prefix, "key-two"))
    try:
        first.start()
        with redis.Redis.from_url(REDIS_URL) as client:
            stored = client.get(fingerprint_key(prefix))
        assert stored == fingerprint("key-one").encode(), "a fingerprint, never the key"
        second.launch()
        assert ended(second) == 2
        log = second.log()
        assert "Traceback" not in log, log
        [refusal] = [line for line in log.splitlines() if "refusing to start" in line]
        assert "SECRET_KEY differs from the key the site's other processes use" in refusal
        assert "key-one" not in log and "key-two" not in log
        assert Guest(first.base).request("GET", "/api/games")[0] == 200, "the site goes on"
    finally:
        first.stop()
        second.stop()
        forget(prefix)


def test_no_secret_key_in_a_site_of_several_processes_is_refused(
    tmp_path: Path, postgres_url: str
) -> None:
    """Without ``SECRET_KEY`` each process would make a key of its own in its data directory."""
    prefix = f"asobiba-test-{uuid.uuid4().hex[:10]}"
    server = ServerProcess(tmp_path, postgres_url, site_env(REDIS_URL, prefix, ""))
    try:
        server.launch()
        assert ended(server) == 2
    finally:
        server.stop()
        forget(prefix)
    log = server.log()
    assert "Traceback" not in log, log
    assert "refusing to start: REDIS_URL is set but SECRET_KEY is not" in log, log


def test_a_process_started_while_redis_is_down_waits_and_serves_once_it_answers(
    tmp_path: Path, postgres_url: str
) -> None:
    """Before, it exited with a traceback. Now it says so at each attempt, keeps its port
    closed, and serves once Redis answers."""
    redis_server = RedisServer(free_port())  # not started yet
    prefix = f"asobiba-test-{uuid.uuid4().hex[:10]}"
    server = ServerProcess(tmp_path, postgres_url, site_env(redis_server.url, prefix, "k"))
    try:
        server.launch()

        def waiting() -> bool:
            lines = [line for line in server.log().splitlines() if "Redis does not answer" in line]
            return len(lines) >= 2  # tried, and tried again

        eventually(waiting, "two attempts logged")
        assert server.process is not None and server.process.poll() is None, server.log()
        assert "attempt 2 failed, trying again in" in server.log()
        redis_server.start()
        wait_until_up(server.base, server.process)
        room = Guest(server.base).new_room()
        assert room["room_id"]
        assert "Redis answers (after" in server.log()
        assert "Traceback" not in server.log(), server.log()
    finally:
        server.stop()
        redis_server.stop()


def test_a_process_started_while_postgres_is_unreachable_waits_and_serves(
    tmp_path: Path, postgres_url: str
) -> None:
    with cuttable(("127.0.0.1", 5432)) as line:
        line.cut()
        through = postgres_url.replace("127.0.0.1:5432", f"127.0.0.1:{line.port}")
        server = ServerProcess(tmp_path, through)
        try:
            server.launch()
            eventually(
                lambda: server.log().count("the database does not answer") >= 2,
                "two attempts logged",
            )
            assert server.process is not None and server.process.poll() is None, server.log()
            line.mend()
            wait_until_up(server.base, server.process)
            assert Guest(server.base).new_room()["room_id"]
            assert "Traceback" not in server.log(), server.log()
        finally:
            server.stop()


def check(env: dict[str, str], database_url: str | None = None) -> subprocess.CompletedProcess[str]:
    args = [sys.executable, "-m", "asobiba.cli", "check"]
    if database_url is not None:
        args += ["--database-url", database_url]
    return subprocess.run(
        args, env={**os.environ, **env}, capture_output=True, text=True, timeout=120, check=False
    )


def test_check_says_all_is_well_or_names_the_problem(tmp_path: Path, postgres_url: str) -> None:
    prefix = f"asobiba-test-{uuid.uuid4().hex[:10]}"
    env = {
        "ASOBIBA_DATA_DIR": str(tmp_path),
        **site_env(REDIS_URL, prefix, "the-site-key"),
        "DATABASE_URL": postgres_url.replace("@", ":a-password@"),  # trust auth ignores it
    }
    try:
        # A fresh database: every migration pending.
        fresh = check(env)
        assert fresh.returncode == 1, fresh.stdout
        every = list(ScriptDirectory.from_config(migrations_config()).walk_revisions())
        assert f"problem: {len(every)} migrations pending" in fresh.stdout
        assert "the-site-key" not in fresh.stdout and "a-password" not in fresh.stdout
        assert "database_url = postgresql+psycopg://postgres:***@" in fresh.stdout

        server = ServerProcess(tmp_path / "serve", postgres_url, env)
        (tmp_path / "serve").mkdir()
        server.start()  # migrates, stores the key's fingerprint
        server.stop()
        good = check(env)
        assert good.returncode == 0, good.stdout
        assert "database: answers" in good.stdout and "migrations: none pending" in good.stdout
        assert "redis: the site's key fingerprint matches SECRET_KEY" in good.stdout
        assert good.stdout.rstrip().endswith("ok")

        down = check(env, f"postgresql+psycopg://postgres@127.0.0.1:{free_port()}/asobiba")
        assert down.returncode == 1
        assert "problem: the database does not answer" in down.stdout, down.stdout

        other = check({**env, "SECRET_KEY": "another-key"})
        assert other.returncode == 1
        assert "problem: SECRET_KEY differs from the site's" in other.stdout
    finally:
        forget(prefix)
