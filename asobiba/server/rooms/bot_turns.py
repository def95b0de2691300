"""A room's bot seats and the answers the room gives by itself: who is asked, when an answer is
shown (the bots' human pace), and which answers a change of the state makes stale.

Every answer is committed through the room's lock and ``Room._commit``, as a person's action is.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Awaitable, Callable
from typing import Any

from asobiba.core.bots import Timed
from asobiba.core.errors import GameError
from asobiba.core.game import pace_of
from asobiba.core.rng import derive, stream
from asobiba.server.rooms.errors import RoomError
from asobiba.server.rooms.room_core import RoomCore
from asobiba.server.rooms.timers import Timers

log = logging.getLogger(__name__)

PACE_MARGIN = 0.25
"""Seconds before the rules' own deadline by which a paced bot's answer is shown at the latest."""

BotChooser = Callable[[str, str, int, dict[str, Any], list[dict[str, Any]]], Awaitable[Timed]]
"""``(game, level, seed, observation, legal) -> Timed``: a bot's decision, computed off-loop."""


def bot_seed_for(room_seed: int, seat: int) -> int:
    """The seed of every bot asked for ``seat``: secret, the same all game (a bot keeps its plan
    through a race however often it is asked; its choices vary with what it sees, which every
    bot mixes in), and one-way, so nothing a bot does can lead back to the room's seed."""
    return derive(room_seed, f"bot/{seat}")


class BotTurns:
    def __init__(
        self, room: RoomCore, timers: Timers, choose: BotChooser, pace_scale: float
    ) -> None:
        """``timers``: the room's, which retry what could not be stored. ``pace_scale``:
        multiplies the bots' human pace (0: bots act as soon as they decide, for tests and load
        benches only)."""
        self.room = room
        self.timers = timers
        self.choose = choose
        self.pace_scale = pace_scale
        self.asked: dict[int, tuple[dict[str, Any], asyncio.Task[None]]] = {}
        """Bot seats deciding or waiting to act: the view they were shown, and their task. A
        change that leaves a bot's view as it was (another seat's secret answer in a claim
        window) keeps its answer and its time."""
        self.passed: dict[int, dict[str, Any]] = {}
        """Bot seats that chose to do nothing, and the view they chose it on."""

    def schedule(self, live: bool) -> None:
        """Forget answers the state has moved past, then (while ``live``: the clock runs and the
        game goes on) ask every bot seat that may act now, once per state, and give the answers
        of people who have no choice."""
        room = self.room
        for seat, (seen, task) in list(self.asked.items()):
            acts = room.acting_level(seat) is not None or room._automatic(seat) is not None
            if not live or room.view(seat) != seen or not acts:
                task.cancel()
                del self.asked[seat]
        if not live:
            return
        for seat in room.game.to_move(room.state):
            answer = room._automatic(seat)
            if answer is not None:
                if seat not in self.asked:
                    view = room.view(seat)
                    self.asked[seat] = (view, room._spawn(self._answer_for(seat, answer, view)))
                continue
            level = room.acting_level(seat)
            if level is not None and seat not in self.asked:
                view = room.view(seat)
                if self.passed.get(seat) != view:
                    task = room._spawn(self._bot_turn(seat, level, view))
                    self.asked[seat] = (view, task)

    def _paced(self, seat: int, level: str, draw: str = "") -> float | None:
        """Seconds from now at which the bot's move is shown, drawn from its level's human pace
        (``core.game.pace_of``) with the room's secret stream: how long the bot computed, and
        so its cards, never show. Kept inside the rules' own wait (a claim window) so the pace
        alone never makes a bot miss it. None: the bot times itself (a real-time game).
        ``draw`` names a further draw for the same move (one that came back too late)."""
        room = self.room
        pace = pace_of(room.game, level)
        if pace is None or self.pace_scale == 0:
            return None
        delay = pace.draw(stream(room.seed, f"pace/{seat}/{room.seq}{draw}")) * self.pace_scale
        due = room.game.deadline(room.state)
        if due is not None:
            delay = min(delay, max(0.0, room.clock.wall_seconds_until(due) - PACE_MARGIN))
        return delay

    async def _answer_for(self, seat: int, action: dict[str, Any], view: dict[str, Any]) -> None:
        """Give a person's answer that carries no choice (``Room._automatic``) as soon as the
        room is free, if their view is still the one it was for."""
        room = self.room
        async with room.lock:
            if self.asked.get(seat, (None,))[0] is not view or room.view(seat) != view:
                return
            del self.asked[seat]  # this commit's schedule must not cancel us
            try:
                await room._commit(seat, action)
            except RoomError:  # not stored ("unavailable", "moved"): again once storage answers
                self.timers.retry_later()

    async def _bot_turn(self, seat: int, level: str, view: dict[str, Any]) -> None:
        """Ask the bot, wait until the time it (or its pace) chose, and act if its view is still
        the same (a change of it cancels this task: see ``schedule``). A bot that passes, or
        fails, is not asked again until its view changes."""
        room = self.room
        try:
            asked_at = time.time()
            paced = self._paced(seat, level)
            bot_seed = bot_seed_for(room.seed, seat)
            answer = await self.choose(room.game.name, level, bot_seed, view["obs"], view["legal"])
            if answer.action is not None:
                after = answer.after if paced is None else max(answer.after, paced)
                if paced is not None and time.time() > asked_at + after:
                    # The answer came back after its moment (busy workers): showing it now would
                    # show when its computing ended, so it waits a fresh draw of the pace.
                    log.info("bot %s in room %s answered after its pace", level, room.id)
                    after = time.time() - asked_at + (self._paced(seat, level, "/late") or 0.0)
                await asyncio.sleep(max(0.0, asked_at + after - time.time()))
                async with room.lock:
                    if room.view(seat) == view and room.acting_level(seat) == level:
                        del self.asked[seat]  # this commit's schedule must not cancel us
                        standin = None if "bot" in room.seats[seat] else level
                        await room._commit(seat, answer.action, standin=standin)
                        log.debug("bot %s at seat %d acted (event %d)", level, seat, room.seq)
                        return
        except RoomError as error:
            if error.code in {"unavailable", "moved"}:
                self.timers.retry_later()  # not stored: asked again once storage answers
                return
            log.exception("bot %s in room %s chose an illegal action", level, room.id)
        except GameError:
            log.exception("bot %s in room %s chose an illegal action", level, room.id)
        except Exception:
            log.exception("bot %s in room %s failed", level, room.id)
        # Passed, or failed, with its view unchanged: not asked again until it changes.
        self.passed[seat] = view
        if seat in self.asked and self.asked[seat][0] is view:
            del self.asked[seat]
