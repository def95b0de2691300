"""``asobiba serve`` starts the whole site from the command line (what ``make run`` does)."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

from tests.server.servers import (
    Guest,
    ServerProcess,
    descendants,
    free_port,
    outliving,
    play_to_the_end,
)


def test_serve_answers_on_the_given_port_with_the_default_sqlite_file(tmp_path: Path) -> None:
    port = free_port()
    env = {**os.environ, "ASOBIBA_DATA_DIR": str(tmp_path), "ASOBIBA_LOG_FORMAT": "text"}
    env.pop("DATABASE_URL", None)
    server = subprocess.Popen(
        [sys.executable, "-m", "asobiba.cli", "serve", "--port", str(port)],
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
        text=True,
    )
    try:
        body = ""
        # Until it answers (a busy machine takes its time to start it), or it exits; the bound
        # only ends a start that hangs.
        deadline = time.monotonic() + 120
        while not body and server.poll() is None and time.monotonic() < deadline:
            try:
                with urllib.request.urlopen(f"http://127.0.0.1:{port}/api/games") as response:
                    body = response.read().decode()
            except OSError:
                time.sleep(0.1)
        assert '"mancala"' in body, f"no answer; exit code {server.poll()}"
        assert (tmp_path / "asobiba.sqlite3").exists()
    finally:
        server.terminate()
        output, _ = server.communicate(timeout=10)
    first = output.splitlines()[0]
    assert first == (
        f"asobiba: open http://127.0.0.1:{port} "
        f"(database: SQLite file {tmp_path / 'asobiba.sqlite3'})"
    ), "make run says where to go and where the games are kept"


def test_a_stop_by_sigterm_is_clean_while_the_workers_are_busy(tmp_path: Path) -> None:
    """SIGTERM (what a process manager sends) while a review is being worked out, after a game
    against a bot that thinks in the worker pool: the server stops its worker pools and waits
    for them, exits 0, and its helper processes go with it without a word; in particular the
    resource tracker finds no "leaked semaphore" (a pool left running at exit)."""
    server = ServerProcess(tmp_path, f"sqlite:///{tmp_path / 'live.sqlite3'}")
    server.env["ASOBIBA_BOT_PACE"] = "0"
    server.start()
    try:
        guest = Guest(server.base)
        room = guest.new_room(level="strong")  # a level that thinks in a worker
        with guest.socket(room["ws"]) as ws:
            play_to_the_end(ws, timeout=120)  # worker processes start slowly on a busy machine
        status, _ = guest.request("POST", f"/api/rooms/{room['room_id']}/review")
        assert status == 202, "a review of every move is being worked out"
        helpers = descendants(server.pid)
        assert helpers, "worker pools, forkserver and resource tracker"
        code = server.stop_by(signal.SIGTERM)
        assert not outliving(helpers), "helper processes outlived the server"
    finally:
        server.stop()
    log = server.log()
    assert "leaked" not in log, log
    assert code == 0, log
