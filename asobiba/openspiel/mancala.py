"""``asobiba_mancala``: Mancala (Kalah and Basic) for OpenSpiel.

Action ids: ``{"pit": i}`` is id ``i``, the pit in the mover's own sowing order (0 farthest from
its store), as the engine numbers it: ids 0-5 on the real board (0 to ``pits - 1``). The game
has no chance and no hidden information. Returns are the final margin in stones as the engine's
outcome gives it (Kalah: stores after leftovers; Basic: the stones the loser still held), plus
for the winner and minus for the loser.

Observation tensor, from the viewer's side: its pits (sowing order) and store, then the
opponent's pits and store, then whether the viewer or the opponent is to move.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from asobiba.core.game import Action, Observation
from asobiba.games import get_game
from asobiba.openspiel.spec import Setup, Spec

MAX_GAME_LENGTH = 1000
"""OpenSpiel's own bound for its ``mancala`` (the same Kalah): no random game comes near it."""


class MancalaSpec(Spec):
    engine = get_game("mancala")
    short_name = "asobiba_mancala"
    long_name = "asobiba Mancala (Kalah and Basic)"
    hidden = False
    zero_sum = True

    def num_actions(self) -> int:
        (pits,) = (option for option in self.engine.options_spec() if option.key == "pits")
        return int(max(pits.values))

    def action_id(self, state: Any, seat: int, action: Action) -> int:
        return int(action["pit"])

    def action(self, state: Any, seat: int, action_id: int) -> Action:
        return {"pit": action_id}

    def action_text(self, state: Any, seat: int, action_id: int) -> str:
        return f"pit {action_id}"

    def tensor(self, view: Observation, setup: Setup) -> list[float]:
        me = 0 if view["seat"] is None else view["seat"]
        pits, stores = view["pits"], view["stores"]
        mover = view["to_move"]
        return [
            *map(float, pits[me]),
            float(stores[me]),
            *map(float, pits[1 - me]),
            float(stores[1 - me]),
            float(mover == me),
            float(mover == 1 - me),
        ]

    def returns(self, outcome: Mapping[str, Any], setup: Setup) -> list[float]:
        margin = float(outcome["margin"])
        winners = outcome["winners"]
        if len(winners) != 1:
            return [0.0, 0.0]
        return [margin if seat == winners[0] else -margin for seat in (0, 1)]

    def utility_bounds(self, setup: Setup) -> tuple[float, float]:
        options = setup.option_dict
        stones = 2 * options["pits"] * options["seeds"]
        return -float(stones), float(stones)

    def max_game_length(self, setup: Setup) -> int:
        return MAX_GAME_LENGTH
