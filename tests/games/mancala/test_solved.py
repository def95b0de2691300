"""Small Kalah boards solved exactly through our engine must give the known perfect-play margins.

Known values (see Irving, Donkers and Uiterwijk, "Solving Kalah", ICGA Journal 2000): with perfect
play the first player wins Kalah(3 pits, 3 stones) by 2 and Kalah(4, 2) by 6; Kalah(4, 3) by 6
with the standard capture and by 8 when a lone last stone is stored too (our capture "empty").

The solver is a negamax over the engine's own moves (extra turns keep the mover; the game ends
when either side is empty and leftovers go to their owner). A position's value is the mover's best
future store gain over the opponent, which depends only on the pits and the mover, so the
transposition table is keyed by those. Alpha-beta with bounds kept in the table keeps it fast.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import pytest

from asobiba.games import get_game
from asobiba.games.mancala import MancalaState, native

GAME = get_game("mancala")
INF = 10**6
Key = tuple[tuple[int, ...], tuple[int, ...], int]


def opening(pits: int, seeds: int, capture: str) -> MancalaState:
    """The start of Kalah(pits, seeds); 2 stones a pit is built by hand (the site offers 3..6)."""
    start = GAME.new_state({"pits": pits, "capture": capture}, 2, 0)
    return replace(start, board=(*[seeds] * pits, 0, *[seeds] * pits, 0))


def lead(obs: dict[str, Any], seat: int) -> int:
    return int(obs["stores"][seat] - obs["stores"][1 - seat])


def key(obs: dict[str, Any]) -> Key:
    return (tuple(obs["pits"][0]), tuple(obs["pits"][1]), obs["to_move"])


def children(state: MancalaState, seat: int) -> list[tuple[MancalaState, int, bool]]:
    """Each move's result, the mover's gain in store lead, and whether the mover goes again.

    Moves nearest the store come first: they are the extra turns and make alpha-beta cut early.
    """
    before = lead(GAME.observe(state, None), seat)
    result = []
    for action in reversed(GAME.legal_actions(state, seat)):
        child = GAME.apply(state, seat, action)
        obs = GAME.observe(child, None)
        result.append((child, lead(obs, seat) - before, obs["to_move"] == seat))
    return result


def solve(state: MancalaState) -> int:
    """The first player's lead plus the mover's best future gain with perfect play from
    ``state``: the first player's final margin when the first player is to move."""
    table: dict[Key, tuple[int, int]] = {}

    def search(state: MancalaState, alpha: int, beta: int) -> int:
        """The mover's best future gain: exact inside (alpha, beta), else a bound past it.

        The table holds proven bounds ``(low, high)``; a search only tightens them. (It must not
        narrow its own window with them: a value then returned from the narrowed window is a
        bound on the wrong side of the caller's window, which gave Kalah(4, 3) after its first
        player's pit 0 a margin of 8 instead of 6.)
        """
        obs = GAME.observe(state, None)
        seat = obs["to_move"]
        low, high = table.get(key(obs), (-INF, INF))
        if low >= beta or low == high:
            return low
        if high <= alpha:
            return high
        window_low = alpha
        best = -INF
        for child, gain, again in children(state, seat):
            if GAME.outcome(child) is not None:
                value = gain
            elif again:
                value = gain + search(child, alpha - gain, beta - gain)
            else:
                value = gain - search(child, gain - beta, gain - alpha)
            best = max(best, value)
            alpha = max(alpha, value)
            if alpha >= beta:
                break
        if best <= window_low:
            high = min(high, best)
        elif best >= beta:
            low = max(low, best)
        else:
            low = high = best
        table[key(obs)] = (low, high)
        return best

    return lead(GAME.observe(state, None), 0) + search(state, -INF, INF)


def plain_negamax(state: MancalaState) -> int:
    """The same value without pruning: a check on the solver itself, for tiny boards.

    Like ``solve``, it is the first player's lead plus the mover's best future gain: the first
    player's final margin when the first player is to move."""
    memo: dict[Key, int] = {}

    def value(state: MancalaState) -> int:
        obs = GAME.observe(state, None)
        if key(obs) not in memo:
            best = -INF
            for child, gain, again in children(state, obs["to_move"]):
                if GAME.outcome(child) is not None:
                    best = max(best, gain)
                else:
                    best = max(best, gain + value(child) if again else gain - value(child))
            memo[key(obs)] = best
        return memo[key(obs)]

    return lead(GAME.observe(state, None), 0) + value(state)


@pytest.mark.parametrize(
    ("pits", "seeds", "capture", "margin"),
    [
        (3, 3, "standard", 2),
        (4, 2, "standard", 6),
        (4, 3, "standard", 6),
        (4, 3, "empty", 8),
    ],
    ids=["kalah-3-3", "kalah-4-2", "kalah-4-3", "kalah-4-3-capture-empty"],
)
def test_solved_kalah_first_player_margin_with_perfect_play(
    pits: int, seeds: int, capture: str, margin: int
) -> None:
    assert solve(opening(pits, seeds, capture)) == margin


@pytest.mark.parametrize("capture", ["standard", "empty", "none"])
def test_solver_pruning_agrees_with_a_plain_negamax_on_kalah_3_3(capture: str) -> None:
    state = opening(3, 3, capture)
    assert solve(state) == plain_negamax(state)


def test_the_solver_is_right_after_the_first_move_of_kalah_4_3() -> None:
    """Not an opening: seat 0 played pit 0 and seat 1, to move, wins by 6 (the plain negamax
    says so in 70 s, too slow to run here; the C solver agrees below). The solver once gave 8."""
    state = GAME.apply(opening(4, 3, "standard"), 0, {"pit": 0})
    assert solve(state) - lead(GAME.observe(state, None), 0) == 6
    if native.KERNEL is not None:
        solved = native.solve(state.rules, list(state.board), 1)
        assert solved is not None and max(solved.values()) == 6


@pytest.mark.skipif(native.KERNEL is None, reason="the C kernel was not built")
@pytest.mark.parametrize(
    ("pits", "seeds", "capture", "margin"),
    [(3, 3, "standard", 2), (4, 2, "standard", 6), (4, 3, "standard", 6), (4, 3, "empty", 8)],
    ids=["kalah-3-3", "kalah-4-2", "kalah-4-3", "kalah-4-3-capture-empty"],
)
def test_the_c_solver_gives_the_known_margins(
    pits: int, seeds: int, capture: str, margin: int
) -> None:
    state = opening(pits, seeds, capture)
    solved = native.solve(state.rules, list(state.board), 0)
    assert solved is not None and max(solved.values()) == margin
