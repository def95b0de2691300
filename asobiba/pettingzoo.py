"""asobiba's OpenSpiel games as PettingZoo AEC environments.

``env("asobiba_momojan")`` plays one game of ``asobiba.openspiel``: agents ``player_0``...,
observations ``{"observation": the OpenSpiel observation tensor, "action_mask": the legal ids}``
(the mask is all zeros but for the agent to act), actions the games' fixed integer ids, rewards
the game's returns in points when it ends (nothing before: the games score only at the end).
The opening deal (the chance node) is drawn from the environment's own generator, seeded by
``reset(seed=...)``.

Why our own wrapper and not Shimmy's OpenSpiel one: it would add a package for what is a few
lines over ``pyspiel`` here, and this one knows our games' chance node and observation tensors.
"""

from __future__ import annotations

from typing import Any, ClassVar

import numpy as np
import pyspiel
from gymnasium import spaces
from gymnasium.utils import seeding
from pettingzoo import AECEnv

import asobiba.openspiel  # noqa: F401  (registers the games with pyspiel)


def env(game: str = "asobiba_momojan", **params: Any) -> AsobibaEnv:
    """The environment of one of ``asobiba.openspiel.GAMES`` with OpenSpiel game parameters
    (``players=3`` for MICHIKAKE, ``dealerships=1``...)."""
    return AsobibaEnv(game, params)


class AsobibaEnv(AECEnv):
    """An AEC environment over one OpenSpiel game of ours."""

    metadata: ClassVar[dict[str, Any]] = {
        "name": "asobiba_v0",
        "render_modes": ["ansi"],
        "is_parallelizable": False,
    }

    def __init__(
        self, game: str, params: dict[str, Any] | None = None, render_mode: str | None = None
    ) -> None:
        super().__init__()
        self.game = pyspiel.load_game(game, params or {})
        self.render_mode = render_mode
        self.possible_agents = [f"player_{p}" for p in range(self.game.num_players())]
        size = self.game.observation_tensor_size()
        actions = self.game.num_distinct_actions()
        self._observation_space = spaces.Dict(
            {
                "observation": spaces.Box(-np.inf, np.inf, (size,), np.float32),
                "action_mask": spaces.Box(0, 1, (actions,), np.int8),
            }
        )
        self._action_space = spaces.Discrete(actions)
        self._rng, _ = seeding.np_random(None)
        self.state: Any = None

    def observation_space(self, agent: str) -> spaces.Space[Any]:
        return self._observation_space

    def action_space(self, agent: str) -> spaces.Space[Any]:
        return self._action_space

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        if seed is not None:
            self._rng, _ = seeding.np_random(seed)
        self.state = self.game.new_initial_state()
        self._deal()
        self.agents = list(self.possible_agents)
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos: dict[str, dict[str, Any]] = {agent: {} for agent in self.agents}
        self._select()

    def observe(self, agent: str) -> dict[str, np.ndarray[Any, Any]]:
        player = self.possible_agents.index(agent)
        mask = np.zeros(self.game.num_distinct_actions(), np.int8)
        if not self.state.is_terminal() and self.state.current_player() == player:
            mask[self.state.legal_actions()] = 1
        tensor = np.asarray(self.state.observation_tensor(player), np.float32)
        return {"observation": tensor, "action_mask": mask}

    def step(self, action: int | None) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        self.state.apply_action(int(action))  # type: ignore[arg-type]
        self._deal()
        self._cumulative_rewards[agent] = 0.0
        if self.state.is_terminal():
            returns = self.state.returns()
            self.rewards = {a: float(returns[p]) for p, a in enumerate(self.possible_agents)}
            self.terminations = dict.fromkeys(self.agents, True)
        self._accumulate_rewards()
        self._select()

    def render(self) -> str | None:
        """The spectator's view (no hidden card) as text; None without ``render_mode="ansi"``."""
        if self.render_mode != "ansi" or self.state is None:
            return None
        view = self.state.view(None)
        return "before the deal" if view is None else str(view)

    def close(self) -> None:
        self.state = None

    def _deal(self) -> None:
        """Play the chance node (the seed of the deals) from the environment's generator."""
        while self.state.is_chance_node():
            outcomes = self.state.chance_outcomes()
            self.state.apply_action(outcomes[int(self._rng.integers(len(outcomes)))][0])

    def _select(self) -> None:
        if self.state.is_terminal():
            if self.agents:
                self.agent_selection = self.agents[0]
            return
        self.agent_selection = self.possible_agents[self.state.current_player()]
