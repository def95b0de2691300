"""A bot's timing tells nothing of its cards: its move is shown at a time drawn from its level's
human pace, whether it decided in a millisecond or in a third of a second.

The same game is played twice over the room socket (same seed, same moves), once with every bot
decision slowed by ``SLOW`` seconds (as a search is slower in some hands than in others) and once
not: the person sees each reply at the same moment both times. With the pace turned off, the
same comparison shows the difference, so the test can tell a leak when there is one.
"""

from __future__ import annotations

import asyncio
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

# It measures time to the millisecond: `make test` runs it alone, after the parallel run.
pytestmark = pytest.mark.serial

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
    """Seconds from each of the person's moves to the bot's reply, as the room logged them (the
    room's own times: a busy test machine delays what a client sees, not what the room did)."""
    body = {"game": "mancala", "level": "beginner", "options": {"seeds": 6}, "seed": 12345}
    room = client.post("/api/rooms", json=body).json()
    with client.websocket_connect(room["ws"]) as ws:
        view = ws.receive_json()
        replies = 0
        while replies < REPLIES + 1:
            assert view["legal"], "our turn"
            move = view["legal"][-1]  # the pit next to our store: rarely an extra turn
            ws.send_json({"type": "act", "action": move})
            view = ws.receive_json()
            while not view["legal"] and view["obs"]["outcome"] is None:
                view = ws.receive_json()
            replies += view["obs"]["last"]["seat"] == 1
    stored = hub_of(client).store.load_room(room["room_id"])
    assert stored is not None
    events = stored.events
    return [
        at - events[n - 1][2]
        for n, (seat, _, at) in enumerate(events)
        if seat == 1 and events[n - 1][0] == 0
    ][1 : REPLIES + 1]  # not the first: a bot worker's first answer waits for it to start


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


def test_an_answer_back_after_its_moment_waits_a_fresh_draw_of_the_pace(tmp_path: Path) -> None:
    """Busy workers can return a move after its paced moment; shown on arrival it would tell
    when the computing ended, so it waits a fresh draw (the beginner's floor, 0.5 s, scaled)."""
    with site(tmp_path, pace=0.1, slow=SLOW) as client:
        late = reply_times(client)
    assert all(t >= SLOW + 0.05 for t in late), late
