"""End-to-end fixtures: the real site in a subprocess on a free port (its own SQLite file) and
Debian's Chromium driven by Playwright.

Without /usr/bin/chromium the e2e tests skip, except under CI=true, where that is a failure.
"""

from __future__ import annotations

import contextlib
import os
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.server.servers import free_port

CHROMIUM = Path("/usr/bin/chromium")
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    here = Path(__file__).parent
    for item in items:
        if here in Path(str(item.fspath)).parents:
            item.add_marker(pytest.mark.e2e)


ROOM_LIMITS = (
    "ROOMS_BURST",
    "ADDRESS_BURST",
    "UNFINISHED",
    "COMMANDS_ADDRESS_BURST",
    "LOBBY_SOCKETS_PER_ADDRESS",
)


@contextlib.contextmanager
def serve(data: Path, env_extra: dict[str, str] | None = None) -> Iterator[str]:
    """Run ``asobiba serve`` on a free port with its own SQLite file under ``data``; yield its
    base URL. ``env_extra`` adds environment variables (a test-only bot, for one)."""
    port = free_port()
    env = {**os.environ, "ASOBIBA_DATA_DIR": str(data), "SECRET_KEY": "e2e-secret"}
    # One browser on one address starts every test's games: the flood limits are tested in
    # tests/server/test_guest_limits.py and test_table_limits.py, not here.
    env.update({f"ASOBIBA_LIMIT_{name}": "100000" for name in ROOM_LIMITS})
    env.pop("DATABASE_URL", None)
    env["ASOBIBA_LOG_FORMAT"] = "text"  # read by people when a test fails
    env.update(env_extra or {})
    log = (data / "server.log").open("w")
    server = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "asobiba.cli",
            "serve",
            "--port",
            str(port),
            "--database-url",
            f"sqlite:///{data / 'e2e.sqlite3'}",
        ],
        env=env,
        stdout=log,
        stderr=subprocess.STDOUT,
    )
    base = f"http://127.0.0.1:{port}"
    try:
        for _ in range(300):
            if server.poll() is not None:
                pytest.fail(f"the server exited: {(data / 'server.log').read_text()}")
            try:
                with urllib.request.urlopen(f"{base}/api/games", timeout=2):
                    break
            except OSError:
                time.sleep(0.1)
        else:
            pytest.fail("the server did not answer within 30 s")
        yield base
    finally:
        server.terminate()
        try:
            server.wait(timeout=10)
        except subprocess.TimeoutExpired:
            server.kill()
        log.close()


@pytest.fixture(scope="session")
def site(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """The base URL of a freshly started site (``asobiba serve``) with an empty database."""
    with serve(tmp_path_factory.mktemp("site")) as base:
        yield base


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    """Module-scoped: Playwright's sync API keeps an asyncio loop running in this thread until it
    stops, which would break later tests that start their own loop (``asyncio.run``)."""
    if not CHROMIUM.exists():
        if os.environ.get("CI") == "true":
            pytest.fail(f"{CHROMIUM} is missing; CI must run the browser tests")
        pytest.skip(f"{CHROMIUM} is not installed")
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS)
        try:
            yield browser
        finally:
            browser.close()


class PageErrors(list[str]):
    """Uncaught exceptions and console errors of a page, checked at the end of each test."""


@pytest.fixture
def new_page(browser: Any, site: str) -> Iterator[Any]:
    """``new_page(lang="ja", width=1280)``: a page in a fresh browser context (a new guest);
    ``site_url`` points it at another server than the session's ``site``."""
    contexts: list[Any] = []
    errors = PageErrors()

    def make(
        lang: str = "ja",
        width: int = 1280,
        height: int = 900,
        site_url: str | None = None,
        **options: Any,
    ) -> Any:
        base = site_url or site
        context = browser.new_context(
            viewport={"width": width, "height": height},
            base_url=base,
            locale="ja-JP" if lang == "ja" else "en-US",
            **options,
        )
        context.add_cookies([{"name": "lang", "value": lang, "url": base}])
        contexts.append(context)
        page = context.new_page()
        # A ceiling for a busy 2-core machine, not a timing test: the Mancala analysis pages
        # (lessons, review) met 30 s with three test workers and other work beside them.
        page.set_default_timeout(90_000)
        page.on("pageerror", lambda error: errors.append(f"pageerror: {error}"))
        page.on(
            "console",
            lambda message: (
                errors.append(f"console: {message.text}") if message.type == "error" else None
            ),
        )
        return page

    yield make
    for context in contexts:
        context.close()
    assert not errors, errors
