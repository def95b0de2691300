"""What each game's OpenSpiel adapter must say about its game: the contract ``game.py`` drives.

The adapter in ``game.py`` is the same for every game: it keeps an engine state, asks the engine
(through the game protocol) who moves and what is legal, and builds every view from
``observe(state, seat)``. What differs between games is small and lives in one ``Spec`` per game:
the fixed table of integer action ids, the tensor drawn from an observation, the bounds OpenSpiel
wants up front, and, for games with hidden cards, how to resample a state for one seat.
"""

from __future__ import annotations

import random
from abc import ABC, abstractmethod
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from asobiba.core.game import Action, Game, Observation


@dataclass(frozen=True)
class Setup:
    """One loaded game's fixed set-up: what OpenSpiel's game parameters resolved to."""

    options: tuple[tuple[str, Any], ...]
    """The engine's resolved option rules, sorted."""
    seats: int
    first_seed: int
    """The engine seed of chance outcome 0 (card games; see ``Spec.sessions``)."""
    sessions: int
    """How many engine seeds the opening chance node chooses from (0: no chance node)."""

    @property
    def option_dict(self) -> dict[str, Any]:
        return dict(self.options)


class Spec(ABC):
    """One game's side of the adapter."""

    engine: Game[Any]
    short_name: str
    long_name: str
    hidden: bool
    """Whether the game hides cards (imperfect information, a chance node, resampling)."""
    zero_sum: bool

    @abstractmethod
    def num_actions(self) -> int:
        """The size of the fixed action space: every id any state may ever offer is below it."""

    @abstractmethod
    def action_id(self, state: Any, seat: int, action: Action) -> int:
        """The id of an engine action that is legal for ``seat`` in ``state``."""

    @abstractmethod
    def action(self, state: Any, seat: int, action_id: int) -> Action:
        """The engine action of an id (its inverse on the legal actions)."""

    @abstractmethod
    def action_text(self, state: Any, seat: int, action_id: int) -> str:
        """The id in the game's own notation (``discard L3``, ``pit 2``)."""

    @abstractmethod
    def tensor(self, view: Observation, setup: Setup) -> list[float]:
        """A fixed-size vector of ``view`` (a seat's or the spectator's observation)."""

    @abstractmethod
    def returns(self, outcome: Mapping[str, Any], setup: Setup) -> list[float]:
        """Each seat's return in the game's points once the game is over."""

    @abstractmethod
    def utility_bounds(self, setup: Setup) -> tuple[float, float]:
        """The least and the most any seat's return can be (OpenSpiel checks returns lie
        within them)."""

    @abstractmethod
    def max_game_length(self, setup: Setup) -> int:
        """A proven bound on the decisions of one game (chance outcomes not counted)."""

    def mover(self, state: Any) -> int | None:
        """The one seat OpenSpiel asks now, None once over. Games where several seats may act at
        once (MICHIKAKE's claim window) ask them one at a time in a fixed order."""
        seats = self.engine.to_move(state)
        if not seats:
            return None
        (seat,) = seats
        return int(seat)

    def settle(self, state: Any) -> Any:
        """Play the steps that are nobody's decision (MICHIKAKE's "deal the next deal")."""
        return state

    def sample(self, view: Observation, rng: random.Random, mover: int) -> Any:
        """An engine state consistent with one seat's observation (hidden cards drawn from
        ``rng``) in which ``mover`` is still the seat OpenSpiel asks."""
        raise NotImplementedError(f"{self.short_name} has no hidden cards to resample")

    def extra_parameters(self) -> dict[str, Any]:
        """Game parameters besides the engine's option rules, with their defaults."""
        return {}

    def seats(self, params: Mapping[str, Any]) -> int:
        return self.engine.min_seats
