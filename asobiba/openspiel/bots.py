"""The site's computer opponents as OpenSpiel bots, for training against and for matches.

``EngineBot`` asks ``game.make_bot(level, seed)`` for a move exactly as a room does: it hands
over the seat's observation and its legal actions, never the state, so a bot sees what a player
at the table sees and no more.
"""

from __future__ import annotations

from typing import Any

import pyspiel

from asobiba.core.rng import derive
from asobiba.openspiel.game import AsobibaState


class EngineBot(pyspiel.Bot):
    """One of asobiba's levels (``game.levels``, weakest first) playing ``player_id``."""

    def __init__(self, game: Any, player_id: int, level: str, seed: int = 0) -> None:
        super().__init__()
        self.spec = game.spec
        self.player_id = player_id
        self.level = level
        self.bot = self.spec.engine.make_bot(level, derive(seed, f"openspiel/{player_id}"))

    def step(self, state: AsobibaState) -> int:
        if state.current_player() != self.player_id:
            raise ValueError(f"player {self.player_id} is not to move")
        engine = state.now.engine
        ids = state.legal_actions()
        legal = [self.spec.action(engine, self.player_id, action_id) for action_id in ids]
        choice = self.bot.choose(state.view(self.player_id), legal)
        return int(ids[legal.index(choice)])

    def restart_at(self, state: AsobibaState) -> None:
        """Nothing to forget: the engine's bots read only the observation they are given."""

    def inform_action(self, state: AsobibaState, player_id: int, action: int) -> None:
        """Nothing to track, as for ``restart_at``."""
