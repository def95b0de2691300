"""A bot's timing tells nothing of its cards: its move is shown at a time drawn from its level's
human pace, whether it decided in a millisecond or in a third of a second.

The same game is played twice over the room socket (same seed, same moves), once with every bot
decision slowed by ``SLOW`` seconds (as a search is slower in some hands than in others) and once
not: the person sees each reply at the same moment both times. With the pace turned off, the
same comparison shows the difference, so the test can tell a leak when there is one.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from asobiba.core.bots import Timed
from asobiba.server.app import create_app
from asobiba.server.settings import SocketLimits
from tests.server.test_full_game import hub_of

SLOW = 0.3
REPLIES = 4


@contextmanager
def site(tmp_path: Path, pace: float, slow: float) -> Iterator[TestClient]:
    app = create_app(
        f"sqlite:///{tmp_path / f'pace-{pace}-{slow}.sqlite3'}",
        secret_key="s",
        bot_workers=1,
        socket_limits=SocketLimits(ping_seconds=None),
        bot_pace=pace,
    )
    with TestClient(app) as client:
        hub = hub_of(client)
        decide = hub._choose

        async def thinking(*args: Any) -> Timed:
            answer = await decide(*args)
            await asyncio.sleep(slow)
            return answer

        hub._choose = thinking
        yield client


def reply_times(client: TestClient) -> list[float]:
    """Seconds from each of the person's moves to the bot's move that gives the turn back."""
    body = {"game": "mancala", "level": "beginner", "options": {"seeds": 6}, "seed": 12345}
    room = client.post("/api/rooms", json=body).json()
    times: list[float] = []
    with client.websocket_connect(room["ws"]) as ws:
        view = ws.receive_json()
        while len(times) < REPLIES:
            assert view["legal"], "our turn"
            move = view["legal"][-1]  # the pit next to our store: rarely an extra turn
            sent = time.monotonic()
            ws.send_json({"type": "act", "action": move})
            view = ws.receive_json()
            while not view["legal"] and view["obs"]["outcome"] is None:
                view = ws.receive_json()
            if view["obs"]["last"]["seat"] == 1:
                times.append(time.monotonic() - sent)
    return times


@pytest.fixture(autouse=True)
def fixed_seeds(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("ASOBIBA_DEV_SEEDS", "1")


def test_a_bot_that_thinks_longer_is_not_seen_to(tmp_path: Path) -> None:
    with site(tmp_path, pace=1.0, slow=0.0) as client:
        quick = reply_times(client)
    with site(tmp_path, pace=1.0, slow=SLOW) as client:
        slow = reply_times(client)
    assert all(t >= 0.5 for t in quick), "the beginner's pace starts at half a second"
    differences = [abs(a - b) for a, b in zip(quick, slow, strict=True)]
    assert max(differences) < SLOW / 3, (quick, slow)


def test_without_the_pace_the_same_comparison_shows_the_thinking(tmp_path: Path) -> None:
    with site(tmp_path, pace=0.0, slow=0.0) as client:
        quick = reply_times(client)
    with site(tmp_path, pace=0.0, slow=SLOW) as client:
        slow = reply_times(client)
    assert all(b - a > SLOW * 0.8 for a, b in zip(quick, slow, strict=True)), (quick, slow)
