"""Hints against the computer: the best move and why, worked out off the event loop.

A game offers hints when its engine can value every move (``core.game.analyses``). The room
checks who may ask (``Room.hint``); this module holds what the worker computes and the message
the asking seat gets.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any

from asobiba.core.game import Action, Game, analyses, analysis_of, explanation
from asobiba.games import get_game

HINT_SECONDS = 1.0
"""How long the engine thinks for a hint: the expert's time per move, so a hint is as good as
the strongest opponent's play."""


@dataclass(frozen=True)
class Hint:
    action: Action
    why: dict[str, str]
    """``{"ja", "en"}``: one line on why the move is good (``Game.explain``)."""
    value: float
    """What the asking seat can expect after it, in the game's unit (``MoveValue.value``)."""
    exact: bool

    def message(self) -> dict[str, Any]:
        """What the asking seat is sent (only that seat: see ``SocketConnection``)."""
        return {
            "type": "hint",
            "action": self.action,
            "why": self.why,
            "value": self.value,
            "exact": self.exact,
        }


Hinter = Callable[[str, Any, int, float], Awaitable[Hint]]
"""``(game, state, seat, seconds) -> Hint``: ``seat``'s best move in ``state``, computed
off-loop (the seat is asked for: in a claim window several seats decide at once)."""


def work_out(game_name: str, state: Any, seat: int, seconds: float) -> Hint:
    """Runs in a worker (or a thread): value every move, explain the best."""
    game = get_game(game_name)
    return best_of(game, state, seat, seconds)


def best_of(game: Game[Any], state: Any, seat: int, seconds: float) -> Hint:
    assert analyses(game), f"{game.name} offers no analysis"
    best = analysis_of(game, state, seconds, seat).best
    return Hint(best.action, explanation(game, state, best.action, seat), best.value, best.exact)


async def in_thread(game_name: str, state: Any, seat: int, seconds: float) -> Hint:
    """The hinter of a hub without a worker pool (tests, tools): a thread, still off-loop."""
    return await asyncio.to_thread(work_out, game_name, state, seat, seconds)
