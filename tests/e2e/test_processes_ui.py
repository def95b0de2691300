"""Friends at one table on a site of two processes behind a load balancer without sticky
sessions (docs/OPERATIONS.md, "Several processes"): two browser contexts play Mancala through a
round-robin TCP balancer in front of two ``asobiba serve`` processes on PostgreSQL and Redis.
Midway the process that holds the table is SIGKILLed, or stopped by SIGTERM as a restart does
(the table handed over at once, the pages' sockets closed with 1012): both pages reconnect
through the balancer, the other process takes the table over from its log, both pages show the
board as it was, and the friends play on to the end.
"""

from __future__ import annotations

import signal
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import redis
from playwright.sync_api import TimeoutError as PlaywrightTimeout

from tests.e2e.test_tables_ui import join, record_frames, set_table
from tests.server.cluster import Site
from tests.server.conftest import postgres_url  # noqa: F401 (a fixture this module uses)
from tests.server.tcp_cut import CuttableLine, cuttable

LEGAL = "button.mb-hit--pit[data-legal]"


@pytest.fixture
def balanced(tmp_path: Path, postgres_url: str) -> Iterator[tuple[Site, CuttableLine]]:  # noqa: F811
    site = Site(tmp_path, postgres_url)
    try:
        processes = site.start(2)
        with cuttable(*(("127.0.0.1", p.port) for p in processes)) as front:
            yield site, front
    finally:
        site.stop()
        site.forget()


def move(pages: list[Any]) -> bool:
    """Whoever's turn it is clicks a glowing pit; whether someone did."""
    for page in pages:
        if page.locator("#result[open]").count() == 0 and page.locator(LEGAL).count():
            try:
                page.click(LEGAL, timeout=2_000)
            except PlaywrightTimeout:
                continue  # the board moved on meanwhile
            return True
    return False


def last_view(frames: list[dict[str, Any]]) -> dict[str, Any]:
    return next(f for f in reversed(frames) if f.get("type") in ("sync", "event"))


@pytest.mark.parametrize("how", ["killed", "sigterm"])
def test_friends_play_on_when_the_process_holding_their_table_is_killed(
    balanced: tuple[Site, CuttableLine], new_page: Any, how: str
) -> None:
    site, front = balanced
    base = f"http://127.0.0.1:{front.port}"
    host = new_page(lang="en", site_url=base)
    friend = new_page(lang="ja", site_url=base)
    frames = [record_frames(host), record_frames(friend)]
    url = set_table(host, "mancala", name="Aki", seats=["me", "open"])
    join(friend, url, "ベン")
    pages = [host, friend]
    for page in pages:
        page.wait_for_selector("#play:not([data-table]) .mancala-board")
    moves = 0
    while moves < 4:
        moves += move(pages)
        host.wait_for_timeout(150)
    room_id = url.rstrip("/").rsplit("/", 1)[1]
    with redis.Redis.from_url(site.redis_url) as client:
        owner = client.get(f"{site.prefix}:lease:{room_id}")
    assert owner is not None
    holder = next(p for p in site.processes if f"process {owner.decode()} " in p.log())
    deadline = time.monotonic() + 10
    while last_view(frames[0])["obs"]["ply"] != last_view(frames[1])["obs"]["ply"]:
        assert time.monotonic() < deadline, "the pages never showed the same position"
        host.wait_for_timeout(50)  # Playwright hands over frames only while it has control
    before = [last_view(f)["obs"] for f in frames]
    syncs_before = [sum(f.get("type") == "sync" for f in seen) for seen in frames]
    if how == "killed":
        holder.kill()
    else:
        assert holder.stop_by(signal.SIGTERM) == 0
    # Both pages reconnect through the balancer and are served by the other process.
    for seen, count in zip(frames, syncs_before, strict=True):
        deadline = time.monotonic() + 60
        while sum(f.get("type") == "sync" for f in seen) <= count:
            assert time.monotonic() < deadline, "a page was not served again"
            host.wait_for_timeout(100)
    after = [next(f for f in reversed(seen) if f.get("type") == "sync")["obs"] for seen in frames]
    assert after == before, "the board is as it was before the process died"
    deadline = time.monotonic() + 180
    while not all(page.locator("#result[open]").count() for page in pages):
        assert time.monotonic() < deadline, "the game did not end"
        host.wait_for_timeout(100 if move(pages) else 50)
    assert host.locator("#result-title").inner_text() in ("You win!", "You lose", "It's a draw")
