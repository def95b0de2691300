"""The sowing kernel: plain lists of ints, shared by the rules, the search and the benchmarks.

Board layout for ``n`` pits a side (``2n + 2`` cells): player 0's pits are indexes ``0..n-1`` in
sowing order, their store is ``n``; player 1's pits are ``n+1..2n``, their store ``2n+1``. Sowing
moves to the next index (counter-clockwise on the real board). The pit opposite index ``k`` is
``2n - k``.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

KALAH = "kalah"
BASIC = "basic"


@dataclass(frozen=True, slots=True)
class Rules:
    """One resolved rule set."""

    variant: str = KALAH
    seeds: int = 4
    capture: str = "standard"
    """"standard", "empty" (last stone alone is stored when the opposite pit is empty) or "none"."""
    count_leftovers: bool = True
    pits: int = 6

    @classmethod
    def from_options(cls, resolved: dict[str, Any]) -> Rules:
        basic = resolved["variant"] == BASIC
        return cls(
            variant=resolved["variant"],
            seeds=resolved["seeds"],
            capture="none" if basic else resolved["capture"],
            count_leftovers=False if basic else resolved["count_leftovers"],
            pits=resolved["pits"],
        )

    @property
    def basic(self) -> bool:
        return self.variant == BASIC


def store(n: int, player: int) -> int:
    return player * (n + 1) + n


def pit_index(n: int, player: int, pit: int) -> int:
    return player * (n + 1) + pit


def initial_board(rules: Rules) -> list[int]:
    n = rules.pits
    board = [rules.seeds] * (2 * n + 2)
    board[n] = board[2 * n + 1] = 0
    return board


def side_total(board: list[int], n: int, player: int) -> int:
    start = player * (n + 1)
    return sum(board[start : start + n])


def sow(board: list[int], rules: Rules, player: int, pit: int) -> tuple[int, bool, int]:
    """Play ``pit`` (0..n-1 in the mover's sowing order) on ``board`` in place.

    Returns ``(last, extra_turn, captured)``: the index the last stone fell in, whether the mover
    goes again, and how many stones a capture moved to the mover's store (0 when none; a lone
    last stone stored under the "empty" capture rule counts 1).

    The bots' search calls this millions of times, so it is written for CPython's speed: local
    variables, a plain ``range`` loop for the usual move that neither wraps nor meets a store it
    skips, and the rule attributes read only when the move needs them.
    """
    n = rules.pits
    base = player * (n + 1)
    idx = base + pit
    stones = board[idx]
    board[idx] = 0
    end = idx + stones
    if end <= 2 * n:
        for i in range(idx + 1, end + 1):
            board[i] += 1
        idx = end
    else:
        size = 2 * n + 2
        skip = -1 if rules.variant == BASIC else 2 * n + 1 - base
        while stones:
            idx += 1
            if idx == size:
                idx = 0
            if idx != skip:
                board[idx] += 1
                stones -= 1
    own_store = base + n
    if idx == own_store:
        return idx, True, 0
    if idx == n or idx == 2 * n + 1:
        return idx, rules.variant == BASIC, 0
    if idx < base or idx > own_store or board[idx] != 1:
        return idx, False, 0
    capture = rules.capture
    if capture == "none":
        return idx, False, 0
    opposite = 2 * n - idx
    taken = board[opposite]
    if taken:
        board[opposite] = 0
        board[idx] = 0
        board[own_store] += taken + 1
        return idx, False, taken + 1
    if capture == "empty":
        board[idx] = 0
        board[own_store] += 1
        return idx, False, 1
    return idx, False, 0


def finish(board: list[int], rules: Rules) -> bool:
    """End the game if either side is empty; sweep leftovers into stores when they count."""
    n = rules.pits
    if any(board[:n]) and any(board[n + 1 : 2 * n + 1]):
        return False
    if rules.count_leftovers:
        for start in (0, n + 1):
            board[start + n] += sum(board[start : start + n])
            board[start : start + n] = [0] * n
    return True
