"""``asobiba serve`` starts the whole site from the command line (what ``make run`` does)."""

from __future__ import annotations

import os
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

from tests.server.servers import free_port


def test_serve_answers_on_the_given_port_with_the_default_sqlite_file(tmp_path: Path) -> None:
    port = free_port()
    env = {**os.environ, "ASOBIBA_DATA_DIR": str(tmp_path)}
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
        for _ in range(100):
            try:
                with urllib.request.urlopen(f"http://127.0.0.1:{port}/api/games") as response:
                    body = response.read().decode()
                break
            except OSError:
                time.sleep(0.1)
        assert '"mancala"' in body
        assert (tmp_path / "asobiba.sqlite3").exists()
    finally:
        server.terminate()
        output, _ = server.communicate(timeout=10)
    first = output.splitlines()[0]
    assert first == (
        f"asobiba: open http://127.0.0.1:{port} "
        f"(database: SQLite file {tmp_path / 'asobiba.sqlite3'})"
    ), "make run says where to go and where the games are kept"
