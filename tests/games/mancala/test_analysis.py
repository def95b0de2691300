"""The engine's analysis (every legal move valued in stones) against the exact solver of
test_solved on boards small enough to solve: each move's value is the margin the solver gives
the position after it, from the mover's side."""

from __future__ import annotations

import random
from typing import Any

import pytest

from asobiba.core.errors import IllegalAction
from asobiba.core.game import analyses
from asobiba.games import get_game
from tests.games.mancala.test_solved import lead, opening, plain_negamax

GAME: Any = get_game("mancala")  # with the optional analyse/explain


def solved_margin(state: Any, seat: int, action: dict[str, Any]) -> int:
    """``seat``'s final margin with perfect play by both after ``action``, by the solver."""
    child = GAME.apply(state, seat, action)
    outcome = GAME.outcome(child)
    if outcome is not None:
        return int(outcome["scores"][seat] - outcome["scores"][1 - seat])
    obs = GAME.observe(child, None)
    # plain_negamax() is the first player's lead plus the mover's best future gain
    gain = plain_negamax(child) - lead(obs, 0)
    mover = obs["to_move"]
    return lead(obs, mover) + gain if mover == seat else -(lead(obs, mover) + gain)


def test_mancala_offers_analysis() -> None:
    assert analyses(GAME)


@pytest.mark.parametrize("seed", range(6))
def test_every_move_value_is_the_solved_margin_after_it(seed: int) -> None:
    rng = random.Random(seed)
    state = opening(3, 3, "standard")  # small enough for the plain negamax
    for _ in range(rng.randrange(0, 6)):  # a position reached by random play
        if GAME.outcome(state) is not None:
            break
        (seat,) = GAME.to_move(state)
        state = GAME.apply(state, seat, rng.choice(GAME.legal_actions(state, seat)))
    if GAME.outcome(state) is not None:
        return
    (seat,) = GAME.to_move(state)
    analysis = GAME.analyse(state, 10.0)
    assert analysis.seat == seat
    assert sorted(m.action["pit"] for m in analysis.moves) == sorted(
        a["pit"] for a in GAME.legal_actions(state, seat)
    )
    for move in analysis.moves:
        assert move.exact
        assert move.value == solved_margin(state, seat, move.action), move
    values = [m.value for m in analysis.moves]
    assert values == sorted(values, reverse=True)


def test_the_opening_of_kalah_4_3_is_won_by_6() -> None:
    analysis = GAME.analyse(opening(4, 3, "standard"), 10.0)
    assert analysis.best.value == 6 and analysis.best.exact
    assert GAME.explain(opening(4, 3, "standard"), analysis.best.action)["en"]


def test_a_finished_game_and_an_illegal_move_are_refused() -> None:
    state = opening(4, 3, "standard")
    with pytest.raises(IllegalAction):
        GAME.explain(state, {"pit": 9})
    over = GAME.apply(state, 0, {"pit": 1})
    while GAME.outcome(over) is None:
        (seat,) = GAME.to_move(over)
        over = GAME.apply(over, seat, GAME.legal_actions(over, seat)[0])
    with pytest.raises(IllegalAction):
        GAME.analyse(over, 1.0)
