"""A room's timer when the wall clock runs a little slower than the event loop's clock.

``Room.schedule`` arms ``loop.call_later(due - time.time())`` (the loop counts monotonic time)
and ``Room._fire_timer`` commits only if ``due <= time.time()``; when the wall clock has fallen
behind by even a microsecond, the timer fires "early" and, before the fix, did nothing and was
never armed again, so the room waited forever (a Mokochaka call phase that nobody can end).
This machine's wall clock runs about 1.4 ppm slow against the monotonic one, and a Mokochaka
table in the browser stalled that way after a race. The test exaggerates the drift (1 %).

Found while building the Mokochaka table; the room now arms such a timer again.
"""

from __future__ import annotations

import asyncio
import time
from pathlib import Path
from typing import Any

import pytest

from asobiba.core.bots import Timed
from tests.server.test_realtime_room import make_hub, wait_until


def test_the_timer_fires_even_when_the_wall_clock_lags_the_loop_clock(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    never = asyncio.Event()

    async def choose(game: str, level: str, seed: int, obs: Any, legal: Any) -> Timed:
        await never.wait()
        return Timed(legal[0])

    real = time.time
    base = real()
    monkeypatch.setattr(time, "time", lambda: base + (real() - base) * 0.99)

    async def scenario() -> None:
        hub, _ = make_hub(tmp_path, choose)
        room = await hub.create("grab", {}, [{"player": "p"}, {"bot": "quick"}], seed=5)
        await room.act(0, {"ring": True})
        try:
            await wait_until(lambda: room.over, seconds=3.0)
        finally:
            await hub.close()

    asyncio.run(scenario())
